// A FactPack as data: what the engine decides, before any rendering.
// Two renderers (render.h) turn the same FactPack into agent text or JSON.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "athena/snapshot.h"

namespace athena {

enum class PackType : std::uint8_t { kFull = 0, kDelta, kNoChange, kOverlayOpened, kOverlayClosed };
/// "full", "delta", "no_change", "overlay_opened", "overlay_closed".
const char* pack_type_name(PackType type);

/// One element as the agent sees it, addressed by its ref.
struct Element {
  std::string ref;  // e{n}
  int frame = 0;    // its frame, f{frame} (0: the page's own document)
  std::string role;
  std::string name;
  /// The name is the start of longer words: the compiler's bound on a name or a text block kept the
  /// rest out. Rendered ` cut`, like a line trimming shortened; `read` shows the whole text.
  bool cut = false;
  std::string description;
  Category category = Category::kInteractive;
  NodeState state;
  std::string href;
  int level = 0;  // a heading's level, and of the control a heading stands for (ReadableNode::level)
  Region region = Region::kPage;
  std::string region_label;
  int overlay = -1;  // -1 = base page, else depth index in the overlay stack
  bool in_viewport = false;
  /// Outline depth (ReadableNode::depth): where it sits, shown as indentation. Part of what a
  /// delta compares: a line that moves in the outline is modified (`depth 1 -> 2`).
  int depth = 0;
  /// In a delta's added list: the ref of the line it follows in its region and frame whose place
  /// the agent knows (empty: it opens its region, or it is an announcement, whose place says
  /// nothing). Consecutive additions share their first one's. Presentation only.
  std::string after;
};

/// A status or alert line: an announcement, placed by its region alone (no `after`, and no line
/// is placed after it). Its role says so to the agent; a live region of another role is placed
/// like any line.
bool is_announcement(const Element& e);

/// A ref the agent must stop using, and why.
struct Invalidation {
  std::string ref;
  /// "removed", "navigated" (its document was replaced), "detached" (frame gone),
  /// "overlay_closed" (its overlay closed).
  std::string cause;
  std::string role;  // last known role and name, so the agent knows what vanished
  std::string name;
  int frame = 0;  // its frame (a navigated or detached frame's refs go together)
};

struct Modified {
  std::string ref;
  Element before;
  Element after;
  /// It moved among the lines of its region that stayed (a sorted table, a reordered list):
  /// it now follows `moved_after` ("" = it is its region's first line).
  bool moved = false;
  std::string moved_after;
};

/// A landmark region of a full snapshot or of an overlay's content.
struct RegionBlock {
  Region region = Region::kPage;
  std::string label;
  std::string frame_ref;          // "f0" main frame, "f2" an iframe (frame index in refs)
  std::vector<Element> elements;  // all of them; trimming is the renderer's job
  /// Cross-baseline dedup (docs/design.md, "Trimming and dedup across baselines"): the ordered identities (ident_hash)
  /// equal the previous baseline's (or, with seen_in, those the agent held on a page the tab came back to); elements
  /// are still listed here (their refs stay valid) but the text renders one line.
  bool unchanged = false;
  /// With `unchanged`: the version at which the agent held these lines when it is not the previous
  /// baseline but a page the tab came back to (0: the previous baseline).
  std::uint64_t seen_in = 0;
  /// In a full taken while overlays are open, or an overlay_opened that opened several at once:
  /// the overlay this region is inside (1 = the first over the page, 2 = one opened over it, ...;
  /// 0 = the page itself) and its type. An overlay_opened of one says it in its tag (0 here).
  int overlay_depth = 0;
  OverlayType overlay_type = OverlayType::kUnknown;
  /// In a delta: the region's whole content now, in place of what the agent held there (a route
  /// change, a filter, a list re-rendered: most of the region changed). Every ref the agent held
  /// in this region and not listed here is gone; no `removed` line says it again.
  bool replaced = false;
};

struct OverlayInfo {
  OverlayType type = OverlayType::kUnknown;
  std::string name;
  int depth = 0;  // 1 = first overlay over the page, 2 = nested, ...
  /// How many overlays closed: in an overlay_closed, more than 1 when one action closed nested
  /// ones; in an overlay_opened, the ones it replaced (0 when it opened over what was open).
  int closed = 0;
};

struct FactPack {
  PackType type = PackType::kFull;
  std::uint64_t version = 0;
  /// Why a full snapshot was sent ("first", "navigation", "unreliable_delta", "unknown_frames",
  /// "stale_version", "requested"), or empty.
  std::string reason;
  std::string url;
  std::string title;
  /// A full the agent did not ask for (unreliable_delta, stale_version, unknown_frames) of the very
  /// document it holds, at the address and title the last pack gave it: the text does not say them
  /// again (the JSON still carries them).
  bool address_held = false;

  std::vector<Invalidation> invalidated;  // always first in the text

  // full, overlay_opened: content grouped by region; delta: the regions it replaced whole.
  std::vector<RegionBlock> regions;

  // delta, and overlay_closed (changes of the base page while the overlay was open).
  std::vector<Element> added;
  std::vector<Modified> modified;

  // overlay_opened / overlay_closed.
  OverlayInfo overlay;

  std::vector<std::string> warnings;  // e.g. "page still changing after 2000 ms"

  /// When the agent acted on a stale-but-known version: what changed before the action
  /// (at most one element; a vector because FactPack is incomplete here).
  std::vector<FactPack> before_action;
};

}  // namespace athena
