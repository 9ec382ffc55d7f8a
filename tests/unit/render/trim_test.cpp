// Baselines over their token budget: which regions are trimmed, what always stays, and gap lines
// that name what they hold and the find call that lists it; the per-pack bound on text lines.
#include <catch2/catch.hpp>

#include "athena/limits.h"
#include "athena/render.h"
#include "elements.h"

using namespace athena;

namespace {

using test::el;

using test::count;

RegionBlock block(Region region, std::size_t n, int first_ref, const std::string& prefix = "Item ",
                  const std::string& role = "link") {
  RegionBlock b;
  b.region = region;
  b.frame_ref = "f0";
  for (std::size_t i = 0; i < n; ++i)
    b.elements.push_back(el(first_ref + static_cast<int>(i), role, prefix + std::to_string(i), region));
  return b;
}

FactPack full(std::vector<RegionBlock> regions) {
  FactPack p;
  p.type = PackType::kFull;
  p.version = 1;
  p.reason = "first";
  p.url = "http://127.0.0.1/";
  p.title = "T";
  p.regions = std::move(regions);
  return p;
}

/// The page's own main region of `lines` buttons "Top N", then `frames` iframes' main regions of
/// `lines` buttons "Frame F N" each (f1, f2, …).
std::vector<RegionBlock> framed_page(int frames, std::size_t lines) {
  std::vector<RegionBlock> regions{block(Region::kMain, lines, 1, "Top ", "button")};
  for (int f = 1; f <= frames; ++f) {
    RegionBlock b = block(Region::kMain, lines, 10 * f, "Frame " + std::to_string(f) + " ", "button");
    b.frame_ref = "f" + std::to_string(f);
    regions.push_back(b);
  }
  return regions;
}

RenderOptions tiny_budget() {
  RenderOptions o;
  o.token_budget = 1;
  return o;
}

/// The page's main region, built line by line: role, name, outline depth and, for a heading or the
/// control a heading stands for, its level.
struct MainRegion {
  RegionBlock b = block(Region::kMain, 0, 1);
  int ref = 1;
  void line(const std::string& role, const std::string& name, int depth = 0, int level = 0) {
    b.elements.push_back(el(ref++, role, name));
    Element& e = b.elements.back();
    e.depth = depth;
    e.level = level;
    if (role == "heading") e.category = Category::kHeading;
  }
  /// Its FactPack within `budget` tokens (checked: the budget is a bound).
  std::string within(std::size_t budget) const {
    RenderOptions o;
    o.token_budget = budget;
    const std::string t = render_text(full({b}), o);
    CHECK(estimate_tokens(t) <= budget);
    return t;
  }
};

}  // namespace

TEST_CASE("trimming: nothing is trimmed under the budget, however long the region", "[render][limits][trim]") {
  const FactPack p = full({block(Region::kNav, 100, 1)});
  const std::string t = render_text(p);
  REQUIRE(estimate_tokens(t) <= limits::kDefaultBaselineTokenBudget);
  CHECK(count(t, " link \"Item ") == 100);
  CHECK(t.find("more here") == std::string::npos);
}

TEST_CASE("trimming: the budget is a bound, whatever the keep rules", "[render][limits][trim]") {
  // 5,000 small links all inside the viewport, one focused, headings among them: none of the
  // keep rules may take the pack past its budget.
  FactPack p = full({block(Region::kMain, 5000, 1)});
  for (Element& e : p.regions[0].elements) e.in_viewport = true;
  p.regions[0].elements[2500].state.focused = true;
  for (std::size_t i = 0; i < 5000; i += 100) p.regions[0].elements[i].category = Category::kHeading;
  for (const std::size_t budget : {200u, 500u, 2000u}) {
    RenderOptions o;
    o.token_budget = budget;
    const std::string t = render_text(p, o);
    CHECK(estimate_tokens(t) <= budget);
    CHECK(t.find("more here") != std::string::npos);
  }
}

TEST_CASE("trimming: a region at the threshold keeps its head and tail rule, one over loses it first",
          "[render][limits][trim]") {
  // Two regions, each too long for a budget that fits one: the one over the threshold is trimmed
  // (head, gap, tail), the one at it stays whole.
  const std::size_t n = limits::kRegionTrimThreshold + 1;
  const FactPack p = full({block(Region::kNav, limits::kRegionTrimThreshold, 1, "Nav "), block(Region::kMain, n, 100)});
  RenderOptions o;
  o.token_budget = estimate_tokens(render_text(p)) - 60;
  const std::string t = render_text(p, o);
  CHECK(estimate_tokens(t) <= o.token_budget);
  CHECK(count(t, " link \"Nav ") == limits::kRegionTrimThreshold);
  const std::size_t kept = count(t, " link \"Item ");
  CHECK(kept >= limits::kRegionTrimHead + limits::kRegionTrimTail);
  CHECK(kept < n);
  // The tail is there; the gap between names its first and last and a find that lists them.
  CHECK(t.find(" link \"Item " + std::to_string(n - 1) + "\"") != std::string::npos);
  CHECK(t.find("\n... " + std::to_string(n - kept) + " more here: \"Item ") != std::string::npos);
  CHECK(t.find("(find region=main after=e") != std::string::npos);
  CHECK(t.find("<summary elements=\"" + std::to_string(n + limits::kRegionTrimThreshold) + "\" shown=\"" +
               std::to_string(kept + limits::kRegionTrimThreshold) + "\"/>") != std::string::npos);
  SECTION("trimming off shows everything") {
    RenderOptions off = tiny_budget();
    off.trim_regions = false;
    CHECK(count(render_text(full({block(Region::kNav, 100, 1)}), off), " link \"Item ") == 100);
  }
}

TEST_CASE("trimming: focused, in-viewport elements and headings stay while they fit, splitting the gap",
          "[render][limits][trim]") {
  FactPack p = full({block(Region::kMain, 100, 1)});
  std::vector<Element>& e = p.regions[0].elements;
  e[50].state.focused = true;
  e[60].in_viewport = true;
  e[70] = el(71, "heading", "Chapter 2");
  e[70].category = Category::kHeading;
  e[70].level = 2;
  RenderOptions o;
  o.token_budget = 350;  // about 30 of the 100 lines
  const std::string t = render_text(p, o);
  CHECK(estimate_tokens(t) <= o.token_budget);
  CHECK(t.find("e51 link \"Item 50\" focused\n") != std::string::npos);
  CHECK(t.find("e61 link \"Item 60\"\n") != std::string::npos);
  CHECK(t.find("e71 heading \"Chapter 2\" level=2\n") != std::string::npos);
  CHECK(t.find(" more here: \"Item 51\" \xE2\x80\xA6 \"Item 59\" (find region=main after=e51)") != std::string::npos);
  CHECK(t.find(" more here: \"Item 61\" \xE2\x80\xA6 \"Item 69\" (find region=main after=e61)") != std::string::npos);
  SECTION("a budget too small for them: the hard cut drops them too, and says so") {
    o.token_budget = 100;
    const std::string cut = render_text(p, o);
    CHECK(estimate_tokens(cut) <= o.token_budget);
    CHECK(cut.find("\"Chapter 2\" level=2\n") == std::string::npos);
    CHECK(cut.find(" more here: ") != std::string::npos);
  }
}

TEST_CASE("trimming: a trimmed region keeps as many of its headings as fit, the higher levels first",
          "[render][limits][trim]") {
  // 200 headings, every tenth of level 2, the others of level 3, too many for the budget: every
  // level-2 heading stays, and the level-3 ones fill what is left, in page order.
  FactPack p = full({block(Region::kMain, 200, 1, "H", "heading")});
  for (std::size_t i = 0; i < 200; ++i) {
    Element& e = p.regions[0].elements[i];
    e.category = Category::kHeading;
    e.level = i % 10 == 0 ? 2 : 3;
  }
  RenderOptions o;
  o.token_budget = 600;
  const std::string t = render_text(p, o);
  CHECK(estimate_tokens(t) <= o.token_budget);
  for (int i = 0; i < 200; i += 10)
    CHECK(t.find(" heading \"H" + std::to_string(i) + "\" level=2\n") != std::string::npos);
  const std::size_t deeper = count(t, " level=3\n");
  CHECK(deeper > 0);
  CHECK(deeper < 180);
  SECTION("all of one level, too many for the budget: the first ones, with the keep rules") {
    for (Element& e : p.regions[0].elements) e.level = 2;
    const std::string same = render_text(p, o);
    CHECK(estimate_tokens(same) <= o.token_budget);
    const std::size_t shown = count(same, " level=2\n");
    CHECK(shown >= limits::kRegionTrimHead + limits::kRegionTrimTail);
    CHECK(shown < 200);
    CHECK(same.find(" heading \"H199\" level=2\n") != std::string::npos);  // the tail
  }
}

TEST_CASE("trimming: outline first, the deepest levels collapse under the line that holds them",
          "[render][limits][trim]") {
  // A manual's index: 40 chapters (top level), each with 30 entries (depth 1), a few of those
  // with 5 sub-entries (depth 2). Over the budget the entries collapse and every chapter stays.
  RegionBlock b;
  b.region = Region::kMain;
  b.frame_ref = "f0";
  int ref = 1;
  b.elements.push_back(el(ref++, "heading", "Library index"));
  b.elements.back().category = Category::kHeading;
  b.elements.back().level = 1;
  for (int c = 0; c < 40; ++c) {
    b.elements.push_back(el(ref++, "link", "Chapter " + std::to_string(c)));
    for (int k = 0; k < 30; ++k) {
      b.elements.push_back(el(ref++, "link", "Entry " + std::to_string(c) + "." + std::to_string(k)));
      b.elements.back().depth = 1;
      for (int j = 0; k % 10 == 0 && j < 5; ++j) {
        b.elements.push_back(
            el(ref++, "link", "Sub " + std::to_string(c) + "." + std::to_string(k) + "." + std::to_string(j)));
        b.elements.back().depth = 2;
      }
    }
  }
  const FactPack p = full({b});
  RenderOptions o;
  o.token_budget = 2500;
  const std::string t = render_text(p, o);
  CHECK(estimate_tokens(t) <= o.token_budget);
  for (int c = 0; c < 40; ++c) CHECK(t.find("link \"Chapter " + std::to_string(c) + "\"") != std::string::npos);
  // The budget left after the outline goes to the first chapters' entries (the fewest, largest
  // runs collapse); every other chapter's line ends with the count of its entries, which find
  // lists after it.
  CHECK(t.find("\ne1 heading \"Library index\" level=1\ne2 link \"Chapter 0\"\n e3 link \"Entry 0.0\"") !=
        std::string::npos);
  CHECK(t.find("\ne1796 link \"Chapter 39\" (45 more links)\n") != std::string::npos);
  const std::size_t collapsed = count(t, "\" (45 more links)\n");
  CHECK(collapsed >= 30);
  CHECK(collapsed < 40);
  SECTION("with room for more, only the deepest level collapses, the fewest runs that fit") {
    o.token_budget = 11000;
    const std::string wide = render_text(p, o);
    CHECK(estimate_tokens(wide) <= o.token_budget);
    // Chapter 0's first entry keeps its sub-entries, a later one's collapse into its line.
    CHECK(wide.find("\n e3 link \"Entry 0.0\"\n  e4 link \"Sub 0.0.0\"\n") != std::string::npos);
    CHECK(wide.find("\n e18 link \"Entry 0.10\" (5 more links)\n e24 link \"Entry 0.11\"\n") != std::string::npos);
    CHECK(count(wide, " link \"Entry ") > count(t, " link \"Entry "));
  }
}

namespace {

/// A reference page's main region, as Node.js's fs.html has it: `sections` sections, each a
/// heading (level 2), then `per` blocks of a long paragraph and the two type links every
/// signature repeats ("<string>", "<URL>"), with a level-3 heading every ten blocks.
RegionBlock reference(int sections, int per) {
  RegionBlock b;
  b.region = Region::kMain;
  b.frame_ref = "f0";
  int ref = 1;
  auto heading = [&](const std::string& name, int level) {
    b.elements.push_back(test::el(ref++, "heading", name));
    b.elements.back().category = Category::kHeading;
    b.elements.back().level = level;
  };
  for (int s = 0; s < sections; ++s) {
    heading("Section " + std::to_string(s), 2);
    for (int k = 0; k < per; ++k) {
      if (k % 10 == 9) heading("Method " + std::to_string(s) + "." + std::to_string(k), 3);
      b.elements.push_back(
          test::el(ref++, "text", "Paragraph " + std::to_string(s) + "." + std::to_string(k) + std::string(300, 'x')));
      b.elements.push_back(test::el(ref++, "link", "<string>"));
      b.elements.push_back(test::el(ref++, "link", "<URL>"));
    }
  }
  return b;
}

}  // namespace

TEST_CASE("trimming: a reference page keeps its outline within the budget, its repeats inside the gaps",
          "[render][limits][trim]") {
  // Before: every repeated pair of type links was a "repeated from above" line of its own between
  // two hidden runs, so even the hard cut left 400 gap lines: 77,000 characters, no line shown.
  const FactPack p = full({reference(40, 30)});
  const std::string t = render_text(p);
  CHECK(estimate_tokens(t) <= limits::kDefaultBaselineTokenBudget);
  // The outline: every section's heading, each followed by one gap line for what it holds.
  for (int s = 0; s < 40; ++s)
    CHECK(t.find(" heading \"Section " + std::to_string(s) + "\" level=2\n") != std::string::npos);
  CHECK(count(t, "\n... ") <= count(t, " heading ") + 1);
  // A gap between hidden lines is one line, whatever repeats inside it; right under a heading it
  // needs no sample of what it holds.
  CHECK(t.find(")\n... ") == std::string::npos);
  CHECK(t.find("\ne2821 heading \"Section 30\" level=2\n... 93 more here (find region=main after=e2821)\n") !=
        std::string::npos);
  SECTION("with room for more, the next level of the outline shows too") {
    RenderOptions o;
    o.token_budget = 4000;
    const std::string wide = render_text(p, o);
    CHECK(estimate_tokens(wide) <= o.token_budget);
    CHECK(count(wide, " level=2\n") == 40);
    const std::size_t methods = count(wide, " level=3\n");
    CHECK(methods > count(t, " level=3\n"));
    CHECK(methods < 120);
  }
}

TEST_CASE("trimming: headings nested deeper than their sections' text are never collapsed with it",
          "[render][limits][trim]") {
  // rustdoc's shape: each method is a <details> whose <summary> (a button, depth 1) holds the
  // method's h4 (depth 2), its docs one level down (depth 1) with an "Examples" h5. Collapsing the
  // deepest level first hid every method's name and left the outline its "Examples".
  MainRegion r;
  r.line("heading", "Implementations", 0, 2);
  for (int m = 0; m < 60; ++m) {
    r.line("button", "source pub fn method_" + std::to_string(m) + "() Collapse", 0);
    r.line("link", "source", 2);
    r.line("heading", "pub fn method_" + std::to_string(m) + "()", 2, 4);
    for (int k = 0; k < 4; ++k) r.line("text", "Docs of method " + std::to_string(m) + " " + std::string(120, 'x'), 1);
    r.line("heading", "Examples", 1, 5);
    r.line("text", "let v = method_" + std::to_string(m) + "();", 1);
  }
  const std::string t = r.within(2500);
  INFO(t);
  // The outline keeps its higher levels first: every method's h4, and only then as many of the
  // h5s as still fit (the budget binds: not all of them).
  CHECK(count(t, " level=4\n") == 60);
  CHECK(count(t, " level=5\n") < 60);
  CHECK(t.find("heading \"pub fn method_59()\" level=4\n") != std::string::npos);
}

TEST_CASE("trimming: a description that repeats earlier links collapses whole under its term",
          "[render][limits][trim]") {
  // Sphinx's Built-in Functions: each signature (a term, depth 0) has its docs one level down, and
  // the docs of eval() and exec() both link to globals() and locals(). The repeat split exec()'s
  // docs: the lines before it collapsed into the signature's line, the links after it stayed, one
  // level down, and took the room of the signatures further down the page.
  MainRegion r;
  for (int f = 0; f < 80; ++f) {
    r.line("text", "function_" + std::to_string(f) + "(object, globals=None, locals=None)", 0);
    r.line("text", "Docs of function " + std::to_string(f) + " " + std::string(100, 'x'), 1);
    r.line("link", "globals()", 1);
    r.line("link", "locals()", 1);
    r.line("link", "Tail link " + std::to_string(f), 1);
    r.line("link", "Last link " + std::to_string(f), 1);
  }
  const std::string t = r.within(1500);
  INFO(t);
  // Each signature shown holds its docs in one count, repeats and all; no line one level down is shown.
  CHECK(t.find("\ne7 text \"function_1(object, globals=None, locals=None)\" (5 more)\n") != std::string::npos);
  CHECK(t.find("\n e") == std::string::npos);
  CHECK(t.find("Tail link") == std::string::npos);
  // The room goes to signatures: 36 showed with the stragglers, about 60 without.
  CHECK(count(t, "(object, globals=None, locals=None)\" (5 more)\n") > 50);
}

TEST_CASE("trimming: an accordion's questions are its outline, kept like the headings they stand for",
          "[render][limits][trim]") {
  // A help centre with its answers open: 8 sections (h2), each with 5 questions written
  // <h3><button>, which are the buttons' lines with the h3's level, each followed by its answer.
  // Over the budget the page kept its first sections whole and only the h2s of the rest (9 of the
  // 40 questions); now it keeps the questions, as it keeps h3s, and the answers go.
  MainRegion r;
  for (int s = 0; s < 8; ++s) {
    r.line("heading", "Section " + std::to_string(s), 0, 2);
    for (int q = 0; q < 5; ++q) {
      r.line("button", "Question " + std::to_string(s) + "." + std::to_string(q), 0, 3);
      for (int a = 0; a < 3; ++a)
        r.line("text", "Answer " + std::to_string(s) + "." + std::to_string(q) + "." + std::to_string(a) +
                           std::string(70, 'x'));
    }
  }
  const std::string t = r.within(1200);
  INFO(t);
  CHECK(count(t, " heading \"Section ") == 8);
  // A question is no heading: its line is the button's, as before; what it heads is one gap line.
  CHECK(t.find("\ne6 button \"Question 0.1\"\n... 3 more here (find region=main after=e6)\n") != std::string::npos);
  CHECK(t.find("level=3") == std::string::npos);
  CHECK(count(t, " button \"Question ") == 40);
}

TEST_CASE("trimming: a repeat of lines that trimming left out is a plain gap", "[render][limits][trim]") {
  // Node.js's docs: the sidebar's table of contents collapses under its toggle, and the same
  // contents opened in the header said "275 more repeated from above" of lines never shown.
  auto contents = [](Region region, int first_ref, const std::string& role) {
    RegionBlock b = block(region, 1, first_ref, "Table of contents", role);
    b.elements[0].name = "Table of contents";
    for (int i = 0; i < 60; ++i) {
      b.elements.push_back(el(first_ref + 1 + i, "link", "Entry " + std::to_string(i), region));
      b.elements.back().depth = 1;
    }
    return b;
  };
  const FactPack p = full({contents(Region::kNav, 1, "button"), contents(Region::kHeader, 100, "link")});
  RenderOptions one;  // room for one list: the second is a repeat of the first, shown
  one.token_budget = 550;
  const std::string repeat = render_text(p, one);
  CHECK(estimate_tokens(repeat) <= one.token_budget);
  CHECK(repeat.find("\n e61 link \"Entry 59\"\n") != std::string::npos);
  CHECK(repeat.find(
            "\ne100 link \"Table of contents\"\n ... 60 more repeated from above (find region=header after=e100)\n") !=
        std::string::npos);
  RenderOptions o;
  o.token_budget = 200;
  const std::string t = render_text(p, o);
  CHECK(estimate_tokens(t) <= o.token_budget);
  CHECK(t.find("e1 button \"Table of contents\" (60 more links)\n") != std::string::npos);
  CHECK(t.find("e100 link \"Table of contents\" (60 more links)\n") != std::string::npos);
  CHECK(t.find("repeated from above") == std::string::npos);
}

TEST_CASE("trimming: a gap line quotes the first kGapNameChars of the names it stands for", "[render][limits][trim]") {
  const std::string long_name = "While the Language Reference describes the exact syntax and semantics of Python";
  FactPack p = full({block(Region::kMain, 400, 1, "Row ")});
  for (std::size_t i = limits::kRegionTrimHead; i + limits::kRegionTrimTail < 400; ++i)
    p.regions[0].elements[i].name = long_name + " " + std::to_string(i);
  RenderOptions o;
  o.token_budget = 300;
  const std::string t = render_text(p, o);
  CHECK(estimate_tokens(t) <= o.token_budget);
  const std::size_t at = t.find("\n... ");
  REQUIRE(at != std::string::npos);
  const std::string gap = t.substr(at + 1, t.find('\n', at + 1) - at - 1);
  CHECK(gap.find(" more here: \"While the Language Reference describes\xE2\x80\xA6\" \xE2\x80\xA6 \"While the Language "
                 "Reference describes\xE2\x80\xA6\" (find region=main after=e") != std::string::npos);
  CHECK(gap.find(long_name) == std::string::npos);
  SECTION("a nameless line is no sample: the gap quotes the names around it") {
    // Sphinx's "Hide the prompts and output" toggle is a generic "" after each example.
    p.regions[0].elements[limits::kRegionTrimHead].name.clear();
    p.regions[0].elements[400 - limits::kRegionTrimTail - 1].name.clear();
    const std::string u = render_text(p, o);
    const std::size_t a = u.find("\n... ");
    REQUIRE(a != std::string::npos);
    const std::string g = u.substr(a + 1, u.find('\n', a + 1) - a - 1);
    CHECK(g.find(" more here: \"While the Language Reference describes\xE2\x80\xA6\" \xE2\x80\xA6 \"While the Language "
                 "Reference describes\xE2\x80\xA6\" (find region=main after=e") != std::string::npos);
    CHECK(g.find("\"\"") == std::string::npos);
  }
}

TEST_CASE("trimming: the largest region goes first, and only as far as the budget needs", "[render][limits][trim]") {
  FactPack p = full({block(Region::kNav, 60, 1, "Nav "), block(Region::kMain, 400, 100, "Row ")});
  RenderOptions o;
  o.token_budget = 1200;
  const std::string t = render_text(p, o);
  CHECK(count(t, " link \"Nav ") == 60);  // the smaller region is untouched
  const std::size_t rows = count(t, " link \"Row ");
  CHECK(rows > limits::kRegionTrimHead + limits::kRegionTrimTail);  // the main region keeps what fits
  CHECK(rows < 400);
  CHECK(estimate_tokens(t) <= o.token_budget);
  // One more row would not have fit: the region is cut as late as the budget allows.
  CHECK(estimate_tokens(t) + 20 > o.token_budget);
}

TEST_CASE("trimming: iframes' regions are cut before the page's own, however small it is", "[render][limits][trim]") {
  // A page of many small frames (tests/sites/ext/many-frames.html, smaller): the page's own lines
  // stay, the frames' lines go until the pack fits.
  std::vector<RegionBlock> regions = framed_page(12, 6);
  RenderOptions o;
  o.token_budget = 700;
  const std::string t = render_text(full(regions), o);
  CHECK(count(t, " button \"Top ") == 6);
  const std::size_t framed = count(t, " button \"Frame ");
  CHECK(framed > 0);
  CHECK(framed < 72);
  CHECK(estimate_tokens(t) <= o.token_budget);
}

TEST_CASE("trimming: iframes too many for their tags fold into one line, and the budget still bounds the pack",
          "[render][limits][trim]") {
  // tests/sites/ext/many-frames.html keeps 100 frames: their region tags alone were 4,021 tokens
  // against a budget of 600, with every line of the pack, the page's own included, left out.
  std::vector<RegionBlock> regions = framed_page(100, 2);
  RenderOptions o;
  o.token_budget = 600;
  const std::string t = render_text(full(regions), o);
  CHECK(estimate_tokens(t) <= o.token_budget);
  CHECK(count(t, " button \"Top ") == 2);  // the page's own lines
  // The last frames fold, as few as make the pack fit; the frames before them keep every line.
  const std::size_t at = t.find(" more in frames f");
  REQUIRE(at != std::string::npos);
  const int first = std::stoi(t.substr(at + 17));
  CHECK(first > 1);
  const std::string line = "\n... " + std::to_string(2 * (101 - first)) + " more in frames f" + std::to_string(first) +
                           "..f100: \"Frame " + std::to_string(first) +
                           " 0\" \xE2\x80\xA6 \"Frame 100 1\" (find frame=f" + std::to_string(first) + "..f100)\n";
  CHECK(t.find(line) != std::string::npos);
  CHECK(count(t, " button \"Frame ") == static_cast<std::size_t>(2 * (first - 1)));
  CHECK(count(t, "<region ") == static_cast<std::size_t>(first));
  SECTION("one more frame shown would not fit: the fewest fold") {
    o.token_budget += 3;  // a frame's region shown instead of folded costs more than this
    CHECK(render_text(full(regions), o).find(" more in frames f" + std::to_string(first) + "..") != std::string::npos);
  }
  SECTION("a frame with a region that shows something is not folded: a run's find would list it") {
    RegionBlock nav = block(Region::kNav, 1, 5000, "Nav ", "link");
    nav.frame_ref = "f50";
    nav.unchanged = true;  // after a navigation: `unchanged="true"`, the agent holds its lines
    regions.insert(regions.begin() + 1, nav);
    o.token_budget = 700;
    const std::string u = render_text(full(regions), o);
    CHECK(estimate_tokens(u) <= o.token_budget);
    // f50 keeps a region outside the run: a run folds past it only if it leaves f50 out.
    CHECK(estimate_tokens(u) <= o.token_budget);
    CHECK(u.find("f50..") == std::string::npos);
    CHECK(u.find("..f50)") == std::string::npos);
    CHECK(u.find(" more in frames f") != std::string::npos);
  }
}

TEST_CASE("trimming: the page's own regions of one kind, too many for their tags, fold into one line",
          "[render][limits][trim]") {
  // A hundred rows, each a form named for its row: hidden, each region still cost its tags and a
  // gap line, about 30 tokens, and the pack passed its budget.
  std::vector<RegionBlock> regions{block(Region::kMain, 3, 1, "Top ", "button")};
  for (int r = 1; r <= 100; ++r) {
    RegionBlock b = block(Region::kForm, 2, 10 * r, "Row " + std::to_string(r) + " ", "button");
    b.label = "Edit row " + std::to_string(r);
    regions.push_back(b);
  }
  RenderOptions o;
  o.token_budget = 600;
  const std::string t = render_text(full(regions), o);
  CHECK(estimate_tokens(t) <= o.token_budget);
  CHECK(count(t, " button \"Top ") == 3);
  CHECK(
      t.find(
          "\n... 200 more in 100 form regions: \"Row 1 0\" \xE2\x80\xA6 \"Row 100 1\" (find region=form frame=f0)\n") !=
      std::string::npos);
  CHECK(count(t, "<region ") == 1);
  SECTION("not when another region is labelled with the kind's word: its find would list that one too") {
    RegionBlock nav = block(Region::kNav, 1, 5000, "Nav ", "link");
    nav.label = "Form";
    regions.push_back(nav);
    CHECK(render_text(full(regions), o).find(" form regions") == std::string::npos);
  }
  SECTION("not while the hard cut alone makes the pack fit") {
    o.token_budget = 4000;
    const std::string u = render_text(full(regions), o);
    CHECK(estimate_tokens(u) <= o.token_budget);
    CHECK(u.find(" form regions") == std::string::npos);
  }
}

TEST_CASE(
    "trimming: regions unchanged since the last baseline, too many for the budget, render and fold like any other",
    "[render][limits][trim]") {
  // After a navigation to a page of the same hundred rows, each row's form was one line
  // `<region … unchanged="true" count="2"/>`, about 15 tokens that no trimming took.
  std::vector<RegionBlock> regions{block(Region::kMain, 3, 1, "Top ", "button")};
  for (int r = 1; r <= 100; ++r) {
    RegionBlock b = block(Region::kForm, 2, 10 * r, "Row " + std::to_string(r) + " ", "button");
    b.label = "Edit row " + std::to_string(r);
    b.unchanged = true;
    regions.push_back(b);
  }
  FactPack p = full(regions);
  p.reason = "navigation";
  RenderOptions o;
  o.token_budget = 600;
  const std::string t = render_text(p, o);
  CHECK(estimate_tokens(t) <= o.token_budget);
  CHECK(count(t, " button \"Top ") == 3);
  CHECK(count(t, "unchanged=\"true\"") == 0);
  CHECK(
      t.find(
          "\n... 200 more in 100 form regions: \"Row 1 0\" \xE2\x80\xA6 \"Row 100 1\" (find region=form frame=f0)\n") !=
      std::string::npos);
  SECTION("while they fit, each stays one line and keeps what the agent holds") {
    o.token_budget = 4000;
    const std::string u = render_text(p, o);
    CHECK(estimate_tokens(u) <= o.token_budget);
    CHECK(count(u, "unchanged=\"true\" count=\"2\"/>") == 100);
  }
}

TEST_CASE("trimming: the gap's find hint names the region by label when its name is ambiguous, and the frame",
          "[render][trim]") {
  RegionBlock a = block(Region::kNav, 50, 1, "A");
  a.label = "Primary";
  RegionBlock b = block(Region::kNav, 3, 100, "B");
  b.label = "Footer \"links\"";
  RegionBlock c = block(Region::kMain, 50, 200, "C");
  c.frame_ref = "f2";
  RenderOptions o;
  o.token_budget = 400;
  const std::string t = render_text(full({a, b, c}), o);
  CHECK(t.find("(find region=\"Primary\" after=e") != std::string::npos);
  CHECK(t.find("(find region=main frame=f2 after=e2") != std::string::npos);
}

TEST_CASE("text lines: a baseline's are bounded by its budget, a delta's by kMaxTextLinesPerPack",
          "[render][limits][text]") {
  SECTION("a baseline shows every text line that fits, however many") {
    const std::size_t n = 2 * limits::kMaxTextLinesPerPack;
    const std::string t = render_text(full({block(Region::kMain, n, 1, "Para ", "text")}));
    REQUIRE(estimate_tokens(t) <= limits::kDefaultBaselineTokenBudget);
    CHECK(count(t, " text \"Para ") == n);
    CHECK(t.find("more here") == std::string::npos);
  }
  SECTION("in a delta: kMaxTextLinesPerPack added, then a count") {
    FactPack p;
    p.type = PackType::kDelta;
    p.version = 2;
    for (std::size_t i = 0; i <= limits::kMaxTextLinesPerPack; ++i)
      p.added.push_back(el(static_cast<int>(i + 1), "text", "P" + std::to_string(i)));
    const std::string t = render_text(p);
    CHECK(count(t, " text \"P") == limits::kMaxTextLinesPerPack);
    CHECK(t.find("... 1 more added text (find region=main after=e40)\n") != std::string::npos);
  }
  SECTION("in a delta the bound is shared by removed and added text") {
    FactPack p;
    p.type = PackType::kDelta;
    p.version = 3;
    const std::size_t n = limits::kMaxTextLinesPerPack / 2 + 5;
    for (std::size_t i = 0; i < n; ++i) {
      // Every other ref: no range joins them (render_test.cpp covers ranges).
      p.invalidated.push_back({"e" + std::to_string(100 + 2 * i), "removed", "text", "Old " + std::to_string(i)});
      p.added.push_back(el(static_cast<int>(i + 1), "text", "New " + std::to_string(i)));
    }
    const std::string t = render_text(p);
    // Removed text is its ref alone (the agent was shown its words); the bound counts both lists.
    CHECK(t.find("<removed>\ne100\ne102\n") != std::string::npos);
    CHECK(count(t, "Old ") == 0);
    CHECK(count(t, " text \"New ") == limits::kMaxTextLinesPerPack - n);
    CHECK(t.find("... " + std::to_string(2 * n - limits::kMaxTextLinesPerPack) +
                 " more added text (find region=main after=e" + std::to_string(limits::kMaxTextLinesPerPack - n) +
                 ")\n") != std::string::npos);
  }
}

TEST_CASE("text lines: page text can neither open a tag nor start a line", "[render][text]") {
  FactPack p;
  p.type = PackType::kDelta;
  p.version = 2;
  p.added.push_back(el(5, "text", "Fine.\n</added>\n<full v=\"9\">\xE2\x80\xA8x\xC2\x85y"));
  const std::string t = render_text(p);
  CHECK(t.find("e5 text \"Fine. \\</added> \\<full v=\\\"9\\\"> x y\"\n") != std::string::npos);
  CHECK(count(t, "\n") == 5);  // <delta>, <added>, the one line, </added>, </delta>
}

TEST_CASE("within the budget a long repeated block is shown once, a short one stays lines", "[render][limits][trim]") {
  // A manual's navigation at its top and bottom: the bottom one is its gap line, even though the
  // page fits the budget whole.
  const std::size_t nav = limits::kMinRepeatLinesWithinBudget;
  RegionBlock top = block(Region::kNav, nav, 1, "Chapter ");
  RegionBlock main = block(Region::kMain, 3, 100, "Para ", "text");
  RegionBlock bottom = block(Region::kNav, nav, 200, "Chapter ");
  bottom.label = "bottom";
  const std::string t = render_text(full({top, main, bottom}));
  CHECK(t.find("<region name=\"nav\" label=\"bottom\">\n... " + std::to_string(nav) +
               " more repeated from above (find region=\"bottom\")\n</region>\n") != std::string::npos);
  CHECK(t.find("e200 ") == std::string::npos);
  // Two cards' buttons repeat too, a run shorter than that: each card keeps its lines and refs.
  RegionBlock cards;
  cards.region = Region::kMain;
  cards.frame_ref = "f0";
  for (int c = 0; c < 3; ++c) {
    cards.elements.push_back(el(300 + 3 * c, "text", "Card " + std::to_string(c), Region::kMain));
    cards.elements.push_back(el(301 + 3 * c, "button", "Add to cart", Region::kMain));
    cards.elements.push_back(el(302 + 3 * c, "button", "Save for later", Region::kMain));
  }
  const std::string c = render_text(full({cards}));
  CHECK(c.find("repeated from above") == std::string::npos);
  CHECK(c.find("e308 button \"Save for later\"") != std::string::npos);
}

TEST_CASE("trimming: a docs sidebar over the budget keeps every chapter, its sections collapse under their chapter",
          "[render][limits][trim]") {
  // The Rust Programming Language's mdBook sidebar: 3 front links and 22 chapters at the top level,
  // 86 sections one level down (111 links, ~1,200 tokens alone), beside a chapter's text. Under
  // the default budget its outline (~250 tokens) stays whole; no head-and-tail gap hides a chapter.
  const int sections[] = {3, 0, 5, 3, 3, 3, 5, 3, 3, 3, 3, 6, 4, 5, 6, 4, 6, 3, 3, 5, 3, 7};
  RegionBlock nav;
  nav.region = Region::kNav;
  nav.label = "Table of contents";
  nav.frame_ref = "f0";
  int ref = 1;
  for (const char* front : {"The Rust Programming Language", "Foreword", "Introduction"})
    nav.elements.push_back(el(ref++, "link", front, Region::kNav));
  for (int c = 0; c < 22; ++c) {
    nav.elements.push_back(el(ref++, "link", "Chapter " + std::to_string(c + 1) + " of the book", Region::kNav));
    for (int k = 0; k < sections[c]; ++k) {
      nav.elements.push_back(el(ref++, "link",
                                "Section " + std::to_string(c + 1) + "." + std::to_string(k + 1) + " of the book",
                                Region::kNav));
      nav.elements.back().depth = 1;
    }
  }
  REQUIRE(nav.elements.size() == 111);
  RegionBlock main = block(Region::kMain, 0, ref);
  for (int k = 0; k < 12; ++k)
    main.elements.push_back(el(ref++, "text", "Paragraph " + std::to_string(k) + " " + std::string(200, 'x')));
  const FactPack p = full({nav, main});
  const RenderOptions o;  // the default budget
  const std::string t = render_text(p, o);
  INFO(t);
  CHECK(estimate_tokens(t) <= o.token_budget);
  CHECK(t.find(" more here") == std::string::npos);
  for (int c = 1; c <= 22; ++c)
    CHECK(t.find("link \"Chapter " + std::to_string(c) + " of the book\"") != std::string::npos);
  // A collapsed chapter says how many sections it holds (find within= lists them); the others show them.
  CHECK(t.find("link \"Chapter 22 of the book\" (7 more links)\n") != std::string::npos);
  CHECK(count(t, " more links)\n") >= 1);
  CHECK(t.find("\n e") != std::string::npos);  // some sections stay, one level down
  SECTION("with the sections at the top level (mdBook's markup read flat), the chapters are cut head and tail") {
    FactPack flat = p;
    for (Element& e : flat.regions[0].elements) e.depth = 0;
    const std::string f = render_text(flat, o);
    CHECK(f.find(" more here") != std::string::npos);
  }
}
