// The core's page model: what the snapshot compiler produces from CDP, and what the
// delta engine and renderer consume. Plain data; no behaviour beyond small helpers.
//
// Identity: (frame_id, loader_id, backend_node_id) is the scoped identity (docs/design.md, "Identity").
// What the agent sees of a node (frame, region, role, name, href) is its identity for the agent
// (docs/design.md, "Two identities"; engine/view.h ident_hash).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace athena {

/// Landmark region an element lives in (innermost landmark wins; kPage = none).
enum class Region : std::uint8_t { kPage = 0, kHeader, kNav, kMain, kAside, kFooter, kDialog, kSearch, kForm, kRegion };
/// "page", "header", "nav", "main", "aside", "footer", "dialog", "search", "form", "region" (a named <section> or
/// role=region).
const char* region_name(Region region);

/// What an element is for the agent. Interactive elements can be acted on; the others are
/// the non-interactive things an agent must notice (docs/design.md, "What a FactPack contains").
enum class Category : std::uint8_t {
  kInteractive = 0,  // button, link, textbox, checkbox, combobox, option, menuitem, tab, ...
  kHeading,          // h1-h6, role=heading
  kAlert,            // role=alert, aria-live=assertive
  kStatus,           // role=status/log/marquee/timer, aria-live=polite, toasts
  kValidation,       // form validation messages (aria-errormessage / aria-invalid targets' messages)
  kText,             // a block of text the agent reads: a paragraph, list item, table row, caption, title
};
inline constexpr std::size_t kCategoryCount = 6;
const char* category_name(Category category);

/// A tri-state ARIA flag: absent, false, true, or (for checked/pressed) mixed.
enum class Tri : std::uint8_t { kUnset = 0, kFalse, kTrue, kMixed };
/// aria-sort of a column or row header: absent (or "none"), ascending, descending, other.
enum class Sort : std::uint8_t { kUnset = 0, kAscending, kDescending, kOther };

struct NodeState {
  bool disabled = false;
  bool focused = false;
  bool required = false;
  bool invalid = false;
  bool selected = false;
  bool readonly = false;
  /// aria-current: the page, step, date or item of a set that is the current one (a nav's link to
  /// this page, a wizard's step, a pager's page).
  bool current = false;
  Tri checked = Tri::kUnset;
  Tri expanded = Tri::kUnset;
  Tri pressed = Tri::kUnset;
  Sort sort = Sort::kUnset;
  /// Current value of a text field / select / slider. Secrets (password, cc-*, one-time-code)
  /// are never stored: value stays empty and value_redacted is set.
  std::string value;
  bool value_redacted = false;

  bool operator==(const NodeState& o) const;
  bool operator!=(const NodeState& o) const { return !(*this == o); }
};

struct Rect {
  double x = 0, y = 0, width = 0, height = 0;
};

/// One element the agent can see: interactive, or a non-interactive thing that matters.
struct ReadableNode {
  // Scoped identity (docs/design.md, "Identity"). loader_id is never "unknown": nodes of unknown frames are dropped.
  std::int64_t backend_node_id = 0;
  std::string frame_id;
  std::string loader_id;

  std::string role;         // ARIA role as Chrome's accessibility tree names it ("button", "link", "textbox", ...)
  std::string name;         // accessible name, whitespace-collapsed, cut at limits::kMaxNameChars
  bool cut = false;         // the name is the start of longer words (its limit kept the rest out; read shows them)
  std::string description;  // placeholder / aria-description when it helps (may be empty)
  Category category = Category::kInteractive;
  NodeState state;
  std::string href;        // for links: the href attribute as written
  std::string input_type;  // for <input>: its type ("text", "email", "password", ...)
  int level = 0;           // heading level (1-6), also of the control a heading stands for (<h3><button>), 0 otherwise

  Rect bbox;  // CSS px, relative to the main frame's viewport (iframe offsets applied)
  int z_index = 0;
  bool visible = true;  // rendered and not visibility:hidden (invisible nodes are usually dropped)
  bool in_viewport = false;

  Region region = Region::kPage;
  std::string region_label;  // aria-label of the landmark, if any ("Primary", "Breadcrumbs")
  std::string heading;       // text of the nearest heading before this element (context for the agent)
  std::string shadow_path;   // host tag chain when inside shadow DOM ("sl-dialog/sl-button"), else empty
  int overlay = -1;          // index into Snapshot::overlays of the innermost overlay holding it, -1 = base page
  /// Outline depth: how many lists, tables, rows, trees, menus, fieldsets and <details> hold it
  /// (capped at limits::kMaxOutlineDepth). Rendered as indentation; trimming collapses the deepest first.
  int depth = 0;
};

enum class OverlayType : std::uint8_t { kModal = 0, kDialog, kDropdown, kTooltip, kUnknown };
const char* overlay_type_name(OverlayType type);

/// An overlay detected by the deterministic rules of docs/design.md ("The page's state").
struct Overlay {
  std::int64_t backend_node_id = 0;  // root element
  std::string frame_id;
  std::string loader_id;
  OverlayType type = OverlayType::kUnknown;
  int rule = 0;  // which rule matched (1..4)
  double confidence = 0;
  int z_index = 0;
  std::string name;  // accessible name of the dialog/menu, if any
  int parent = -1;   // index of the enclosing overlay (nested), -1 if none
};

struct FrameInfo {
  std::string frame_id;
  std::string loader_id;
  std::string parent_id;  // empty for the main frame
  std::string url;
  bool out_of_process = false;  // captured through a Target.setAutoAttach child session
};

struct Snapshot {
  std::string url;  // main frame URL
  std::string title;
  std::vector<FrameInfo> frames;    // frames[0] is the main frame
  std::vector<ReadableNode> nodes;  // flat-tree document order, iframes inlined where they appear
  std::vector<Overlay> overlays;    // sorted by stacking order (z-index, then document order)
  Rect viewport;                    // scroll position in x/y, size in width/height
  bool has_unknown_frames = false;  // some nodes were dropped: their frame was not in the frame tree
  std::vector<std::string> warnings;
};

/// xxHash3 of everything an agent can observe in the snapshot (refs excluded). Equal hashes
/// mean "no change" for the version manager.
std::uint64_t content_hash(const Snapshot& snapshot);

/// xxHash3 of what an agent sees of one node (role, name, state, href, level, region...):
/// a change of this hash is a "modified".
std::uint64_t node_content_hash(const ReadableNode& node);

}  // namespace athena
