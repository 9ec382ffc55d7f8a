// The ref grammar is one table (rules/ref.json) that the core and the extension both check
// against: every case there through parse_ref and format_ref (tests/node/ref-rule.test.mjs runs
// the same cases through extension/lib/ref.js).
#include <catch2/catch.hpp>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "engine/view.h"
#include "rule_table.h"

using namespace athena;

namespace {
nlohmann::json ref_rule() {
  return athena::testing::rule_table("ref.json");
}
}  // namespace

TEST_CASE("ref grammar: every case of rules/ref.json, parsed and formatted by the core", "[engine][refs]") {
  const nlohmann::json rule = ref_rule();
  // The grammar's own fields, as the core spells them: tags in order, no leading zero, at most
  // maxDigits digits (a field one digit longer is refused).
  CHECK(rule["fields"] == nlohmann::json::array({"e"}));
  CHECK(rule["leadingZeros"] == false);
  const auto max_digits = rule["maxDigits"].get<std::size_t>();
  engine::ParsedRef p;
  CHECK(engine::parse_ref("e" + std::string(max_digits, '9'), p));
  CHECK_FALSE(engine::parse_ref("e" + std::string(max_digits + 1, '9'), p));
  for (const auto& c : rule["valid"]) {
    const std::string ref = c["ref"];
    INFO(ref);
    REQUIRE(engine::parse_ref(ref, p));
    const auto& f = c["fields"];
    CHECK(p.n == f[0].get<long long>());
    // format_ref makes refs only from the counters the engine issues (RefId is 32 bits): the
    // longer spellings the grammar allows are parsed, never made.
    if (p.n <= static_cast<long long>(std::numeric_limits<engine::RefId>::max()))
      CHECK(engine::format_ref(static_cast<engine::RefId>(p.n)) == ref);
  }
  for (const auto& c : rule["invalid"]) {
    const std::string ref = c;
    INFO(ref);
    CHECK_FALSE(engine::parse_ref(ref, p));
  }
}
