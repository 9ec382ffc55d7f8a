// The capture (docs/capture-format.md) read into flat, validated arrays.
//
// This is the only place that touches the capture's encoding (JSON text, or the binary form):
// every index, type and size is checked here once (capture_rules.h), so the rest of the compiler
// can index freely. Strings are views into the parsed JsonDoc and its source text, or into the
// binary buffer, which must outlive the RawCapture.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "athena/error.h"
#include "athena/snapshot.h"
#include "compiler/json_doc.h"

namespace athena::compiler {

/// Computed styles the compiler reads, found by name in the capture's "styles" list.
/// Only these: every style asked for costs Chrome a value per layout object, and chrome.debugger
/// ~0.6 µs per value (bench/RESULTS.md, "Capture of a 2023-element page").
/// `content` is read only on ::before/::after (its alternative text and counters: css_content.h).
enum StyleSlot : std::uint8_t {
  kDisplay = 0,
  kVisibility,
  kOpacity,
  kZIndex,
  kPosition,
  kOverflow,
  kContent,
  kStyleCount
};

/// One LayoutTreeSnapshot entry: the node's box and the styles above ("" when not captured).
struct RawLayout {
  Rect bounds;                             // document coordinates of its own document
  double client_left = 0, client_top = 0;  // border widths (clientRects x/y), for iframe content offsets
  std::array<std::string_view, kStyleCount> style{};
  std::string_view text;  // layout text of a text node (rendered text)
};

/// Node flags (bits of RawDocument::flags).
enum NodeFlag : std::uint16_t {
  kChecked = 1 << 0,         // inputChecked
  kOptionSelected = 1 << 1,  // optionSelected
  kClickable = 1 << 2,       // isClickable
  kPseudo = 1 << 3,          // pseudoType set (::before, ::marker, ...)
  kInShadow = 1 << 4,        // shadowRootType open/closed: the node lives in an author shadow tree
  kInUaShadow = 1 << 5,      // shadowRootType user-agent
  kHasInputValue = 1 << 6,
  kHasTextValue = 1 << 7,
  kGeneratedAlt = 1 << 8,  // a pseudo element whose `generated` is its CSS alternative text
};

struct Attr {
  std::string_view name, value;
};

/// One DOMSnapshot document (main document, same-process iframe, or an OOPIF's document).
struct RawDocument {
  int session = 0;  // 0 = the page's own session, k = oopifs[k-1]
  std::string_view frame_id, url, title;
  double scroll_x = 0, scroll_y = 0;

  std::vector<int> parent;             // parentIndex (always an earlier node, or -1)
  std::vector<std::uint8_t> type;      // nodeType
  std::vector<std::string_view> name;  // nodeName as CDP gives it ("DIV", "#text", "sl-button")
  std::vector<std::string_view> value;
  std::vector<std::int64_t> backend;
  std::vector<std::uint32_t> attr_begin;  // size n+1: attributes of node i are attrs[attr_begin[i], attr_begin[i+1])
  std::vector<Attr> attrs;
  std::vector<std::uint16_t> flags;
  std::vector<std::string_view> input_value, text_value;
  std::vector<std::string_view> pseudo;     // pseudoType ("before", "after", "marker", ...)
  std::vector<std::string_view> generated;  // a pseudo element's generated text (CSS content)
  // Generated text made of several layout objects ("Step " counter(step) ": ") joined into one,
  // or CSS alternative text; `generated` views these. Pointers: the strings stay put when the documents are moved.
  std::vector<std::unique_ptr<std::string>> joined;
  std::vector<int> content_doc;  // index into RawCapture::docs of the iframe's document, -1 if none
  std::vector<int> layout;       // index into layouts, -1 when the node has no layout box
  std::vector<RawLayout> layouts;

  std::size_t size() const { return parent.size(); }
};

struct RawFrame {
  std::string_view id, loader_id, parent_id, url;
  bool out_of_process = false;
};

/// An out-of-process iframe session: its documents and where its <iframe> lives.
struct RawSession {
  std::string_view frame_id;         // the OOPIF's frame id (empty for the page's own session)
  std::int64_t owner_backend = -1;   // ownerBackendNodeId (DOM.getFrameOwner) when recorded
  int first_doc = 0, doc_count = 0;  // its documents in RawCapture::docs
};

struct RawCapture {
  std::vector<RawDocument> docs;  // session 0's documents first, then each OOPIF's
  std::vector<RawFrame> frames;   // frames[0] is the main frame
  std::vector<RawSession> sessions;
  Rect viewport;
  bool has_viewport = false;
};

/// The capture format version this core reads (JSON "v", and the binary form's header).
inline constexpr long long kCaptureVersion = 1;

/// Parses and validates a capture. Errors name the offending field ("snapshot.documents[0]
/// .nodes.parentIndex[7]: ..."). `root` must outlive the result.
Result<RawCapture> read_capture(const JsonValue& root);

/// The first bytes of a capture in binary form (docs/capture-format.md). JSON text never starts so.
inline constexpr std::string_view kBinaryCaptureMagic = "ATHB";

inline bool is_binary_capture(std::string_view bytes) {
  return bytes.substr(0, kBinaryCaptureMagic.size()) == kBinaryCaptureMagic;
}

/// Reads and validates a capture in binary form: the same rules as read_capture() (same errors
/// for the same defects), plus the form's own ("capture (binary form): truncated at byte N ...").
/// `bytes` must outlive the result.
Result<RawCapture> read_capture_binary(std::string_view bytes);

/// Parses the JSON text (size-checked first) without throwing; kMalformedJson says where it broke.
Result<JsonDoc> parse_json(std::string_view text);

}  // namespace athena::compiler
