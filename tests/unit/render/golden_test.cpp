// Every recorded case replayed (tests/support/replay.h) must render byte for byte what
// tests/golden/<case>/<step>.{txt,json} hold. Refresh with `./athena goldens` and read the diff.
#include <catch2/catch.hpp>
#include <filesystem>
#include <set>

#include "capture_binary.h"
#include "corpus.h"
#include "replay.h"

using namespace athena;

TEST_CASE("recorded cases render exactly their goldens", "[render][golden]") {
  const auto cases = corpus::load_cases();
  REQUIRE_FALSE(cases.empty());  // tests/cases is recorded by ./athena record
  const std::string root = ATHENA_GOLDEN_DIR;
  std::size_t compared = 0;
  std::set<std::string> types;
  for (const corpus::Case& c : cases) {
    for (const auto& s : testing::replay_case(c)) {
      INFO(c.name << "/" << s.name << " (refresh with ./athena goldens if the change is intended)");
      REQUIRE(s.ok);
      const std::string base = root + "/" + c.name + "/" + s.name;
      REQUIRE(std::filesystem::exists(base + ".txt"));
      CHECK(corpus::read_file(base + ".txt") == s.text);
      CHECK(corpus::read_file(base + ".json") == s.json + "\n");
      types.insert(pack_type_name(s.pack.type));
      ++compared;
    }
  }
  // Every response type has goldens from real pages.
  for (const char* t : {"full", "delta", "no_change", "overlay_opened", "overlay_closed"}) {
    INFO("no golden of type " << t);
    CHECK(types.count(t) == 1);
  }
  CHECK(compared > 0);
}

// The extension sends captures in binary form (docs/capture-format.md): the same goldens, byte for byte.
TEST_CASE("recorded cases fed in binary form render exactly their goldens", "[render][golden][binary]") {
  const std::string root = ATHENA_GOLDEN_DIR;
  std::size_t compared = 0;
  for (corpus::Case c : corpus::load_cases()) {
    for (corpus::Step& step : c.steps) step.capture_json = testing::to_binary_capture(step.capture_json);
    for (const auto& s : testing::replay_case(c)) {
      INFO(c.name << "/" << s.name << " (binary form)");
      REQUIRE(s.ok);
      const std::string base = root + "/" + c.name + "/" + s.name;
      CHECK(corpus::read_file(base + ".txt") == s.text);
      CHECK(corpus::read_file(base + ".json") == s.json + "\n");
      ++compared;
    }
  }
  CHECK(compared > 0);
}
