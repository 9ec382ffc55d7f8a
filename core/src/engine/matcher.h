// Old nodes -> new nodes, so refs survive everything that is not a real change (docs/design.md, "Two identities"):
//   1. scoped identity (frame_id, loader_id, backend_node_id), same context;
//   2. identity key (frame, region, role, name, href) among the rest, same document and
//      context, only when exactly one candidate is left on each side;
//   3. the same, keyed also by the nearest preceding matched neighbour (the "Delete" after
//      "Item A"), repeated while it makes progress (limits::kMaxMatchRounds).
// Anything still ambiguous is an explicit remove + add: never a guess.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "engine/view.h"

namespace athena::engine {

struct MatchNode {
  int scope = 0;  // interned (frame_id, loader_id, overlay context)
  std::int64_t backend_node_id = 0;
  std::uint64_t ident = 0;
  RefId ref = 0;  // old side: its ref; new side: ignored
};

struct MatchResult {
  std::vector<RefId> refs;             // per new node: the old ref it keeps, 0 = new element
  std::vector<std::size_t> unmatched;  // indices of old nodes that found no new node
  std::size_t by_identity = 0, by_key = 0, by_neighbour = 0;
};

MatchResult match_nodes(const std::vector<MatchNode>& old_nodes, const std::vector<MatchNode>& new_nodes);

}  // namespace athena::engine
