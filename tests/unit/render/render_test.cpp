// The renderers on hand-built FactPacks: exact text where the format matters, bounds at their
// edges (limits.h), dedup lines, escaping, redaction, determinism. Real packs: golden_test.cpp.
#include "athena/render.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "athena/limits.h"
#include "elements.h"

using namespace athena;

namespace {

using test::el;

using test::count;

FactPack full_with(std::size_t n, Region region = Region::kNav) {
  FactPack p;
  p.type = PackType::kFull;
  p.version = 1;
  p.reason = "first";
  p.url = "http://127.0.0.1/";
  p.title = "T";
  RegionBlock b;
  b.region = region;
  b.frame_ref = "f0";
  for (std::size_t i = 0; i < n; ++i)
    b.elements.push_back(el(static_cast<int>(i + 1), "link", "Item " + std::to_string(i)));
  p.regions.push_back(b);
  return p;
}

}  // namespace

TEST_CASE("no_change is one short line", "[render]") {
  FactPack p;
  p.type = PackType::kNoChange;
  p.version = 6;
  CHECK(render_text(p) == "<no_change v=\"6\"/>\n");
  p.warnings.push_back("page still changing after 2000 ms");
  CHECK(render_text(p) == "<no_change v=\"6\">\n<warning>page still changing after 2000 ms</warning>\n</no_change>\n");
}

TEST_CASE("a delta: removed first, then added by region, modified old -> new, and no count of what it lists",
          "[render]") {
  FactPack p;
  p.type = PackType::kDelta;
  p.version = 5;
  p.invalidated.push_back({"e7", "removed", "button", "Undo"});
  p.added.push_back(el(9, "button", "Delete"));
  Modified m;
  m.ref = "e3";
  m.before = el(3, "checkbox", "Buy milk");
  m.before.state.checked = Tri::kFalse;
  m.after = m.before;
  m.after.state.checked = Tri::kTrue;
  p.modified.push_back(m);
  CHECK(render_text(p) ==
        "<delta v=\"5\">\n"
        "<removed>\ne7 button \"Undo\"\n</removed>\n"
        "<added region=\"main\">\ne9 button \"Delete\"\n</added>\n"
        "<modified>\ne3 checkbox \"Buy milk\": checked=false -> checked\n</modified>\n"
        "</delta>\n");
}

TEST_CASE("a modified line names only the state words that differ, never an unchanged value twice", "[render]") {
  auto line = [](const Element& before, const Element& after) {
    FactPack p;
    p.type = PackType::kDelta;
    p.version = 2;
    Modified m;
    m.ref = after.ref;
    m.before = before;
    m.after = after;
    p.modified.push_back(m);
    const std::string t = render_text(p);
    const std::size_t from = t.find("<modified>\n") + 11;
    return t.substr(from, t.find('\n', from) - from);
  };
  Element field = el(9, "textbox", "Email");
  field.state.disabled = true;
  field.state.required = true;
  field.state.value = "a long address, unchanged";
  Element enabled = field;
  enabled.state.disabled = false;
  CHECK(line(field, enabled) == "e9 textbox \"Email\": - disabled");
  Element typed = enabled;
  typed.state.focused = true;
  typed.state.value = "ada";
  CHECK(line(enabled, typed) == "e9 textbox \"Email\": value=\"a long address, unchanged\" -> focused value=\"ada\"");
  Element secret = typed;
  secret.state.value.clear();
  secret.state.value_redacted = true;
  CHECK(line(typed, secret) == "e9 textbox \"Email\": value=\"ada\" -> value=redacted");
  Element box = el(3, "checkbox", "Keep");
  box.state.checked = Tri::kFalse;
  Element mixed = box;
  mixed.state.checked = Tri::kMixed;
  CHECK(line(box, mixed) == "e3 checkbox \"Keep\": checked=false -> checked=mixed");
  Element empty = el(5, "textbox", "Name");
  Element filled = empty;
  filled.state.focused = true;
  filled.state.value = "Ada";
  CHECK(line(empty, filled) == "e5 textbox \"Name\": + focused value=\"Ada\"");
  CHECK(line(filled, empty) == "e5 textbox \"Name\": - focused value=\"Ada\"");
  // A pager's page that becomes the current one.
  Element page = el(8, "link", "2");
  Element now = page;
  now.state.current = true;
  CHECK(line(page, now) == "e8 link \"2\": + current");
  Element column = el(7, "columnheader", "Name");
  Element up = column;
  up.state.sort = Sort::kAscending;
  Element down = column;
  down.state.sort = Sort::kDescending;
  CHECK(line(column, up) == "e7 columnheader \"Name\": + sort=ascending");
  CHECK(line(up, down) == "e7 columnheader \"Name\": sort=ascending -> sort=descending");
}

TEST_CASE("names are quoted with escapes: control characters never break a line", "[render]") {
  FactPack p;
  p.type = PackType::kDelta;
  p.added.push_back(el(1, "button", "Say \"hi\"\nback\\slash", Region::kPage));
  const std::string t = render_text(p);
  CHECK(t.find("e1 button \"Say \\\"hi\\\" back\\\\slash\"\n") != std::string::npos);
  CHECK(count(t, "\n") == 5);  // <delta>, <added>, the line, </added>, </delta>: the name kept its line
}

TEST_CASE("a redacted value says so and nothing else", "[render][redaction]") {
  FactPack p;
  p.type = PackType::kDelta;
  Element e = el(1, "textbox", "Password");
  e.state.value_redacted = true;
  p.added.push_back(e);
  const std::string t = render_text(p);
  CHECK(t.find("value=redacted") != std::string::npos);
  CHECK(render_json(p).find("\"value_redacted\":true") != std::string::npos);
}

TEST_CASE("delta caps per category, with the count of what was left out", "[render][limits]") {
  FactPack p;
  p.type = PackType::kDelta;
  const std::size_t extra = 7;
  for (std::size_t i = 0; i < limits::kDeltaCapPerCategory + extra; ++i)
    p.added.push_back(el(static_cast<int>(i), "button", "B"));
  for (std::size_t i = 0; i < limits::kNonInteractiveCap + 2; ++i) {
    Element h = el(static_cast<int>(1000 + i), "heading", "H");
    h.category = Category::kHeading;
    h.level = 2;
    p.added.push_back(h);
  }
  const std::string t = render_text(p);
  CHECK(count(t, " button \"B\"") == limits::kDeltaCapPerCategory);
  CHECK(count(t, " heading \"H\" level=2") == limits::kNonInteractiveCap);
  // Each count names the find call that lists the rest, from the last line shown of its kind.
  CHECK(t.find("... 7 more added interactive (find region=main after=e24)\n") != std::string::npos);
  CHECK(t.find("... 2 more added heading (find role=heading region=main after=e1009)\n</added>") != std::string::npos);
  CHECK(t.find("<summary") == std::string::npos);  // the lists and their "more" lines say it all
  RenderOptions no_caps;
  no_caps.caps = false;
  CHECK(count(render_text(p, no_caps), " button \"B\"") == limits::kDeltaCapPerCategory + extra);
  // JSON never caps.
  CHECK(nlohmann::json::parse(render_json(p))["added"].size() == p.added.size());
}

// Budget trimming, gap lines and the text bound: trim_test.cpp.

TEST_CASE("cross-baseline dedup: an unchanged region is one line with its count", "[render][dedup]") {
  FactPack p = full_with(73);
  p.reason = "navigation";
  p.regions[0].unchanged = true;
  RegionBlock main;
  main.region = Region::kMain;
  main.frame_ref = "f0";
  main.elements.push_back(el(200, "button", "Buy"));
  p.regions.push_back(main);
  const std::string t = render_text(p);
  CHECK(t.find("<region name=\"nav\" unchanged=\"true\" count=\"73\"/>\n") != std::string::npos);
  CHECK(count(t, " link \"Item ") == 0);
  CHECK(t.find("e200 button \"Buy\"") != std::string::npos);
  CHECK(t.find("<summary") == std::string::npos);  // nothing trimmed: the region line carries its count
  SECTION("an unchanged region of an iframe names its frame") {
    p.regions[0].frame_ref = "f2";
    CHECK(render_text(p).find("<region name=\"nav\" frame=\"f2\" unchanged=\"true\" count=\"73\"/>") !=
          std::string::npos);
  }
  SECTION("dedup off renders it (trimmed when over the budget)") {
    RenderOptions o;
    o.dedup = false;
    CHECK(render_text(p, o).find("unchanged=\"true\"") == std::string::npos);
    CHECK(count(render_text(p, o), " link \"Item ") == 73);
    // The budget is a bound: far too small a one leaves nothing of the region but its gap line.
    o.token_budget = 1;
    const std::string cut = render_text(p, o);
    CHECK(count(cut, " link \"Item ") == 0);
    CHECK(cut.find("\n... 73 more here: \"Item 0\" \xE2\x80\xA6 \"Item 72\" (find region=nav)\n") != std::string::npos);
  }
  SECTION("JSON keeps the refs of an unchanged region (they stay valid)") {
    const auto j = nlohmann::json::parse(render_json(p));
    CHECK(j["regions"][0]["unchanged"] == true);
    CHECK(j["regions"][0]["elements"].size() == 73);
  }
}

TEST_CASE("a navigation invalidates a document's refs in one line, and a full says nothing of them", "[render]") {
  FactPack p = full_with(3);
  p.reason = "navigation";
  for (int i = 0; i < 400; ++i) p.invalidated.push_back({"e" + std::to_string(i), "navigated", "link", "x"});
  p.invalidated.push_back({"e9", "detached", "button", "Pay"});
  // A full replaces what the agent holds: counting the refs it replaced would only cost tokens.
  CHECK(render_text(p).find("<invalid") == std::string::npos);
  p.type = PackType::kDelta;  // a frame navigated or went in a delta: one line per cause
  p.regions.clear();
  const std::string t = render_text(p);
  CHECK(t.find("<invalid cause=\"detached\" count=\"1\"/>\n<invalid cause=\"navigated\" count=\"400\"/>\n") !=
        std::string::npos);
}

TEST_CASE("frames whose documents went: a line each, and past kMaxInvalidFrameLines one per run of frame numbers",
          "[render][limits]") {
  FactPack p;
  p.type = PackType::kDelta;
  p.version = 7;
  auto go = [&](int frame, int refs) {
    for (int r = 0; r < refs; ++r)
      p.invalidated.push_back({"e" + std::to_string(frame * 10 + r), "navigated", "button", "x", frame});
  };
  go(2, 1);
  go(3, 2);
  CHECK(render_text(p) ==
        "<delta v=\"7\">\n<invalid cause=\"navigated\" frame=\"f2\" count=\"1\"/>\n"
        "<invalid cause=\"navigated\" frame=\"f3\" count=\"2\"/>\n</delta>\n");
  // A click that reloads every widget frame of a dashboard: frames 2 to 101, and 150 apart.
  for (int f = 4; f <= 101; ++f) go(f, 3);
  go(150, 1);
  const std::string t = render_text(p);
  CHECK(t == "<delta v=\"7\">\n<invalid cause=\"navigated\" frame=\"f2..f101\" count=\"" +
                 std::to_string(1 + 2 + 98 * 3) +
                 "\"/>\n<invalid cause=\"navigated\" frame=\"f150\" count=\"1\"/>\n</delta>\n");
}

TEST_CASE("a closed overlay takes its refs along: its tag says it, no line counts them", "[render]") {
  FactPack p;
  p.type = PackType::kOverlayClosed;
  p.version = 9;
  p.overlay = {OverlayType::kModal, "Added to cart", 1, 1};
  for (int i = 30; i < 36; ++i) p.invalidated.push_back({"e" + std::to_string(i), "overlay_closed", "button", "B"});
  // The name was said when it opened: what closes is what the agent holds open.
  CHECK(render_text(p) == "<overlay_closed v=\"9\" overlay=\"modal\"/>\n");
  // One action closed two nested overlays: the tag says how many.
  p.overlay = {OverlayType::kDropdown, "Sort by", 2, 2};
  p.added.push_back(el(40, "status", "Sorted"));
  CHECK(render_text(p) ==
        "<overlay_closed v=\"9\" overlay=\"dropdown\" depth=\"2\" closed=\"2\">\n"
        "<added region=\"main\">\ne40 status \"Sorted\"\n</added>\n</overlay_closed>\n");
  // The JSON lists each ref it took.
  CHECK(nlohmann::json::parse(render_json(p))["invalidated"].size() == 6);
}

TEST_CASE("overlay packs name the overlay once: nested ones their depth", "[render]") {
  FactPack p;
  p.type = PackType::kOverlayOpened;
  p.version = 4;
  p.overlay = {OverlayType::kModal, "Added to cart", 2};
  RegionBlock b;
  b.region = Region::kDialog;
  b.label = "Added to cart";
  b.elements.push_back(el(11, "button", "Checkout", Region::kDialog));
  p.regions.push_back(b);
  // The dialog's region is labelled by its name: the tag does not say it again.
  CHECK(render_text(p) ==
        "<overlay_opened v=\"4\" overlay=\"modal\" depth=\"2\">\n"
        "<region name=\"dialog\" label=\"Added to cart\">\ne11 button \"Checkout\"\n</region>\n"
        "</overlay_opened>\n");
  // A region labelled otherwise: the tag names the overlay.
  p.overlay.name = "More actions";
  CHECK(render_text(p).rfind("<overlay_opened v=\"4\" overlay=\"modal\" name=\"More actions\" depth=\"2\">\n", 0) == 0);
}

TEST_CASE("a page that changed between the delivered pack and the action: that change comes first, nested",
          "[render]") {
  FactPack before;
  before.type = PackType::kDelta;
  before.version = 7;
  before.added.push_back(el(30, "link", "New"));
  FactPack p;
  p.type = PackType::kDelta;
  p.version = 8;
  p.before_action.push_back(before);
  const std::string t = render_text(p);
  CHECK(t.rfind("<delta v=\"8\">\n<before_action>\n<delta v=\"7\">\n", 0) == 0);
  CHECK(nlohmann::json::parse(render_json(p))["before_action"][0]["version"] == 7);
}

TEST_CASE("rendering is deterministic and JSON is valid UTF-8 even from bad bytes", "[render]") {
  FactPack p = full_with(60);
  p.regions[0].elements[3].name = std::string("bad \xff\xfe bytes");
  CHECK(render_text(p) == render_text(p));
  CHECK(render_json(p) == render_json(p));
  CHECK_NOTHROW(nlohmann::json::parse(render_json(p)));
}

TEST_CASE("removed text refs: consecutive ones are one range line, controls keep their names", "[render]") {
  FactPack p;
  p.type = PackType::kDelta;
  p.version = 7;
  p.invalidated.push_back({"e41", "removed", "generic", ""});
  for (int i : {48, 49, 50, 51, 53, 54, 60})
    p.invalidated.push_back({"e" + std::to_string(i), "removed", "row", "Ada | 3"});
  CHECK(render_text(p) ==
        "<delta v=\"7\">\n<removed>\n"
        "e41 generic \"\"\n"
        "e48..51\ne53..54\ne60\n"
        "</removed>\n</delta>\n");
}

TEST_CASE("removed controls: more than their cap are ranges of refs, fewer keep their names", "[render][limits]") {
  // A search that replaced a page's content: 3,000 controls went, and the names of the first 25
  // were most of the answer. Past the cap every removed ref is in a range line.
  FactPack p;
  p.type = PackType::kDelta;
  p.version = 9;
  const std::size_t n = limits::kDeltaCapPerCategory + 1;
  for (std::size_t i = 0; i < n; ++i)
    p.invalidated.push_back({"e" + std::to_string(100 + i), "removed", "link", "Method " + std::to_string(i)});
  p.invalidated.push_back({"e" + std::to_string(100 + n), "removed", "text", "Examples"});
  p.invalidated.push_back({"e300", "removed", "button", "Collapse"});
  CHECK(render_text(p) ==
        "<delta v=\"9\">\n<removed>\ne100.." + std::to_string(100 + n) + "\ne300\n</removed>\n</delta>\n");
  // Up to the cap, each control that went says what it was.
  p.invalidated.erase(p.invalidated.begin() + 2, p.invalidated.begin() + static_cast<std::ptrdiff_t>(n));
  CHECK(render_text(p) ==
        std::string(
            "<delta v=\"9\">\n<removed>\ne100 link \"Method 0\"\ne101 link \"Method 1\"\ne300 button \"Collapse\"\n") +
            "e" + std::to_string(100 + n) + "\n</removed>\n</delta>\n");
}

TEST_CASE("removed text refs: range lines count against the text bound like lines", "[render][limits]") {
  FactPack p;
  p.type = PackType::kDelta;
  // Every other ref: no two consecutive, so each is its own line.
  const std::size_t n = limits::kMaxTextLinesPerPack + 5;
  for (std::size_t i = 0; i < n; ++i)
    p.invalidated.push_back({"e" + std::to_string(2 * i + 1), "removed", "text", "x"});
  const std::string t = render_text(p);
  CHECK(count(t, "\ne") == limits::kMaxTextLinesPerPack);
  CHECK(t.find("... 5 more refs of text (snapshot shows the page now)\n") != std::string::npos);
}

TEST_CASE("added: each run says which line it follows, and runs in different places are separate groups", "[render]") {
  FactPack p;
  p.type = PackType::kDelta;
  p.version = 8;
  Element a = el(20, "row", "Ada | 3"), b = el(21, "row", "Bob | 4"), c = el(30, "button", "Load more");
  a.category = b.category = Category::kText;
  a.after = b.after = "e7";  // one run after the header row
  c.after = "e19";
  p.added = {a, b, c};
  CHECK(render_text(p) ==
        "<delta v=\"8\">\n"
        "<added region=\"main\" after=\"e7\">\ne20 row \"Ada | 3\"\ne21 row \"Bob | 4\"\n</added>\n"
        "<added region=\"main\" after=\"e19\">\ne30 button \"Load more\"\n</added>\n"
        "</delta>\n");
}

TEST_CASE("added: the caps bound the whole list, and a run left with no line is counted after the last",
          "[render][limits]") {
  // A click that put a button in each of 2,000 rows: 2,000 runs of one line each.
  FactPack p;
  p.type = PackType::kDelta;
  p.version = 8;
  const int n = 2000;
  for (int i = 0; i < n; ++i) {
    Element c = el(3000 + i, "button", "Remove row " + std::to_string(i));
    c.after = "e" + std::to_string(10 + 2 * i);
    p.added.push_back(c);
  }
  const std::string t = render_text(p);
  REQUIRE(estimate_tokens(t) <= limits::kDefaultBaselineTokenBudget);
  CHECK(count(t, " button \"Remove row ") == limits::kDeltaCapPerCategory);
  const std::string last = "e" + std::to_string(3000 + limits::kDeltaCapPerCategory - 1);
  CHECK(t.find("<added region=\"main\">\n... " + std::to_string(n - limits::kDeltaCapPerCategory) +
               " more added interactive (find region=main after=" + last + ")\n</added>\n</delta>\n") !=
        std::string::npos);
  CHECK(count(t, "<added") == limits::kDeltaCapPerCategory + 1);

  SECTION("runs left out in several places: a snapshot shows them") {
    for (int i = 0; i < n; ++i) p.added[static_cast<std::size_t>(i)].frame = i % 2 ? 2 : 0;
    const std::string u = render_text(p);
    CHECK(count(u, " button \"Remove row ") == limits::kDeltaCapPerCategory);
    CHECK(u.find("<added>\n... " + std::to_string(n - limits::kDeltaCapPerCategory) +
                 " more added interactive (snapshot shows the page now)\n</added>\n</delta>\n") != std::string::npos);
  }
}

TEST_CASE("the budget bounds a delta too: each list shows fewer lines until the pack fits, and counts the rest",
          "[render][limits]") {
  // Within every cap, yet over the budget: long text rows, long-named buttons, long modified names.
  FactPack p;
  p.type = PackType::kDelta;
  p.version = 9;
  const std::size_t texts = limits::kMaxTextLinesPerPack, buttons = limits::kDeltaCapPerCategory;
  for (std::size_t i = 0; i < texts; ++i) {
    Element c =
        el(static_cast<int>(3000 + i), "text", std::to_string(i) + std::string(limits::kMaxRevealedTextChars - 4, 'y'));
    c.category = Category::kText;
    p.added.push_back(c);
  }
  for (std::size_t i = 0; i < buttons; ++i)
    p.added.push_back(
        el(static_cast<int>(5000 + i), "button", std::to_string(i) + std::string(limits::kMaxNameChars - 4, 'z')));
  for (std::size_t i = 0; i < buttons; ++i) {
    Modified m;
    m.ref = "e" + std::to_string(100 + i);
    m.before = el(static_cast<int>(100 + i), "checkbox", std::string(limits::kMaxNameChars, 'a'));
    m.after = m.before;
    m.after.name = std::string(limits::kMaxNameChars, 'b');
    p.modified.push_back(m);
  }
  RenderOptions uncapped;
  uncapped.caps = false;
  REQUIRE(estimate_tokens(render_text(p, uncapped)) > 3 * limits::kDefaultBaselineTokenBudget);

  const std::string t = render_text(p);
  CHECK(estimate_tokens(t) <= limits::kDefaultBaselineTokenBudget);
  // What each list shows and what its count line says add up to all of it.
  const std::size_t shown_text = count(t, " text \""), shown_buttons = count(t, " button \""),
                    shown_modified = count(t, " checkbox \"");
  CHECK(shown_text > 0);
  CHECK(shown_text < texts);
  CHECK(t.find("... " + std::to_string(texts - shown_text) + " more added text (find region=main after=e" +
               std::to_string(3000 + shown_text - 1) + ")\n") != std::string::npos);
  CHECK(t.find("... " + std::to_string(buttons - shown_buttons) + " more added interactive (find region=main") !=
        std::string::npos);
  CHECK(t.find("... " + std::to_string(buttons - shown_modified) +
               " more modified interactive (snapshot shows the page now)\n") != std::string::npos);

  SECTION("a smaller budget shows fewer lines, down to the counts alone") {
    RenderOptions tight;
    tight.token_budget = 100;
    const std::string u = render_text(p, tight);
    CHECK(estimate_tokens(u) <= 100);
    CHECK(count(u, " text \"") == 0);
    CHECK(u.find("... " + std::to_string(texts) + " more added text (find region=main)\n") != std::string::npos);
  }
}

TEST_CASE("lines that only moved: refs alone, a run after the one before it one line, in the list's order",
          "[render]") {
  auto move = [](int ref, const std::string& after, const std::string& name) {
    Modified m;
    m.ref = "e" + std::to_string(ref);
    m.before = el(ref, "row", name);
    m.before.category = Category::kText;
    m.after = m.before;
    m.moved = true;
    m.moved_after = after;
    return m;
  };
  FactPack p;
  p.type = PackType::kDelta;
  p.version = 4;
  p.modified = {move(9, "", "Zed"), move(8, "e9", "Yan"), move(7, "e8", "Xi"), move(3, "e5", "Cy")};
  Modified renamed = move(4, "e3", "Bo");
  renamed.after.name = "Bob";  // moved and changed: its whole line, where it falls in the list
  p.modified.push_back(renamed);
  p.modified.push_back(move(2, "e4", "Al"));
  CHECK(render_text(p) ==
        "<delta v=\"4\">\n<modified>\n"
        "e9 e8 e7: moved first\n"
        "e3: moved after e5\n"
        "e4 row \"Bob\": new text, moved after e3\n"
        "e2: moved after e4\n"
        "</modified>\n</delta>\n");

  SECTION("past kMaxMovedRefsPerPack refs: the rest counted, none placed after a line left out") {
    FactPack big;
    big.type = PackType::kDelta;
    big.version = 5;
    const int n = static_cast<int>(limits::kMaxMovedRefsPerPack) + 30;
    for (int i = 0; i < n; ++i)
      big.modified.push_back(move(1000 + i, i ? "e" + std::to_string(999 + i) : "", "R" + std::to_string(i)));
    big.modified.push_back(move(5, "e2", "Apart"));  // a run of its own, after the bound
    std::string run;
    for (std::size_t i = 0; i < limits::kMaxMovedRefsPerPack; ++i) run += (i ? " e" : "e") + std::to_string(1000 + i);
    CHECK(render_text(big) == "<delta v=\"5\">\n<modified>\n" + run + ": moved first\n... " +
                                  std::to_string(n - static_cast<int>(limits::kMaxMovedRefsPerPack) + 1) +
                                  " more moved (snapshot shows the page now)\n</modified>\n</delta>\n");
  }
}

TEST_CASE("a delta that is one region replaced names it in its tag, else the region keeps its block", "[render]") {
  FactPack p;
  p.type = PackType::kDelta;
  p.version = 3;
  RegionBlock b;
  b.region = Region::kMain;
  b.frame_ref = "f0";
  b.replaced = true;
  b.elements.push_back(el(20, "heading", "Apricot"));
  b.elements.push_back(el(23, "button", "Add to basket"));
  p.regions.push_back(b);
  Modified m;
  m.ref = "e3";
  m.before = el(3, "link", "All fruit");
  m.before.state.current = true;
  m.after = el(3, "link", "All fruit");
  p.modified.push_back(m);
  // A route change: the region's lines first, up to the next tag; no block of their own.
  CHECK(render_text(p) ==
        "<delta v=\"3\" replaced=\"main\">\ne20 heading \"Apricot\"\ne23 button \"Add to basket\"\n"
        "<modified>\ne3 link \"All fruit\": - current\n</modified>\n</delta>\n");
  // Refs that went come after the lines (the lines end at the first tag).
  p.invalidated.push_back({"e7", "removed", "button", "Undo"});
  CHECK(
      render_text(p).rfind("<delta v=\"3\" replaced=\"main\">\ne20 heading \"Apricot\"\ne23 button \"Add to basket\"\n"
                           "<removed>\ne7 button \"Undo\"\n</removed>\n",
                           0) == 0);
  p.invalidated.clear();
  // The page's own lines (no landmark): named "page".
  p.regions[0].region = Region::kPage;
  CHECK(render_text(p).rfind("<delta v=\"3\" replaced=\"page\">\ne20", 0) == 0);
  // A labelled region keeps its block (its label is the region's, not the pack's).
  p.regions[0].region = Region::kRegion;
  p.regions[0].label = "Widget index";
  CHECK(render_text(p).rfind("<delta v=\"3\">\n<replaced region=\"region\" label=\"Widget index\">\ne20", 0) == 0);
  // Two regions replaced: each its block.
  p.regions[0].label.clear();
  p.regions[0].region = Region::kMain;
  RegionBlock aside = b;
  aside.region = Region::kAside;
  aside.elements = {el(30, "link", "Related")};
  p.regions.push_back(aside);
  CHECK(render_text(p).rfind("<delta v=\"3\">\n<replaced region=\"main\">\ne20", 0) == 0);
  CHECK(render_text(p).find("</replaced>\n<replaced region=\"aside\">\ne30") != std::string::npos);
  // A region now empty keeps its one-line block.
  p.regions.pop_back();
  p.regions[0].elements.clear();
  CHECK(render_text(p).rfind("<delta v=\"3\">\n<replaced region=\"main\"/>\n", 0) == 0);
  // A warning is said before anything: the region keeps its block.
  p.regions[0].elements = b.elements;
  p.warnings.push_back("page still changing after 2000 ms");
  CHECK(render_text(p).find("<replaced region=\"main\">\ne20") != std::string::npos);
}
