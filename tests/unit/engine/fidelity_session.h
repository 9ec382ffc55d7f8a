// One random session of the fidelity property (seeded): the agent's view, updated by every
// FactPack the engine delivers, must equal a fresh full snapshot of the page. Shared by the native
// suite (fidelity_test.cpp) and the wasm test module (wasm/fidelity_driver.h), so that both run
// the same sessions and their digests can be compared (tests/wasm/fidelity.test.mjs).
#pragma once

#include <cstdint>
#include <cstdlib>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "agent_view.h"
#include "athena/engine.h"
#include "athena/render.h"
#include "fidelity.h"
#include "snapshot_gen.h"

namespace athena::testing {

struct RunStats {
  std::map<std::string, std::size_t> packs;
  std::size_t steps = 0, aborts = 0, unchanged_regions = 0, recalled_regions = 0,
              replaced_regions = 0;  // recalled: unchanged since a page the tab left (seen_in)
  /// FNV-1a over every pack's type, version and reason and the agent's whole view after it
  /// (refs and canonical elements): equal digests natively and in wasm mean the same sessions.
  std::uint32_t digest = 2166136261u;
  void mix(const std::string& s) {
    for (unsigned char c : s) digest = (digest ^ c) * 16777619u;
    digest = (digest ^ 0xffu) * 16777619u;
  }
};

// One random session. Returns "" or the failure, with the step log. With `texts`, it also
// collects the text of every FactPack delivered (within `token_budget`, 0: the default) and, last,
// of a requested snapshot of the page as it ends, untrimmed (what an agent reading only text would
// hold: tests/wasm/fidelity.test.mjs).
inline std::string run_sequence(std::uint64_t seed, std::size_t steps, RunStats& stats,
                                std::vector<std::string>* texts = nullptr, std::size_t token_budget = 0) {
  RenderOptions text_options;
  if (token_budget) text_options.token_budget = token_budget;
  SnapshotGen gen(seed);
  Rng rng(seed ^ 0xA5A5A5A5ull);
  Engine engine;
  const PageKey key{0, 1};
  engine.open_page(key);
  AgentView view;
  std::string log;
  auto fail = [&](const std::string& what) {
    return "seed " + std::to_string(seed) + ": " + what + "\n  steps:" + log;
  };
  bool behind = false;  // the page changed since the agent's last FactPack
  auto mutate = [&](std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) log += std::string(" ") + mutation_name(gen.step());
    behind = behind || n > 0;
  };
  auto deliver = [&](const FactPack& pack, const Snapshot& state) -> std::string {
    ++stats.packs[pack_type_name(pack.type) + (pack.reason.empty() ? std::string() : ":" + pack.reason)];
    for (const RegionBlock& b : pack.regions) {
      stats.unchanged_regions += b.unchanged;
      stats.recalled_regions += b.seen_in > 0;
      stats.replaced_regions += b.replaced;  // a delta that sent a region whole
    }
    log += std::string(" =>") + pack_type_name(pack.type) + "@v" + std::to_string(pack.version);
    if (std::getenv("ATHENA_FIDELITY_PACKS"))
      log += "\n" + render_text(pack) + "\n";  // replaying one seed: what the agent read
    if (texts) texts->push_back(render_text(pack, text_options));
    behind = false;
    std::string err = view.apply(pack);
    if (!err.empty()) return "agent could not apply " + std::string(pack_type_name(pack.type)) + ": " + err;
    stats.mix(std::string(pack_type_name(pack.type)) + "@" + std::to_string(pack.version) + ":" + pack.reason);
    for (const auto& [ref, held] : view.elements()) stats.mix(ref + "=" + canonical_element(held));
    return check_fidelity(view, engine, key, state);
  };

  // CDP events for what changed in the frame tree since `last` (sent half of the time, as the
  // extension would forward them before capturing).
  Snapshot last_sent;
  auto send_events = [&](const Snapshot& now) -> std::string {
    if (rng.below(2) == 0) return "";
    for (const FrameInfo& f : now.frames) {
      bool same = false;
      for (const FrameInfo& o : last_sent.frames)
        same = same || (o.frame_id == f.frame_id && o.loader_id == f.loader_id);
      if (same) continue;
      const std::string ev = R"({"method":"Page.frameNavigated","params":{"frame":{"id":")" + f.frame_id +
                             R"(","loaderId":")" + f.loader_id + "\"" +
                             (f.parent_id.empty() ? "" : R"(,"parentId":")" + f.parent_id + "\"") + "}}}";
      if (!engine.on_event(key, ev)) return "event refused: " + ev;
      log += " [nav " + f.frame_id + "]";
    }
    for (const FrameInfo& o : last_sent.frames) {
      bool still = false;
      for (const FrameInfo& f : now.frames) still = still || f.frame_id == o.frame_id;
      if (still) continue;
      if (!engine.on_event(
              key, R"({"method":"Page.frameDetached","params":{"frameId":")" + o.frame_id + R"(","reason":"remove"}})"))
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
    const std::size_t op = rng.below(10);
    if (op == 0) {
      log += " [snapshot]";
      mutate(rng.below(3));
      state = gen.build();
      if (std::string e = send_events(state); !e.empty()) return fail(e);
      auto pack = engine.snapshot_from(key, state);
      if (!pack) return fail("snapshot: " + pack.error().message);
      if (std::string e = deliver(*pack, state); !e.empty()) return fail(e);
      continue;
    }
    if (op == 1) {
      // Reads of refs (resolve_fresh) and failed actions (begin + abort) on a changing page: none
      // delivers anything, so the agent's version stays the current one.
      const std::size_t n = 1 + rng.below(4);
      for (std::size_t i = 0; i < n; ++i) {
        mutate(1);
        state = gen.build();
        if (std::string e = send_events(state); !e.empty()) return fail(e);
        if (rng.below(2) == 0) {
          log += " [read]";
          if (!view.elements().empty())
            (void)engine.resolve_fresh_from(key, state, view.elements().begin()->first);
          else
            (void)engine.resolve_fresh_from(key, state, "e1");
        } else {
          log += " [failed action]";
          auto pre = engine.begin_action_from(key, state, std::nullopt);
          if (!pre) return fail("begin_action: " + pre.error().message);
          if (!engine.abort_action(key)) return fail("abort_action failed");
        }
      }
      if (auto st = engine.stats(key); !st || st->delivered_version != view.version())
        return fail("reads and failed actions changed the delivered version");
      continue;
    }
    log += " [action";
    mutate(rng.below(100) < 30 ? 1 + rng.below(2) : 0);  // drift before the action
    std::optional<std::uint64_t> agent;
    const std::size_t v = rng.below(10);
    if (v < 7)
      agent = view.version();
    else if (v == 7 && view.version() > 1)
      agent = view.version() - 1;
    else if (v == 8)
      agent = std::nullopt;
    else
      agent = view.version() + 100;
    log += " agent=" + (agent ? "v" + std::to_string(*agent) : std::string("none")) + "]";
    state = gen.build();
    if (std::string e = send_events(state); !e.empty()) return fail(e);
    auto pre = engine.begin_action_from(key, state, agent);
    if (!pre) return fail("begin_action: " + pre.error().message);
    if (pre->freshness == Freshness::kStaleNoHistory) {
      if (!pre->pack || pre->pack->type != PackType::kFull) return fail("stale_no_history without a full snapshot");
      // An agent holding the version it was last delivered is never "too old":
      // versions committed by aborted actions must not push it out of the history.
      if (agent && *agent == view.version() && pre->pack->reason == "stale_version")
        return fail("stale_version for an agent holding the current (last delivered) version v" +
                    std::to_string(*agent));
      if (std::string e = deliver(*pre->pack, state); !e.empty()) return fail("stale_no_history: " + e);
      continue;
    }
    if (rng.below(10) == 0) {
      ++stats.aborts;
      log += " [abort]";
      if (!engine.abort_action(key)) return fail("abort_action failed");
      // Nothing advanced: every ref the agent holds resolves to what it holds, or errors.
      for (const auto& [ref, held] : view.elements()) {
        auto t = engine.resolve(key, ref);
        if (t && (t->role != held.role || t->name != held.name))
          return fail("after abort, " + ref + " resolves to another element");
      }
      continue;
    }
    mutate(rng.below(4));  // what the action did
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
  // The page as the agent was last told it is: a requested snapshot shows it (none when the page
  // changed since, by reads and failed actions that deliver nothing).
  if (texts && !behind) {
    auto now = engine.snapshot_from(key, state);
    if (!now) return fail("last snapshot: " + now.error().message);
    RenderOptions whole = text_options;  // every line: what a trimmed view's lines must be part of
    whole.trim_regions = false;
    whole.caps = false;
    texts->push_back(render_text(*now, whole));
  } else if (texts) {
    texts->push_back("");
  }
  return "";
}

}  // namespace athena::testing
