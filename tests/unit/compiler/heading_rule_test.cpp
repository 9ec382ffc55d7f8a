// A heading's level is one rule (rules/headings.json, read off Chrome): every case through the
// core's heading_level (extension/test/heading-rule.test.mjs runs the same cases through the page
// side's extension/lib/headings.js).
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>

#include "compiler/roles.h"
#include "rule_table.h"

using namespace athena;

TEST_CASE("heading level: every case of rules/headings.json, by the core", "[compiler][roles]") {
  const nlohmann::json rule = athena::testing::rule_table("headings.json");
  for (const auto& c : rule["cases"]) {
    INFO(c.dump());
    const std::string tag = c["tag"];
    const bool has = !c["ariaLevel"].is_null();
    const std::string level = has ? c["ariaLevel"].get<std::string>() : "";
    CHECK(compiler::heading_level(tag, level, has) == c["level"].get<int>());
  }
  CHECK(compiler::heading_level("div", "", false) == rule["defaultLevel"].get<int>());
  CHECK(compiler::heading_level("div", std::to_string(rule["maxLevel"].get<int>()), true) ==
        rule["maxLevel"].get<int>());
  CHECK(compiler::heading_level("div", "none", true) == rule["invalidLevel"].get<int>());
}
