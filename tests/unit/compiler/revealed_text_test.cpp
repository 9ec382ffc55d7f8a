// Revealed text (compiler/revealed_text.h) end to end: which paragraphs become `text` lines, and
// what the engine makes of them when a tab, an accordion, a <details> or a dialog reveals them.
#include <string>
#include <vector>

#include "athena/engine.h"
#include "athena/limits.h"
#include "athena/render.h"
#include "helpers.h"

using namespace athena;
using namespace athena::test;

namespace {

/// A paragraph under `parent`; `shown` false = not rendered (no boxes anywhere in it).
int para(CaptureBuilder& b, int parent, const std::string& text, bool shown = true, double y = 100,
         const std::string& tag = "p") {
  const int p = b.el(0, parent, tag, {}, {0, y, 600, 20});
  const int t = b.text(0, p, text, {0, y, 300, 16});
  if (!shown) {
    b.no_box(0, p);
    b.no_box(0, t);
  }
  return p;
}

int hidden_div(CaptureBuilder& b, int parent, const Attrs& attrs, bool shown) {
  const int d = b.el(0, parent, "div", attrs, {0, 80, 600, 200});
  if (!shown) b.no_box(0, d);
  return d;
}

/// A product page: ten buttons, two tabs; `tab` 0 shows the specs panel, 1 the reviews panel.
std::string tabs_page(int tab, double panel_y = 100) {
  CaptureBuilder b;
  const int body = b.el(0, 0, "body");
  const int main = b.el(0, body, "main", {}, {0, 0, 800, 600});
  for (int i = 0; i < 10; ++i) b.text(0, b.el(0, main, "button"), "Action " + std::to_string(i));
  const int list = b.el(0, main, "div", {{"role", "tablist"}});
  b.text(0,
         b.el(0, list, "button",
              {{"role", "tab"}, {"aria-controls", "specs"}, {"aria-selected", tab == 0 ? "true" : "false"}}),
         "Specs");
  b.text(0,
         b.el(0, list, "button",
              {{"role", "tab"}, {"aria-controls", "reviews"}, {"aria-selected", tab == 1 ? "true" : "false"}}),
         "Reviews");
  const int specs = hidden_div(b, main, {{"role", "tabpanel"}, {"id", "specs"}, {"tabindex", "0"}}, tab == 0);
  para(b, specs, "Weight 2 kg.", tab == 0, panel_y);
  para(b, specs, "Colour black.", tab == 0, panel_y + 20);
  const int reviews = hidden_div(b, main, {{"role", "tabpanel"}, {"id", "reviews"}, {"tabindex", "0"}}, tab == 1);
  para(b, reviews, "Great grinder.", tab == 1, panel_y);
  para(b, reviews, "Too loud.", tab == 1, panel_y + 20);
  para(b, reviews, "Five stars.", tab == 1, panel_y + 40);
  para(b, main, "Plain page text is not revealed by anything.");
  return b.str();
}

std::vector<std::string> texts(const Snapshot& s) {
  std::vector<std::string> out;
  for (const ReadableNode& n : s.nodes)
    if (n.category == Category::kText) out.push_back(n.name);
  return out;
}

struct Flow {
  Engine engine;
  PageKey key{0, 1};
  Flow() { REQUIRE(engine.open_page(key)); }
  FactPack first(const std::string& capture) {
    auto p = engine.snapshot(key, capture);
    REQUIRE(p);
    return *p;
  }
  FactPack act(const std::string& before, const std::string& after) {
    REQUIRE(engine.begin_action(key, before, std::nullopt));
    auto p = engine.finish_action(key, after, {});
    REQUIRE(p);
    return *p;
  }
};

std::vector<std::string> added_texts(const FactPack& p) {
  std::vector<std::string> out;
  for (const Element& e : p.added)
    if (e.category == Category::kText) out.push_back(e.name);
  return out;
}

std::vector<std::string> removed_texts(const FactPack& p) {
  std::vector<std::string> out;
  for (const Invalidation& i : p.invalidated)
    if (i.role == "text") out.push_back(i.name);
  return out;
}

}  // namespace

TEST_CASE("text blocks: the page's paragraphs and the shown tab panel's, never a hidden panel's", "[compiler][text]") {
  const Snapshot s = compile_ok(tabs_page(0));
  CHECK(texts(s) ==
        std::vector<std::string>{"Weight 2 kg.", "Colour black.", "Plain page text is not revealed by anything."});
  const ReadableNode* w = by_name(s, "Weight 2 kg.");
  REQUIRE(w);
  CHECK(w->role == "text");
  CHECK(w->region == Region::kMain);
  // A focusable tab panel (tabindex=0) is a container, not a control that swallows its text.
  CHECK(by_name(s, "Plain page text is not revealed by anything.")->role == "text");
}

TEST_CASE("revealed text: a tab switch is a delta adding the new panel's text and removing the old", "[engine][text]") {
  Flow f;
  const std::string a = tabs_page(0), b = tabs_page(1);
  f.first(a);
  const FactPack d = f.act(a, b);
  // 5 text changes + 2 tab states on 12 controls: with text counted this would be over the
  // reliability ratio and a full snapshot; text stays out of that rule.
  REQUIRE(d.type == PackType::kDelta);
  CHECK(added_texts(d) == std::vector<std::string>{"Great grinder.", "Too loud.", "Five stars."});
  CHECK(removed_texts(d) == std::vector<std::string>{"Weight 2 kg.", "Colour black."});
  CHECK(d.modified.size() == 2);
  const std::string t = render_text(d);
  CHECK(t.find(" text \"Great grinder.\"\n") != std::string::npos);
  CHECK(t.find("<removed>\n") < t.find(" text \"Weight 2 kg.\"\n"));
  // And back: the old panel's text returns as additions under new refs.
  const FactPack back = f.act(b, a);
  REQUIRE(back.type == PackType::kDelta);
  CHECK(added_texts(back) == std::vector<std::string>{"Weight 2 kg.", "Colour black."});
}

TEST_CASE("revealed text: an accordion (aria-expanded + aria-controls) reveals its section", "[engine][text]") {
  auto page = [](bool open) {
    CaptureBuilder b;
    const int body = b.el(0, 0, "body");
    const int main = b.el(0, body, "main", {}, {0, 0, 800, 600});
    b.text(0, b.el(0, main, "button", {{"aria-expanded", open ? "true" : "false"}, {"aria-controls", "ret"}}),
           "Returns");
    const int sec = hidden_div(b, main, {{"id", "ret"}, {"class", "collapse"}}, open);
    para(b, sec, "Returns are free within 30 days.", open);
    const int item = b.el(0, sec, "li", {}, {0, 140, 600, 20});
    if (!open) b.no_box(0, item);
    const int link = b.el(0, item, "a", {{"href", "/policy"}}, {0, 140, 80, 16});
    const int link_text = b.text(0, link, "Policy");
    if (!open) {
      b.no_box(0, link);
      b.no_box(0, link_text);
    }
    return b.str();
  };
  Flow f;
  const FactPack full = f.first(page(false));
  CHECK(render_text(full).find(" text \"") == std::string::npos);
  const FactPack d = f.act(page(false), page(true));
  REQUIRE(d.type == PackType::kDelta);
  // A list item holding only a link says nothing the link does not: no text line for it.
  CHECK(added_texts(d) == std::vector<std::string>{"Returns are free within 30 days."});
  REQUIRE(d.modified.size() == 1);
  CHECK(d.modified[0].after.state.expanded == Tri::kTrue);
}

TEST_CASE("revealed text: an open <details> shows its content, not its summary, and a closed one nothing",
          "[compiler][text]") {
  auto page = [](bool open) {
    CaptureBuilder b;
    const int body = b.el(0, 0, "body");
    Attrs attrs;
    if (open) attrs.push_back({"open", ""});
    const int det = b.el(0, body, "details", attrs, {0, 0, 600, 100});
    b.text(0, b.el(0, det, "summary"), "Shipping");
    para(b, det, "Ships in 2 days.", open);
    return b.str();
  };
  CHECK(texts(compile_ok(page(true))) == std::vector<std::string>{"Ships in 2 days."});
  CHECK(texts(compile_ok(page(false))).empty());
  // Text straight inside <details>, next to the summary: the summary's words are not repeated.
  CaptureBuilder b;
  const int det = b.el(0, b.el(0, 0, "body"), "details", {{"open", ""}}, {0, 0, 600, 100});
  b.text(0, b.el(0, det, "summary"), "Shipping");
  b.text(0, det, "Ships today.");
  CHECK(texts(compile_ok(b)) == std::vector<std::string>{"Ships today."});
}

TEST_CASE("revealed text: a dialog's body sentence comes with overlay_opened, its heading and buttons once",
          "[engine][text]") {
  auto page = [](bool dialog) {
    CaptureBuilder b;
    const int body = b.el(0, 0, "body");
    const int main = b.el(0, body, "main", {}, {0, 0, 800, 600});
    b.text(0, b.el(0, main, "button"), "Delete folder");
    if (dialog) {
      const int d = b.el(0, body, "div", {{"role", "alertdialog"}, {"aria-modal", "true"}, {"aria-label", "Delete?"}},
                         {100, 100, 300, 200});
      b.style(0, d, "z-index", "1000");
      b.style(0, d, "position", "fixed");
      b.text(0, b.el(0, d, "h2"), "Delete folder?");
      const int msg = b.el(0, d, "div", {}, {100, 140, 300, 20});
      b.text(0, msg, "This will delete ");
      b.text(0, b.el(0, msg, "b", {}, {150, 140, 50, 16}), "12 files");
      b.text(0, msg, ".");
      const int muted = b.el(0, d, "p", {{"aria-hidden", "true"}}, {100, 170, 300, 20});
      b.text(0, muted, "Decorative");
      const int btn = b.el(0, d, "button");
      b.text(0, b.el(0, btn, "p", {}, {100, 200, 80, 20}), "Cancel");
    }
    return b.str();
  };
  Flow f;
  f.first(page(false));
  const FactPack o = f.act(page(false), page(true));
  REQUIRE(o.type == PackType::kOverlayOpened);
  const std::string t = render_text(o);
  CHECK(t.find(" text \"This will delete 12 files.\"\n") != std::string::npos);
  CHECK(t.find(" heading \"Delete folder?\" level=2\n") != std::string::npos);
  CHECK(t.find(" button \"Cancel\"\n") != std::string::npos);
  CHECK(t.find(" text \"Cancel\"") == std::string::npos);
  CHECK(t.find(" text \"Delete folder?\"") == std::string::npos);
  CHECK(t.find("Decorative") == std::string::npos);
}

TEST_CASE("revealed text: text that merely scrolled into view is not revealed", "[engine][text]") {
  Flow f;
  const std::string below = tabs_page(0, 2000), scrolled = tabs_page(0, 100);
  const FactPack full = f.first(below);
  // Visible but below the fold: it is on the page, so it is in the baseline already.
  CHECK(render_text(full).find(" text \"Weight 2 kg.\"") != std::string::npos);
  CHECK(f.act(below, scrolled).type == PackType::kNoChange);
}

TEST_CASE("revealed text: one block is cut at kMaxRevealedTextChars on a character boundary",
          "[compiler][text][limits]") {
  auto page = [](const std::string& text) {
    CaptureBuilder b;
    const int body = b.el(0, 0, "body");
    const int panel = b.el(0, body, "div", {{"role", "tabpanel"}});
    para(b, panel, text);
    return b.str();
  };
  auto cut_flags = [](const Snapshot& s) {
    std::vector<bool> out;
    for (const ReadableNode& n : s.nodes)
      if (n.category == Category::kText) out.push_back(n.cut);
    return out;
  };
  const std::string exact(limits::kMaxRevealedTextChars, 'a');
  CHECK(texts(compile_ok(page(exact))) == std::vector<std::string>{exact});
  CHECK(cut_flags(compile_ok(page(exact))) == std::vector<bool>{false});
  CHECK(texts(compile_ok(page(exact + "b"))) == std::vector<std::string>{exact});
  CHECK(cut_flags(compile_ok(page(exact + "b"))) == std::vector<bool>{true});
  // A two-byte character straddling the bound is dropped whole, never split.
  const std::string straddle = std::string(limits::kMaxRevealedTextChars - 1, 'a') + "\xC3\xA9";
  CHECK(texts(compile_ok(page(straddle))) ==
        std::vector<std::string>{std::string(limits::kMaxRevealedTextChars - 1, 'a')});
  CHECK(cut_flags(compile_ok(page(straddle))) == std::vector<bool>{true});
}

TEST_CASE("revealed text: a block longer than its bound says so on its line, once, trimmed or not",
          "[engine][text][limits]") {
  // A paragraph that ends mid-word with nothing to say so reads as the whole paragraph: the line
  // is marked ` cut` (read shows the rest), as trimming marks the lines it shortens.
  auto page = [](const std::string& text) {
    CaptureBuilder b;
    const int body = b.el(0, 0, "body");
    const int main = b.el(0, body, "main", {}, {0, 0, 800, 600});
    b.text(0, b.el(0, main, "button"), "Save");
    para(b, main, text);
    para(b, main, "Short and whole.", true, 140);
    return b.str();
  };
  std::string words;
  while (words.size() <= limits::kMaxRevealedTextChars) words += "The Python Software Foundation License ";
  Flow f;
  const std::string t = render_text(f.first(page(words)));
  const std::string kept = words.substr(0, limits::kMaxRevealedTextChars);
  INFO(t);
  CHECK(t.find(" text \"" + kept.substr(0, kept.find_last_not_of(' ') + 1) + "\" cut\n") != std::string::npos);
  CHECK(t.find(" text \"Short and whole.\"\n") != std::string::npos);
  CHECK(t.find("cut cut") == std::string::npos);
  // Over a budget, trimming shortens the same line further: still one ` cut`.
  RenderOptions tight;
  tight.token_budget = 100;  // over the untrimmed pack, enough for the excerpt
  const std::string trimmed = render_text(f.first(page(words)), tight);
  INFO(trimmed);
  CHECK(trimmed.find("License\" cut\n") != std::string::npos);
  CHECK(trimmed.find(kept.substr(0, 100)) == std::string::npos);  // the excerpt, not the whole kept words
  CHECK(trimmed.find("cut cut") == std::string::npos);
  // The same words, now short enough to be whole: the line changed, and says so.
  const FactPack d = f.act(page(words), page("The Python Software Foundation License"));
  REQUIRE(d.type == PackType::kDelta);
  REQUIRE(d.modified.size() == 1);
  CHECK_FALSE(d.modified[0].after.cut);
  CHECK(render_text(d).find("text \"The Python Software Foundation License\": new text\n") != std::string::npos);
  // And grown past it again: the modified line says its words are cut.
  const FactPack g = f.act(page("The Python Software Foundation License"), page(words));
  REQUIRE(g.modified.size() == 1);
  CHECK(g.modified[0].after.cut);
  CHECK(render_text(g).find(kept.substr(kept.size() - 20) + "\" cut: new text\n") != std::string::npos);
}

TEST_CASE("revealed text: labels are not text, nested paragraphs are one block", "[compiler][text]") {
  CaptureBuilder b;
  const int body = b.el(0, 0, "body");
  const int panel = b.el(0, body, "div", {{"role", "tabpanel"}});
  b.text(0, b.el(0, panel, "label", {{"for", "q"}}), "Quantity");
  b.el(0, panel, "input", {{"id", "q"}});
  const int note = b.el(0, panel, "div", {}, {0, 60, 600, 60});
  b.text(0, note, "Note:");
  para(b, note, "Fragile.");
  const Snapshot s = compile_ok(b);
  CHECK(texts(s) == std::vector<std::string>{"Note: Fragile."});
}

TEST_CASE("text blocks: a table row is one line, its cells in order, its controls under it",
          "[compiler][text][outline]") {
  CaptureBuilder b;
  const int body = b.el(0, 0, "body");
  const int table = b.el(0, body, "table");
  const int head = b.el(0, b.el(0, table, "thead"), "tr");
  for (const char* h : {"Code", "Description", "Action"}) b.text(0, b.el(0, head, "th"), h);
  const int tbody = b.el(0, table, "tbody");
  const int row = b.el(0, tbody, "tr");
  b.text(0, b.el(0, row, "td"), "200");
  const int desc = b.el(0, row, "td");
  b.text(0, desc, "A page of orders, see ");
  b.text(0, b.el(0, desc, "a", {{"href", "/orders"}}), "the orders API");
  b.text(0, b.el(0, b.el(0, row, "td"), "button"), "Try it");
  const Snapshot s = compile_ok(b);
  REQUIRE(s.nodes.size() == 4);
  CHECK(s.nodes[0].role == "row");
  CHECK(s.nodes[0].name == "Code | Description | Action");
  CHECK(s.nodes[1].role == "row");
  // A link is part of the sentence; a cell holding only a control ends the row early.
  CHECK(s.nodes[1].name == "200 | A page of orders, see the orders API");
  CHECK(s.nodes[1].depth == 0);
  CHECK(s.nodes[2].role == "link");
  CHECK(s.nodes[2].depth == 1);
  CHECK(s.nodes[3].role == "button");
  CHECK(s.nodes[3].depth == 1);
}

TEST_CASE("outline: a nested list's entries sit under the line of the item they are nested in", "[compiler][outline]") {
  CaptureBuilder b;
  const int body = b.el(0, 0, "body");
  const int top = b.el(0, body, "ul");
  for (int c = 0; c < 2; ++c) {
    const int li = b.el(0, top, "li");
    b.text(0, b.el(0, li, "a", {{"href", "#c" + std::to_string(c)}}), "Chapter " + std::to_string(c));
    const int sub = b.el(0, li, "ul");
    const int entry = b.el(0, sub, "li");
    b.text(0, b.el(0, entry, "a", {{"href", "#e"}}), "Entry " + std::to_string(c));
    b.text(0, b.el(0, b.el(0, b.el(0, entry, "ul"), "li"), "a", {{"href", "#s"}}), "Sub " + std::to_string(c));
  }
  // A list item with words of its own is a text line: its nested list sits under it.
  const int fruit = b.el(0, top, "li");
  b.text(0, fruit, "Fruit");
  b.text(0, b.el(0, b.el(0, fruit, "ul"), "li"), "Apple");
  const Snapshot s = compile_ok(b);
  std::vector<std::pair<std::string, int>> got;
  for (const ReadableNode& n : s.nodes) got.emplace_back(n.name, n.depth);
  CHECK(got == std::vector<std::pair<std::string, int>>{{"Chapter 0", 0},
                                                        {"Entry 0", 1},
                                                        {"Sub 0", 2},
                                                        {"Chapter 1", 0},
                                                        {"Entry 1", 1},
                                                        {"Sub 1", 2},
                                                        {"Fruit", 0},
                                                        {"Apple", 1}});
}

TEST_CASE("outline: a definition's description sits under its term, a list in it too", "[compiler][outline]") {
  // Sphinx writes each function of an API reference as <dl><dt>signature</dt><dd>docs</dd></dl>;
  // an overloaded one has several terms, and its description sits under the last.
  CaptureBuilder b;
  const int body = b.el(0, 0, "body");
  const int main = b.el(0, body, "main", {}, {0, 0, 800, 600});
  const int abs = b.el(0, main, "dl", {{"class", "py function"}});
  para(b, abs, "abs(x)", true, 100, "dt");
  para(b, b.el(0, abs, "dd"), "Return the absolute value of a number.", true, 120);
  const int bytes = b.el(0, main, "dl", {{"class", "py class"}});
  para(b, bytes, "class bytes(source)", true, 140, "dt");
  para(b, bytes, "class bytes(source, encoding)", true, 160, "dt");
  const int dd = b.el(0, bytes, "dd");
  para(b, dd, "Return a new bytes object.", true, 180);
  para(b, b.el(0, b.el(0, dd, "ul"), "li"), "If it is a string, give the encoding.", true, 200);
  // A description with no term before it stays where it is.
  para(b, b.el(0, b.el(0, main, "dl"), "dd"), "An orphan description.", true, 220);
  // A term of symbols alone is still a term (Python's glossary opens with ">>>"); a paragraph of
  // symbols alone says nothing.
  const int glossary = b.el(0, main, "dl", {{"class", "glossary"}});
  para(b, glossary, ">>>", true, 240, "dt");
  para(b, b.el(0, glossary, "dd"), "The default Python prompt.", true, 260);
  para(b, main, "* * *", true, 280);
  const Snapshot s = compile_ok(b);
  std::vector<std::pair<std::string, int>> got;
  for (const ReadableNode& n : s.nodes) got.emplace_back(n.name, n.depth);
  CHECK(got == std::vector<std::pair<std::string, int>>{{"abs(x)", 0},
                                                        {"Return the absolute value of a number.", 1},
                                                        {"class bytes(source)", 0},
                                                        {"class bytes(source, encoding)", 0},
                                                        {"Return a new bytes object.", 1},
                                                        {"If it is a string, give the encoding.", 1},
                                                        {"An orphan description.", 0},
                                                        {">>>", 0},
                                                        {"The default Python prompt.", 1}});
}

TEST_CASE("text blocks: a data grid's focusable rows and cells are one row line each, its controls keep theirs",
          "[compiler][text][outline]") {
  // The shape of AG Grid and its kind: role=row / gridcell divs that take focus and clicks for
  // keyboard navigation, a sortable column header, a presentational clickable icon.
  CaptureBuilder b;
  const int grid = b.el(0, b.el(0, 0, "body"), "div", {{"role", "grid"}});
  // Its focus guards: empty, zero-size, tabbable, declared presentational (which focus overrides).
  b.el(0, grid, "div", {{"role", "presentation"}, {"tabindex", "0"}, {"class", "ag-tab-guard"}}, {0, 0, 0, 0});
  const int head = b.el(0, grid, "div", {{"role", "row"}, {"tabindex", "-1"}});
  for (const char* column : {"Name", "City"}) {
    const int header = b.el(0, head, "div", {{"role", "columnheader"}, {"tabindex", "-1"}});
    b.flag(0, header, "isClickable");
    b.text(0, header, column);
    b.flag(0, b.el(0, header, "span", {{"role", "presentation"}}), "isClickable");
  }
  for (const char* person : {"Ada Lovelace", "Alan Turing"}) {
    const int row = b.el(0, grid, "div", {{"role", "row"}, {"tabindex", "0"}});
    b.flag(0, row, "isClickable");
    const int cell = b.el(0, row, "div", {{"role", "gridcell"}, {"tabindex", "-1"}});
    b.flag(0, cell, "isClickable");
    b.text(0, cell, person);
    b.text(0, b.el(0, row, "div", {{"role", "gridcell"}, {"tabindex", "-1"}}), "London");
    b.text(0, b.el(0, b.el(0, row, "div", {{"role", "gridcell"}}), "button"), "Edit");
  }
  b.el(0, grid, "div", {{"role", "presentation"}, {"tabindex", "0"}, {"class", "ag-tab-guard"}}, {0, 0, 0, 0});
  // A zero-size tabbable element that says something is still a line (a skip link's target, say).
  b.el(0, grid, "div", {{"tabindex", "0"}, {"aria-label", "Grid end"}}, {0, 0, 0, 0});
  const Snapshot s = compile_ok(b);
  std::vector<std::string> got;
  for (const ReadableNode& n : s.nodes) got.push_back(std::string(n.depth, ' ') + n.role + " " + n.name);
  // The header row has no line of its own: its column headers sit side by side, not one under another.
  CHECK(got == std::vector<std::string>{"columnheader Name", "columnheader City", "row Ada Lovelace | London",
                                        " button Edit", "row Alan Turing | London", " button Edit",
                                        "generic Grid end"});
}

TEST_CASE("text blocks: a virtualized grid's rows are read in aria-rowindex order, not the recycled DOM's",
          "[compiler][text][outline]") {
  // After a sort, AG Grid keeps a row element that still shows a row in view and appends the
  // others: the DOM holds row 4 before rows 2 and 3, each placed on screen by a transform.
  CaptureBuilder b;
  const int grid = b.el(0, b.el(0, 0, "body"), "div", {{"role", "grid"}});
  const int head = b.el(0, grid, "div", {{"role", "row"}, {"aria-rowindex", "1"}});
  b.text(0, b.el(0, head, "div", {{"role", "columnheader"}, {"aria-sort", "ascending"}}), "Name");
  const int body = b.el(0, grid, "div", {{"role", "presentation"}});
  b.text(0, b.el(0, body, "p"), "Rows");  // not a row: stays in its slot
  for (const auto& [at, person] : std::vector<std::pair<const char*, const char*>>{
           {"4", "Ada Floyd"}, {"2", "Aaron Abbott"}, {" 3 ", "Ada Babbage"}, {"x", "No index"}}) {
    const int row = b.el(0, body, "div", {{"role", "row"}, {"aria-rowindex", at}});
    b.text(0, b.el(0, row, "div", {{"role", "gridcell"}}), person);
    b.flag(0, b.el(0, b.el(0, row, "div", {{"role", "gridcell"}}), "button"), "isClickable");
  }
  const Snapshot s = compile_ok(b);
  std::vector<std::string> got;
  for (const ReadableNode& n : s.nodes)
    if (n.role == "row" || n.role == "text") got.push_back(n.role + " " + n.name);
  CHECK(got == std::vector<std::string>{"row Name", "text Rows", "row Aaron Abbott", "row Ada Babbage", "row Ada Floyd",
                                        "row No index"});
}

TEST_CASE("live regions: one holding rows, items or headings is a container whose lines are its own",
          "[compiler][text]") {
  // Swagger UI's responses table is aria-live="polite" role="region": as one status line its rows
  // were words cut at kMaxTextChars. A toast is still one status line, an alert one alert line
  // (its heading's words are that line's, not a line again).
  CaptureBuilder b;
  const int body = b.el(0, 0, "body");
  const int table = b.el(0, body, "table", {{"aria-live", "polite"}, {"role", "region"}});
  const int head = b.el(0, b.el(0, table, "thead"), "tr");
  for (const char* h : {"Code", "Description"}) b.text(0, b.el(0, head, "td"), h);
  const int rows = b.el(0, table, "tbody");
  for (const char* code : {"200", "404"}) {
    const int tr = b.el(0, rows, "tr");
    b.text(0, b.el(0, tr, "td"), code);
    b.text(0, b.el(0, tr, "td"), std::string(code) == "200" ? "The order." : "No such order.");
  }
  b.text(0, b.el(0, b.el(0, body, "div", {{"role", "status"}}), "p"), "Saved");
  const int alert = b.el(0, body, "div", {{"role", "alert"}});
  b.text(0, b.el(0, alert, "h4"), "Error");
  b.text(0, b.el(0, alert, "p"), "The card was declined.");
  const Snapshot s = compile_ok(b);
  std::vector<std::string> got;
  for (const ReadableNode& n : s.nodes) got.push_back(n.role + " " + n.name);
  CHECK(got == std::vector<std::string>{"row Code | Description", "row 200 | The order.", "row 404 | No such order.",
                                        "status Saved", "alert Error The card was declined."});
}

TEST_CASE("text blocks: a line of inline pieces is one block, a line of block pieces is not", "[compiler][text]") {
  CaptureBuilder b;
  const int body = b.el(0, 0, "body");
  const int footer = b.el(0, body, "footer", {}, {0, 0, 800, 100});
  // TodoMVC's counter: <span><strong>1</strong><span> item</span><span> left</span></span>.
  const int count = b.el(0, footer, "span", {}, {0, 0, 200, 20});
  b.style(0, count, "display", "inline");
  for (const char* piece : {"1", " item", " left"}) {
    const int s = b.el(0, count, piece[0] == '1' ? "strong" : "span", {}, {0, 0, 40, 20});
    b.style(0, s, "display", "inline");
    b.text(0, s, piece);
  }
  // Two cards side by side: each its own line, never joined into one.
  const int cards = b.el(0, footer, "div", {}, {0, 40, 800, 40});
  for (const char* title : {"Billing", "Shipping"}) {
    const int c = b.el(0, cards, "div", {}, {0, 40, 300, 40});
    b.style(0, c, "display", "block");
    b.text(0, c, title);
  }
  CHECK(texts(compile_ok(b)) == std::vector<std::string>{"1 item left", "Billing", "Shipping"});
}

TEST_CASE(
    "headings: one that only wraps a control of the same words is that control's line, unless it links to its own "
    "place",
    "[compiler][text]") {
  CaptureBuilder b;
  const int body = b.el(0, 0, "body");
  const int main = b.el(0, body, "main", {}, {0, 0, 800, 600});
  b.text(0, b.el(0, b.el(0, main, "h3"), "button", {{"aria-expanded", "false"}}), "How do I return an item?");
  // A heading whose link says something else keeps its line.
  const int h = b.el(0, main, "h2");
  b.text(0, h, "Orders ");
  b.text(0, b.el(0, h, "a", {{"href", "#all"}}), "see all");
  // mdBook's headings: a link to the heading's own place in the page, of the same words, only
  // scrolls there; the line is the heading, which the outline keeps. A link elsewhere stays.
  b.text(0, b.el(0, b.el(0, main, "h2"), "a", {{"href", "#what-is-ownership"}}), "What Is Ownership?");
  b.text(0, b.el(0, b.el(0, main, "h2"), "a", {{"href", "/posts/ownership"}}), "Ownership, explained");
  // Node.js's permalink after a heading's words is the heading's too: no line of its own, and
  // its symbol is not the heading's words (Chrome names the heading "File system #"). A heading
  // that ends in the symbol keeps it: "C#" with its permalink "#" is "C#".
  const int fs = b.el(0, main, "h2");
  b.text(0, fs, "File system");
  b.text(0, b.el(0, b.el(0, fs, "span"), "a", {{"href", "#fs_file_system"}, {"class", "mark"}}), "#");
  const int cs = b.el(0, main, "h2");
  b.text(0, cs, "C#");
  b.text(0, b.el(0, cs, "a", {{"href", "#c-sharp"}}), "#");
  // Bootstrap 3's accordion: a fragment link that toggles a panel is that control's line; so is
  // a hash route's.
  b.text(0,
         b.el(0, b.el(0, main, "h4"), "a",
              {{"href", "#collapse1"}, {"data-toggle", "collapse"}, {"aria-expanded", "false"}}),
         "Group 1");
  b.text(0, b.el(0, b.el(0, main, "h2"), "a", {{"href", "#/orders"}}), "All orders");
  const Snapshot s = compile_ok(b);
  std::vector<std::string> lines;
  for (const ReadableNode& n : s.nodes) lines.push_back(n.role + " " + n.name);
  CHECK(lines == std::vector<std::string>{"button How do I return an item?", "heading Orders see all", "link see all",
                                          "heading What Is Ownership?", "link Ownership, explained",
                                          "heading File system", "heading C#", "link Group 1", "link All orders"});
  // The control keeps its heading's level, for the outline trimming keeps (render/trim.cpp); a
  // control beside a heading's words has none.
  CHECK(by_name(s, "How do I return an item?")->level == 3);
  CHECK(by_name(s, "Group 1")->level == 4);
  CHECK(by_name(s, "see all")->level == 0);
}

TEST_CASE("descriptions: a dialog's aria-describedby text stays a line, a field's is its desc", "[compiler][text]") {
  CaptureBuilder b;
  const int body = b.el(0, 0, "body");
  const int d = b.el(0, body, "div", {{"role", "dialog"}, {"aria-label", "Delete files?"}, {"aria-describedby", "why"}},
                     {100, 100, 300, 200});
  b.text(0, b.el(0, d, "p", {{"id", "why"}}, {100, 120, 300, 20}), "This will delete 12 files.");
  b.el(0, d, "input", {{"aria-label", "Type DELETE"}, {"aria-describedby", "hint"}}, {100, 150, 200, 20});
  b.text(0, b.el(0, d, "p", {{"id", "hint"}}, {100, 170, 300, 20}), "Capital letters.");
  const Snapshot s = compile_ok(b);
  CHECK(texts(s) == std::vector<std::string>{"This will delete 12 files."});
  const ReadableNode* field = by_name(s, "Type DELETE");
  REQUIRE(field);
  CHECK(field->description == "Capital letters.");
}

TEST_CASE("a field the browser's own validation refused is invalid, with the browser's message", "[compiler][text]") {
  CaptureBuilder b;
  const int body = b.el(0, 0, "body");
  const int form = b.el(0, body, "form", {}, {0, 0, 600, 200});
  // Marked by the page watcher (extension/lib/page-scripts.js) on the submit's `invalid` event.
  b.el(0, form, "input",
       {{"type", "email"},
        {"required", ""},
        {"aria-label", "Email"},
        {"data-athena-invalid", "Please fill out this field."}},
       {0, 10, 200, 20});
  // A page's own message, tied by aria-describedby, comes first.
  b.el(0, form, "input",
       {{"aria-label", "Name"},
        {"aria-describedby", "name-err"},
        {"data-athena-invalid", "Please fill out this field."}},
       {0, 40, 200, 20});
  b.text(0, b.el(0, form, "p", {{"id", "name-err"}}, {0, 60, 300, 20}), "Enter your full name");
  b.el(0, form, "input", {{"aria-label", "Phone"}}, {0, 90, 200, 20});
  const Snapshot s = compile_ok(b);
  const ReadableNode* email = by_name(s, "Email");
  const ReadableNode* name = by_name(s, "Name");
  const ReadableNode* phone = by_name(s, "Phone");
  REQUIRE(email);
  REQUIRE(name);
  REQUIRE(phone);
  CHECK(email->state.invalid);
  CHECK(email->description == "Please fill out this field.");
  CHECK(name->state.invalid);
  CHECK(name->description == "Enter your full name");
  CHECK_FALSE(phone->state.invalid);
  CHECK(phone->description.empty());
}

TEST_CASE("outline: a named fieldset or group is a line, what it holds under it", "[compiler][text][outline]") {
  // Two radio groups answer two questions: without the question, "Yes" and "No" say nothing.
  CaptureBuilder b;
  const int body = b.el(0, 0, "body");
  const int ship = b.el(0, body, "fieldset");
  b.text(0, b.el(0, ship, "legend"), "Shipping method");
  for (const char* o : {"Standard", "Express"}) b.el(0, ship, "input", {{"type", "radio"}, {"aria-label", o}});
  para(b, ship, "Express arrives in 2 days.");
  const int wrap = b.el(0, body, "div", {{"role", "radiogroup"}, {"aria-label", "Gift wrap"}});
  for (const char* o : {"Yes", "No"}) b.text(0, b.el(0, wrap, "div", {{"role", "radio"}, {"tabindex", "0"}}), o);
  // Checkboxes in a list inside a fieldset sit under its line as well.
  const int notify = b.el(0, body, "fieldset");
  b.text(0, b.el(0, notify, "legend"), "Notify me by");
  const int options = b.el(0, notify, "ul");
  for (const char* o : {"Email", "SMS"})
    b.el(0, b.el(0, options, "li"), "input", {{"type", "checkbox"}, {"aria-label", o}});
  // A fieldset with no legend, and a group the page did not declare (a select's optgroup), are no lines.
  b.el(0, b.el(0, body, "fieldset"), "input", {{"type", "radio"}, {"aria-label", "Alone"}});
  const int select = b.el(0, body, "select", {{"aria-label", "Size"}, {"size", "3"}});
  const int og = b.el(0, select, "optgroup", {{"label", "Common"}});
  b.text(0, b.el(0, og, "option"), "Medium");
  const Snapshot s = compile_ok(b);
  std::vector<std::string> got;
  for (const ReadableNode& n : s.nodes) got.push_back(std::string(n.depth, ' ') + n.role + " " + n.name);
  CHECK(got == std::vector<std::string>{"group Shipping method", " radio Standard", " radio Express",
                                        " text Express arrives in 2 days.", "radiogroup Gift wrap", " radio Yes",
                                        " radio No", "group Notify me by", " checkbox Email", " checkbox SMS",
                                        "radio Alone", "listbox Size", "option Medium"});
}

TEST_CASE("text blocks: a control's label is its name on its line, not a text line again", "[compiler][text]") {
  CaptureBuilder b;
  const int list = b.el(0, b.el(0, 0, "body"), "ul");
  const int wrapped = b.el(0, b.el(0, list, "li"), "label");
  b.el(0, wrapped, "input", {{"type", "checkbox"}});
  b.text(0, wrapped, " Email");
  const int item = b.el(0, list, "li");
  b.text(0, b.el(0, item, "label", {{"for", "phone"}}), "Phone");
  b.el(0, item, "input", {{"id", "phone"}});
  // A label of nothing is words the agent reads.
  b.text(0, b.el(0, b.el(0, list, "li"), "label"), "Plain words");
  const Snapshot s = compile_ok(b);
  std::vector<std::string> got;
  for (const ReadableNode& n : s.nodes) got.push_back(n.role + " " + n.name);
  CHECK(got == std::vector<std::string>{"checkbox Email", "textbox Phone", "text Plain words"});
}

namespace {
std::vector<std::string> lines_of(const Snapshot& s) {
  std::vector<std::string> got;
  for (const ReadableNode& n : s.nodes) got.push_back(std::string(n.depth, ' ') + n.role + " " + n.name);
  return got;
}

/// Table rows of two cells each under `parent` (a table or its body).
void two_cell_rows(CaptureBuilder& b, int parent, std::initializer_list<std::pair<const char*, const char*>> rows) {
  for (const auto& [left, right] : rows) {
    const int tr = b.el(0, parent, "tr");
    b.text(0, b.el(0, tr, "td"), left);
    b.text(0, b.el(0, tr, "td"), right);
  }
}
}  // namespace

TEST_CASE("text blocks: a box that takes focus to scroll, or a click on its text, is read, not a nameless control",
          "[compiler][text]") {
  CaptureBuilder b;
  const int main = b.el(0, b.el(0, 0, "body"), "main");
  // tabindex=0 on a scroll box (a grid's body, a long panel) and on a code block: keyboard scrolling.
  const int box = b.el(0, main, "div", {{"tabindex", "0"}});
  b.text(0, b.el(0, box, "p"), "Inside a scroll box.");
  const int table = b.el(0, box, "table");
  two_cell_rows(b, table, {{"q", "quit now"}, {"w", "write"}});
  b.text(0, b.el(0, main, "pre", {{"tabindex", "0"}}), "print(1)");
  // A card the page listens on: its heading and paragraph are read; a click on them reaches it.
  const int card = b.el(0, main, "div");
  b.flag(0, card, "isClickable");
  b.text(0, b.el(0, card, "h3"), "Card title");
  b.text(0, b.el(0, card, "p"), "Card body.");
  // A clickable box of words alone is the control those words name.
  const int plain = b.el(0, main, "div");
  b.flag(0, plain, "isClickable");
  b.text(0, plain, "Plain clickable words");
  // A named one keeps its name, and its words are that control's.
  const int named = b.el(0, main, "div", {{"aria-label", "Open report"}});
  b.flag(0, named, "isClickable");
  b.text(0, b.el(0, named, "p"), "Report body.");
  // Symbols say nothing (Sphinx's ">>>" toggle): nameless still, told by its title.
  const int toggle = b.el(0, main, "span", {{"title", "Hide the prompts"}});
  b.flag(0, toggle, "isClickable");
  b.text(0, toggle, ">>>");
  // A tabbable box with no words stays a control (an icon without a role), named by its title.
  b.el(0, main, "div", {{"tabindex", "0"}, {"title", "Settings"}});
  const Snapshot s = compile_ok(b);
  CHECK(lines_of(s) == std::vector<std::string>{"text Inside a scroll box.", "row q | quit now", "row w | write",
                                                "text print(1)", "heading Card title", "text Card body.",
                                                "generic Plain clickable words", "generic Open report", "generic ",
                                                "generic Settings"});
  REQUIRE(by_name(s, "Plain clickable words") != nullptr);
  CHECK(by_name(s, "Plain clickable words")->category == Category::kInteractive);
  CHECK(s.nodes[8].description == "Hide the prompts");
}

TEST_CASE("text blocks: a listener between a grid row's cells (a column's resize handle) is no line",
          "[compiler][text]") {
  // Tabulator's shape: role=row divs whose gridcells alternate with empty spans that take the
  // mouse to resize a column, in the header row and in every data row.
  CaptureBuilder b;
  const int grid = b.el(0, b.el(0, 0, "body"), "div", {{"role", "grid"}});
  const int head = b.el(0, grid, "div", {{"role", "row"}});
  const int rows = b.el(0, grid, "div", {{"role", "rowgroup"}});
  const int row = b.el(0, rows, "div", {{"role", "row"}});
  for (const auto& [column, value] : {std::pair{"Order", "1001"}, std::pair{"Customer", "Grace Jones"}}) {
    b.text(0, b.el(0, head, "div", {{"role", "columnheader"}}), column);
    b.flag(0, b.el(0, head, "span", {{"class", "tabulator-col-resize-handle"}}), "isClickable");
    b.text(0, b.el(0, row, "div", {{"role", "gridcell"}}), value);
    b.flag(0, b.el(0, row, "span", {{"class", "tabulator-col-resize-handle"}}), "isClickable");
  }
  // A listener beside the cells that says something is still a control.
  const int grip = b.el(0, row, "span", {{"title", "Drag to reorder"}});
  b.flag(0, grip, "isClickable");
  const Snapshot s = compile_ok(b);
  CHECK(lines_of(s) == std::vector<std::string>{"row Order | Customer", "row 1001 | Grace Jones", " generic "});
  CHECK(s.nodes.back().description == "Drag to reorder");
}

TEST_CASE("overlays: a dialog that announces itself (aria-live) is a dialog of lines, not one alert",
          "[compiler][text][overlays]") {
  // SweetAlert2's popup: role=dialog, aria-modal, aria-live=assertive, named by its title.
  CaptureBuilder b;
  const int body = b.el(0, 0, "body");
  b.text(0, b.el(0, body, "button"), "Cancel selected order");
  const int dialog =
      b.el(0, b.el(0, body, "div", {{"class", "swal2-container"}}), "div",
           {{"role", "dialog"}, {"aria-modal", "true"}, {"aria-live", "assertive"}, {"aria-labelledby", "t"}});
  b.text(0, b.el(0, dialog, "h2", {{"id", "t"}}), "Cancel order 1002?");
  b.text(0, b.el(0, dialog, "div"), "The customer gets a refund of 74.99 €.");
  b.text(0, b.el(0, dialog, "button"), "Yes, cancel it");
  const Snapshot s = compile_ok(b);
  // Its title is its region's label: the heading that holds it is no line of its own.
  CHECK(lines_of(s) == std::vector<std::string>{"button Cancel selected order",
                                                "text The customer gets a refund of 74.99 €.",
                                                "button Yes, cancel it"});
  CHECK(s.nodes[1].region_label == "Cancel order 1002?");
  CHECK(s.nodes[1].heading == "Cancel order 1002?");
  REQUIRE(s.overlays.size() == 1);
  CHECK(s.overlays[0].name == "Cancel order 1002?");
}

TEST_CASE("overlays: a dialog's heading that is not its title stays a line", "[compiler][text][overlays]") {
  CaptureBuilder b;
  const int body = b.el(0, 0, "body");
  const int dialog = b.el(0, body, "div", {{"role", "dialog"}, {"aria-modal", "true"}, {"aria-label", "Settings"}});
  b.text(0, b.el(0, dialog, "h2"), "Privacy");
  b.text(0, b.el(0, dialog, "button"), "Save");
  const Snapshot s = compile_ok(b);
  CHECK(lines_of(s) == std::vector<std::string>{"heading Privacy", "button Save"});
}

TEST_CASE("text blocks: a column header whose one control says its words is that control's line, with its sort",
          "[compiler][text]") {
  // DataTables: <th aria-sort><span>Name</span><span role=button aria-label="Name: Activate to …"></span></th>.
  CaptureBuilder b;
  const int table = b.el(0, b.el(0, 0, "body"), "table", {{"class", "display"}});
  const int head = b.el(0, b.el(0, table, "thead"), "tr");
  const int name = b.el(0, head, "th", {{"aria-sort", "ascending"}});
  b.flag(0, name, "isClickable");
  b.text(0, b.el(0, name, "span"), "Name");
  b.el(0, name, "span", {{"role", "button"}, {"tabindex", "0"}, {"aria-label", "Name: Activate to invert sorting"}});
  // A header whose control says something else keeps its words.
  const int price = b.el(0, head, "th");
  b.flag(0, price, "isClickable");
  b.text(0, b.el(0, price, "span"), "Price");
  b.text(0, b.el(0, price, "button"), "Filter");
  two_cell_rows(b, b.el(0, table, "tbody"), {{"Ada", "1"}, {"Alan", "2"}});
  const Snapshot s = compile_ok(b);
  CHECK(lines_of(s) == std::vector<std::string>{"button Name: Activate to invert sorting", "text Price",
                                                "button Filter", "row Ada | 1", "row Alan | 2"});
  REQUIRE(by_name(s, "Name: Activate to invert sorting") != nullptr);
  CHECK(by_name(s, "Name: Activate to invert sorting")->state.sort == Sort::kAscending);
}

TEST_CASE("outline: a tree's open folder is named by its own words, and the tree's focusable box is no line",
          "[compiler][text][outline]") {
  // Shoelace's <sl-tree> (role=tree, tabindex=0 until an item takes focus) of <sl-tree-item>s:
  // an item holds its label and the items nested in it.
  CaptureBuilder b;
  const int tree = b.el(0, b.el(0, 0, "body"), "div", {{"role", "tree"}, {"tabindex", "0"}});
  b.flag(0, tree, "isClickable");
  const int src = b.el(0, tree, "div", {{"role", "treeitem"}, {"aria-expanded", "true"}, {"tabindex", "-1"}});
  b.text(0, src, "src");
  const int group = b.el(0, src, "div", {{"role", "group"}});
  b.text(0, b.el(0, group, "div", {{"role", "treeitem"}, {"tabindex", "-1"}}), "main.cpp");
  const int engine = b.el(0, group, "div", {{"role", "treeitem"}, {"aria-expanded", "true"}, {"tabindex", "-1"}});
  b.text(0, engine, "engine");
  b.text(0, b.el(0, b.el(0, engine, "div", {{"role", "group"}}), "div", {{"role", "treeitem"}, {"tabindex", "-1"}}),
         "delta.cpp");
  // A named tree keeps its line: its name says what it lists.
  const int named =
      b.el(0, b.el(0, 0, "body"), "div", {{"role", "tree"}, {"tabindex", "0"}, {"aria-label", "Bookmarks"}});
  b.text(0, b.el(0, named, "div", {{"role", "treeitem"}, {"tabindex", "-1"}}), "Home");
  const Snapshot s = compile_ok(b);
  CHECK(lines_of(s) == std::vector<std::string>{"treeitem src", " treeitem main.cpp", " treeitem engine",
                                                "  treeitem delta.cpp", "tree Bookmarks", "treeitem Home"});
}

TEST_CASE("text blocks: a named region that takes focus to scroll is its label's line, and what it holds is read",
          "[compiler][text]") {
  // The accessible scrolling table: <div role=region aria-label=… tabindex=0><table>…</table></div>.
  CaptureBuilder b;
  const int main = b.el(0, b.el(0, 0, "body"), "main");
  const int region = b.el(0, main, "div", {{"role", "region"}, {"aria-label", "Price table"}, {"tabindex", "0"}});
  const int table = b.el(0, region, "table");
  b.text(0, b.el(0, table, "caption"), "Plans and prices");
  two_cell_rows(b, table, {{"Plan", "Price"}, {"Basic", "$5"}, {"Pro", "$15"}});
  const Snapshot s = compile_ok(b);
  CHECK(lines_of(s) == std::vector<std::string>{"region Price table", "text Plans and prices", "row Plan | Price",
                                                "row Basic | $5", "row Pro | $15"});
}

TEST_CASE("text blocks: a list item that holds a heading reads heading first, then its paragraphs",
          "[compiler][text]") {
  // Cards as lists write them: <li><h3>Fast setup</h3><p>…</p></li>, clickable or not.
  CaptureBuilder b;
  const int list = b.el(0, b.el(0, 0, "body"), "ul");
  const int fast = b.el(0, list, "li");
  b.flag(0, fast, "isClickable");
  b.text(0, b.el(0, fast, "h3"), "Fast setup");
  b.text(0, b.el(0, fast, "p"), "Be running in five minutes.");
  const int secure = b.el(0, list, "li");
  b.text(0, b.el(0, secure, "h3"), "Secure");
  b.text(0, b.el(0, secure, "p"), "Encrypted at rest.");
  // Words of its own beside the heading: the item keeps its line, whole.
  const int loose = b.el(0, list, "li");
  b.text(0, b.el(0, loose, "h3"), "Support");
  b.text(0, loose, "Around the clock.");
  const Snapshot s = compile_ok(b);
  CHECK(lines_of(s) == std::vector<std::string>{"heading Fast setup", "text Be running in five minutes.",
                                                "heading Secure", "text Encrypted at rest.", "text Around the clock.",
                                                "heading Support"});
}

TEST_CASE("a refused field carries the page's own message beside it, where no attribute ties them",
          "[compiler][text]") {
  // Bootstrap's validation: <input required> then <div class="invalid-feedback">, shown once the
  // form has was-validated; a checkbox's feedback comes after its label.
  CaptureBuilder b;
  const int form = b.el(0, b.el(0, 0, "body"), "form");
  const int first = b.el(0, form, "div");
  b.text(0, b.el(0, first, "label", {{"for", "first"}}), "First name");
  b.el(0, first, "input", {{"id", "first"}, {"required", ""}, {"data-athena-invalid", "Please fill out this field."}});
  b.text(0, b.el(0, first, "div", {{"class", "valid-feedback"}}), "Looks good!");
  b.text(0, b.el(0, first, "div", {{"class", "invalid-feedback"}}), "Please enter your first name.");
  const int check = b.el(0, form, "div");
  b.el(0, check, "input",
       {{"type", "checkbox"}, {"id", "terms"}, {"required", ""}, {"data-athena-invalid", "Please check this box."}});
  b.text(0, b.el(0, check, "label", {{"for", "terms"}}), "Agree to terms");
  b.text(0, b.el(0, check, "div", {{"class", "invalid-feedback"}}), "You must agree before submitting.");
  // Bootstrap's input group: described by its "@" prefix, which says nothing of what went wrong.
  const int group = b.el(0, form, "div", {{"class", "input-group has-validation"}});
  b.text(0, b.el(0, group, "span", {{"id", "at"}}), "@");
  b.el(
      0, group, "input",
      {{"aria-label", "Username"}, {"aria-describedby", "at"}, {"data-athena-invalid", "Please fill out this field."}});
  b.text(0, b.el(0, group, "div", {{"class", "invalid-feedback"}}), "Please choose a username.");
  // A field the page did not refuse keeps its message out of its line: it is no message yet.
  const int city = b.el(0, form, "div");
  b.el(0, city, "input", {{"aria-label", "City"}});
  b.text(0, b.el(0, city, "div", {{"class", "error"}}), "Cities are checked nightly.");
  const Snapshot s = compile_ok(b);
  const ReadableNode* name = by_name(s, "First name");
  const ReadableNode* terms = by_name(s, "Agree to terms");
  REQUIRE(name);
  REQUIRE(terms);
  CHECK(name->description == "Please enter your first name.");
  CHECK(terms->description == "You must agree before submitting.");
  REQUIRE(by_name(s, "Username") != nullptr);
  CHECK(by_name(s, "Username")->description == "Please choose a username.");
  CHECK(lines_of(s) == std::vector<std::string>{"textbox First name", "text Looks good!", "checkbox Agree to terms",
                                                "textbox Username", "textbox City",
                                                "text Cities are checked nightly."});
}

TEST_CASE("what a page shows rather than writes: images by their alt text, gauges by how far they are",
          "[compiler][text]") {
  // A product page: its photo, a rating drawn in stars, a refund's progress bar, a disk meter.
  CaptureBuilder b;
  const int main = b.el(0, b.el(0, 0, "body"), "main");
  b.el(0, main, "img", {{"alt", "Blue ceramic mug, 350 ml"}});
  b.el(0, main, "img", {{"alt", ""}});  // decoration: no line
  b.el(0, main, "img");                 // no alt at all: nothing to read either
  b.text(0, b.el(0, main, "span", {{"role", "img"}, {"aria-label", "Rated 4 out of 5"}}), "★★★★☆");
  b.el(0, main, "div", {{"role", "progressbar"}, {"aria-label", "Refund"}, {"aria-valuenow", "30"}});
  b.el(0, main, "div",
       {{"role", "progressbar"},
        {"aria-label", "Steps"},
        {"aria-valuenow", "2"},
        {"aria-valuemin", "1"},
        {"aria-valuemax", "5"}});
  b.el(0, main, "div",
       {{"role", "progressbar"}, {"aria-label", "Upload"}, {"aria-valuenow", "1"}, {"aria-valuetext", "1 of 3 files"}});
  b.el(0, main, "div", {{"role", "progressbar"}, {"aria-label", "Loading"}});  // busy: no value, still a line
  const int label = b.el(0, main, "label");  // labels no control: its words are a line
  b.text(0, label, "Disk usage");
  b.text(0, b.el(0, label, "meter", {{"value", "0.6"}}), "60 percent");  // its fallback text is not read
  // Inside a paragraph, an image's and a bar's words are the paragraph's, where they stand.
  const int p = b.el(0, main, "p");
  b.text(0, p, "Delivered");
  b.el(0, p, "progress", {{"value", "7"}, {"max", "10"}});
  b.text(0, p, "with");
  b.el(0, p, "img", {{"alt", "a tracking map"}});
  // A list item that only holds an image (a logo) is that image's line.
  b.el(0, b.el(0, b.el(0, main, "ul"), "li"), "img", {{"alt", "python logo"}});
  // Inside a link, the image is the link's name, no line of its own.
  b.el(0, b.el(0, main, "a", {{"href", "/mug"}}), "img", {{"alt", "Mug"}});
  const Snapshot s = compile_ok(b);
  CHECK(lines_of(s) == std::vector<std::string>{
                           "image Blue ceramic mug, 350 ml", "image Rated 4 out of 5", "progressbar Refund",
                           "progressbar Steps", "progressbar Upload", "progressbar Loading", "text Disk usage 60%",
                           "text Delivered 70% with a tracking map", "image python logo", "link Mug"});
  CHECK(by_name(s, "Refund")->state.value == "30%");
  CHECK(by_name(s, "Steps")->state.value == "25%");
  CHECK(by_name(s, "Upload")->state.value == "1 of 3 files");
  CHECK(by_name(s, "Loading")->state.value.empty());
  // A meter labelled by a <label> around it: the label's words and the meter's, one line.
  CHECK(by_name(s, "Blue ceramic mug, 350 ml")->category == Category::kText);
}

TEST_CASE("a label of a control the agent cannot see is text, and Select2's combobox is named by the choice it shows",
          "[compiler][text]") {
  // Select2 hides the <select> (aria-hidden) and puts its own combobox after it, labelled by a
  // <span role=textbox> that holds the choice. The page's <label for> still names the hidden one.
  CaptureBuilder b;
  const int form = b.el(0, b.el(0, 0, "body"), "form");
  b.text(0, b.el(0, form, "label", {{"for", "who"}}), "Assignee");
  const int sel = b.el(0, form, "select", {{"id", "who"}, {"aria-hidden", "true"}, {"tabindex", "-1"}});
  b.text(0, b.el(0, sel, "option"), "Grace Hopper");
  const int box =
      b.el(0, form, "span",
           {{"role", "combobox"}, {"tabindex", "0"}, {"aria-labelledby", "shown"}, {"aria-expanded", "false"}});
  b.text(0,
         b.el(0, box, "span",
              {{"id", "shown"}, {"role", "textbox"}, {"aria-readonly", "true"}, {"title", "Grace Hopper"}}),
         "Grace Hopper");
  // A read-only box the combobox is not named by is a line (it shows something else).
  b.text(0, b.el(0, form, "span", {{"role", "textbox"}, {"aria-readonly", "true"}, {"aria-label", "Ticket"}}), "T-42");
  // A label of a field it can see stays that field's name, no line of its own.
  b.text(0, b.el(0, form, "label", {{"for", "note"}}), "Note");
  b.el(0, form, "input", {{"id", "note"}});
  const Snapshot s = compile_ok(b);
  // (The read-only box that shows the choice, which names the combobox, is no line of its own.)
  CHECK(lines_of(s) ==
        std::vector<std::string>{"text Assignee", "combobox Grace Hopper", "textbox Ticket", "textbox Note"});
}

TEST_CASE(
    "a form field a widget keeps behind its own (1px, out of the tab order, nameless) is no line, nor its options",
    "[compiler][text]") {
  // Tom Select: the page's <select multiple> stays at 1px with tabindex=-1; its label moved to
  // Tom Select's own combobox.
  CaptureBuilder b;
  const int form = b.el(0, b.el(0, 0, "body"), "form");
  b.text(0, b.el(0, form, "label", {{"for", "ts"}}), "Tags");
  const int sel = b.el(0, form, "select", {{"multiple", ""}, {"tabindex", "-1"}}, {10, 10, 1, 17});
  b.text(0, b.el(0, sel, "option"), "urgent");
  b.text(0, b.el(0, sel, "option"), "gift");
  b.el(0, form, "input", {{"id", "ts"}, {"role", "combobox"}, {"aria-expanded", "false"}}, {20, 10, 200, 20});
  // The same field with a name of its own, or in the tab order, is the agent's to act on.
  const int named = b.el(0, form, "select", {{"aria-label", "Size"}, {"tabindex", "-1"}}, {10, 40, 1, 1});
  b.text(0, b.el(0, named, "option"), "M");
  b.el(0, form, "input", {{"type", "checkbox"}, {"aria-label", "Gift wrap"}}, {10, 60, 1, 1});
  const Snapshot s = compile_ok(b);
  CHECK(lines_of(s) == std::vector<std::string>{"combobox Tags", "combobox Size", "checkbox Gift wrap"});
}

TEST_CASE("an editor is one line whose value is its text, what it holds is no line, and a link in it is",
          "[compiler][state]") {
  // Quill: <div contenteditable aria-labelledby> around paragraphs; Chrome's snapshot calls every
  // element in an editable area clickable.
  CaptureBuilder b;
  const int body = b.el(0, 0, "body");
  b.text(0, b.el(0, body, "label", {{"id", "lbl"}}), "Message");
  const int ed = b.el(0, body, "div", {{"contenteditable", "true"}, {"aria-labelledby", "lbl"}});
  const int p1 = b.el(0, ed, "p");
  b.flag(0, p1, "isClickable");
  b.text(0, p1, "Hello ");
  const int strong = b.el(0, p1, "strong");
  b.flag(0, strong, "isClickable");
  b.text(0, strong, "Ada");
  b.text(0, p1, ",");
  const int p2 = b.el(0, ed, "p");
  b.flag(0, p2, "isClickable");
  b.text(0, p2, "See ");
  b.text(0, b.el(0, p2, "a", {{"href", "/r/42"}}), "the report");
  const Snapshot s = compile_ok(b);
  CHECK(lines_of(s) == std::vector<std::string>{"generic Message", "link the report"});
  CHECK(by_name(s, "Message")->state.value == "Hello Ada, See the report");
}
