// The one reliability rule (limits.h, docs/design.md "The reliability rule"), at its edges: a delta is unreliable when
// changed / max(before, after) > max_change_ratio, never for contexts under kMinNodesForRatio nor for pure growth.
#include <catch2/catch.hpp>

#include "athena/limits.h"
#include "athena/render.h"
#include "helpers.h"

using namespace athena;
using namespace athena::testing;

namespace {
// n buttons; the first `renamed` of them renamed (same nodes: "modified").
Snapshot page(int n, int renamed = 0, int extra = 0) {
  PageBuilder b;
  for (int i = 0; i < n; ++i) b.el(1000 + i, "button", (i < renamed ? "R" : "B") + std::to_string(i));
  for (int i = 0; i < extra; ++i) b.el(5000 + i, "button", "New" + std::to_string(i));
  return b.build();
}
FactPack run(const Snapshot& before, const Snapshot& after, Config config = {}) {
  Harness h(config);
  FactPack full = h.snap(before);
  return h.act(full.version, after, &before);
}
}  // namespace

TEST_CASE("reliability rule at its edges", "[engine][reliability]") {
  REQUIRE(limits::kDefaultMaxChangeRatio == 0.40);
  REQUIRE(limits::kMinNodesForRatio == 8);
  SECTION("exactly 40% changed is still a delta (the rule is '>')") {
    FactPack p = run(page(20), page(20, 8));
    CHECK(p.type == PackType::kDelta);
    CHECK(p.modified.size() == 8);
  }
  SECTION("one more change (45%) falls back to a full snapshot") {
    FactPack p = run(page(20), page(20, 9));
    CHECK(p.type == PackType::kFull);
    CHECK(p.reason == "unreliable_delta");
  }
  SECTION("the denominator is max(before, after): 2 renamed and 10 added to 10 is 60%") {
    CHECK(run(page(10), page(10, 2, 10)).reason == "unreliable_delta");
    CHECK(run(page(12), page(12, 1, 7)).reason == "unreliable_delta");  // 8 / max(12, 19) = 42%
    CHECK(run(page(13), page(13, 1, 7)).type == PackType::kDelta);      // 8 / max(13, 20) = 40%
  }
  SECTION("pure growth is always a delta: 10 added to 10, nothing the agent holds changed") {
    FactPack p = run(page(10), page(10, 0, 10));
    CHECK(p.type == PackType::kDelta);
    CHECK(p.added.size() == 10);
    CHECK(p.invalidated.empty());
  }
  SECTION("removals count: 8 of 20 removed is a delta, 9 is not") {
    CHECK(run(page(20), page(12)).type == PackType::kDelta);
    CHECK(run(page(20), page(11)).reason == "unreliable_delta");
  }
  SECTION("contexts under kMinNodesForRatio never fall back") {
    FactPack p = run(page(7), page(7, 7));
    CHECK(p.type == PackType::kDelta);
    CHECK(p.modified.size() == 7);
  }
  SECTION("at kMinNodesForRatio the rule applies") {
    CHECK(run(page(8), page(8, 3)).type == PackType::kDelta);         // 37.5%
    CHECK(run(page(8), page(8, 4)).reason == "unreliable_delta");     // 50%
    CHECK(run(page(7), page(7, 3, 1)).reason == "unreliable_delta");  // 4 / max(7, 8) = 50%
  }
  SECTION("configurable: Config::max_change_ratio") {
    Config loose;
    loose.max_change_ratio = 0.5;
    CHECK(run(page(20), page(20, 10), loose).type == PackType::kDelta);
    CHECK(run(page(20), page(20, 11), loose).reason == "unreliable_delta");
    Config strict;
    strict.max_change_ratio = 0.0;
    CHECK(run(page(20), page(20, 1), strict).reason == "unreliable_delta");
    CHECK(run(page(20), page(20), strict).type == PackType::kNoChange);
  }
  SECTION("the rule is taken in the context diffed: a big base change behind an overlay does not count") {
    Harness h;
    PageBuilder b;
    for (int i = 0; i < 20; ++i) b.el(1000 + i, "button", "B" + std::to_string(i));
    b.overlay(90).el(91, "button", "OK", Region::kDialog, "", 0);
    Snapshot s0 = b.build();
    FactPack full = h.snap(s0);
    Snapshot s1 = s0;
    for (int i = 0; i < 15; ++i) s1.nodes[static_cast<std::size_t>(i)].name = "Z" + std::to_string(i);
    CHECK(h.act(full.version, s1, &s0).type == PackType::kNoChange);
  }
}

TEST_CASE("an added element says where it sits: after the line before its run", "[engine][outline]") {
  Harness h;
  const Snapshot before = page(10), after = page(10, 0, 2);
  FactPack full = h.snap(before);
  std::string last;  // the ref of "B9", the last line before the two new buttons
  for (const RegionBlock& b : full.regions)
    for (const Element& e : b.elements)
      if (e.name == "B9") last = e.ref;
  REQUIRE(!last.empty());
  const FactPack p = h.act(full.version, after, &before);
  REQUIRE(p.type == PackType::kDelta);
  REQUIRE(p.added.size() == 2);
  CHECK(p.added[0].after == last);
  CHECK(p.added[1].after == last);  // one run: both follow B9
}

TEST_CASE("a sort that moves rows: each row out of its old order says where it went, refs kept", "[engine][outline]") {
  // A plain table sorted in place (its <tr>s moved, none replaced): the same elements, new order.
  auto table = [](const std::vector<int>& order) {
    PageBuilder b;
    b.el(1, "columnheader", "Name");
    for (int i : order) {
      b.el(100 + i, "row", "Person " + std::to_string(i));
      b.last().category = Category::kText;
    }
    b.el(2, "button", "Next page");
    return b.build();
  };
  const Snapshot before = table({0, 1, 2, 3, 4, 5, 6, 7, 8, 9});
  Harness h;
  const FactPack full = h.snap(before);
  auto ref = [&](const std::string& name) { return ref_of(full, name == "Name" ? "columnheader" : "row", name); };
  SECTION("reversed: every row but one moves, each after the row now above it; still a delta") {
    const FactPack p = h.act(full.version, table({9, 8, 7, 6, 5, 4, 3, 2, 1, 0}), &before);
    REQUIRE(p.type == PackType::kDelta);
    CHECK(p.added.empty());
    CHECK(p.invalidated.empty());
    REQUIRE(p.modified.size() == 9);
    // Person 0 stays (the longest run kept in order is one row); 9 goes to the top, under the header.
    CHECK(p.modified[0].ref == ref("Person 9"));
    CHECK(p.modified[0].moved_after == ref("Name"));
    for (std::size_t k = 1; k < 9; ++k) {
      CHECK(p.modified[k].ref == ref("Person " + std::to_string(9 - k)));
      CHECK(p.modified[k].moved_after == ref("Person " + std::to_string(10 - k)));
    }
    // One run, in the order the page shows: each after the one before it, the first after the header.
    std::string run;
    for (int i = 9; i >= 1; --i) run += (run.empty() ? "" : " ") + ref("Person " + std::to_string(i));
    CHECK(render_text(p).find("<modified>\n" + run + ": moved after " + ref("Name") + "\n</modified>\n") !=
          std::string::npos);
  }
  SECTION("one row to the top: one line") {
    const FactPack p = h.act(full.version, table({7, 0, 1, 2, 3, 4, 5, 6, 8, 9}), &before);
    REQUIRE(p.type == PackType::kDelta);
    REQUIRE(p.modified.size() == 1);
    CHECK(p.modified[0].ref == ref("Person 7"));
    CHECK(p.modified[0].moved);
    CHECK(p.modified[0].moved_after == ref("Name"));
  }
  SECTION("to the top of a region whose other lines sit in another region: moved first") {
    auto split = [](const std::vector<int>& order) {
      PageBuilder b;
      b.el(1, "link", "Home", Region::kNav);
      for (int i : order) b.el(100 + i, "button", "Person " + std::to_string(i), i < 3 ? Region::kMain : Region::kNav);
      return b.build();
    };
    Harness h2;
    const Snapshot s0 = split({0, 1, 2, 3, 4});
    const FactPack f = h2.snap(s0);
    const FactPack p = h2.act(f.version, split({2, 0, 1, 3, 4}), &s0);
    REQUIRE(p.modified.size() == 1);
    CHECK(p.modified[0].ref == ref_of(f, "button", "Person 2"));
    CHECK(p.modified[0].moved_after.empty());
    CHECK(render_text(p).find("<modified>\n" + ref_of(f, "button", "Person 2") + ": moved first\n</modified>\n") !=
          std::string::npos);
  }
  SECTION("rows that only shift, because one before them left, did not move") {
    const FactPack p = h.act(full.version, table({0, 1, 3, 4, 5, 6, 7, 8, 9}), &before);
    CHECK(p.modified.empty());
    CHECK(p.invalidated.size() == 1);
  }
}
