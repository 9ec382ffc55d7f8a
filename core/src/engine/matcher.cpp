#include "engine/matcher.h"

#include <unordered_map>

#include "athena/limits.h"

namespace athena::engine {
namespace {

struct Key {
  int scope;
  std::uint64_t a;
  std::uint64_t b;
  bool operator==(const Key& o) const { return scope == o.scope && a == o.a && b == o.b; }
};
struct KeyHash {
  std::size_t operator()(const Key& k) const {
    std::uint64_t h = k.a * 0x9E3779B97F4A7C15ull ^ (k.b + 0x632BE59BD9B4E019ull + (h_mix(k.scope)));
    return static_cast<std::size_t>(h ^ (h >> 31));
  }
  static std::uint64_t h_mix(int s) { return static_cast<std::uint64_t>(s) * 0xC2B2AE3D27D4EB4Full; }
};

// One candidate per side, or "more than one" (ambiguous).
struct Slot {
  std::size_t old_count = 0, new_count = 0;
  std::size_t old_index = 0, new_index = 0;
};

}  // namespace

MatchResult match_nodes(const std::vector<MatchNode>& old_nodes, const std::vector<MatchNode>& new_nodes) {
  MatchResult r;
  r.refs.assign(new_nodes.size(), 0);
  std::vector<bool> old_done(old_nodes.size(), false);

  // 1. Scoped identity. A duplicate identity on either side is ambiguous: no match for it.
  {
    std::unordered_map<Key, Slot, KeyHash> slots;
    slots.reserve(old_nodes.size() * 2 + 1);
    for (std::size_t i = 0; i < old_nodes.size(); ++i) {
      Slot& s = slots[Key{old_nodes[i].scope, static_cast<std::uint64_t>(old_nodes[i].backend_node_id), 0}];
      ++s.old_count;
      s.old_index = i;
    }
    for (std::size_t j = 0; j < new_nodes.size(); ++j) {
      auto it = slots.find(Key{new_nodes[j].scope, static_cast<std::uint64_t>(new_nodes[j].backend_node_id), 0});
      if (it == slots.end()) continue;
      ++it->second.new_count;
      it->second.new_index = j;
    }
    for (const auto& [k, s] : slots) {
      if (s.old_count == 1 && s.new_count == 1) {
        r.refs[s.new_index] = old_nodes[s.old_index].ref;
        old_done[s.old_index] = true;
        ++r.by_identity;
      }
    }
  }

  // 2./3. Identity key, then identity key + neighbour anchor, among what is left.
  for (std::size_t round = 0; round <= limits::kMaxMatchRounds; ++round) {
    const bool anchored = round > 0;
    std::unordered_map<Key, Slot, KeyHash> slots;
    auto anchors = [&](const std::vector<MatchNode>& nodes, auto matched_ref, auto is_done, auto visit) {
      std::unordered_map<int, RefId> last;  // per scope: ref of the nearest preceding matched node
      for (std::size_t i = 0; i < nodes.size(); ++i) {
        if (is_done(i)) {
          last[nodes[i].scope] = matched_ref(i);
          continue;
        }
        RefId anchor = 0;
        if (anchored) {
          auto it = last.find(nodes[i].scope);
          if (it != last.end()) anchor = it->second;
        }
        visit(i, Key{nodes[i].scope, nodes[i].ident, anchor});
      }
    };
    anchors(
        old_nodes, [&](std::size_t i) { return old_nodes[i].ref; }, [&](std::size_t i) { return bool(old_done[i]); },
        [&](std::size_t i, const Key& k) {
          Slot& s = slots[k];
          ++s.old_count;
          s.old_index = i;
        });
    anchors(
        new_nodes, [&](std::size_t j) { return r.refs[j]; }, [&](std::size_t j) { return r.refs[j] != 0; },
        [&](std::size_t j, const Key& k) {
          auto it = slots.find(k);
          if (it == slots.end()) return;
          ++it->second.new_count;
          it->second.new_index = j;
        });
    std::size_t progress = 0;
    for (const auto& [k, s] : slots) {
      if (s.old_count == 1 && s.new_count == 1) {
        r.refs[s.new_index] = old_nodes[s.old_index].ref;
        old_done[s.old_index] = true;
        ++progress;
      }
    }
    (anchored ? r.by_neighbour : r.by_key) += progress;
    if (anchored && progress == 0) break;
  }

  for (std::size_t i = 0; i < old_nodes.size(); ++i)
    if (!old_done[i]) r.unmatched.push_back(i);
  return r;
}

}  // namespace athena::engine
