// The one quoting routine against its shared table (tests/support/quoting.json, also run by
// extension/test/quote.test.mjs against the extension's copy for the strings it writes itself).
#include <catch2/catch.hpp>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "render/lines.h"

TEST_CASE("quoting: every case of the shared table", "[render][quoting]") {
  std::ifstream f(std::string(ATHENA_CASES_DIR) + "/../support/quoting.json");
  REQUIRE(f);
  std::stringstream ss;
  ss << f.rdbuf();
  const auto table = nlohmann::json::parse(ss.str());
  REQUIRE(table["cases"].size() >= 6);
  for (const auto& c : table["cases"]) {
    INFO(c.dump());
    std::string out;
    athena::render::quoted(out, c["in"].get<std::string>());
    CHECK(out == c["quoted"].get<std::string>());
  }
}
