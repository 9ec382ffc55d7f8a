// The chunk rule is one table (rules/native-chunks.json): every case through athena-bridge's
// ChunkAssembler (extension/test/chunk-rule.test.mjs feeds the same cases to extension/lib/native.js).
#include <catch2/catch.hpp>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <string>

#include "framing.h"
#include "limits.h"
#include "rule_table.h"

using namespace athena::bridge;

namespace {
nlohmann::json chunk_rule() {
  return athena::testing::rule_table("native-chunks.json");
}
}  // namespace

TEST_CASE("chunk rule: every case of rules/native-chunks.json, through the bridge's ChunkAssembler",
          "[bridge][framing]") {
  const nlohmann::json rule = chunk_rule();
  REQUIRE(rule["cases"].size() > 10);
  for (const auto& c : rule["cases"]) {
    INFO(c["name"].get<std::string>());
    ChunkAssembler as(c["maxChunks"].get<std::size_t>(), c["maxBytes"].get<std::size_t>());
    REQUIRE(c["chunks"].size() == c["then"].size());
    for (std::size_t i = 0; i < c["chunks"].size(); ++i) {
      INFO("piece " << i);
      const nlohmann::json& want = c["then"][i];
      if (want.is_object()) {
        CHECK_THROWS_WITH(as.add(c["chunks"][i]), want["error"].get<std::string>());
      } else {
        const auto got = as.add(c["chunks"][i]);
        if (want.is_null())
          CHECK_FALSE(got.has_value());
        else
          CHECK(got == std::optional<std::string>(want.get<std::string>()));
      }
    }
  }
}

TEST_CASE("chunk rule: the bridge's bounds are the extension's (generated from extension/lib/limits.js)",
          "[bridge][framing]") {
  // The generated values, as the wire protocol documents them (docs/wire-protocol.md, `chunk`).
  CHECK(limits::kMaxToChromeBytes == 1024u * 1024u);
  CHECK(limits::kMaxChunks == 256u);
  CHECK(limits::kMaxFrameBytes == 64u * 1024u * 1024u);
}
