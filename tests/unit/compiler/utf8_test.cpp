// compiler/utf8.h: the UTF-8 rule both capture readers apply (RFC 3629 §3 and §4), with the
// offset of the byte that breaks a sequence (where the JSON parser says it broke).
#include "compiler/utf8.h"

#include <catch2/catch.hpp>
#include <string>

#include "compiler/json_doc.h"

using athena::compiler::JsonDoc;
using athena::compiler::utf8_sequence;

namespace {

// {length, bad} of the sequence at the start of `bytes`.
std::pair<std::size_t, std::size_t> seq(const std::string& bytes) {
  std::size_t bad = 99;
  const std::size_t len = utf8_sequence(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size(), bad);
  return {len, len ? 99 : bad};
}

}  // namespace

TEST_CASE("utf8: RFC 3629 §4, the boundaries of every length are valid", "[compiler][utf8]") {
  CHECK(seq("\x7F") == std::make_pair(std::size_t{1}, std::size_t{99}));          // U+007F
  CHECK(seq("\xC2\x80") == std::make_pair(std::size_t{2}, std::size_t{99}));      // U+0080
  CHECK(seq("\xDF\xBF") == std::make_pair(std::size_t{2}, std::size_t{99}));      // U+07FF
  CHECK(seq("\xE0\xA0\x80") == std::make_pair(std::size_t{3}, std::size_t{99}));  // U+0800
  CHECK(seq("\xED\x9F\xBF") == std::make_pair(std::size_t{3}, std::size_t{99}));  // U+D7FF, last before the surrogates
  CHECK(seq("\xEE\x80\x80") == std::make_pair(std::size_t{3}, std::size_t{99}));  // U+E000, first after them
  CHECK(seq("\xEF\xBF\xBF") == std::make_pair(std::size_t{3}, std::size_t{99}));  // U+FFFF
  CHECK(seq("\xF0\x90\x80\x80") == std::make_pair(std::size_t{4}, std::size_t{99}));  // U+10000
  CHECK(seq("\xF4\x8F\xBF\xBF") == std::make_pair(std::size_t{4}, std::size_t{99}));  // U+10FFFF
  CHECK(seq("\xC3\xA9rest").first == 2);  // only the first sequence is measured
}

TEST_CASE("utf8: RFC 3629 §3, what is not UTF-8 names its first bad byte", "[compiler][utf8]") {
  // Bad lead bytes: a continuation byte, the overlong leads C0/C1, and F5..FF.
  for (const char* lead : {"\x80", "\xBF", "\xC0\xAF", "\xC1\xBF", "\xF5\x80\x80\x80", "\xFF"})
    CHECK(seq(lead).second == 0);
  CHECK(seq("\xE0\x9F\xBF") == std::make_pair(std::size_t{0}, std::size_t{1}));      // overlong 3-byte form
  CHECK(seq("\xED\xA0\x80") == std::make_pair(std::size_t{0}, std::size_t{1}));      // U+D800, a surrogate
  CHECK(seq("\xF0\x8F\xBF\xBF") == std::make_pair(std::size_t{0}, std::size_t{1}));  // overlong 4-byte form
  CHECK(seq("\xF4\x90\x80\x80") == std::make_pair(std::size_t{0}, std::size_t{1}));  // above U+10FFFF
  CHECK(seq("\xE2\x82\x28") == std::make_pair(std::size_t{0}, std::size_t{2}));      // third byte not a continuation
  CHECK(seq("\xF0\x9F\x98") == std::make_pair(std::size_t{0}, std::size_t{3}));      // the bytes end inside it
  CHECK(seq("\xE2") == std::make_pair(std::size_t{0}, std::size_t{1}));
}

TEST_CASE("utf8: the JSON parser points at the byte that breaks a sequence", "[compiler][utf8][json]") {
  auto error_of = [](const std::string& text) {
    auto r = JsonDoc::parse(text, "test", "fix it");
    REQUIRE_FALSE(r.ok());
    return r.error().message;
  };
  // ["a\xE2\x28\xA1"]: the lead is byte 4 (1-based), the bad continuation byte 5.
  CHECK(error_of("[\"a\xE2\x28\xA1\"]") == "test: not valid JSON (error at byte 5 of 8); fix it");
  CHECK(error_of("[\"a\xC0\xAF\"]") == "test: not valid JSON (error at byte 4 of 7); fix it");
  CHECK(error_of("[\"a\xF0\x9F\x98") == "test: not valid JSON (error at byte 6 of 6; truncated?); fix it");
}
