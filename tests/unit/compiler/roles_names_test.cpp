// Roles and accessible names as Chrome computes them (accname 1.2, HTML-AAM), on hand-built captures.
#include "athena/limits.h"
#include "helpers.h"

using namespace athena;
using namespace athena::test;

namespace {
struct Page {
  CaptureBuilder b;
  int body;
  Page() { body = b.el(0, 0, "body"); }
  int add(const std::string& tag, const Attrs& a = {}, const std::string& text = "") {
    const int e = b.el(0, body, tag, a);
    if (!text.empty()) b.text(0, e, text);
    return e;
  }
};
}  // namespace

TEST_CASE("implicit roles follow HTML-AAM with Chrome's names", "[compiler][roles]") {
  Page p;
  p.add("a", {{"href", "/x"}}, "Link");
  p.add("button", {}, "Button");
  p.add("input", {{"type", "checkbox"}, {"aria-label", "Check"}});
  p.add("input", {{"type", "radio"}, {"aria-label", "Radio"}});
  p.add("input", {{"type", "range"}, {"aria-label", "Range"}});
  p.add("input", {{"type", "number"}, {"aria-label", "Number"}});
  p.add("input", {{"type", "search"}, {"aria-label", "Search"}});
  p.add("input", {{"type", "email"}, {"list", "l"}, {"aria-label", "Listed"}});
  p.add("input", {{"aria-label", "Plain"}});
  p.add("input", {{"type", "submit"}});
  p.add("select", {{"aria-label", "Single"}});
  p.add("select", {{"aria-label", "Multi"}, {"multiple", ""}});
  p.add("select", {{"aria-label", "Sized"}, {"size", "4"}});
  p.add("textarea", {{"aria-label", "Area"}});
  const int d = p.add("details");
  p.b.text(0, p.b.el(0, d, "summary"), "Summary");
  p.add("div", {{"role", "bogus tab"}}, "First valid token");
  p.add("a", {{"href", "#"}, {"role", "none"}}, "Focusable none");
  const Snapshot s = compile_ok(p.b);
  CHECK(by_name(s, "Link")->role == "link");
  CHECK(by_name(s, "Button")->role == "button");
  CHECK(by_name(s, "Check")->role == "checkbox");
  CHECK(by_name(s, "Radio")->role == "radio");
  CHECK(by_name(s, "Range")->role == "slider");
  CHECK(by_name(s, "Number")->role == "spinbutton");
  CHECK(by_name(s, "Search")->role == "searchbox");
  CHECK(by_name(s, "Listed")->role == "combobox");
  CHECK(by_name(s, "Plain")->role == "textbox");
  CHECK(by_name(s, "Plain")->input_type == "text");
  CHECK(by_name(s, "Submit")->role == "button");
  CHECK(by_name(s, "Single")->role == "combobox");
  CHECK(by_name(s, "Multi")->role == "listbox");
  CHECK(by_name(s, "Sized")->role == "listbox");
  CHECK(by_name(s, "Area")->role == "textbox");
  CHECK(by_name(s, "Summary")->role == "button");  // Chrome calls it DisclosureTriangle
  CHECK(by_name(s, "First valid token")->role == "tab");
  CHECK(by_name(s, "Focusable none")->role == "link");  // presentational role conflict: focusable keeps its role
}

TEST_CASE("a link needs href: a without href is not interactive, only text", "[compiler][roles]") {
  Page p;
  p.add("a", {}, "No href");
  const Snapshot s = compile_ok(p.b);
  REQUIRE(by_name(s, "No href"));
  CHECK(by_name(s, "No href")->category == Category::kText);
  CHECK(by_name(s, "No href")->role == "text");
}

TEST_CASE("name precedence: labelledby > aria-label > native > content > title > placeholder", "[compiler][accname]") {
  Page p;
  const int l1 = p.add("span", {{"id", "l1"}}, "From");
  p.b.text(0, p.b.el(0, l1, "b"), "labelledby");
  p.add("button", {{"aria-labelledby", "l1 missing"}, {"aria-label", "nope"}}, "content");
  p.add("button", {{"aria-label", "Aria wins"}, {"title", "t"}}, "content");
  p.add("button", {{"aria-label", "   "}}, "Blank label falls through");
  p.add("button", {{"aria-labelledby", "missing"}}, "Missing ref falls through");
  p.add("button", {{"title", "Title only"}});
  p.add("input", {{"title", "Title before placeholder"}, {"placeholder", "ph"}});
  p.add("input", {{"placeholder", "Placeholder only"}});
  const int lab = p.add("label", {{"for", "t2"}}, "For label");
  (void)lab;
  p.add("input", {{"id", "t2"}, {"placeholder", "hint"}});
  const int wrap = p.add("label", {}, "Wrapped ");
  p.b.el(0, wrap, "input", {{"type", "checkbox"}});
  p.add("input", {{"type", "button"}, {"value", "Value name"}});
  p.add("input", {{"type", "reset"}});
  p.add("input", {{"type", "image"}, {"alt", "Alt name"}});
  const int a = p.add("a", {{"href", "/i"}});
  p.b.el(0, a, "img", {{"alt", "Image alt"}});
  const Snapshot s = compile_ok(p.b);
  CHECK(by_name(s, "From labelledby") != nullptr);
  CHECK(by_name(s, "Aria wins") != nullptr);
  CHECK(by_name(s, "Blank label falls through") != nullptr);
  CHECK(by_name(s, "Missing ref falls through") != nullptr);
  CHECK(by_name(s, "Title only")->role == "button");
  CHECK(by_name(s, "Title before placeholder") != nullptr);
  CHECK(by_name(s, "Placeholder only") != nullptr);
  CHECK(by_name(s, "For label")->role == "textbox");
  CHECK(by_name(s, "For label")->description == "hint");
  CHECK(by_name(s, "Wrapped")->role == "checkbox");
  CHECK(by_name(s, "Value name") != nullptr);
  CHECK(by_name(s, "Reset") != nullptr);
  CHECK(by_name(s, "Alt name") != nullptr);
  CHECK(by_name(s, "Image alt")->role == "link");
}

TEST_CASE("a title is a description only when it says what the name does not", "[compiler][accname]") {
  // Sphinx titles every cross-reference with its target: "abs" on the link "abs()" is noise, the
  // target of "range(2 ** 100)" too; "iterator.__next__" on "__next__()" says more.
  Page p;
  p.add("a", {{"href", "#abs"}, {"title", "abs"}}, "abs()");
  p.add("a", {{"href", "#glob"}, {"title", "Globals"}}, "globals()");
  p.add("a", {{"href", "#next"}, {"title", "iterator.__next__"}}, "__next__()");
  p.add("button", {{"title", "Delete this row"}}, "Delete");
  const Snapshot s = compile_ok(p.b);
  CHECK(by_name(s, "abs()")->description.empty());
  CHECK(by_name(s, "globals()")->description.empty());
  CHECK(by_name(s, "__next__()")->description == "iterator.__next__");
  CHECK(by_name(s, "Delete")->description == "Delete this row");
}

TEST_CASE("name from content skips display:none and visibility:hidden, joins blocks with spaces",
          "[compiler][accname]") {
  Page p;
  const int b = p.add("button");
  p.b.text(0, b, "  Save\n ");
  const int gone = p.b.el(0, b, "span");
  p.b.text(0, gone, "HIDDEN");
  p.b.no_box(0, gone);
  p.b.no_box(0, gone + 1);
  const int inv = p.b.el(0, b, "span");
  p.b.style(0, inv, "visibility", "hidden");
  const int it = p.b.text(0, inv, "INVISIBLE");
  p.b.style(0, it, "visibility", "hidden");
  const int blk = p.b.el(0, b, "div");
  p.b.text(0, blk, "changes");
  const int ah = p.b.el(0, b, "span", {{"aria-hidden", "true"}});
  p.b.text(0, ah, "ARIAHIDDEN");
  const Snapshot s = compile_ok(p.b);
  CHECK(by_name(s, "Save changes") != nullptr);
}

TEST_CASE("hidden content referenced by aria-labelledby still names", "[compiler][accname]") {
  Page p;
  const int h = p.add("div", {{"id", "h"}}, "Hidden label");
  p.b.no_box(0, h);
  p.b.no_box(0, h + 1);
  p.add("button", {{"aria-labelledby", "h"}}, "content");
  const Snapshot s = compile_ok(p.b);
  CHECK(by_name(s, "Hidden label")->role == "button");
}

TEST_CASE("embedded controls contribute their value: secrets contribute nothing", "[compiler][accname]") {
  Page p;
  p.add("span", {{"id", "pre"}}, "Quantity");
  const int v = p.add("input", {{"id", "v"}});
  p.b.rare_string(0, v, "inputValue", "42");
  const int pw = p.add("input", {{"id", "pw"}, {"type", "password"}});
  p.b.rare_string(0, pw, "inputValue", "hunter2");
  p.add("button", {{"aria-labelledby", "pre v"}});
  p.add("button", {{"aria-labelledby", "pre pw"}, {"title", "x"}});
  const Snapshot s = compile_ok(p.b);
  CHECK(by_name(s, "Quantity 42") != nullptr);
  CHECK(by_name(s, "Quantity") != nullptr);
  for (const auto& n : s.nodes) CHECK(n.name.find("hunter2") == std::string::npos);
}

TEST_CASE("names are whitespace-collapsed and cut at kMaxNameChars on a UTF-8 boundary", "[compiler][accname]") {
  Page p;
  std::string longname;
  for (int i = 0; i < 100; ++i) longname += "\xC3\xA9";  // é x100 = 200 bytes
  p.add("button", {}, "a" + longname);
  const Snapshot s = compile_ok(p.b);
  REQUIRE(s.nodes.size() == 1);
  CHECK(s.nodes[0].name.size() == 159);  // "a" + 79 two-byte chars: 160 would split one
  CHECK(s.nodes[0].name.substr(0, 3) == "a\xC3\xA9");
}

TEST_CASE("a link's address is cut at kMaxHrefChars: a data: URL of megabytes is not carried along",
          "[compiler][accname]") {
  Page p;
  const std::string data = "data:text/csv;base64," + std::string(1 << 20, 'Q');
  p.add("a", {{"href", data}}, "Download CSV");
  const Snapshot s = compile_ok(p.b);
  const auto* link = by_name(s, "Download CSV");
  REQUIRE(link != nullptr);
  CHECK(link->href == data.substr(0, athena::limits::kMaxHrefChars));
}

TEST_CASE("name from content goes through shadow trees and slotted light DOM", "[compiler][accname][shadow]") {
  // DOMSnapshot shape: the host's children are its shadow tree; a slot's are its assigned nodes.
  Page p;
  const int host = p.add("my-el");
  const int btn = p.b.el(0, host, "button");
  p.b.rare_string(0, btn, "shadowRootType", "open");
  const int slot = p.b.el(0, btn, "slot", {{"name", "t"}});
  p.b.rare_string(0, slot, "shadowRootType", "open");
  p.b.no_box(0, slot);
  p.b.text(0, p.b.el(0, slot, "span", {{"slot", "t"}}), "Slotted");
  const Snapshot s = compile_ok(p.b);
  REQUIRE(by_name(s, "Slotted") != nullptr);
  CHECK(by_name(s, "Slotted")->shadow_path == "my-el");
}

TEST_CASE("DOM-shaped shadow roots are flattened with slot assignment", "[compiler][shadow]") {
  // Shadow root as a #document-fragment child; light children assigned to <slot name> / default slot.
  Page p;
  const int host = p.add("x-card");
  const int light_named = p.b.el(0, host, "span", {{"slot", "title"}});
  p.b.text(0, light_named, "Title");
  const int light_default = p.b.el(0, host, "b");
  p.b.text(0, light_default, "Body");
  const int unassigned = p.b.el(0, host, "i", {{"slot", "nowhere"}});
  p.b.text(0, unassigned, "Lost");
  const int root = p.b.raw(0, host, 11, "#document-fragment");
  const int h = p.b.el(0, root, "h2");
  p.b.no_box(0, p.b.el(0, h, "slot", {{"name", "title"}}));
  const int b = p.b.el(0, root, "button");
  p.b.text(0, b, "Open ");
  const int def = p.b.el(0, b, "slot");
  p.b.no_box(0, def);
  p.b.text(0, def, "fallback");
  const Snapshot s = compile_ok(p.b);
  const ReadableNode* heading = by_name(s, "Title");
  REQUIRE(heading != nullptr);
  CHECK(heading->role == "heading");
  CHECK(heading->shadow_path == "x-card");
  const ReadableNode* button = by_name(s, "Open Body");
  REQUIRE(button != nullptr);
  CHECK(button->shadow_path == "x-card");
  for (const auto& n : s.nodes) CHECK(n.name.find("Lost") == std::string::npos);
}

TEST_CASE("a nameless control is told apart by the words around it, never by its own value", "[compiler][accname]") {
  // Swagger UI's server picker: a select with no label, its chosen option the only text in its
  // parent, the words that say what it picks one level up.
  CaptureBuilder b;
  const int body = b.el(0, 0, "body");
  const int block = b.el(0, body, "div");
  b.text(0, b.el(0, block, "h4"), "Servers");
  const int wrap = b.el(0, block, "div");
  const int box = b.el(0, wrap, "input");
  b.rare_string(0, box, "inputValue", "/api/v2 - This server");
  // Its value first, then the words: only the words.
  const int row = b.el(0, body, "div");
  const int field = b.el(0, row, "input");
  b.rare_string(0, field, "inputValue", "false");
  b.text(0, row, " Also return the customer");
  const Snapshot s = compile_ok(b);
  std::vector<std::string> descs;
  for (const ReadableNode& n : s.nodes)
    if (n.role == "textbox") descs.push_back(n.state.value + " | " + n.description);
  // The words of the second are a text line of their own, the control inside it: it sits under
  // that line, which says them once.
  CHECK(descs == std::vector<std::string>{"/api/v2 - This server | in: Servers", "false | "});
  std::vector<std::string> lines;
  for (const ReadableNode& n : s.nodes)
    lines.push_back(std::string(static_cast<std::size_t>(n.depth), ' ') + n.role + " " + n.name);
  CHECK(lines == std::vector<std::string>{"heading Servers", "textbox ", "text Also return the customer", " textbox "});
}

TEST_CASE("a nameless control inside a text line is under that line, whatever else shows beside it",
          "[compiler][accname]") {
  // TodoMVC's item: <li><div><input type=checkbox><label>Buy milk</label><button>✖</button></div></li>,
  // the label tied to nothing, the button shown only while the mouse is over the item.
  for (const bool hovered : {false, true}) {
    CaptureBuilder b;
    const int body = b.el(0, 0, "body");
    const int list = b.el(0, body, "ul");
    const int view = b.el(0, b.el(0, list, "li"), "div");
    b.el(0, view, "input", {{"type", "checkbox"}});
    b.text(0, b.el(0, view, "label"), "Buy milk");
    const int destroy = b.el(0, view, "button");
    b.text(0, destroy, "\xE2\x9C\x96");
    if (!hovered) b.no_box(0, destroy);
    const Snapshot s = compile_ok(b);
    INFO("hovered: " << hovered);
    std::vector<std::string> lines;
    for (const ReadableNode& n : s.nodes)
      lines.push_back(std::string(static_cast<std::size_t>(n.depth), ' ') + n.role + " " + n.name +
                      (n.description.empty() ? "" : " desc=" + n.description));
    std::vector<std::string> want{"text Buy milk", " checkbox "};
    if (hovered) want.push_back("button \xE2\x9C\x96");
    CHECK(lines == want);
  }
}

TEST_CASE("a control whose whole content is one control of the same name is one line, the outer one's",
          "[compiler][roles][lines]") {
  // jQuery UI's tabs: each <li role=tab> holds only its own <a href role=presentation tabindex=-1>.
  // Chrome's tree has both (tab "Settings", link "Settings" in it); a person sees one tab.
  CaptureBuilder b;
  const int body = b.el(0, 0, "body");
  const int list = b.el(0, body, "ul", {{"role", "tablist"}});
  const int general = b.el(0, list, "li", {{"role", "tab"}, {"aria-selected", "true"}, {"tabindex", "0"}});
  b.text(0, b.el(0, general, "a", {{"href", "#g"}, {"role", "presentation"}, {"tabindex", "-1"}}), "General");
  const int settings = b.el(0, list, "li", {{"role", "tab"}, {"aria-selected", "false"}, {"tabindex", "-1"}});
  const int settings_link =
      b.el(0, settings, "a", {{"href", "#s"}, {"role", "presentation"}, {"tabindex", "-1"}}, {0, 0, 80, 20});
  b.text(0, settings_link, "Settings");
  // Not all of it: words beside the link (a count) are the tab's too, so the link is a part of it.
  const int inbox = b.el(0, list, "li", {{"role", "tab"}, {"aria-selected", "false"}, {"tabindex", "-1"}});
  b.text(0, b.el(0, inbox, "a", {{"href", "#i"}, {"tabindex", "-1"}}), "Inbox");
  b.text(0, b.el(0, inbox, "span"), "3 new");
  // Two controls in it (a closable tab named by its link's words): each is a line.
  const int drafts = b.el(0, list, "li", {{"role", "tab"}, {"aria-label", "Drafts"}, {"tabindex", "-1"}});
  b.text(0, b.el(0, drafts, "a", {{"href", "#d"}, {"tabindex", "-1"}}), "Drafts");
  b.text(0, b.el(0, drafts, "button"), "Close");
  const Snapshot s = compile_ok(b);
  const auto* tab = by_role_name(s, "tab", "Settings");
  REQUIRE(tab);
  CHECK(tab->backend_node_id == b.backend(0, settings));
  CHECK(by_role_name(s, "link", "Settings") == nullptr);
  CHECK(by_backend(s, b.backend(0, settings_link)) == nullptr);
  REQUIRE(by_role_name(s, "tab", "General"));
  CHECK(by_role_name(s, "tab", "General")->state.selected);
  CHECK(by_role_name(s, "link", "General") == nullptr);
  CHECK(by_role_name(s, "tab", "Inbox 3 new"));
  CHECK(by_role_name(s, "link", "Inbox"));
  CHECK(by_role_name(s, "tab", "Drafts"));
  CHECK(by_role_name(s, "link", "Drafts"));
  CHECK(by_role_name(s, "button", "Close"));
  // Only these lines: the four tabs, the link inside the one with more words, the two controls of the last.
  CHECK(s.nodes.size() == 7);
}
