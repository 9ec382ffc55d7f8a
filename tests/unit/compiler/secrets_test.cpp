// The secret-field rule against its shared table (rules/secret-fields.json, also run by
// extension/test/secrets.test.mjs against the extension's read and trace paths): a secret value
// never reaches a FactPack (text or JSON), nor a find answer; a plain one does.
#include <algorithm>
#include <catch2/catch.hpp>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "athena/compiler.h"
#include "athena/engine.h"
#include "athena/render.h"
#include "capture_builder.h"
#include "rule_table.h"

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
    const std::string tag = c.value("tag", "input");
    const bool labelled = c.contains("label");
    // A case's "label" is the text of a <label for> (inputs, textareas) or of an aria-labelledby
    // target (other fields), the one thing that names the field.
    if (labelled) {
      const bool native = tag == "input" || tag == "textarea";
      const int l =
          b.el(0, body, native ? "label" : "span",
               native ? test::Attrs{{"for", c["attrs"]["id"].get<std::string>()}} : test::Attrs{{"id", "lbl"}});
      b.text(0, l, c["label"].get<std::string>());
      if (!native) attrs.emplace_back("aria-labelledby", "lbl");
    } else if (!c["attrs"].contains("aria-label")) {
      attrs.emplace_back("aria-label", "Field " + std::to_string(k));
    }
    for (auto it = c["attrs"].begin(); it != c["attrs"].end(); ++it)
      attrs.emplace_back(it.key(), it.value().get<std::string>());
    const int input = b.el(0, body, tag, attrs);
    if (tag == "input" || tag == "textarea")
      b.rare_string(0, input, tag == "textarea" ? "textValue" : "inputValue", value);
    else
      b.text(0, input, value);  // an editor's value is its text
    const bool secret = c["secret"];

    auto snap = compile_capture(b.str());
    REQUIRE(snap);
    const auto field = std::find_if(snap.value().nodes.begin(), snap.value().nodes.end(),
                                    [&](const auto& n) { return n.backend_node_id == b.backend(0, input); });
    REQUIRE(field != snap.value().nodes.end());
    const NodeState& st = field->state;
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
    bool found_value = false;
    for (const auto& f : found.value()) found_value = found_value || f.state.value.find(value) != std::string::npos;
    const bool leaked = text.find(value) != std::string::npos || json.find(value) != std::string::npos || found_value;
    CHECK(leaked == !secret);
    if (secret) CHECK(text.find("value=redacted") != std::string::npos);
  }
}
