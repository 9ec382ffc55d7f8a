#include "snapshot_gen.h"

#include <algorithm>
#include <iterator>
#include <utility>

namespace athena::testing {

std::uint64_t Rng::next() {
  std::uint64_t z = (s_ += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

const char* mutation_name(Mutation m) {
  switch (m) {
    case Mutation::kInsert:
      return "insert";
    case Mutation::kRemove:
      return "remove";
    case Mutation::kRerender:
      return "rerender";
    case Mutation::kReorder:
      return "reorder";
    case Mutation::kRename:
      return "rename";
    case Mutation::kToggle:
      return "toggle";
    case Mutation::kDuplicateLabel:
      return "duplicate_label";
    case Mutation::kOpenOverlay:
      return "open_overlay";
    case Mutation::kCloseOverlay:
      return "close_overlay";
    case Mutation::kNestOverlay:
      return "nest_overlay";
    case Mutation::kReplaceOverlay:
      return "replace_overlay";
    case Mutation::kNavigateSubframe:
      return "navigate_subframe";
    case Mutation::kNavigateMain:
      return "navigate_main";
    case Mutation::kRevealText:
      return "reveal_text";
    case Mutation::kNavigateBack:
      return "navigate_back";
  }
  return "?";
}

namespace {
const char* const kNames[] = {"Save",   "Delete", "Edit", "Open",   "Item A",  "Item B",   "Item C", "Item D",
                              "Search", "Home",   "Next", "Cancel", "Profile", "Settings", "Cart",   "Help"};
// Revealed paragraphs (Category::kText): few distinct ones, so equal texts next to each other
// exercise the matcher the way repeated table cells do.
const char* const kTexts[] = {"Ships in 2 days.", "This will delete 12 files.",
                              "Weight 2 kg.",     "Returns are free.",
                              "Great grinder.",   "Too loud."};
// Table rows (a `row` line: cells joined by " | "), with repeats as a sorted grid has them.
// A fieldset's or group's line: the question its controls answer (the same words twice: a repeat).
const char* const kGroups[] = {"Shipping method", "Gift wrap", "Shipping method"};
const char* const kRows[] = {"Ada | Admin | 3", "Bob | Viewer | 4", "Ada | Admin | 3", "Cy | Editor | 12",
                             "Dee | Billing | 0"};
const Region kRegions[] = {Region::kHeader, Region::kNav,    Region::kMain, Region::kMain,
                           Region::kMain,   Region::kFooter, Region::kAside};
}  // namespace

SnapshotGen::SnapshotGen(std::uint64_t seed, GenOptions options) : rng_(seed), options_(options) {
  frames_.push_back(Fr{"MAIN", new_loader(), "https://example.test/", -1});
  for (std::size_t i = 0; i < options_.subframes; ++i)
    frames_.push_back(Fr{"SUB" + std::to_string(next_frame_++), new_loader(), "https://frame.test/", 0});
  for (std::size_t i = 0; i < options_.initial_elements; ++i)
    els_.push_back(random_element(rng_.below(frames_.size()), -1));
}

std::string SnapshotGen::new_loader() {
  return "L" + std::to_string(next_loader_++);
}

void SnapshotGen::leave_document() {
  std::vector<El> page;
  for (const El& e : els_)
    if (e.overlay < 0 && e.frame == 0) page.push_back(e);
  left_.push_back(std::move(page));
  if (left_.size() > 8) left_.erase(left_.begin());
  // The new document: overlays gone, iframes replaced, no elements yet.
  overlays_.clear();
  els_.clear();
  frames_.resize(1);
  frames_[0].loader = new_loader();
  for (std::size_t i = 0; i < options_.subframes; ++i)
    frames_.push_back(Fr{"SUB" + std::to_string(next_frame_++), new_loader(), "https://frame.test/", 0});
}

SnapshotGen::El SnapshotGen::random_element(std::size_t frame, int overlay) {
  El e;
  e.backend_node_id = next_node_++;
  e.frame = frame;
  e.overlay = overlay;
  e.region = overlay >= 0 ? Region::kDialog : kRegions[rng_.below(std::size(kRegions))];
  if (e.region == Region::kNav && rng_.chance(50)) e.label = rng_.chance(50) ? "Primary" : "Secondary";
  e.name = kNames[rng_.below(std::size(kNames))];
  switch (rng_.below(6)) {
    case 0:
      e.role = "button";
      break;
    case 1:
      e.role = "link";
      e.href = "/" + e.name;
      break;
    case 2:
      e.role = "checkbox";
      e.state.checked = Tri::kFalse;
      break;
    case 3:
      e.role = "textbox";
      break;
    case 4:
      e.role = "heading";
      e.category = Category::kHeading;
      e.level = 2;
      break;
    default:
      e.role = "status";
      e.category = Category::kStatus;
      break;
  }
  // Nested lists, a row's controls, a <details>' content: lines one or two levels down.
  e.depth = rng_.chance(30) ? 1 + static_cast<int>(rng_.below(2)) : 0;
  return e;
}

SnapshotGen::El SnapshotGen::text_element(std::size_t frame, int overlay) {
  El e = random_element(frame, overlay);
  e.role = "text";
  e.category = Category::kText;
  e.href.clear();
  e.state = NodeState{};
  e.level = 0;
  const std::size_t kind = rng_.below(100);
  if (kind < 30) {
    e.role = "row";
    e.name = kRows[rng_.below(std::size(kRows))];
  } else if (kind < 40) {
    e.role = "group";
    e.name = kGroups[rng_.below(std::size(kGroups))];
  } else if (kind < 48) {
    // What a page shows rather than writes: an image by its alt text, a bar by how far it is.
    e.role = rng_.chance(50) ? "image" : "progressbar";
    e.name = kNames[rng_.below(std::size(kNames))];
    if (e.role == "progressbar") e.state.value = rng_.chance(50) ? "30%" : "90%";
  } else {
    e.name = kTexts[rng_.below(std::size(kTexts))];
    e.cut = rng_.chance(20);  // a paragraph longer than its bound
  }
  return e;
}

void SnapshotGen::reveal_text(int overlay) {
  // A panel in this context: its old paragraphs go (hidden), maybe new ones come (revealed).
  const bool had = std::any_of(els_.begin(), els_.end(),
                               [&](const El& e) { return e.overlay == overlay && e.category == Category::kText; });
  els_.erase(std::remove_if(
                 els_.begin(), els_.end(),
                 [&](const El& e) { return e.overlay == overlay && e.category == Category::kText && rng_.chance(80); }),
             els_.end());
  if (had && rng_.chance(30)) return;
  const std::size_t frame = overlay >= 0 ? 0 : rng_.below(frames_.size());
  std::size_t at = pick_ctx_element(overlay);
  const std::size_t n = 1 + rng_.below(4);
  for (std::size_t i = 0; i < n && els_.size() < options_.max_elements + 4; ++i) {
    at = std::min(at, els_.size());
    els_.insert(els_.begin() + static_cast<std::ptrdiff_t>(at), text_element(frame, overlay));
    ++at;
  }
}

std::size_t SnapshotGen::pick_ctx_element(int overlay) {
  std::vector<std::size_t> in;
  for (std::size_t i = 0; i < els_.size(); ++i)
    if (els_[i].overlay == overlay) in.push_back(i);
  if (in.empty()) return els_.size();
  return in[rng_.below(in.size())];
}

void SnapshotGen::open_overlay() {
  if (overlays_.size() >= options_.max_overlays) return;
  Ov o;
  o.backend_node_id = next_node_++;
  o.type = rng_.chance(50) ? OverlayType::kModal : OverlayType::kDropdown;
  o.name = rng_.chance(50) ? "Confirm" : "Menu";
  overlays_.push_back(o);
  const int idx = static_cast<int>(overlays_.size()) - 1;
  const std::size_t n = 1 + rng_.below(4);
  for (std::size_t i = 0; i < n; ++i) els_.push_back(random_element(0, idx));
  if (rng_.chance(50)) els_.push_back(text_element(0, idx));  // the dialog's body sentence
}

void SnapshotGen::close_overlay() {
  if (overlays_.empty()) return;
  const int idx = static_cast<int>(overlays_.size()) - 1;
  els_.erase(std::remove_if(els_.begin(), els_.end(), [&](const El& e) { return e.overlay == idx; }), els_.end());
  overlays_.pop_back();
}

Mutation SnapshotGen::step() {
  static const Mutation kAll[] = {
      Mutation::kInsert,      Mutation::kInsert,         Mutation::kRemove,           Mutation::kRemove,
      Mutation::kRerender,    Mutation::kReorder,        Mutation::kRename,           Mutation::kToggle,
      Mutation::kToggle,      Mutation::kDuplicateLabel, Mutation::kOpenOverlay,      Mutation::kCloseOverlay,
      Mutation::kNestOverlay, Mutation::kReplaceOverlay, Mutation::kNavigateSubframe, Mutation::kNavigateMain,
      Mutation::kRevealText,  Mutation::kRevealText,     Mutation::kNavigateBack};
  const Mutation m = kAll[rng_.below(std::size(kAll))];
  apply(m);
  return m;
}

void SnapshotGen::apply(Mutation m) {
  // Mutations of content happen in the top context half the time (the agent works in the
  // overlay), in the base page otherwise (changes behind the overlay).
  const int ctx = !overlays_.empty() && rng_.chance(60) ? static_cast<int>(overlays_.size()) - 1 : -1;
  switch (m) {
    case Mutation::kInsert: {
      if (els_.size() >= options_.max_elements) return;
      const std::size_t at = std::min(pick_ctx_element(ctx), els_.size());
      El e = random_element(ctx >= 0 ? 0 : rng_.below(frames_.size()), ctx);
      if (rng_.chance(25) && els_.size() + 4 <= options_.max_elements) {
        // An item (a feed's post, a list item, a row): its title, then its text, its Like button
        // and its count one level under it; the same words as the items beside it, so only the
        // outline and the order tell whose button is whose.
        e.role = "heading";
        e.category = Category::kHeading;
        e.level = 2;
        e.href.clear();
        e.state = NodeState{};
        std::vector<El> item{e};
        El body = text_element(e.frame, ctx);
        body.role = "text";
        body.name = kTexts[rng_.below(std::size(kTexts))];
        El like = random_element(e.frame, ctx);
        like.role = "button";
        like.category = Category::kInteractive;
        like.name = "Like";
        like.href.clear();
        like.level = 0;
        like.state = NodeState{};
        like.state.pressed = rng_.chance(50) ? Tri::kTrue : Tri::kFalse;
        El count = like;
        count.backend_node_id = next_node_++;
        count.role = "status";
        count.category = Category::kStatus;
        count.name = std::to_string(rng_.below(20)) + " likes";
        count.state = NodeState{};
        for (El* line : {&body, &like, &count}) {
          line->region = e.region;
          line->label = e.label;
          line->depth = std::min(e.depth + 1, 2);
          item.push_back(*line);
        }
        els_.insert(els_.begin() + static_cast<std::ptrdiff_t>(at), item.begin(), item.end());
        return;
      }
      els_.insert(els_.begin() + static_cast<std::ptrdiff_t>(at), e);
      return;
    }
    case Mutation::kRemove: {
      const std::size_t i = pick_ctx_element(ctx);
      if (i < els_.size()) els_.erase(els_.begin() + static_cast<std::ptrdiff_t>(i));
      return;
    }
    case Mutation::kRerender: {
      // A framework swaps in identical nodes (new backend ids) for one frame's part of a context.
      const std::size_t frame = rng_.below(frames_.size());
      for (El& e : els_)
        if (e.overlay == ctx && e.frame == frame) e.backend_node_id = next_node_++;
      return;
    }
    case Mutation::kReorder: {
      const std::size_t a = pick_ctx_element(ctx), b = pick_ctx_element(ctx);
      if (a < els_.size() && b < els_.size() && els_[a].frame == els_[b].frame) std::swap(els_[a], els_[b]);
      return;
    }
    case Mutation::kRename: {
      const std::size_t i = pick_ctx_element(ctx);
      if (i < els_.size()) {
        els_[i].name = kNames[rng_.below(std::size(kNames))];
        if (els_[i].role == "link") els_[i].href = "/" + els_[i].name;
        // Words that grow past the bound keep their first ones: the same name, now cut.
        if (els_[i].category == Category::kText && rng_.chance(30)) els_[i].cut = !els_[i].cut;
      }
      return;
    }
    case Mutation::kToggle: {
      const std::size_t i = pick_ctx_element(ctx);
      if (i >= els_.size()) return;
      NodeState& s = els_[i].state;
      switch (rng_.below(6)) {
        case 0:
          s.disabled = !s.disabled;
          break;
        case 4:
          s.current = !s.current;
          break;  // a pager's page, a wizard's step
        case 1:
          s.checked = s.checked == Tri::kTrue ? Tri::kFalse : Tri::kTrue;
          break;
        case 2:
          s.expanded = s.expanded == Tri::kTrue ? Tri::kFalse : Tri::kTrue;
          break;
        case 3:
          s.sort = s.sort == Sort::kAscending ? Sort::kDescending : Sort::kAscending;
          break;  // a column sorted
        default:
          s.value = s.value.empty() ? "typed" : "";
          break;
      }
      return;
    }
    case Mutation::kDuplicateLabel: {
      if (els_.size() >= options_.max_elements) return;
      const std::size_t i = pick_ctx_element(ctx);
      if (i >= els_.size()) return;
      El copy = els_[i];
      copy.backend_node_id = next_node_++;
      els_.insert(els_.begin() + static_cast<std::ptrdiff_t>(rng_.chance(50) ? i : i + 1), copy);
      return;
    }
    case Mutation::kOpenOverlay:
      if (overlays_.empty()) open_overlay();
      return;
    case Mutation::kNestOverlay:
      open_overlay();
      return;
    case Mutation::kCloseOverlay:
      close_overlay();
      return;
    case Mutation::kReplaceOverlay:
      if (overlays_.empty()) return;
      close_overlay();
      open_overlay();
      return;
    case Mutation::kNavigateSubframe: {
      if (frames_.size() < 2) return;
      const std::size_t f = 1 + rng_.below(frames_.size() - 1);
      frames_[f].loader = new_loader();
      const bool same_content = rng_.chance(50);
      for (El& e : els_) {
        if (e.frame != f) continue;
        e.backend_node_id = next_node_++;
        if (!same_content) e.name = kNames[rng_.below(std::size(kNames))];
      }
      return;
    }
    case Mutation::kRevealText:
      reveal_text(ctx);
      return;
    case Mutation::kNavigateBack: {
      if (left_.empty()) return apply(Mutation::kNavigateMain);
      // One of the last few documents left, as it was (its nodes new), or with one line changed.
      std::vector<El> page = left_[left_.size() - 1 - rng_.below(std::min<std::size_t>(left_.size(), 5))];
      leave_document();
      for (El& e : page) e.backend_node_id = next_node_++;
      if (!page.empty() && rng_.chance(25)) page[rng_.below(page.size())].name = kNames[rng_.below(std::size(kNames))];
      els_ = std::move(page);
      return;
    }
    case Mutation::kNavigateMain: {
      // New document: overlays gone, iframes replaced, header/nav often identical (dedup).
      const std::vector<El> was = els_;
      leave_document();
      const bool keep_chrome = rng_.chance(70);
      std::vector<El> next;
      for (El e : was) {
        if (e.overlay >= 0 || e.frame != 0) continue;
        if (keep_chrome && (e.region == Region::kHeader || e.region == Region::kNav)) {
          e.backend_node_id = next_node_++;
          next.push_back(e);
        }
      }
      const std::size_t n = 3 + rng_.below(options_.initial_elements);
      for (std::size_t i = 0; i < n; ++i) next.push_back(random_element(rng_.below(frames_.size()), -1));
      els_ = std::move(next);
      return;
    }
  }
}

Snapshot SnapshotGen::build() const {
  Snapshot s;
  s.url = frames_[0].url;
  s.title = "Synthetic";
  for (const Fr& f : frames_)
    s.frames.push_back(
        FrameInfo{f.id, f.loader, f.parent < 0 ? "" : frames_[static_cast<std::size_t>(f.parent)].id, f.url, false});
  for (std::size_t i = 0; i < overlays_.size(); ++i) {
    Overlay o;
    o.backend_node_id = overlays_[i].backend_node_id;
    o.frame_id = frames_[0].id;
    o.loader_id = frames_[0].loader;
    o.type = overlays_[i].type;
    o.rule = 1;
    o.confidence = 1.0;
    o.z_index = 1000 + static_cast<int>(i);
    o.name = overlays_[i].name;
    o.parent = static_cast<int>(i) - 1;
    s.overlays.push_back(o);
  }
  for (const El& e : els_) {
    ReadableNode n;
    n.backend_node_id = e.backend_node_id;
    n.frame_id = frames_[e.frame].id;
    n.loader_id = frames_[e.frame].loader;
    n.role = e.role;
    n.name = e.name;
    n.cut = e.cut;
    n.href = e.href;
    n.category = e.category;
    n.state = e.state;
    n.level = e.level;
    n.region = e.region;
    n.region_label = e.label;
    n.overlay = e.overlay;
    n.depth = e.depth;
    n.in_viewport = true;
    s.nodes.push_back(std::move(n));
  }
  return s;
}

Snapshot SnapshotGen::big_page(std::size_t n, std::uint64_t seed) {
  GenOptions o;
  o.initial_elements = 0;
  o.subframes = 0;
  o.max_elements = n + 1000;
  SnapshotGen g(seed, o);
  for (std::size_t i = 0; i < n; ++i) {
    El e = g.random_element(0, -1);
    e.name += " " + std::to_string(i % 997);  // mostly distinct names, some repeats
    g.els_.push_back(e);
  }
  return g.build();
}

}  // namespace athena::testing
