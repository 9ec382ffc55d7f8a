// The tab and frame words are one table (rules/words.json) that the core and the extension both
// check against: every case there through core/src/words.h (tests/node/ref-rule.test.mjs runs the
// same cases through extension/lib/ref.js and tabs.js).
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>

#include "rule_table.h"
#include "words.h"

using namespace athena;

TEST_CASE("tab word: every valid case of rules/words.json is made by tab_word", "[engine][refs]") {
  const nlohmann::json rule = athena::testing::rule_table("words.json");
  for (const auto& c : rule["tab"]["valid"]) {
    INFO(c.dump());
    CHECK(tab_word(c["context"].get<long long>(), c["page"].get<long long>()) == c["word"].get<std::string>());
  }
}

TEST_CASE("frame word: every case of rules/words.json, made by frame_word and read by frame_span", "[engine][refs]") {
  const nlohmann::json rule = athena::testing::rule_table("words.json");
  const nlohmann::json& frame = rule["frame"];
  CHECK(frame["maxDigits"].get<std::size_t>() == kFrameWordMaxDigits);
  for (const auto& c : frame["valid"]) {
    const std::string word = c["word"];
    INFO(word);
    const long index = c["index"].get<long>();
    CHECK(frame_word(index) == word);
    CHECK(frame_span(word) == std::pair<long, long>{index, index});
  }
  for (const auto& c : frame["invalid"]) {
    const std::string word = c;
    INFO(word);
    CHECK(frame_span(word) == std::pair<long, long>{-1, -1});
  }
  for (const auto& c : frame["runs"]) {
    const std::string word = c["word"];
    INFO(word);
    CHECK(frame_span(word) == std::pair<long, long>{c["from"].get<long>(), c["to"].get<long>()});
  }
  for (const auto& c : frame["invalidRuns"]) {
    const std::string word = c;
    INFO(word);
    CHECK(frame_span(word) == std::pair<long, long>{-1, -1});
  }
}
