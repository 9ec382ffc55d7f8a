// The fidelity property: what an agent holds after applying FactPacks equals a fresh
// full snapshot of the same state, in the same order, and every ref it holds resolves to that
// very element.
#pragma once

#include <set>
#include <string>
#include <tuple>

#include "agent_view.h"
#include "athena/engine.h"

namespace athena::testing {

/// "" when `view` (the agent, after the pack for `state`) is faithful to `state`; else why not.
/// With overlays open, the top overlay must match exactly; the frozen contexts below must
/// never resolve to something else than what the agent holds (base changes come on close).
inline std::string check_fidelity(const AgentView& view, const Engine& engine, PageKey key, const Snapshot& state,
                                  const Config& config = {}) {
  Engine fresh(config);
  fresh.open_page(key);
  Result<FactPack> full = fresh.snapshot_from(key, state);
  if (!full) return "fresh engine failed: " + full.error().message;
  const int depth = static_cast<int>(state.overlays.size());
  const int lo = depth == 0 ? -1 : depth - 1;
  if (view.canonical(lo) != canonical_full(*full, lo)) {
    std::string msg = "(a) agent view != fresh full snapshot (context >= " + std::to_string(lo) + ")\n  agent:";
    for (const std::string& s : view.canonical(lo)) msg += "\n    " + s;
    msg += "\n  fresh:";
    for (const std::string& s : canonical_full(*full, lo)) msg += "\n    " + s;
    return msg;
  }
  // (c) and in the page's order: each region's lines, frame by frame, as the fresh snapshot lists them.
  if (view.order(lo) != order_full(*full, lo)) {
    const auto held = view.order(lo), now = order_full(*full, lo);
    for (const auto& [block, lines] : now) {
      const auto it = held.find(block);
      if (it != held.end() && it->second == lines) continue;
      std::string msg = "(c) region " + block + " held in another order\n  agent:";
      if (it != held.end())
        for (const std::string& s : it->second) msg += "\n    " + s;
      msg += "\n  fresh:";
      for (const std::string& s : lines) msg += "\n    " + s;
      return msg;
    }
    return "(c) the agent holds a region the fresh snapshot does not have";
  }
  std::set<std::tuple<std::string, std::string, std::int64_t>> targets;
  for (const auto& [ref, held] : view.elements()) {
    Result<Target> t = engine.resolve(key, ref);
    if (held.overlay >= lo) {
      if (!t) return "(b) live ref " + ref + " does not resolve: " + t.error().message;
      if (canonical_element(t->element) != canonical_element(held))
        return "(b) ref " + ref + " resolves to " + canonical_element(t->element) + " but the agent holds " +
               canonical_element(held);
      if (!targets.emplace(t->frame_id, t->loader_id, t->backend_node_id).second)
        return "(b) two refs resolve to the same node (" + ref + ")";
    } else if (t && (t->role != held.role || t->name != held.name)) {
      return "(b) frozen ref " + ref + " resolves to " + t->role + " \"" + t->name + "\" but the agent holds " +
             held.role + " \"" + held.name + "\"";
    }
  }
  return "";
}

}  // namespace athena::testing
