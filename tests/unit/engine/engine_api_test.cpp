// Engine surface: pages by key, find(), stats().
#include <catch2/catch.hpp>

#include "athena/limits.h"
#include "helpers.h"

using namespace athena;
using namespace athena::testing;

TEST_CASE("Engine: pages, find, stats", "[engine][api]") {
  Harness h;
  SECTION("pages are independent, keyed by context and page; refs carry both") {
    REQUIRE(h.engine.open_page(PageKey{2, 7}));
    REQUIRE(h.engine.open_page(PageKey{2, 7}));  // idempotent
    auto p = h.engine.snapshot_from(PageKey{2, 7}, PageBuilder().el(1, "button", "Go").build());
    REQUIRE(p);
    CHECK(ref_of(*p, "button", "Go") == "e1");
    CHECK(h.resolve("e1").error().code == ErrorCode::kContextMismatch);
    CHECK(h.engine.resolve(PageKey{2, 7}, "e1"));
    CHECK(h.engine.open_page(PageKey{-1, 0}).error().code == ErrorCode::kInvalidArgument);
    REQUIRE(h.engine.close_page(PageKey{2, 7}));
    CHECK(h.engine.close_page(PageKey{2, 7}).error().code == ErrorCode::kUnknownPage);
  }
  SECTION("at most limits::kMaxPages pages") {
    Engine e;
    for (std::size_t i = 0; i < limits::kMaxPages; ++i) REQUIRE(e.open_page(PageKey{0, static_cast<int>(i)}));
    CHECK(e.open_page(PageKey{1, 0}).error().code == ErrorCode::kInputTooLarge);
  }
  SECTION("find: what the agent holds, by role / name substring (case-insensitive) / region, with a limit") {
    CHECK(h.engine.find(h.key, {})->empty());  // nothing delivered yet
    h.snap(PageBuilder()
               .el(1, "link", "Home", Region::kNav)
               .el(2, "button", "Save draft")
               .el(3, "button", "SAVE")
               .el(4, "button", "Cancel")
               .build());
    FindQuery q;
    q.name = "save";
    CHECK(h.engine.find(h.key, q)->size() == 2);
    q.role = "link";
    CHECK(h.engine.find(h.key, q)->empty());
    FindQuery nav;
    nav.region = "nav";
    REQUIRE(h.engine.find(h.key, nav)->size() == 1);
    CHECK(h.engine.find(h.key, nav)->at(0).ref == "e1");
    FindQuery one;
    one.role = "button";
    one.limit = 1;
    CHECK(h.engine.find(h.key, one)->size() == 1);
    CHECK(h.engine.find(PageKey{9, 9}, one).error().code == ErrorCode::kUnknownPage);
  }
  SECTION("stats report the bounded state") {
    FactPack full = h.snap(PageBuilder().many(5).build());
    PageStats s = *h.engine.stats(h.key);
    CHECK(s.version == full.version);
    CHECK(s.delivered_version == full.version);
    CHECK(s.live_elements == 5);
    CHECK(s.delivered_elements == 5);
    CHECK(s.registry == 5);
    CHECK(s.tombstones == 0);
    CHECK(s.frames == 1);
  }
}
