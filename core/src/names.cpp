// Stable names of the core's enums: they appear in FactPack text/JSON and cross to JS.
#include "athena/error.h"
#include "athena/factpack.h"
#include "athena/snapshot.h"

namespace athena {

const char* error_code_name(ErrorCode code) {
  switch (code) {
    case ErrorCode::kOk:
      return "ok";
    case ErrorCode::kMalformedJson:
      return "malformed_json";
    case ErrorCode::kMalformedCapture:
      return "malformed_capture";
    case ErrorCode::kInputTooLarge:
      return "input_too_large";
    case ErrorCode::kMalformedEvent:
      return "malformed_event";
    case ErrorCode::kWrongCallOrder:
      return "wrong_call_order";
    case ErrorCode::kUnknownPage:
      return "unknown_page";
    case ErrorCode::kMalformedRef:
      return "malformed_ref";
    case ErrorCode::kContextMismatch:
      return "context_mismatch";
    case ErrorCode::kPageMismatch:
      return "page_mismatch";
    case ErrorCode::kUnknownRef:
      return "unknown_ref";
    case ErrorCode::kRefRemoved:
      return "ref_removed";
    case ErrorCode::kDocumentReplaced:
      return "document_replaced";
    case ErrorCode::kIdentityChanged:
      return "identity_changed";
    case ErrorCode::kInvalidArgument:
      return "invalid_argument";
    case ErrorCode::kNoSuchRegion:
      return "no_such_region";
    case ErrorCode::kInternal:
      return "internal";
  }
  return "internal";
}

const char* region_name(Region region) {
  switch (region) {
    case Region::kPage:
      return "page";
    case Region::kHeader:
      return "header";
    case Region::kNav:
      return "nav";
    case Region::kMain:
      return "main";
    case Region::kAside:
      return "aside";
    case Region::kFooter:
      return "footer";
    case Region::kDialog:
      return "dialog";
    case Region::kSearch:
      return "search";
    case Region::kForm:
      return "form";
    case Region::kRegion:
      return "region";
  }
  return "page";
}

const char* category_name(Category category) {
  switch (category) {
    case Category::kInteractive:
      return "interactive";
    case Category::kHeading:
      return "heading";
    case Category::kAlert:
      return "alert";
    case Category::kStatus:
      return "status";
    case Category::kValidation:
      return "validation";
    case Category::kText:
      return "text";
  }
  return "interactive";
}

const char* overlay_type_name(OverlayType type) {
  switch (type) {
    case OverlayType::kModal:
      return "modal";
    case OverlayType::kDialog:
      return "dialog";
    case OverlayType::kDropdown:
      return "dropdown";
    case OverlayType::kTooltip:
      return "tooltip";
    case OverlayType::kUnknown:
      return "overlay";
  }
  return "overlay";
}

const char* pack_type_name(PackType type) {
  switch (type) {
    case PackType::kFull:
      return "full";
    case PackType::kDelta:
      return "delta";
    case PackType::kNoChange:
      return "no_change";
    case PackType::kOverlayOpened:
      return "overlay_opened";
    case PackType::kOverlayClosed:
      return "overlay_closed";
  }
  return "full";
}

bool is_announcement(const Element& e) {
  const Category c = e.category;
  return (c == Category::kStatus || c == Category::kAlert || c == Category::kValidation) &&
         (e.role == "status" || e.role == "alert");
}

bool NodeState::operator==(const NodeState& o) const {
  return disabled == o.disabled && focused == o.focused && required == o.required && invalid == o.invalid &&
         selected == o.selected && readonly == o.readonly && current == o.current && checked == o.checked &&
         expanded == o.expanded && pressed == o.pressed && sort == o.sort && value == o.value &&
         value_redacted == o.value_redacted;
}

}  // namespace athena
