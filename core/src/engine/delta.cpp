// The delta rule, in one place: what changed in one context (the base page or one overlay)
// between two views, matched by ref, and the one reliability rule that decides whether those
// changes are a delta the agent can trust or too many to be one (then a full FactPack is sent).
#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "athena/limits.h"
#include "engine/page_parts.h"
#include "engine/page_session.h"

namespace athena {

using engine::each_ctx;
using engine::RefId;
using engine::View;
using engine::ViewEntry;

void PageSession::invalidate(Outcome& out, const ViewEntry& e, const char* fallback) const {
  const engine::RefRecord* r = registry_.find(e.ref);
  std::string cause = r && !r->live && !r->cause.empty() ? r->cause : fallback;
  out.pack.invalidated.push_back({e.element.ref, cause, e.element.role, e.element.name, e.element.frame});
}

namespace {

/// The refs (sorted) of the stayed elements whose order changed, given each one's index in the
/// old view in the new view's order: every one outside a longest run kept in its old order, so a
/// sort names the fewest lines that, moved, give the order the page shows.
std::vector<RefId> moved_refs(const std::vector<std::pair<std::ptrdiff_t, RefId>>& seq) {
  // Longest increasing subsequence (patience sorting), then every element not on it moved.
  std::vector<std::size_t> tails, parent(seq.size(), SIZE_MAX);
  for (std::size_t i = 0; i < seq.size(); ++i) {
    auto it = std::lower_bound(tails.begin(), tails.end(), seq[i].first,
                               [&](std::size_t t, std::ptrdiff_t v) { return seq[t].first < v; });
    if (it != tails.begin()) parent[i] = *(it - 1);
    if (it == tails.end())
      tails.push_back(i);
    else
      *it = i;
  }
  std::vector<char> stays(seq.size(), 0);
  for (std::size_t i = tails.empty() ? SIZE_MAX : tails.back(); i != SIZE_MAX; i = parent[i]) stays[i] = 1;
  std::vector<RefId> out;
  for (std::size_t i = 0; i < seq.size(); ++i)
    if (!stays[i]) out.push_back(seq[i].second);
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

namespace {

/// What changed in one region block, Category::kText lines apart (the rule leaves them out).
struct BlockCount {
  std::size_t before = 0, after = 0;   // lines, text left out
  std::size_t held = 0;                // every line the agent held there, text included
  std::size_t changed = 0, added = 0;  // text left out; `changed` counts the additions too
  bool replaced = false;
  /// The one rule on these counts: more changed than it trusts. `min_lines`: fewer lines than
  /// that are never judged (limits::kMinNodesForRatio for a whole context).
  bool untrusted(double ratio, std::size_t min_lines) const {
    // Pure growth (a first todo brings its list and footer) cannot mislead: every ref the agent
    // holds is still what it was, and the delta lists exactly what is new.
    if (changed == added) return false;
    const std::size_t denom = std::max(before, after);
    if (denom < std::max<std::size_t>(min_lines, 1)) return false;
    return static_cast<double>(changed) / static_cast<double>(denom) > ratio;
  }
};

}  // namespace

bool PageSession::diff_context(const View& from, const View& to, int c, Outcome& out) const {
  // Lookups by ref in sorted arrays (no allocation per element); a stable sort keeps the
  // first entry of a ref first, as a map's emplace would.
  struct Held {
    RefId ref;
    const ViewEntry* entry;
    std::ptrdiff_t position;  // its index in the old view's document order
  };
  std::vector<Held> before;
  std::vector<RefId> after;
  // Revealed text stays out of the reliability rule (limits.h): a tab switch swapping three
  // paragraphs on a small page is a plain delta, and no ref an agent acts on is at stake.
  std::map<engine::BlockKey, BlockCount> blocks;
  each_ctx(from, c, c + 1, [&](const ViewEntry& e) {
    before.push_back({e.ref, &e, static_cast<std::ptrdiff_t>(before.size())});
    BlockCount& b = blocks[engine::block_key(e)];
    ++b.held;
    b.before += e.element.category != Category::kText;
  });
  each_ctx(to, c, c + 1, [&](const ViewEntry& e) {
    after.push_back(e.ref);
    blocks[engine::block_key(e)].after += e.element.category != Category::kText;
  });
  std::stable_sort(before.begin(), before.end(), [](const Held& a, const Held& b) { return a.ref < b.ref; });
  std::sort(after.begin(), after.end());
  // The new view's entries, each with what the agent held of it (nullptr: an addition).
  std::vector<std::pair<const ViewEntry*, const Held*>> now;
  std::vector<std::pair<std::ptrdiff_t, RefId>> stayed;  // old index of each that stayed, in new order
  now.reserve(after.size());
  each_ctx(to, c, c + 1, [&](const ViewEntry& e) {
    auto it = std::lower_bound(before.begin(), before.end(), e.ref, [](const Held& a, RefId r) { return a.ref < r; });
    const Held* h = it == before.end() || it->ref != e.ref ? nullptr : &*it;
    now.emplace_back(&e, h);
    if (h) stayed.emplace_back(h->position, e.ref);
  });
  const std::vector<RefId> moved = moved_refs(stayed);
  // Places, read in the pack's order: first the additions, each run after the line before it
  // in its region block whose place the agent already knows (one that stayed in order, or an
  // addition), "" for the block's first; then the moves, each after the line now before it. So
  // an addition never names a line that is about to move. A region can come back after another
  // region's lines: its block's last lines are kept.
  struct Last {
    const ViewEntry* any = nullptr;     // the line before, whatever it is
    const ViewEntry* placed = nullptr;  // the nearest line before that is not moved
  };
  std::map<engine::BlockKey, Last> last_in_block;
  Last cur;
  const ViewEntry* prev = nullptr;
  bool prev_added = false;
  std::string run_after;
  // Lines that stayed but changed region: the two regions are tied (a replaced one takes both).
  std::vector<std::pair<engine::BlockKey, engine::BlockKey>> crossed;
  for (const auto& [entry, h] : now) {
    const ViewEntry& e = *entry;
    const ViewEntry* was = h ? h->entry : nullptr;
    const bool text = e.element.category == Category::kText;
    const bool added = was == nullptr;
    const bool went = !added && std::binary_search(moved.begin(), moved.end(), e.ref);
    const bool same_place = prev && prev->frame_index == e.frame_index && prev->element.region == e.element.region &&
                            prev->element.region_label == e.element.region_label;  // one context: one overlay
    if (!same_place) {
      if (prev) last_in_block[engine::block_key(*prev)] = cur;
      auto at = last_in_block.find(engine::block_key(e));
      cur = at == last_in_block.end() ? Last{} : at->second;
    }
    // An announcement's place says nothing, and naming a line for it would cost more than the
    // message (AG Grid's `generic "Press ENTER to sort"` is not one: its role does not say so).
    const bool announcement = is_announcement(e.element);
    const Last here = cur;
    if (!announcement) cur.any = &e;
    if (!announcement && !went) cur.placed = &e;
    BlockCount& block = blocks[engine::block_key(e)];
    if (added) {
      if (!prev_added || !same_place) run_after = here.placed ? here.placed->element.ref : std::string();
      out.pack.added.push_back(e.element);
      out.pack.added.back().after = announcement ? std::string() : run_after;
      block.changed += !text;
      block.added += !text;
    } else {
      const bool changed_content = was->content != e.content;
      if (changed_content || went) {
        out.pack.modified.push_back(
            {e.element.ref, was->element, e.element, went, went && here.any ? here.any->element.ref : std::string()});
        // A move alone invalidates nothing, and counts for nothing in the rule: the ref is the
        // same element, only its place changed.
        block.changed += changed_content && !text;
      }
      if (engine::block_key(*was) != engine::block_key(e))
        crossed.emplace_back(engine::block_key(*was), engine::block_key(e));
    }
    prev_added = added;
    prev = &e;
  }
  each_ctx(from, c, c + 1, [&](const ViewEntry& e) {
    if (std::binary_search(after.begin(), after.end(), e.ref)) return;
    invalidate(out, e, "removed");
    blocks[engine::block_key(e)].changed += e.element.category != Category::kText;
  });
  // A frame whose document went (navigated, detached) takes every ref the agent holds there, and
  // its one `<invalid … count=>` line counts them all: the agent drops all it holds in that frame.
  // Some of them the registry cannot say that of: a ref the agent is shown in this answer's own
  // <before_action>, killed by the capture that navigated the frame before it was ever delivered
  // (an unshown ref's record is dropped), comes back with no cause; one removed by an earlier
  // capture (resolve_fresh) says "removed". Listed apart, the count would miss them. A frame that
  // went in both ways is detached now.
  std::map<int, std::string> doc_gone;  // frame -> the cause of its document's end
  for (const Invalidation& i : out.pack.invalidated)
    if (i.cause == "navigated" || i.cause == "detached") {
      std::string& cause = doc_gone[i.frame];
      if (cause != "detached") cause = i.cause;
    }
  for (Invalidation& i : out.pack.invalidated) {
    auto it = doc_gone.find(i.frame);
    if (it != doc_gone.end() && i.cause != "overlay_closed") i.cause = it->second;
  }

  // The one reliability rule (limits.h, docs/design.md "The reliability rule"). A context it
  // trusts is the plain delta. One it does not is judged again region by region: a region the
  // agent held where more changed than the rule trusts (at any size) is sent whole, in place of
  // what the agent held there (a route change, a filter, a list re-rendered), and the regions
  // around it (a header, a nav) stay as the agent holds them. The rule then judges what is left:
  // changes spread over many regions are no delta to trust, nor is one where every region was
  // replaced (that is a full snapshot).
  BlockCount context;
  for (const auto& [k, b] : blocks) {
    context.before += b.before;
    context.after += b.after;
    context.changed += b.changed;
    context.added += b.added;
  }
  if (!context.untrusted(config_.max_change_ratio, limits::kMinNodesForRatio)) return true;
  bool any_replaced = false;
  for (auto& [k, b] : blocks) {
    b.replaced = b.held > 0 && b.untrusted(config_.max_change_ratio, 1);
    any_replaced = any_replaced || b.replaced;
  }
  // The agent drops every line it held in a replaced region: a line that went from it to another
  // region must come with that one whole too, and the other way round.
  for (bool grew = any_replaced; grew;) {
    grew = false;
    for (const auto& [was, is] : crossed) {
      BlockCount &a = blocks[was], &b = blocks[is];
      if (a.replaced == b.replaced) continue;
      a.replaced = b.replaced = true;
      grew = true;
    }
  }
  BlockCount rest;
  bool kept = false;
  for (const auto& [k, b] : blocks) {
    if (b.replaced) continue;
    rest.before += b.before;
    rest.after += b.after;
    rest.changed += b.changed;
    rest.added += b.added;
    kept = kept || b.held > 0 || b.after > 0;
  }
  if (!any_replaced || !kept || rest.untrusted(config_.max_change_ratio, limits::kMinNodesForRatio))
    return replaced_run(from, to, c, out);
  // The replaced regions' lines come whole, in the page's order; their changes are not listed.
  std::vector<engine::BlockKey> order;
  std::map<engine::BlockKey, RegionBlock> whole;
  auto region_of = [&](const engine::BlockKey& k) {
    RegionBlock r;
    r.region = static_cast<Region>(std::get<1>(k));
    r.label = std::get<2>(k);
    r.frame_ref = "f" + std::to_string(std::get<0>(k));
    r.replaced = true;
    order.push_back(k);
    return whole.emplace(k, std::move(r)).first;
  };
  std::unordered_set<RefId> in_replaced;  // refs, old and new, of the replaced regions
  each_ctx(to, c, c + 1, [&](const ViewEntry& e) {
    const engine::BlockKey k = engine::block_key(e);
    if (!blocks[k].replaced) return;
    auto it = whole.find(k);
    if (it == whole.end()) it = region_of(k);
    it->second.elements.push_back(e.element);
    in_replaced.insert(e.ref);
  });
  each_ctx(from, c, c + 1, [&](const ViewEntry& e) {
    const engine::BlockKey k = engine::block_key(e);
    if (!blocks[k].replaced) return;
    // A region with no line now (a list filtered to nothing, in a region of its own) comes empty.
    if (!whole.count(k)) region_of(k);
    in_replaced.insert(e.ref);
  });
  for (const engine::BlockKey& k : order) out.pack.regions.push_back(std::move(whole[k]));
  auto ref_in = [&](const std::string& text) {
    engine::ParsedRef p;
    return engine::parse_ref(text, p) && in_replaced.count(static_cast<RefId>(p.n)) > 0;
  };
  auto& added = out.pack.added;
  added.erase(std::remove_if(added.begin(), added.end(), [&](const Element& e) { return ref_in(e.ref); }), added.end());
  auto& modified = out.pack.modified;
  modified.erase(std::remove_if(modified.begin(), modified.end(), [&](const Modified& m) { return ref_in(m.ref); }),
                 modified.end());
  auto& gone = out.pack.invalidated;
  // Only the removals the block says: the refs of a frame whose document went carry its cause
  // (above), and its one line counts them, its replaced regions' included.
  gone.erase(std::remove_if(gone.begin(), gone.end(),
                            [&](const Invalidation& i) { return i.cause == "removed" && ref_in(i.ref); }),
             gone.end());
  return true;
}

bool PageSession::replaced_run(const View& from, const View& to, int c, const Outcome& out) const {
  // One run of lines replaced by another at the same place, nothing else changed: a search that
  // swaps an index for its results, a list re-rendered inside a region that also holds a heading
  // and the button that did it. The delta says it exactly (the run's refs removed, the new lines
  // added after the line before it), every other ref the agent holds is still what it was, and it
  // costs what changed; a full would repeat the rest. The regions cannot say it when the run is
  // a part of its region. A run that only goes (no line takes its place) is left to the rule:
  // that is the page losing content, not replacing it. Nothing kept is a new page: a full.
  if (!out.pack.modified.empty() || out.pack.added.empty() || out.pack.invalidated.empty()) return false;
  for (const Invalidation& i : out.pack.invalidated)
    if (i.cause != "removed") return false;
  std::unordered_set<std::string> added_refs, removed_refs;
  for (const Element& e : out.pack.added) added_refs.insert(e.ref);
  for (const Invalidation& i : out.pack.invalidated) removed_refs.insert(i.ref);
  // In each view's order: the line before the run, the run (each line in it), then no more of it.
  struct Run {
    std::string before;               // the ref of the line before the run ("" at the context's start)
    std::size_t state = 0, kept = 0;  // 0: before the run, 1: in it, 2: past it (kept: non-text lines outside it)
    bool one = true;
    void see(const ViewEntry& e, bool in) {
      if (in) {
        if (state == 2) one = false;
        state = 1;
        return;
      }
      if (state == 0) before = e.element.ref;
      if (state == 1) state = 2;
      kept += e.element.category != Category::kText;
    }
  };
  Run was, is;
  each_ctx(from, c, c + 1, [&](const ViewEntry& e) { was.see(e, removed_refs.count(e.element.ref) > 0); });
  each_ctx(to, c, c + 1, [&](const ViewEntry& e) { is.see(e, added_refs.count(e.element.ref) > 0); });
  return was.one && is.one && was.before == is.before && is.kept > 0;
}

}  // namespace athena
