// The visibility rule against its shared table (rules/visibility.json): every case built as a
// capture and asked of the core's Visibility (with is_focusable, as the compiler asks it).
// extension/test/visibility-rule.test.mjs runs the same cases through the page side's whyHidden.
#include <fstream>
#include <sstream>

#include "compiler/capture.h"
#include "compiler/dom_view.h"
#include "compiler/roles.h"
#include "compiler/visibility.h"
#include "helpers.h"
#include "rule_table.h"

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
      std::vector<double> box = {0, 0, 100, 20};  // the builder's default box
      if (a.contains("size")) box = {0, 0, a["size"][0].get<double>(), a["size"][1].get<double>()};
      parent = b.el(0, parent, "div", {}, box);
      b.style(0, parent, "opacity", or_default(a, "opacity", "1"));
      b.style(0, parent, "overflow", or_default(a, "overflow", "visible"));
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

// Issue 52: AG Grid's header keeps "Press ENTER to sort" in a 1px box that clips it (its aria
// description container); a close button is named by a visually-hidden span. The instructions are
// no line of the page; the button keeps the name they give it (names follow accname, which only
// display and visibility take words from).
TEST_CASE("visibility: screen-reader-only text is no line, and still names what it labels", "[compiler][visibility]") {
  CaptureBuilder b;
  const int body = b.el(0, 0, "body", {}, {0, 0, 800, 600});
  const int main = b.el(0, body, "main", {}, {0, 0, 800, 600});
  b.text(0, b.el(0, main, "h1", {}, {0, 0, 800, 30}), "Orders");
  const int sr = b.el(0, main, "div", {{"class", "ag-aria-description-container"}}, {0, 40, 1, 1});
  b.style(0, sr, "overflow", "hidden");
  b.style(0, sr, "position", "absolute");
  b.text(0, b.el(0, sr, "span", {}, {0, 40, 300, 16}), "Press ENTER to sort");
  const int close = b.el(0, main, "button", {}, {0, 80, 24, 24});
  const int hidden = b.el(0, close, "span", {{"class", "visually-hidden"}}, {0, 80, 1, 1});
  b.style(0, hidden, "overflow", "hidden");
  b.text(0, hidden, "Close dialog", {0, 80, 90, 16});
  b.text(0, b.el(0, main, "p", {}, {0, 120, 400, 20}), "Six orders this week.");
  const Snapshot s = compile_ok(b);
  CHECK(by_name(s, "Press ENTER to sort") == nullptr);
  CHECK(by_role_name(s, "button", "Close dialog") != nullptr);
  CHECK(by_name(s, "Six orders this week.") != nullptr);
  for (const ReadableNode& n : s.nodes) CHECK(n.name.find("Press ENTER") == std::string::npos);
}
