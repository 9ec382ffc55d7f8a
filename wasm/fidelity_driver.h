// The fidelity sessions as JSON, for the wasm test module (test_bindings.cpp) and the native
// side of the same check (bench/wasm_native.cpp --fidelity): one seed, one session, the same
// FactPacks in both, because both run the native suite's own session
// (tests/unit/engine/fidelity_session.h).
#pragma once

#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "../tests/unit/engine/fidelity_session.h"

namespace athena::wasm {

using namespace athena::testing;

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

/// One session's FactPack texts, in order, then the text of a requested snapshot as it ends:
/// {texts: [...], error: ""}; rendered within `token_budget` (0: the default budget).
inline std::string fidelity_texts_json(std::uint64_t seed, std::size_t steps, std::size_t token_budget) {
  RunStats stats;
  std::vector<std::string> texts;
  const std::string err = run_sequence(seed, steps, stats, &texts, token_budget);
  return nlohmann::json{{"texts", texts}, {"error", err}}.dump();
}

}  // namespace athena::wasm
