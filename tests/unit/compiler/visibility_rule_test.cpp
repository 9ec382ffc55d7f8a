// The visibility rule against its shared table (rules/visibility.json): every case built as a
// capture and asked of the core's Visibility (with is_focusable, as the compiler asks it).
// extension/test/visibility-rule.test.mjs runs the same cases through the page side's whyHidden.
#include <fstream>
#include <sstream>

#include "rule_table.h"
#include "compiler/capture.h"
#include "compiler/dom_view.h"
#include "compiler/roles.h"
#include "compiler/visibility.h"
#include "helpers.h"

using namespace athena;
using namespace athena::test;

namespace {
nlohmann::json visibility_cases() {
  return athena::testing::rule_table("visibility.json")["cases"];
}

std::string or_default(const nlohmann::json& o, const char* key, const char* fallback) {
  return o.contains(key) ? o[key].get<std::string>() : fallback;
}
}  // namespace

TEST_CASE("visibility: every case of rules/visibility.json, by the core's Visibility", "[compiler][visibility]") {
  const nlohmann::json cases = visibility_cases();
  REQUIRE(cases.size() > 30);
  for (const auto& c : cases) {
    INFO(c.dump());
    CaptureBuilder b;
    int parent = b.el(0, 0, "body");
    bool boxed = true;  // a display:none subtree has no layout boxes in a capture
    for (const auto& a : c["ancestors"]) {
      parent = b.el(0, parent, "div");
      b.style(0, parent, "opacity", or_default(a, "opacity", "1"));
      if (or_default(a, "display", "block") == "none") boxed = false;
      if (!boxed) b.no_box(0, parent);
    }
    Attrs attrs{{"id", "target"}};
    for (const auto& [k, v] : c["attrs"].items()) attrs.emplace_back(k, v.get<std::string>());
    const double w = c["size"][0].get<double>(), h = c["size"][1].get<double>();
    const int el = b.el(0, parent, c["tag"].get<std::string>(), attrs, {0, 0, w, h});
    for (const auto& [k, v] : c["style"].items()) b.style(0, el, k, v.get<std::string>());
    if (or_default(c["style"], "display", "block") == "none") boxed = false;
    if (!boxed) b.no_box(0, el);

    const std::string capture = b.str();  // the parsed document views it
    auto json = compiler::parse_json(capture);
    REQUIRE(json.ok());
    auto raw = compiler::read_capture(json.value().root());
    REQUIRE(raw.ok());
    std::vector<std::string> warnings;
    const compiler::Dom dom(raw.value(), warnings);
    const compiler::Visibility vis(dom);
    int target = -1;
    for (const int i : dom.order)
      if (dom.is_element(i) && dom.attr(i, "id") == "target") target = i;
    REQUIRE(target >= 0);
    CHECK(vis.visible(target, compiler::is_focusable(dom, target)) == c["visible"].get<bool>());
  }
}
