// Overlay rules 1-5 (see core/src/compiler/overlays.h), each at its edges.
#include <algorithm>

#include "athena/engine.h"
#include "helpers.h"

using namespace athena;
using namespace athena::test;

namespace {
Snapshot one(const Attrs& attrs, const std::string& z = "auto", bool backdrop = false,
             const std::string& position = "static") {
  CaptureBuilder b;
  const int body = b.el(0, 0, "body");
  const int o = b.el(0, body, "div", attrs, {10, 10, 300, 200});
  b.style(0, o, "z-index", z);
  b.style(0, o, "position", position);
  b.text(0, b.el(0, o, "button"), "Inside");
  if (backdrop) b.el(0, body, "div", {{"class", "modal-backdrop show"}});
  return compile_ok(b);
}

// A popup (attrs) next to the control that opens it: <button aria-expanded=expanded>.
Snapshot popup(const Attrs& attrs, const std::string& expanded, const std::string& z = "auto",
               const std::string& position = "absolute", const Attrs& button = {}) {
  CaptureBuilder b;
  const int body = b.el(0, 0, "body");
  const int wrap = b.el(0, body, "div", {{"class", "dropdown"}});
  Attrs ba = button;
  if (!expanded.empty()) ba.push_back({"aria-expanded", expanded});
  b.text(0, b.el(0, wrap, "button", ba), "Open");
  const int o = b.el(0, wrap, "div", attrs, {10, 30, 200, 100});
  b.style(0, o, "z-index", z);
  b.style(0, o, "position", position);
  b.text(0, b.el(0, o, "button"), "Item");
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

TEST_CASE("rule 2: a dialog without aria-modal=true is an overlay only when it behaves as a modal",
          "[compiler][overlays]") {
  // A backdrop beside it
  Snapshot s = one({{"role", "dialog"}, {"aria-modal", "false"}}, "auto", true);
  REQUIRE(s.overlays.size() == 1);
  CHECK(s.overlays[0].rule == 2);
  CHECK(s.overlays[0].type == OverlayType::kDialog);
  CHECK(one({{"role", "alertdialog"}}, "auto", true).overlays.at(0).rule == 2);
  // A <dialog> opened with showModal(): the top layer makes it position: fixed
  for (const char* position : {"fixed", "absolute"}) {
    CaptureBuilder b;
    const int body = b.el(0, 0, "body");
    const int d = b.el(0, body, "dialog", {{"open", ""}, {"aria-label", "Settings"}}, {100, 100, 300, 200});
    b.style(0, d, "position", position);
    b.text(0, b.el(0, d, "button"), "OK");
    Snapshot m = compile_ok(b);
    INFO(position);
    CHECK(m.overlays.size() == (std::string(position) == "fixed" ? 1u : 0u));  // show() vs showModal()
  }
  // Non-modal dialogs (cookie banners, chat widgets) are page regions, whatever their z-index
  CHECK(one({{"role", "dialog"}, {"aria-modal", "false"}}).overlays.empty());
  CHECK(one({{"role", "alertdialog"}}, "2147483647", false, "fixed").overlays.empty());
  CHECK(one({{"role", "dialog"}, {"class", "chat-popup"}}, "9999", false, "fixed").overlays.empty());
  Snapshot banner = one({{"role", "dialog"}, {"aria-label", "Cookies"}}, "9999", false, "fixed");
  CHECK(by_name(banner, "Inside")->overlay == -1);
  CHECK(by_name(banner, "Inside")->region == Region::kDialog);
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
  CHECK(popup({{"class", "dropdown-menu show"}}, "true", "1000").overlays.at(0).type == OverlayType::kDropdown);
  CHECK(popup({{"class", "dropdown-menu show"}}, "false", "1000").overlays.empty());  // always open: page content
  CHECK(one({{"class", "dropdown-menu show"}}, "1000").overlays.empty());
  CHECK(one({{"class", "modalish"}}, "5000").overlays.empty());  // \bmodal\b: no word boundary
  CHECK(one({{"class", "xdialog"}}, "5000").overlays.empty());
  CHECK(one({{"class", "OVERLAY"}}, "5000").overlays.size() == 1);     // case-insensitive like /i
  CHECK(one({{"class", "modal-backdrop"}}, "5000").overlays.empty());  // the dimmer is not the overlay
}

TEST_CASE("rule 5: a floating role=menu/listbox opened by an aria-expanded control is a dropdown",
          "[compiler][overlays]") {
  CHECK(popup({{"role", "menu"}}, "true").overlays.at(0).rule == 5);
  CHECK(popup({{"role", "listbox"}}, "TRUE", "auto", "fixed").overlays.at(0).type == OverlayType::kDropdown);
  CHECK(popup({{"role", "menu"}}, "true", "auto", "static").overlays.empty());  // in flow: a menu bar, not a popup
  // Always open (no control says it opened it): part of the page
  CHECK(popup({{"role", "menu"}}, "").overlays.empty());
  CHECK(popup({{"role", "menu"}}, "false").overlays.empty());
  CHECK(one({{"role", "menu"}}, "auto", false, "absolute").overlays.empty());
  // A control elsewhere on the page that names it in aria-controls
  CHECK(popup({{"role", "menu"}, {"id", "m1"}}, "", "auto", "absolute").overlays.empty());
  {
    CaptureBuilder b;
    const int body = b.el(0, 0, "body");
    const int far = b.el(
        0, b.el(0, b.el(0, b.el(0, b.el(0, b.el(0, b.el(0, body, "div"), "div"), "div"), "div"), "div"), "div"), "div");
    b.text(0, b.el(0, body, "button", {{"aria-expanded", "true"}, {"aria-controls", "x m1"}}), "Open");
    const int m = b.el(0, far, "ul", {{"role", "menu"}, {"id", "m1"}}, {10, 30, 200, 100});
    b.style(0, m, "position", "absolute");
    b.text(0, b.el(0, m, "li", {{"role", "menuitem"}}), "Item");
    CHECK(compile_ok(b).overlays.size() == 1);
  }
  // Its own items' submenu triggers do not count
  {
    CaptureBuilder b;
    const int body = b.el(0, 0, "body");
    const int m = b.el(0, body, "ul", {{"role", "menu"}}, {10, 30, 200, 100});
    b.style(0, m, "position", "absolute");
    b.text(0, b.el(0, m, "li", {{"role", "menuitem"}, {"aria-expanded", "true"}}), "More");
    CHECK(compile_ok(b).overlays.empty());
  }
}

TEST_CASE("rule 5: a dropdown's floating box with its search field is the overlay, the list and the field in it",
          "[compiler][overlays]") {
  // Select2: the page keeps its combobox (expanded); the dropdown is appended to <body> in an
  // absolute box holding the search field and the results list.
  auto build = [](bool opener_inside) {
    CaptureBuilder b;
    const int body = b.el(0, 0, "body");
    const int page = b.el(0, body, "main");
    b.text(0,
           b.el(0, page, "span",
                {{"role", "combobox"}, {"tabindex", "0"}, {"aria-expanded", "true"}, {"aria-label", "Assignee"}}),
           "Choose");
    const int box = b.el(0, body, "span", {{"class", "select2-container"}}, {10, 40, 200, 150});
    b.style(0, box, "position", "absolute");
    const int drop = b.el(0, box, "span", {}, {10, 40, 200, 150});
    b.style(0, drop, "position", "absolute");
    b.el(0, b.el(0, drop, "span"), "input",
         {{"type", "search"}, {"role", "searchbox"}, {"aria-label", "Search"}, {"value", "Gra"}}, {10, 40, 200, 20});
    // Another opened control in the box: it is no popup of the list's, so the list alone is.
    if (opener_inside)
      b.el(0, drop, "button", {{"aria-expanded", "true"}, {"aria-label", "Filters"}}, {10, 60, 200, 20});
    const int list =
        b.el(0, b.el(0, drop, "span"), "ul", {{"role", "listbox"}, {"aria-expanded", "true"}}, {10, 80, 200, 100});
    b.text(0, b.el(0, list, "li", {{"role", "option"}}, {10, 80, 200, 20}), "Grace Hopper");
    return compile_ok(b);
  };
  const Snapshot s = build(false);
  REQUIRE(s.overlays.size() == 1);
  CHECK(s.overlays[0].rule == 5);
  CHECK(s.overlays[0].type == OverlayType::kDropdown);
  CHECK(by_name(s, "Search")->overlay == 0);
  CHECK(by_name(s, "Grace Hopper")->overlay == 0);
  CHECK(by_name(s, "Assignee")->overlay == -1);
  // The nameless list of options is no line: its options are what the agent chooses from.
  CHECK(std::none_of(s.nodes.begin(), s.nodes.end(), [](const ReadableNode& n) { return n.role == "listbox"; }));
  const Snapshot own = build(true);
  REQUIRE(own.overlays.size() == 1);
  CHECK(by_name(own, "Search")->overlay == -1);
  CHECK(by_name(own, "Grace Hopper")->overlay == 0);
}

TEST_CASE("first match wins: invisible overlays are not overlays", "[compiler][overlays]") {
  Snapshot s = one({{"role", "dialog"}, {"data-modal", ""}, {"class", "modal"}}, "2000", true);
  CHECK(s.overlays.at(0).rule == 2);
  CHECK(one({{"role", "dialog"}, {"data-modal", ""}, {"class", "modal"}}, "2000").overlays.at(0).rule == 3);
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
  const int a = b.el(0, body, "div", {{"role", "dialog"}, {"aria-modal", "true"}, {"aria-label", "A"}});
  b.style(0, a, "z-index", "50");
  const int inner = b.el(0, a, "div", {{"data-overlay", ""}, {"aria-label", "Inner"}});
  b.style(0, inner, "z-index", "10");
  b.text(0, b.el(0, inner, "button"), "Deep");
  b.text(0, b.el(0, a, "button"), "Shallow");
  const int c = b.el(0, body, "div", {{"role", "dialog"}, {"aria-modal", "true"}, {"aria-label", "C"}});
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

namespace {
// tests/sites/cookie-banner.html in small: a non-modal cookie banner (role=dialog, fixed, high
// z-index) that stays open, and a button in main that adds a paragraph and a link.
std::string cookie_page(bool more) {
  CaptureBuilder b;
  const int body = b.el(0, 0, "body");
  const int main = b.el(0, body, "main");
  b.text(0, b.el(0, main, "h1"), "News", {0, 0, 200, 30});
  b.text(0, b.el(0, main, "button", {{"id", "more"}}), "Show more");
  const int banner =
      b.el(0, body, "div", {{"role", "dialog"}, {"aria-label", "Cookie consent"}, {"class", "cookie-banner"}},
           {0, 600, 1280, 120});
  b.style(0, banner, "position", "fixed");
  b.style(0, banner, "z-index", "9999");
  b.text(0, b.el(0, banner, "p"), "We use cookies.");
  b.text(0, b.el(0, banner, "button"), "Accept");
  b.text(0, b.el(0, banner, "button"), "Reject");
  if (more) {  // created last: the nodes above keep their backend ids, as in a real page
    b.text(0, b.el(0, main, "p"), "Second story: the river rose overnight.");
    b.text(0, b.el(0, main, "a", {{"href", "/story-2"}}), "Read story 2");
  }
  return b.str();
}
}  // namespace

TEST_CASE("a non-modal cookie banner that stays open does not freeze the page: a click gives a delta of the base page",
          "[compiler][overlays][engine]") {
  const Snapshot before = compile_ok(cookie_page(false));
  CHECK(before.overlays.empty());
  REQUIRE(by_name(before, "Accept"));
  CHECK(by_name(before, "Accept")->overlay == -1);
  CHECK(by_name(before, "Accept")->region == Region::kDialog);

  Engine engine;
  const PageKey key{0, 1};
  REQUIRE(engine.open_page(key));
  auto full = engine.snapshot(key, cookie_page(false));
  REQUIRE(full);
  CHECK(full->overlay.depth == 0);
  auto pre = engine.begin_action(key, cookie_page(false), full->version);
  REQUIRE(pre);
  CHECK(pre->freshness == Freshness::kCurrent);
  ActionInfo info;
  info.kind = "click";
  auto pack = engine.finish_action(key, cookie_page(true), info);
  REQUIRE(pack);
  CHECK(pack->type == PackType::kDelta);
  CHECK(pack->overlay.depth == 0);
  bool link = false;
  for (const Element& e : pack->added) link = link || (e.role == "link" && e.name == "Read story 2");
  CHECK(link);
  std::string gone;
  for (const Invalidation& i : pack->invalidated) gone += i.role + " \"" + i.name + "\" " + i.cause + "; ";
  CHECK(gone == "");
}

TEST_CASE("an open modal that hides the rest of its page with aria-hidden does not take the page away",
          "[compiler][overlays]") {
  // SweetAlert2, MUI and React Aria set aria-hidden on every sibling of the modal's way up to
  // <body> while it is open. The page behind is still the page the agent holds refs of.
  auto page = [](bool open, bool modal) {
    CaptureBuilder b;
    const int body = b.el(0, 0, "body");
    const int main = b.el(0, body, "main", {{"aria-hidden", open ? "true" : "false"}});
    b.text(0, b.el(0, main, "button"), "Behind");
    const int wrap = b.el(0, body, "div", {{"aria-hidden", open ? "true" : "false"}});
    b.text(0, b.el(0, wrap, "button"), "Beside");
    const int container = b.el(0, body, "div", {{"class", "swal2-container"}});
    const int dialog = b.el(0, container, "div",
                            {{"role", "dialog"}, {"aria-modal", modal ? "true" : "false"}, {"aria-label", "Sure?"}});
    if (!open) b.no_box(0, dialog);
    b.text(0, b.el(0, dialog, "button"), "OK");
    // What the page hides for itself stays hidden, inside the dialog too.
    b.text(0, b.el(0, b.el(0, dialog, "span", {{"aria-hidden", "true"}}), "button"), "Icon");
    return compile_ok(b);
  };
  const Snapshot open = page(true, true);
  CHECK(by_name(open, "Behind") != nullptr);
  CHECK(by_name(open, "Beside") != nullptr);
  CHECK(by_name(open, "OK") != nullptr);
  CHECK(by_name(open, "Icon") == nullptr);
  // A dialog that is not modal hides nothing for the page: aria-hidden is the page's own.
  const Snapshot open_not_modal = page(true, false);
  CHECK(by_name(open_not_modal, "Behind") == nullptr);
  CHECK(by_name(open_not_modal, "OK") != nullptr);
}

TEST_CASE("a modal's backdrop, an empty box over the whole viewport that takes clicks, is no line",
          "[compiler][overlays]") {
  // Bootstrap appends it to <body> with a mousedown listener (a click outside closes the dialog).
  CaptureBuilder b;
  const int body = b.el(0, 0, "body");
  const int modal =
      b.el(0, body, "div", {{"role", "dialog"}, {"aria-modal", "true"}, {"aria-label", "Added"}}, {100, 100, 400, 300});
  b.style(0, modal, "position", "fixed");
  b.text(0, b.el(0, modal, "button"), "Close");
  const int backdrop = b.el(0, body, "div", {{"class", "modal-backdrop show"}}, {0, 0, 1280, 720});
  b.flag(0, backdrop, "isClickable");
  // Still lines: an empty clickable box smaller than the viewport (an icon with no name), and a
  // clickable box over the whole viewport that says something.
  const int icon = b.el(0, body, "span", {}, {10, 10, 24, 24});
  b.flag(0, icon, "isClickable");
  const int sheet = b.el(0, body, "div", {}, {0, 0, 1280, 720});
  b.flag(0, sheet, "isClickable");
  b.text(0, sheet, "Tap anywhere to continue");
  const Snapshot s = compile_ok(b);
  CHECK(by_backend(s, b.backend(0, backdrop)) == nullptr);
  CHECK(by_backend(s, b.backend(0, icon)) != nullptr);
  CHECK(by_name(s, "Tap anywhere to continue") != nullptr);
  CHECK(by_name(s, "Close") != nullptr);
}
