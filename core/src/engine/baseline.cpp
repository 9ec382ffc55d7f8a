// Full FactPacks (first, after a navigation, an unreliable delta, a stale agent or on request)
// and cross-baseline dedup: a region whose ordered identities and contents equal the previous
// baseline's is sent as one `unchanged` line, its refs rebound (docs/design.md, "Trimming and
// dedup across baselines"); so is a region of a page the tab came back to that equals what the
// agent held there when it left (`seen_in`). A requested snapshot collapses nothing: it is how an agent whose
// client compacted its context sees the page again; nor does a stale_version full, whose agent
// holds an older version than the baseline it would be collapsed against.
#include <map>
#include <memory>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "engine/page_parts.h"
#include "engine/page_session.h"
#include "words.h"

namespace athena {

using engine::block_key;
using engine::BlockKey;
using engine::info_of;
using engine::RefId;
using engine::View;
using engine::ViewEntry;

PageSession::Outcome PageSession::full(const View* from, View& to, const std::string& reason, bool collapse) {
  Outcome out;
  out.pack.type = PackType::kFull;
  out.pack.reason = reason;
  // Group into region blocks, first appearance order.
  std::vector<BlockKey> order;
  std::map<BlockKey, std::vector<std::size_t>> blocks;
  for (std::size_t i = 0; i < to.entries.size(); ++i) {
    BlockKey k = block_key(to.entries[i]);
    auto [it, inserted] = blocks.emplace(k, std::vector<std::size_t>{});
    if (inserted) order.push_back(k);
    it->second.push_back(i);
  }
  // A region is collapsed only for an agent known to hold it: an explicit snapshot is how an
  // agent recovers a page its client dropped from its context (compaction), also when the page
  // navigated since (its reason is then "navigation"), and a stale_version full answers an agent
  // that holds an older version than the one delivered; both show every region's lines. The
  // refs are rebound all the same.
  const bool may_collapse = collapse && reason != "requested" && reason != "stale_version";
  auto blocks_of = [](const View& v) {
    std::map<BlockKey, std::vector<const ViewEntry*>> out;
    for (const ViewEntry& e : v.entries) out[block_key(e)].push_back(&e);
    return out;
  };
  // Block k of `to` against the same block of a view the agent held: equal ordered identities
  // and contents, every ref either the same or one it holds that no live node uses any more, to
  // be rebound from a ref it never saw (docs/design.md, "Two identities": refs of an unchanged
  // region stay valid). Rebinds and says true when so.
  auto same_as = [&](const BlockKey& k, const std::map<BlockKey, std::vector<const ViewEntry*>>& held) {
    auto p = held.find(k);
    if (p == held.end()) return false;
    const std::vector<std::size_t>& now = blocks[k];
    const std::vector<const ViewEntry*>& was = p->second;
    if (now.size() != was.size()) return false;
    for (std::size_t i = 0; i < now.size(); ++i) {
      const ViewEntry& n = to.entries[now[i]];
      const ViewEntry& o = *was[i];
      if (n.ident != o.ident || n.content != o.content) return false;
      if (n.ref != o.ref) {
        const engine::RefRecord* nr = registry_.find(n.ref);
        const engine::RefRecord* orr = registry_.find(o.ref);
        if (!nr || nr->shown || !orr || orr->live) return false;
      }
    }
    for (std::size_t i = 0; i < now.size(); ++i) {
      ViewEntry& n = to.entries[now[i]];
      const ViewEntry& o = *was[i];
      if (n.ref == o.ref) continue;
      const std::size_t node = now[i];  // view entries and live nodes share indices
      registry_.rebind(o.ref, binding_of(live_->snapshot.nodes[node]));
      registry_.drop_unshown(n.ref);
      live_->node_of_ref.erase(n.ref);
      live_->node_of_ref[o.ref] = node;
      live_->refs[node] = o.ref;
      n.ref = o.ref;
      n.element.ref = o.element.ref;
    }
    return true;
  };

  // Collapsed regions, each with the version the agent held it at (0: the previous baseline).
  std::map<BlockKey, std::uint64_t> unchanged;
  std::vector<BlockKey> unmatched;
  if (from && config_.dedup_regions) {
    const auto previous = blocks_of(*from);
    for (const BlockKey& k : order) {
      if (!same_as(k, previous))
        unmatched.push_back(k);
      else if (may_collapse)
        unchanged[k] = 0;
    }
  }
  // Back on a page the tab left (a list, its detail, back): a region the agent held there, and
  // that has not changed since, is the same one line, naming the version it was held at.
  if (may_collapse && reason == "navigation")
    for (const std::shared_ptr<const View>& left : left_) {
      if (unmatched.empty()) break;
      const auto held = blocks_of(*left);
      std::vector<BlockKey> still;
      for (const BlockKey& k : unmatched) {
        if (same_as(k, held))
          unchanged[k] = left->version;
        else
          still.push_back(k);
      }
      unmatched = std::move(still);
    }
  for (const BlockKey& k : order) {
    RegionBlock b;
    b.region = static_cast<Region>(std::get<1>(k));
    b.label = std::get<2>(k);
    b.frame_ref = frame_word(std::get<0>(k));
    if (auto u = unchanged.find(k); u != unchanged.end()) {
      b.unchanged = true;
      b.seen_in = u->second;
    }
    // A region inside an open overlay says so: the overlay_closed that later takes its refs
    // along names no ref, so the agent must know which lines were the overlay's.
    const int overlay = std::get<3>(k);
    if (overlay >= 0 && static_cast<std::size_t>(overlay) < to.stack.size()) {
      b.overlay_depth = overlay + 1;
      b.overlay_type = to.stack[static_cast<std::size_t>(overlay)].type;
    }
    for (std::size_t i : blocks[k]) b.elements.push_back(to.entries[i].element);
    out.pack.regions.push_back(std::move(b));
  }
  if (from) {
    std::unordered_set<RefId> now;
    for (const ViewEntry& e : to.entries) now.insert(e.ref);
    for (const ViewEntry& e : from->entries) {
      if (now.count(e.ref)) continue;
      const engine::RefRecord* r = registry_.find(e.ref);
      out.pack.invalidated.push_back(
          {e.element.ref, r && !r->live ? r->cause : "removed", e.element.role, e.element.name, e.element.frame});
    }
  }
  out.pack.overlay = info_of(to.stack);
  out.target = to;
  return out;
}

}  // namespace athena
