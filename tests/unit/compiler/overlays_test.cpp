// Overlay rules 1-5 (see core/src/compiler/overlays.h), each at its edges.
#include "helpers.h"

using namespace athena;
using namespace athena::test;

namespace {
Snapshot one(const Attrs& attrs, const std::string& z = "auto", bool backdrop = false, const std::string& position = "static") {
  CaptureBuilder b;
  const int body = b.el(0, 0, "body");
  const int o = b.el(0, body, "div", attrs, {10, 10, 300, 200});
  b.style(0, o, "z-index", z);
  b.style(0, o, "position", position);
  b.text(0, b.el(0, o, "button"), "Inside");
  if (backdrop) b.el(0, body, "div", {{"class", "modal-backdrop show"}});
  return compile_ok(b);
}
}  // namespace

TEST_CASE("rule 1: dialog + aria-modal=true is a modal", "[compiler][overlays]") {
  Snapshot s = one({{"role", "dialog"}, {"aria-modal", "true"}, {"aria-label", "Confirm"}});
  REQUIRE(s.overlays.size() == 1);
  CHECK(s.overlays[0].rule == 1);
  CHECK(s.overlays[0].type == OverlayType::kModal);
  CHECK(s.overlays[0].confidence == 1.0);
  CHECK(s.overlays[0].name == "Confirm");
  CHECK(by_name(s, "Inside")->overlay == 0);
  CHECK(by_name(s, "Inside")->region == Region::kDialog);
  s = one({{"role", "alertdialog"}, {"aria-modal", "TRUE"}});
  CHECK(s.overlays.at(0).rule == 1);
}

TEST_CASE("rule 2: dialog without aria-modal=true", "[compiler][overlays]") {
  Snapshot s = one({{"role", "dialog"}, {"aria-modal", "false"}});
  REQUIRE(s.overlays.size() == 1);
  CHECK(s.overlays[0].rule == 2);
  CHECK(s.overlays[0].type == OverlayType::kDialog);
  CHECK(one({{"role", "alertdialog"}}).overlays.at(0).rule == 2);
}

TEST_CASE("rule 3: data-overlay / data-modal / data-dialog, even empty", "[compiler][overlays]") {
  for (const char* a : {"data-overlay", "data-modal", "data-dialog"}) {
    Snapshot s = one({{a, ""}});
    REQUIRE(s.overlays.size() == 1);
    CHECK(s.overlays[0].rule == 3);
    CHECK(s.overlays[0].type == OverlayType::kModal);
  }
  CHECK(one({{"data-overlayed", ""}}).overlays.empty());
}

TEST_CASE("rule 4: overlay class words need z-index >= 1000 or a backdrop sibling", "[compiler][overlays]") {
  CHECK(one({{"class", "modal"}}, "1000").overlays.at(0).rule == 4);
  CHECK(one({{"class", "modal"}}, "999").overlays.empty());
  CHECK(one({{"class", "modal"}}, "auto", true).overlays.at(0).rule == 4);
  CHECK(one({{"class", "my-popup"}}, "2000").overlays.at(0).type == OverlayType::kModal);
  CHECK(one({{"class", "dropdown-menu show"}}, "1000").overlays.at(0).type == OverlayType::kDropdown);
  CHECK(one({{"class", "modalish"}}, "5000").overlays.empty());  // \bmodal\b: no word boundary
  CHECK(one({{"class", "xdialog"}}, "5000").overlays.empty());
  CHECK(one({{"class", "OVERLAY"}}, "5000").overlays.size() == 1);  // case-insensitive like /i
  CHECK(one({{"class", "modal-backdrop"}}, "5000").overlays.empty());  // the dimmer is not the overlay
}

TEST_CASE("rule 5: a floating role=menu/listbox is a dropdown", "[compiler][overlays]") {
  CHECK(one({{"role", "menu"}}, "auto", false, "absolute").overlays.at(0).rule == 5);
  CHECK(one({{"role", "listbox"}}, "auto", false, "fixed").overlays.at(0).type == OverlayType::kDropdown);
  CHECK(one({{"role", "menu"}}).overlays.empty());  // in flow: a menu bar, not a popup
}

TEST_CASE("first match wins: invisible overlays are not overlays", "[compiler][overlays]") {
  Snapshot s = one({{"role", "dialog"}, {"data-modal", ""}, {"class", "modal"}}, "2000");
  CHECK(s.overlays.at(0).rule == 2);
  CaptureBuilder b;
  const int body = b.el(0, 0, "body");
  const int hidden = b.el(0, body, "div", {{"role", "dialog"}, {"aria-modal", "true"}});
  b.no_box(0, hidden);
  const int transparent = b.el(0, body, "div", {{"role", "dialog"}});
  b.style(0, transparent, "opacity", "0");
  CHECK(compile_ok(b).overlays.empty());
}

TEST_CASE("overlays sorted by z-index then document order, nested parents, innermost wins", "[compiler][overlays]") {
  CaptureBuilder b;
  const int body = b.el(0, 0, "body");
  const int a = b.el(0, body, "div", {{"role", "dialog"}, {"aria-label", "A"}});
  b.style(0, a, "z-index", "50");
  const int inner = b.el(0, a, "div", {{"data-overlay", ""}, {"aria-label", "Inner"}});
  b.style(0, inner, "z-index", "10");
  b.text(0, b.el(0, inner, "button"), "Deep");
  b.text(0, b.el(0, a, "button"), "Shallow");
  const int c = b.el(0, body, "div", {{"role", "dialog"}, {"aria-label", "C"}});
  b.style(0, c, "z-index", "50");
  b.text(0, b.el(0, body, "button"), "Base");
  const Snapshot s = compile_ok(b);
  REQUIRE(s.overlays.size() == 3);
  CHECK(s.overlays[0].name == "Inner");
  CHECK(s.overlays[1].name == "A");
  CHECK(s.overlays[2].name == "C");
  CHECK(s.overlays[0].parent == 1);
  CHECK(s.overlays[1].parent == -1);
  CHECK(by_name(s, "Deep")->overlay == 0);
  CHECK(by_name(s, "Shallow")->overlay == 1);
  CHECK(by_name(s, "Base")->overlay == -1);
}
