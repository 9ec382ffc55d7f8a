// The one quoting routine against its shared table (rules/quoting.json, also run by
// extension/test/quote.test.mjs against the extension's copy for the strings it writes itself):
// the same quoted values, the same escaped text, and the same set of code points turned into
// spaces, checked here over every Unicode code point as the extension checks it.
#include <catch2/catch.hpp>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <vector>

#include "render/lines.h"
#include "rule_table.h"

namespace {

nlohmann::json table() {
  return athena::testing::rule_table("quoting.json");
}

std::string utf8(char32_t cp) {
  std::string s;
  if (cp < 0x80) {
    s.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    s.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    s.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    s.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    s.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    s.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    s.push_back(static_cast<char>(0xF0 | (cp >> 18)));
    s.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    s.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    s.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
  return s;
}

}  // namespace

TEST_CASE("quoting: every case of the shared table", "[render][quoting]") {
  const auto t = table();
  REQUIRE(t["cases"].size() >= 6);
  for (const auto& c : t["cases"]) {
    INFO(c.dump());
    std::string out;
    athena::render::quoted(out, c["in"].get<std::string>());
    CHECK(out == c["quoted"].get<std::string>());
  }
  REQUIRE(t["escaped"].size() >= 3);
  for (const auto& c : t["escaped"]) {
    INFO(c.dump());
    std::string out;
    athena::render::escaped(out, c["in"].get<std::string>());
    CHECK(out == c["escaped"].get<std::string>());
  }
}

TEST_CASE("quoting: exactly the table's spaces become a space, over every code point", "[render][quoting]") {
  const auto t = table();
  std::vector<std::pair<long, long>> spaces;
  for (const auto& r : t["spaces"]) spaces.emplace_back(r[0].get<long>(), r[1].get<long>());
  REQUIRE(!spaces.empty());
  std::vector<long> wrong;
  for (char32_t cp = 0; cp <= 0x10FFFF; ++cp) {
    if (cp >= 0xD800 && cp <= 0xDFFF) continue;
    const std::string ch = utf8(cp);
    bool space = false;
    for (const auto& [lo, hi] : spaces) space = space || (static_cast<long>(cp) >= lo && static_cast<long>(cp) <= hi);
    const std::string expect = space ? " " : (cp == '"' || cp == '\\' || cp == '<') ? "\\" + ch : ch;
    std::string out;
    athena::render::escaped(out, ch);
    if (out != expect) wrong.push_back(static_cast<long>(cp));
  }
  CHECK(wrong.empty());
  for (const auto& cp : t["line_breaks"]) {
    std::string out;
    athena::render::escaped(out, utf8(static_cast<char32_t>(cp.get<long>())));
    CHECK(out == " ");  // a line break of a read block is a space in every quoted value
  }
}
