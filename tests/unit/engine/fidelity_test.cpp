// Fidelity property on random mutation sequences (seeded; ATHENA_FIDELITY_RUNS runs more,
// ATHENA_FIDELITY_SEED replays one).
#include <catch2/catch.hpp>
#include <cstdlib>
#include <string>

#include "fidelity_session.h"

using namespace athena;
using namespace athena::testing;

namespace {

std::size_t env_or(const char* name, std::size_t fallback) {
  const char* v = std::getenv(name);
  return v && *v ? static_cast<std::size_t>(std::strtoull(v, nullptr, 10)) : fallback;
}

}  // namespace

// 10,000 sequences by default in optimized builds (~10 s). Unoptimized builds are ~10x slower
// per step, so they run fewer by default to keep the suite near 20 s (Debug 2,000; ASan/UBSan
// 800); ATHENA_FIDELITY_RUNS=10000 runs the full count anywhere.
#if defined(__SANITIZE_ADDRESS__)
constexpr std::size_t kDefaultRuns = 800;
#elif !defined(NDEBUG)
constexpr std::size_t kDefaultRuns = 2000;
#else
constexpr std::size_t kDefaultRuns = 10000;
#endif

TEST_CASE("fidelity: applying every FactPack to the agent's view equals a fresh full snapshot", "[engine][fidelity]") {
  const std::size_t runs = env_or("ATHENA_FIDELITY_RUNS", kDefaultRuns);
  const std::size_t only = env_or("ATHENA_FIDELITY_SEED", 0);
  RunStats stats;
  std::size_t failures = 0;
  for (std::size_t i = 0; i < runs && failures < 3; ++i) {
    const std::uint64_t seed = only ? only : 1 + i;
    std::string err = run_sequence(seed, 12, stats);
    if (!err.empty()) {
      ++failures;
      FAIL_CHECK(err);
    }
    if (only) break;
  }
  CHECK(failures == 0);
  std::string summary = "fidelity: " + std::to_string(runs) + " sequences, " + std::to_string(stats.steps) +
                        " steps, " + std::to_string(stats.aborts) + " aborts, " +
                        std::to_string(stats.unchanged_regions) + " unchanged regions (" +
                        std::to_string(stats.recalled_regions) + " of a page the tab came back to), " +
                        std::to_string(stats.replaced_regions) + " regions replaced in deltas;";
  for (const auto& [type, n] : stats.packs) summary += " " + type + "=" + std::to_string(n);
  WARN(summary);
  // The generator must actually exercise every kind of FactPack.
  if (runs >= 800 && !only)
    for (const char* type : {"full:first", "full:navigation", "full:stale_version", "full:requested", "delta",
                             "no_change", "overlay_opened", "overlay_closed"})
      CHECK(stats.packs[type] > 0);
  // And regions recalled on a page the tab came back to (seen_in).
  if (runs >= 800 && !only) CHECK(stats.recalled_regions > 0);
  // And deltas that replaced a region whole (a route change, a filter).
  if (runs >= 800 && !only) CHECK(stats.replaced_regions > 0);
}
