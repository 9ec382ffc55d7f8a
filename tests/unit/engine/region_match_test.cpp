// Which region the agent's region string names is one table (rules/region-match.json): every case
// through the core's region_matches (tests/wasm/region-match.test.mjs runs the same cases through
// the wasm module's find, which extension/lib/tools/read.js asks).
#include <catch2/catch.hpp>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "engine/find_query.h"
#include "rule_table.h"

using namespace athena;

namespace {
nlohmann::json region_rule() {
  return athena::testing::rule_table("region-match.json");
}

/// The region a case's landmark tag opens: the region of that name (nav, main, aside, form).
Region region_named(const std::string& name) {
  for (int r = 0; r <= static_cast<int>(Region::kForm); ++r)
    if (name == region_name(static_cast<Region>(r))) return static_cast<Region>(r);
  FAIL("no region named " << name);
  return Region::kPage;
}
}  // namespace

TEST_CASE("region matching: every case of rules/region-match.json, by the core's region_matches", "[engine][find]") {
  const nlohmann::json rule = region_rule();
  REQUIRE(rule["cases"].size() > 10);
  for (const auto& c : rule["cases"]) {
    INFO(c.dump());
    Element e;
    e.region = region_named(c["tag"]);
    e.region_label = c["label"];
    CHECK(engine::region_matches(e, c["query"].get<std::string>()) == c["match"].get<bool>());
  }
}
