// The secret-field rule against its shared table (rules/secret-fields.json, also run by
// extension/test/secrets.test.mjs against the extension's read and trace paths): a secret value
// never reaches a FactPack (text or JSON), nor a find answer; a plain one does.
#include <catch2/catch.hpp>

#include "rule_table.h"

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "athena/compiler.h"
#include "athena/engine.h"
#include "athena/render.h"
#include "capture_builder.h"

using namespace athena;

TEST_CASE("secret fields: one rule, one table, every output of the core", "[compiler][secrets]") {
  const nlohmann::json table = athena::testing::rule_table("secret-fields.json");
  const std::string value = table["value"];
  const auto& cases = table["cases"];
  REQUIRE(cases.size() >= 40);

  for (std::size_t k = 0; k < cases.size(); ++k) {
    const auto& c = cases[k];
    INFO("case " << k << ": " << c.dump());
    test::CaptureBuilder b;
    const int body = b.el(0, 0, "body");
    test::Attrs attrs;
    if (!c["attrs"].contains("aria-label")) attrs.emplace_back("aria-label", "Field " + std::to_string(k));
    for (auto it = c["attrs"].begin(); it != c["attrs"].end(); ++it) attrs.emplace_back(it.key(), it.value().get<std::string>());
    const std::string tag = c.value("tag", "input");
    const int input = b.el(0, body, tag, attrs);
    b.rare_string(0, input, tag == "textarea" ? "textValue" : "inputValue", value);
    const bool secret = c["secret"];

    auto snap = compile_capture(b.str());
    REQUIRE(snap);
    REQUIRE(snap.value().nodes.size() == 1);
    const NodeState& st = snap.value().nodes[0].state;
    CHECK(st.value_redacted == secret);
    CHECK((st.value == value) == !secret);

    Engine engine;
    const PageKey key{0, 1};
    REQUIRE(engine.open_page(key));
    auto full = engine.snapshot(key, b.str());
    REQUIRE(full);
    const std::string text = render_text(full.value()), json = render_json(full.value());
    auto found = engine.find(key, FindQuery{});
    REQUIRE(found);
    const bool leaked = text.find(value) != std::string::npos || json.find(value) != std::string::npos ||
                        (!found.value().empty() && found.value()[0].state.value == value);
    CHECK(leaked == !secret);
    if (secret) CHECK(text.find("value=redacted") != std::string::npos);
  }
}
