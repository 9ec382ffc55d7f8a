// The landmark rule against its shared table (rules/landmarks.json; the rule's table is
// extension/lib/landmarks.js, generated into the core): every case compiled, and the region of a
// button inside the case's element asserted. extension/test/landmark-rule.test.mjs runs the same
// cases through the page side (landmarks.js regionOf).
#include <fstream>
#include <sstream>

#include "helpers.h"
#include "rule_table.h"

using namespace athena;
using namespace athena::test;

namespace {
nlohmann::json landmark_cases() {
  return athena::testing::rule_table("landmarks.json")["cases"];
}

Attrs attrs_of(const nlohmann::json& j) {
  Attrs a;
  for (const auto& [k, v] : j.items()) a.emplace_back(k, v.get<std::string>());
  return a;
}
}  // namespace

TEST_CASE("landmarks: every case of rules/landmarks.json, by the compiler", "[compiler][regions]") {
  const nlohmann::json cases = landmark_cases();
  REQUIRE(cases.size() > 30);
  for (const auto& c : cases) {
    INFO(c.dump());
    CaptureBuilder b;
    int parent = b.el(0, 0, "body");
    for (const auto& a : c["ancestors"]) parent = b.el(0, parent, a["tag"].get<std::string>(), attrs_of(a["attrs"]));
    const int el = b.el(0, parent, c["tag"].get<std::string>(), attrs_of(c["attrs"]));
    b.text(0, b.el(0, el, "button"), "Go");
    const Snapshot s = compile_ok(b);
    const ReadableNode* go = by_name(s, "Go");
    REQUIRE(go);
    CHECK(std::string(region_name(go->region)) == c["region"].get<std::string>());
  }
}
