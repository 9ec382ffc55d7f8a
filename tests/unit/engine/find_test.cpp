// find with paging (Engine::find_paged, render_find): the cursor walks every match exactly once,
// counts are right, regions are found by name or label, and a query naming what the page does not
// have is an error that says what it has.
#include <catch2/catch.hpp>
#include <set>

#include "athena/render.h"
#include "helpers.h"
#include "render/lines.h"

using namespace athena;
using namespace athena::testing;

namespace {

struct Page {
  Engine engine;
  PageKey key{0, 1};
  FactPack full;
  Page() {
    PageBuilder b;
    for (int i = 0; i < 5; ++i) {
      b.el(10 + i, "link", "Nav " + std::to_string(i), Region::kNav);
      b.last().region_label = "Primary";
    }
    for (int i = 0; i < 123; ++i) b.el(100 + i, "link", "Row " + std::to_string(i), Region::kMain);
    b.el(300, "button", "Save", Region::kMain);
    b.el(301, "link", "Imprint", Region::kFooter);
    REQUIRE(engine.open_page(key));
    auto p = engine.snapshot_from(key, b.build());
    REQUIRE(p);
    full = *p;
  }
  FindResult find(FindQuery q) {
    auto r = engine.find_paged(key, q);
    INFO((r ? std::string() : r.error().message));
    REQUIRE(r);
    return *r;
  }
  Error error(FindQuery q) {
    auto r = engine.find_paged(key, q);
    REQUIRE_FALSE(r);
    return r.error();
  }
};

FindQuery query(std::string role, std::string region, std::size_t limit = 50) {
  FindQuery q;
  q.role = std::move(role);
  q.region = std::move(region);
  q.limit = limit;
  return q;
}

/// The page `b` opened as `key` and rendered within a budget of 500 tokens: its text and its
/// first gap line.
std::pair<std::string, std::string> first_gap(Engine& engine, const PageKey& key, const PageBuilder& b) {
  REQUIRE(engine.open_page(key));
  auto p = engine.snapshot_from(key, b.build());
  REQUIRE(p);
  RenderOptions o;
  o.token_budget = 500;
  const std::string t = render_text(*p, o);
  CHECK(estimate_tokens(t) <= o.token_budget);
  const std::size_t at = t.find("\n... ");
  REQUIRE(at != std::string::npos);
  return {t, t.substr(at + 1, t.find('\n', at + 1) - at - 1)};
}

}  // namespace

TEST_CASE("find: the after cursor walks every match exactly once, in document order", "[engine][find]") {
  Page page;
  FindQuery q = query("link", "main", 50);
  std::vector<std::string> seen;
  for (int pages = 0; pages < 10; ++pages) {
    const FindResult r = page.find(q);
    CHECK(r.total == 123);
    CHECK(r.version == page.full.version);
    for (const Element& e : r.elements) seen.push_back(e.name);
    if (r.next.empty()) {
      CHECK(r.remaining == 0);
      break;
    }
    CHECK(r.next == r.elements.back().ref);
    CHECK(r.remaining == 123 - seen.size());
    q.after = r.next;
  }
  REQUIRE(seen.size() == 123);
  for (int i = 0; i < 123; ++i) CHECK(seen[static_cast<std::size_t>(i)] == "Row " + std::to_string(i));
  CHECK(std::set<std::string>(seen.begin(), seen.end()).size() == 123);
}

TEST_CASE("find: name is a substring with case and spaces ignored, region by name or label, frame", "[engine][find]") {
  Page page;
  FindQuery q;
  q.name = "ROW 12";
  CHECK(page.find(q).total == 4);  // Row 12, Row 120, 121, 122
  // Spaces are no part of the match: a page that breaks a name where it likes (rustdoc's
  // "std:: vec:: Vec") is found as the agent writes it, and the other way round.
  q.name = "row12";
  CHECK(page.find(q).total == 4);
  q.name = " r o w 1 2 ";
  CHECK(page.find(q).total == 4);
  CHECK(page.find(query("", "primary")).total == 5);
  CHECK(page.find(query("", "Primary")).total == 5);
  CHECK(page.find(query("", "nav")).total == 5);
  FindQuery f;
  f.frame = "f0";
  CHECK(page.find(f).total == 130);
  q = FindQuery{};
  q.name = "no such words";
  const FindResult none = page.find(q);
  CHECK(none.total == 0);
  CHECK(none.next.empty());
}

TEST_CASE("find: unknown region, role, frame or cursor are errors saying what exists", "[engine][find]") {
  Page page;
  Error e = page.error(query("", "sidebar"));
  CHECK(e.code == ErrorCode::kNoSuchRegion);
  CHECK(e.message == "find: this page has no region \"sidebar\"; regions: nav \"Primary\", main, footer");
  e = page.error(query("slider", ""));
  CHECK(e.code == ErrorCode::kInvalidArgument);
  CHECK(e.message == "find: this page has no role \"slider\"; roles: link, button");
  FindQuery f;
  f.frame = "f9";
  e = page.error(f);
  CHECK(e.code == ErrorCode::kInvalidArgument);
  CHECK(e.message == "find: this page has no frame \"f9\"; frames: f0");
  FindQuery a;
  a.after = "e99999";
  e = page.error(a);
  CHECK(e.code == ErrorCode::kInvalidArgument);
  CHECK(e.message ==
        "find: after=\"e99999\" is not a ref of this page's latest FactPack; use a ref from it, or the next of the "
        "previous find");
  FindQuery l;
  l.limit = 0;
  CHECK(page.error(l).code == ErrorCode::kInvalidArgument);
  Engine fresh;
  REQUIRE(fresh.open_page({0, 2}));
  auto r = fresh.find_paged({0, 2}, FindQuery{});
  REQUIRE_FALSE(r);
  CHECK(r.error().code == ErrorCode::kWrongCallOrder);
}

TEST_CASE("find: the answer renders in the element grammar with a working next call", "[engine][find][render]") {
  Page page;
  FindQuery q = query("link", "main", 2);
  q.name = "row 1";
  const FindResult r = page.find(q);
  REQUIRE(r.total == 34);  // Row 1, Row 10..19, Row 100..122
  const std::string first = r.elements[0].ref, second = r.elements[1].ref;
  CHECK(render_find(r, q) == "<find v=\"" + std::to_string(r.version) + "\" total=\"34\" shown=\"2\" next=\"" + second +
                                 "\">\n" + first + " link \"Row 1\"\n" + second + " link \"Row 10\"\n" +
                                 "... 32 more: find role=link name=\"row 1\" region=main after=" + second +
                                 "\n</find>\n");
  q.after = second;
  q.limit = 100;
  const FindResult rest = page.find(q);
  CHECK(rest.elements.size() == 32);
  const std::string last = render_find(rest, q);
  CHECK(last.find(" next=") == std::string::npos);
  CHECK(last.find("more:") == std::string::npos);
}

TEST_CASE("find: the call a gap line names lists exactly the elements it left out", "[engine][find][trim]") {
  Page page;
  RenderOptions o;
  o.token_budget = 1;
  const std::string t = render_text(page.full, o);
  const std::size_t at = t.find("\n... ");
  REQUIRE(at != std::string::npos);
  const std::string gap = t.substr(at + 1, t.find('\n', at + 1) - at - 1);
  // "... N more here: "first" … "last" (find region=nav[ after=REF])": with a budget this small
  // the hard cut leaves nothing of the first region, so its gap lists it from the start.
  const std::size_t n = std::stoul(gap.substr(4));
  const std::size_t rs = gap.find("(find region=") + 13;
  const std::string region = gap.substr(rs, gap.find_first_of(" )", rs) - rs);
  const std::size_t as = gap.find(" after=");
  const std::string after = as == std::string::npos ? std::string() : gap.substr(as + 7, gap.size() - as - 8);
  FindQuery q;
  q.region = region;
  q.after = after;
  q.limit = n;
  const FindResult r = page.find(q);
  REQUIRE(r.elements.size() == n);
  CHECK(gap.find("more here: \"" + r.elements.front().name + "\"") != std::string::npos);
  CHECK(gap.find("\"" + r.elements.back().name + "\" (find") != std::string::npos);
}

TEST_CASE("find: within=REF lists exactly the lines under it, paged, and what a collapsed line's count says",
          "[engine][find][outline]") {
  // A manual's index: 6 chapters, each with 40 entries one level down (a few with sub-entries).
  PageBuilder b;
  int id = 1000;
  for (int c = 0; c < 6; ++c) {
    b.el(id++, "link", "Chapter " + std::to_string(c), Region::kMain);
    for (int k = 0; k < 40; ++k) {
      b.el(id++, "link", "Entry " + std::to_string(c) + "." + std::to_string(k), Region::kMain);
      b.last().depth = 1;
      if (k == 3) {
        b.el(id++, "link", "Sub " + std::to_string(c) + ".3.0", Region::kMain);
        b.last().depth = 2;
      }
    }
  }
  Engine engine;
  const PageKey key{0, 1};
  REQUIRE(engine.open_page(key));
  auto full = engine.snapshot_from(key, b.build());
  REQUIRE(full);
  RenderOptions o;
  o.token_budget = 400;  // room for the chapters, not their entries
  const std::string t = render_text(*full, o);
  std::string ref2;
  for (const Element& e : full->regions[0].elements)
    if (e.name == "Chapter 2") ref2 = e.ref;
  REQUIRE(!ref2.empty());
  REQUIRE(t.find(ref2 + " link \"Chapter 2\" (41 more links)\n") != std::string::npos);
  FindQuery q;
  q.within = ref2;
  q.limit = 30;
  auto page1 = engine.find_paged(key, q);
  REQUIRE(page1);
  CHECK(page1->total == 41);
  REQUIRE(page1->elements.size() == 30);
  CHECK(page1->elements.front().name == "Entry 2.0");
  CHECK(page1->elements[4].name == "Sub 2.3.0");
  // The answer's last line names the call for the rest, within= kept.
  CHECK(render_find(*page1, q).find("... 11 more: find within=" + ref2 + " after=" + page1->next + "\n") !=
        std::string::npos);
  q.after = page1->next;
  auto page2 = engine.find_paged(key, q);
  REQUIRE(page2);
  REQUIRE(page2->elements.size() == 11);
  CHECK(page2->elements.back().name == "Entry 2.39");  // never Chapter 3 or its entries
  CHECK(page2->next.empty());
  // A ref the page does not have is an error naming the call that works.
  q.within = "e99999";
  q.after.clear();
  auto bad = engine.find_paged(key, q);
  REQUIRE_FALSE(bad);
  CHECK(bad.error().message.find("within=\"e99999\" is not a ref") != std::string::npos);
}

TEST_CASE("find: a page of lines stays within the token budget, and the cursor still walks every match once",
          "[engine][find][budget]") {
  Config config;
  config.token_budget = 100;  // 300 bytes of lines: about ten "link \"Row N\"" lines
  Engine engine(config);
  const PageKey key{0, 1};
  PageBuilder b;
  for (int i = 0; i < 123; ++i) b.el(100 + i, "link", "Row " + std::to_string(i), Region::kMain);
  REQUIRE(engine.open_page(key));
  REQUIRE(engine.snapshot_from(key, b.build()));
  FindQuery q;
  q.limit = limits::kMaxFindLimit;  // the count does not bound it: the budget does
  std::vector<std::string> seen;
  for (int pages = 0; pages < 40; ++pages) {
    auto r = engine.find_paged(key, q);
    REQUIRE(r);
    std::string lines;
    for (const Element& e : r->elements) {
      render::element_line(lines, e);
      seen.push_back(e.name);
    }
    CHECK(lines.size() <= config.token_budget * limits::kBytesPerToken);
    CHECK(seen.size() + r->remaining == 123);
    if (r->next.empty()) break;
    CHECK(r->elements.size() < 20);
    q.after = r->next;
  }
  REQUIRE(seen.size() == 123);
  for (int i = 0; i < 123; ++i) CHECK(seen[static_cast<std::size_t>(i)] == "Row " + std::to_string(i));
}

TEST_CASE("find: frame=fA..fB lists the frames a folded gap line names, exactly what it counts",
          "[engine][find][trim]") {
  Engine engine;
  const PageKey key{0, 1};
  PageBuilder b;
  b.el(1, "heading", "Top").el(2, "button", "Top button");
  for (int f = 1; f <= 60; ++f) {
    const std::string id = "F" + std::to_string(f);
    b.frame(id, "L" + id);
    b.el(100 + 2 * f, "textbox", "Email " + std::to_string(f), Region::kMain, id);
    b.el(101 + 2 * f, "button", "Subscribe " + std::to_string(f), Region::kMain, id);
  }
  const auto [t, gap] = first_gap(engine, key, b);
  INFO(gap);
  CHECK(t.find("button \"Top button\"") != std::string::npos);
  const std::size_t fs = gap.find("(find frame=");
  REQUIRE(fs != std::string::npos);
  FindQuery q;
  q.frame = gap.substr(fs + 12, gap.size() - fs - 13);
  q.limit = limits::kMaxFindLimit;
  auto r = engine.find_paged(key, q);
  REQUIRE(r);
  CHECK(r->total == std::stoul(gap.substr(4)));
  CHECK(q.frame.substr(q.frame.size() - 5) == "..f60");  // the last frames fold, as few as fit
  CHECK(gap.find("more in frames " + q.frame + ": \"" + r->elements.front().name + "\"") != std::string::npos);
  CHECK(gap.find("\"" + r->elements.back().name + "\" (find frame=" + q.frame + ")") != std::string::npos);
  SECTION("a run or frame the page does not have, or not a frame at all, is an error naming the frames") {
    for (const char* bad : {"f61..f70", "f3..f2", "f1..", "f..f2", "1..2", "f1...f2", "f99999999999"}) {
      FindQuery w;
      w.frame = bad;
      auto e = engine.find_paged(key, w);
      INFO(bad);
      REQUIRE_FALSE(e);
      CHECK(e.error().message.find("has no frame") != std::string::npos);
    }
  }
}

TEST_CASE("find: a line of an element in an iframe ends with its frame, a main-frame line says none",
          "[engine][find]") {
  Engine engine;
  const PageKey key{0, 1};
  PageBuilder b;
  b.el(1, "button", "Top button");
  b.frame("F1", "LF1");
  b.el(2, "button", "Framed button", Region::kMain, "F1");
  REQUIRE(engine.open_page(key));
  REQUIRE(engine.snapshot_from(key, b.build()));
  FindQuery q;
  q.role = "button";
  auto r = engine.find_paged(key, q);
  REQUIRE(r);
  REQUIRE(r->elements.size() == 2);
  const std::string text = render_find(*r, q);
  INFO(text);
  CHECK(text.find(r->elements[0].ref + " button \"Top button\"\n") != std::string::npos);
  CHECK(text.find(r->elements[1].ref + " button \"Framed button\" frame=f1\n") != std::string::npos);
}

TEST_CASE("find: region=KIND frame=f0 lists the regions a kind's folded line names, exactly what it counts",
          "[engine][find][trim]") {
  Engine engine;
  const PageKey key{0, 1};
  PageBuilder b;
  b.el(1, "heading", "Orders").el(2, "button", "New order");
  for (int r = 1; r <= 80; ++r) {
    b.el(100 + 2 * r, "textbox", "Quantity " + std::to_string(r), Region::kForm);
    b.last().region_label = "Edit row " + std::to_string(r);
    b.el(101 + 2 * r, "button", "Save " + std::to_string(r), Region::kForm);
    b.last().region_label = "Edit row " + std::to_string(r);
  }
  const auto [t, gap] = first_gap(engine, key, b);
  INFO(gap);
  CHECK(t.find("button \"New order\"") != std::string::npos);
  CHECK(gap.find(" more in 80 form regions: ") != std::string::npos);
  CHECK(gap.find("(find region=form frame=f0)") != std::string::npos);
  FindQuery q;
  q.region = "form";
  q.frame = "f0";
  q.limit = limits::kMaxFindLimit;
  auto r = engine.find_paged(key, q);
  REQUIRE(r);
  CHECK(r->total == std::stoul(gap.substr(4)));
  CHECK(gap.find("regions: \"" + r->elements.front().name + "\"") != std::string::npos);
}
