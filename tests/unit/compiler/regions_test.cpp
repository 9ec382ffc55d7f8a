// Landmark regions, heading context, and the non-interactive things an agent must notice.
#include "athena/limits.h"
#include "helpers.h"

using namespace athena;
using namespace athena::test;

TEST_CASE("innermost landmark wins: labels come from aria-label", "[compiler][regions]") {
  CaptureBuilder b;
  const int body = b.el(0, 0, "body");
  const int header = b.el(0, body, "header");
  const int nav = b.el(0, header, "nav", {{"aria-label", "Primary"}});
  b.text(0, b.el(0, nav, "a", {{"href", "/"}}), "Home");
  b.text(0, b.el(0, header, "button"), "Menu");
  const int main = b.el(0, body, "main");
  const int h = b.el(0, main, "h2");
  b.text(0, h, "Results");
  const int form = b.el(0, main, "form", {{"aria-label", "Filter"}});
  b.text(0, b.el(0, form, "button"), "Apply");
  const int anon = b.el(0, main, "form");
  b.text(0, b.el(0, anon, "button"), "Anon form");
  b.text(0, b.el(0, b.el(0, body, "aside"), "button"), "Side");
  b.text(0, b.el(0, b.el(0, body, "div", {{"role", "search"}}), "button"), "Find");
  b.text(0, b.el(0, b.el(0, body, "footer"), "a", {{"href", "/c"}}), "Contact");
  const Snapshot s = compile_ok(b);
  CHECK(by_name(s, "Home")->region == Region::kNav);
  CHECK(by_name(s, "Home")->region_label == "Primary");
  CHECK(by_name(s, "Menu")->region == Region::kHeader);
  CHECK(by_name(s, "Apply")->region == Region::kForm);
  CHECK(by_name(s, "Apply")->region_label == "Filter");
  CHECK(by_name(s, "Anon form")->region == Region::kMain);
  CHECK(by_name(s, "Side")->region == Region::kAside);
  CHECK(by_name(s, "Find")->region == Region::kSearch);
  CHECK(by_name(s, "Contact")->region == Region::kFooter);
  CHECK(by_name(s, "Apply")->heading == "Results");
  CHECK(by_name(s, "Results")->category == Category::kHeading);
  CHECK(by_name(s, "Results")->level == 2);
  CHECK(by_name(s, "Home")->heading.empty());
}

TEST_CASE("alerts, status and toasts are noticed, cut at kMaxTextChars, and a refused field carries its message",
          "[compiler][notice]") {
  CaptureBuilder b;
  const int body = b.el(0, 0, "body");
  b.text(0, b.el(0, body, "div", {{"role", "alert"}}), "Saved!");
  b.text(0, b.el(0, body, "div", {{"aria-live", "assertive"}}), "Connection lost");
  const int st = b.el(0, body, "div", {{"role", "status"}});
  b.text(0, b.el(0, st, "span", {{"aria-live", "polite"}}), "3 results");  // nested live region: once
  b.text(0, b.el(0, body, "div", {{"class", "Toastify__toast"}}), "Copied");
  b.el(0, body, "div", {{"role", "status"}});  // empty: says nothing yet
  b.el(0, body, "input",
       {{"aria-invalid", "true"}, {"aria-errormessage", "e1"}, {"aria-describedby", "e2"}, {"aria-label", "Email"}});
  b.text(0, b.el(0, body, "div", {{"id", "e1"}}), "Enter a valid email");
  b.text(0, b.el(0, body, "div", {{"id", "e2"}, {"role", "alert"}}), "Required");
  b.text(0, b.el(0, body, "div", {{"id", "e3"}}), "Not referenced by an invalid field");
  b.text(0, b.el(0, body, "div", {{"role", "log"}}), std::string(500, 'x'));
  const Snapshot s = compile_ok(b);
  CHECK(by_name(s, "Saved!")->category == Category::kAlert);
  CHECK(by_name(s, "Connection lost")->category == Category::kAlert);
  CHECK(by_name(s, "3 results")->category == Category::kStatus);
  CHECK(by_name(s, "3 results")->role == "status");
  CHECK(by_name(s, "Copied")->category == Category::kStatus);
  // A refused field carries its messages (aria-errormessage, then aria-describedby) on its own line.
  REQUIRE(by_name(s, "Email"));
  CHECK(by_name(s, "Email")->state.invalid);
  CHECK(by_name(s, "Email")->description == "Enter a valid email Required");
  CHECK(by_name(s, "Enter a valid email") == nullptr);
  CHECK(by_name(s, "Required") == nullptr);
  REQUIRE(by_name(s, "Not referenced by an invalid field"));
  CHECK(by_name(s, "Not referenced by an invalid field")->category == Category::kText);
  CHECK(by_name(s, std::string(limits::kMaxTextChars, 'x')) != nullptr);
  int statuses = 0;
  for (const auto& n : s.nodes) statuses += n.category == Category::kStatus;
  CHECK(statuses == 3);
}

TEST_CASE("visibility: hidden, transparent, zero-size unless focusable, clickable containers",
          "[compiler][visibility]") {
  CaptureBuilder b;
  const int body = b.el(0, 0, "body");
  const int vh = b.el(0, body, "button", {{"aria-label", "VisHidden"}});
  b.style(0, vh, "visibility", "hidden");
  const int op = b.el(0, body, "div");
  b.style(0, op, "opacity", "0");
  b.el(0, op, "button", {{"aria-label", "InTransparent"}});
  const int none = b.el(0, body, "button", {{"aria-label", "NoBox"}});
  b.no_box(0, none);
  b.el(0, body, "button", {{"aria-label", "ZeroFocusable"}}, {0, 0, 0, 0});
  const int zc = b.el(0, body, "span", {{"aria-label", "ZeroClickable"}}, {0, 0, 0, 0});
  b.flag(0, zc, "isClickable");
  const int contents = b.el(0, body, "div", {{"style", "display:contents"}});
  b.no_box(0, contents);
  b.el(0, contents, "button", {{"aria-label", "UnderContents"}});
  const int root = b.el(0, body, "div", {{"id", "root"}});
  b.flag(0, root, "isClickable");  // delegated listeners (React): a container, not a control
  b.el(0, root, "button", {{"aria-label", "Real"}});
  const int clicky = b.el(0, body, "span", {{"title", "Clicky"}});
  b.flag(0, clicky, "isClickable");
  b.el(0, body, "div", {{"contenteditable", ""}, {"aria-label", "Editor"}});
  b.el(0, body, "div", {{"tabindex", "0"}, {"aria-label", "Tabbable"}});
  b.el(0, body, "div", {{"tabindex", "-1"}, {"aria-label", "NotTabbable"}});
  const int ah = b.el(0, body, "div", {{"aria-hidden", "true"}});
  b.el(0, ah, "button", {{"aria-label", "AriaHidden"}});
  const Snapshot s = compile_ok(b);
  CHECK(by_name(s, "VisHidden") == nullptr);
  CHECK(by_name(s, "InTransparent") == nullptr);
  CHECK(by_name(s, "NoBox") == nullptr);
  CHECK(by_name(s, "ZeroFocusable") != nullptr);
  CHECK(by_name(s, "ZeroClickable") == nullptr);
  CHECK(by_name(s, "UnderContents") != nullptr);
  CHECK(by_name(s, "Real") != nullptr);
  CHECK(by_backend(s, b.backend(0, root)) == nullptr);
  // Chrome names a non-focusable generic element not by its title: the title is its description.
  REQUIRE(by_backend(s, b.backend(0, clicky)) != nullptr);
  CHECK(by_backend(s, b.backend(0, clicky))->role == "generic");
  CHECK(by_backend(s, b.backend(0, clicky))->name.empty());
  CHECK(by_backend(s, b.backend(0, clicky))->description == "Clicky");
  CHECK(by_name(s, "Editor") != nullptr);
  CHECK(by_name(s, "Tabbable") != nullptr);
  CHECK(by_name(s, "NotTabbable") == nullptr);
  CHECK(by_name(s, "AriaHidden") == nullptr);
}

TEST_CASE("title from the main document's <title>, url from the frame tree, semantic keys set", "[compiler][page]") {
  CaptureBuilder b("F", "L", "https://example.test/page");
  const int html = b.el(0, 0, "html");
  const int head = b.el(0, html, "head");
  const int title = b.el(0, head, "title");
  b.no_box(0, head);
  b.no_box(0, title);
  b.text(0, title, "  My \n Page ");
  b.no_box(0, title + 1);
  const int body = b.el(0, html, "body");
  b.text(0, b.el(0, body, "button"), "A");
  b.text(0, b.el(0, body, "button"), "A");
  const Snapshot s = compile_ok(b);
  CHECK(s.title == "My Page");
  CHECK(s.url == "https://example.test/page");
  REQUIRE(s.nodes.size() == 2);
  CHECK(s.viewport.width == 1280);
}
