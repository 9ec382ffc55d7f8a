// The fidelity session driver shared by the wasm test module (test_bindings.cpp) and the native
// side of the same check (bench/wasm_native.cpp --fidelity): one seed, one session, the same
// FactPacks in both. It follows tests/unit/engine/fidelity_test.cpp run_sequence step for step
// (same RNG draws in the same order) and uses the native suite's own support code.
#pragma once

#include <cstdio>
#include <map>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "../tests/unit/engine/fidelity.h"
#include "agent_view.h"
#include "athena/engine.h"
#include "snapshot_gen.h"

namespace athena::wasm {

using namespace athena::testing;

struct RunStats {
  std::map<std::string, std::size_t> packs;
  std::size_t steps = 0, aborts = 0, unchanged_regions = 0;
  /// FNV-1a over every pack's type, version and reason and the agent's whole view after it
  /// (refs and canonical elements): equal digests natively and in wasm mean the same sessions.
  std::uint32_t digest = 2166136261u;
  void mix(const std::string& s) {
    for (unsigned char c : s) digest = (digest ^ c) * 16777619u;
    digest = (digest ^ 0xffu) * 16777619u;
  }
};

inline std::string run_sequence(std::uint64_t seed, std::size_t steps, RunStats& stats) {
  SnapshotGen gen(seed);
  Rng rng(seed ^ 0xA5A5A5A5ull);
  Engine engine;
  const PageKey key{0, 1};
  engine.open_page(key);
  AgentView view;
  std::string log;
  auto fail = [&](const std::string& what) { return "seed " + std::to_string(seed) + ": " + what + "\n  steps:" + log; };
  auto mutate = [&](std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) log += std::string(" ") + mutation_name(gen.step());
  };
  auto deliver = [&](const FactPack& pack, const Snapshot& state) -> std::string {
    ++stats.packs[pack_type_name(pack.type) + (pack.reason.empty() ? std::string() : ":" + pack.reason)];
    for (const RegionBlock& b : pack.regions) stats.unchanged_regions += b.unchanged;
    log += std::string(" =>") + pack_type_name(pack.type) + "@v" + std::to_string(pack.version);
    std::string err = view.apply(pack);
    if (!err.empty()) return "agent could not apply " + std::string(pack_type_name(pack.type)) + ": " + err;
    stats.mix(std::string(pack_type_name(pack.type)) + "@" + std::to_string(pack.version) + ":" + pack.reason);
    for (const auto& [ref, held] : view.elements()) stats.mix(ref + "=" + canonical_element(held));
    return check_fidelity(view, engine, key, state);
  };
  // CDP frame events for what changed since the last capture, half of the time.
  Snapshot last_sent;
  auto send_events = [&](const Snapshot& now) -> std::string {
    if (rng.below(2) == 0) return "";
    for (const FrameInfo& f : now.frames) {
      bool same = false;
      for (const FrameInfo& o : last_sent.frames) same = same || (o.frame_id == f.frame_id && o.loader_id == f.loader_id);
      if (same) continue;
      const std::string ev = R"({"method":"Page.frameNavigated","params":{"frame":{"id":")" + f.frame_id + R"(","loaderId":")" +
                             f.loader_id + "\"" + (f.parent_id.empty() ? "" : R"(,"parentId":")" + f.parent_id + "\"") + "}}}";
      if (!engine.on_event(key, ev)) return "event refused: " + ev;
      log += " [nav " + f.frame_id + "]";
    }
    for (const FrameInfo& o : last_sent.frames) {
      bool still = false;
      for (const FrameInfo& f : now.frames) still = still || f.frame_id == o.frame_id;
      if (still) continue;
      if (!engine.on_event(key, R"({"method":"Page.frameDetached","params":{"frameId":")" + o.frame_id + R"(","reason":"remove"}})"))
        return "detach refused";
      log += " [detach " + o.frame_id + "]";
    }
    last_sent = now;
    return "";
  };

  Snapshot state = gen.build();
  last_sent = state;
  auto first = engine.snapshot_from(key, state);
  if (!first) return fail("first snapshot: " + first.error().message);
  if (std::string e = deliver(*first, state); !e.empty()) return fail(e);

  for (std::size_t step = 0; step < steps; ++step) {
    ++stats.steps;
    if (rng.below(10) == 0) {
      log += " [snapshot]";
      mutate(rng.below(3));
      state = gen.build();
      if (std::string e = send_events(state); !e.empty()) return fail(e);
      auto pack = engine.snapshot_from(key, state);
      if (!pack) return fail("snapshot: " + pack.error().message);
      if (std::string e = deliver(*pack, state); !e.empty()) return fail(e);
      continue;
    }
    log += " [action";
    mutate(rng.below(100) < 30 ? 1 + rng.below(2) : 0);
    std::optional<std::uint64_t> agent;
    const std::size_t v = rng.below(10);
    if (v < 7) agent = view.version();
    else if (v == 7 && view.version() > 1) agent = view.version() - 1;
    else if (v == 8) agent = std::nullopt;
    else agent = view.version() + 100;
    log += " agent=" + (agent ? "v" + std::to_string(*agent) : std::string("none")) + "]";
    state = gen.build();
    if (std::string e = send_events(state); !e.empty()) return fail(e);
    auto pre = engine.begin_action_from(key, state, agent);
    if (!pre) return fail("begin_action: " + pre.error().message);
    if (pre->freshness == Freshness::kStaleNoHistory) {
      if (!pre->pack || pre->pack->type != PackType::kFull) return fail("stale_no_history without a full snapshot");
      if (std::string e = deliver(*pre->pack, state); !e.empty()) return fail("stale_no_history: " + e);
      continue;
    }
    if (rng.below(10) == 0) {
      ++stats.aborts;
      log += " [abort]";
      if (!engine.abort_action(key)) return fail("abort_action failed");
      for (const auto& [ref, held] : view.elements()) {
        auto t = engine.resolve(key, ref);
        if (t && (t->role != held.role || t->name != held.name)) return fail("after abort, " + ref + " resolves to another element");
      }
      continue;
    }
    mutate(rng.below(4));
    state = gen.build();
    if (std::string e = send_events(state); !e.empty()) return fail(e);
    ActionInfo info;
    info.kind = "click";
    info.force_full = rng.below(20) == 0;
    auto pack = engine.finish_action_from(key, state, info);
    if (!pack) return fail("finish_action: " + pack.error().message);
    if (pre->freshness == Freshness::kStaleWithHistory && pack->before_action.size() != 1)
      return fail("stale_with_history but no before_action in the result");
    if (std::string e = deliver(*pack, state); !e.empty()) return fail(e);
  }
  return "";
}

/// Runs `count` sessions of `steps` steps from seeds first_seed, first_seed+1, ...; stops after
/// 3 failures. {sequences, digest, steps, aborts, unchangedRegions, packs: {type: n}, failures: [..]}.
inline std::string run_fidelity_json(std::uint64_t first_seed, std::size_t count, std::size_t steps) {
  RunStats stats;
  nlohmann::json failures = nlohmann::json::array();
  std::size_t ran = 0;
  for (std::size_t i = 0; i < count && failures.size() < 3; ++i, ++ran) {
    std::string err = run_sequence(first_seed + i, steps, stats);
    if (!err.empty()) failures.push_back(err);
  }
  nlohmann::json packs = nlohmann::json::object();
  for (const auto& [type, n] : stats.packs) packs[type] = n;
  char hex[16];
  std::snprintf(hex, sizeof hex, "%08x", static_cast<unsigned>(stats.digest));
  return nlohmann::json{{"sequences", ran},
                        {"digest", hex},
                        {"steps", stats.steps},
                        {"aborts", stats.aborts},
                        {"unchangedRegions", stats.unchanged_regions},
                        {"packs", packs},
                        {"failures", failures}}
      .dump();
}

}  // namespace athena::wasm
