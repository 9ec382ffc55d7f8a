// The engine's parts one by one (docs/design.md, "Tests named after the design"): FrameTracker and
// the refs it scopes (ref text, RefRegistry), SnapshotVersionManager and the version check before
// an action, and the frame each ref of a FactPack names. Refs are opaque to the renderers, so what
// a ref must carry is asserted on FactPacks and on resolve(). (The page state and the delta are in
// state_test.cpp.)
#include <catch2/catch.hpp>

#include "athena/limits.h"
#include "engine/frame_tracker.h"
#include "engine/matcher.h"
#include "engine/ref_registry.h"
#include "engine/version_manager.h"
#include "engine/view.h"
#include "helpers.h"

using namespace athena;
using namespace athena::testing;
using engine::FrameTracker;

TEST_CASE("FrameTracker: a frame's navigation or detach invalidates its refs, ref text, dead refs kept, init",
          "[engine][frames]") {
  SECTION("Invalidates refs on frame navigation") {
    Harness h;
    auto s1 = PageBuilder()
                  .frame("SUB", "S1")
                  .el(1, "button", "Top")
                  .el(2, "button", "In frame", Region::kMain, "SUB")
                  .build();
    FactPack full = h.snap(s1);
    const std::string in_frame = ref_of(full, "button", "In frame");
    REQUIRE(h.resolve(in_frame));
    REQUIRE(h.engine.on_event(h.key, nav_event("SUB", "S2", "MAIN")));
    auto r = h.resolve(in_frame);
    REQUIRE_FALSE(r);
    CHECK(r.error().code == ErrorCode::kDocumentReplaced);
    CHECK(h.resolve(ref_of(full, "button", "Top")));  // the main frame's refs are untouched
    auto s2 = PageBuilder()
                  .frame("SUB", "S2")
                  .el(1, "button", "Top")
                  .el(7, "button", "In frame", Region::kMain, "SUB")
                  .build();
    h.begin(s2, full.version);  // the page changed before the action: reported first
    FactPack d = h.finish(s2);
    REQUIRE(d.before_action.size() == 1);
    REQUIRE(d.before_action[0].invalidated.size() == 1);
    CHECK(d.before_action[0].invalidated[0].ref == in_frame);
    CHECK(d.before_action[0].invalidated[0].cause == "navigated");
    REQUIRE(d.before_action[0].added.size() == 1);
    CHECK(d.before_action[0].added[0].ref != in_frame);  // same content, new document: a new ref
  }
  SECTION("Handles frame detach") {
    Harness h;
    auto s1 =
        PageBuilder().frame("SUB", "S1").el(1, "button", "Top").el(2, "button", "Ad", Region::kMain, "SUB").build();
    FactPack full = h.snap(s1);
    const std::string ad = ref_of(full, "button", "Ad");
    REQUIRE(h.engine.on_event(h.key, detach_event("SUB")));
    auto r = h.resolve(ad);
    REQUIRE_FALSE(r);
    CHECK(r.error().code == ErrorCode::kDocumentReplaced);
    auto s2 = PageBuilder().el(1, "button", "Top").build();
    h.begin(s1.frames.size() ? s2 : s2, std::nullopt);
    FactPack d = h.finish(s2);
    REQUIRE(d.type == PackType::kDelta);
    REQUIRE(d.invalidated.size() == 1);
    CHECK(d.invalidated[0].ref == ad);
    CHECK(d.invalidated[0].cause == "detached");
  }
  // The ref grammar's cases (format_ref and parse_ref agree, every other spelling is refused) are
  // rules/ref.json's, run by ref_rule_test.cpp.
  SECTION("RefRegistry keeps at most kMaxRemovedTombstones dead refs and never reuses n") {
    engine::RefRegistry reg;
    std::vector<engine::RefId> ids;
    for (std::size_t i = 0; i < limits::kMaxRemovedTombstones + 10; ++i) {
      ids.push_back(reg.issue({"F", "L", static_cast<std::int64_t>(i), 0}));
      reg.show(ids.back(), 1, "button", "x");
    }
    for (engine::RefId id : ids) reg.kill(id, "removed");
    reg.stamp(5);
    CHECK(reg.tombstones() == limits::kMaxRemovedTombstones);
    CHECK(reg.size() == limits::kMaxRemovedTombstones);
    CHECK(reg.find(ids.front()) == nullptr);  // oldest forgotten first
    REQUIRE(reg.find(ids.back()) != nullptr);
    CHECK(reg.find(ids.back())->dead_in == 5);
    // A ref nobody was shown is forgotten at once: no tombstone.
    engine::RefId hidden = reg.issue({"F", "L", 99999, 0});
    reg.kill(hidden, "removed");
    CHECK(reg.find(hidden) == nullptr);
    CHECK(reg.issue({"F", "L", 1, 0}) > hidden);  // n is never reused
  }
  SECTION("init indexes the frame tree") {
    FrameTracker t;
    REQUIRE(t.init(PageBuilder().frame("SUB", "S1").build().frames));
    CHECK(t.initialized());
    CHECK(t.doc("SUB", "S1") == FrameTracker::Doc::kLive);
    CHECK(t.frame_index("MAIN") == 0);
    CHECK(t.frame_index("SUB") == 1);
    CHECK(t.frame_index("SUB") == 1);
  }
  SECTION("a failed init leaves it uninitialized, and a later init succeeds") {
    FrameTracker t;
    std::vector<FrameInfo> broken = {FrameInfo{"SUB", "S1", "NOPE", "", false}};
    auto r = t.init(broken);
    REQUIRE_FALSE(r);
    CHECK(r.error().code == ErrorCode::kMalformedCapture);
    CHECK_FALSE(t.initialized());
    REQUIRE(t.init(PageBuilder().build().frames));
    CHECK(t.initialized());
  }
  SECTION("a second init changes nothing: the first frame tree stays") {
    FrameTracker t;
    REQUIRE(t.init(PageBuilder("L1").build().frames));
    REQUIRE(t.init(PageBuilder("L2", "OTHER").build().frames));  // no-op: the first tree stays
    CHECK(t.main_frame_id() == "MAIN");
    CHECK(t.doc("MAIN", "L1") == FrameTracker::Doc::kLive);
  }
}

TEST_CASE("SnapshotVersionManager, and the version check before an action", "[engine][versions]") {
  auto view = [](std::uint64_t hash) {
    engine::View v;
    v.hash = hash;
    return v;
  };
  SECTION("a changed view is a new version") {
    engine::SnapshotVersionManager m;
    CHECK(m.capture_if_changed(view(1)).first->version == 1);
    auto [e, is_new] = m.capture_if_changed(view(2));
    CHECK(is_new);
    CHECK(e->version == 2);
    CHECK_FALSE(m.capture_if_changed(view(2)).second);  // equal: no new version
    CHECK(m.current()->version == 2);
  }
  SECTION("an unchanged view is no new version (peek)") {
    engine::SnapshotVersionManager m;
    m.capture_if_changed(view(7));
    CHECK_FALSE(m.peek(7));
    CHECK(m.peek(8));
    auto [e, is_new] = m.capture_if_changed(view(7));
    CHECK_FALSE(is_new);
    CHECK(e->version == 1);
    CHECK(m.current_version() == 1);
  }
  SECTION("a view equal to an older one is still a new version (versions never go back)") {
    engine::SnapshotVersionManager m;
    CHECK(m.current() == nullptr);
    for (std::uint64_t i = 1; i <= 10; ++i) m.capture_if_changed(view(i));
    auto [e, is_new] = m.capture_if_changed(view(3));
    CHECK(is_new);
    CHECK(e->version == 11);
  }
  SECTION("begin_action acts on the delivered version (reporting drift first) and refuses any other") {
    Harness h;
    auto a = PageBuilder().el(1, "button", "A").build();
    FactPack full = h.snap(a);
    // current
    PreCheck cur = h.begin(a, full.version);
    CHECK(cur.freshness == Freshness::kCurrent);
    CHECK_FALSE(cur.pack);
    REQUIRE(h.engine.abort_action(h.key));
    // stale_with_history: the page changed since the agent's version
    auto b = PageBuilder().el(1, "button", "A").el(2, "button", "B").build();
    PreCheck stale = h.begin(b, full.version);
    CHECK(stale.freshness == Freshness::kStaleWithHistory);
    REQUIRE(stale.pack);
    CHECK(stale.pack->added.size() == 1);
    REQUIRE(h.engine.abort_action(h.key));
    // Four more versions committed by failed actions and never delivered: the agent
    // still holds the last delivered version, so it is not stale.
    for (int i = 3; i < 7; ++i) {
      auto s = PageBuilder().el(1, "button", "A").el(i, "button", "B" + std::to_string(i)).build();
      h.begin(s, std::nullopt);
      REQUIRE(h.engine.abort_action(h.key));
    }
    auto c = PageBuilder().el(1, "button", "A").el(9, "button", "C").build();
    PreCheck held = h.begin(c, full.version);
    CHECK(held.freshness == Freshness::kStaleWithHistory);
    REQUIRE(held.pack);
    CHECK(held.pack->added.size() == 1);
    REQUIRE(h.engine.abort_action(h.key));
    // stale_no_history: a version the agent was never delivered (older or newer)
    PreCheck gone = h.begin(c, full.version + 1);
    CHECK(gone.freshness == Freshness::kStaleNoHistory);
    REQUIRE(gone.pack);
    CHECK(gone.pack->type == PackType::kFull);
    CHECK(gone.pack->reason == "stale_version");
  }
}

TEST_CASE("refs are e{n}, unique among every page of one Engine, and each element says its frame", "[engine][format]") {
  Harness h;
  auto s0 =
      PageBuilder().frame("SUB", "S1").el(1, "button", "Top").el(2, "button", "Inner", Region::kMain, "SUB").build();
  FactPack full = h.snap(s0);
  SECTION("full snapshot: each element's frame is its region's") {
    for (const RegionBlock& b : full.regions)
      for (const Element& e : b.elements) CHECK("f" + std::to_string(e.frame) == b.frame_ref);
    CHECK(full.regions.size() == 2);
  }
  SECTION("delta: added and modified elements keep their frame, and resolve to a node of it") {
    auto s1 = PageBuilder()
                  .frame("SUB", "S1")
                  .el(1, "button", "Top")
                  .el(3, "button", "Inner 2", Region::kMain, "SUB")
                  .build();
    s1.nodes[0].state.focused = true;
    FactPack d = h.act(full.version, s1, &s0);
    REQUIRE(d.added.size() == 1);
    CHECK(d.added[0].frame == 1);
    CHECK(h.resolve(d.added[0].ref)->frame_id == "SUB");
    REQUIRE(d.modified.size() == 1);
    CHECK(d.modified[0].after.frame == 0);
    CHECK(h.resolve(d.modified[0].ref)->frame_id == "MAIN");
  }
  SECTION("a second page of the same Engine numbers on: no ref of one page is a ref of the other") {
    const PageKey other{0, 2}, private_tab{1, 1};
    REQUIRE(h.engine.open_page(other));
    REQUIRE(h.engine.open_page(private_tab));
    auto second = h.engine.snapshot_from(other, PageBuilder().el(1, "button", "Top").build());
    REQUIRE(second);
    const std::string theirs = second->regions[0].elements[0].ref, ours = ref_of(full, "button", "Top");
    CHECK(theirs != ours);
    CHECK(theirs == "e3");  // after e1 and e2, the first page's
    CHECK(h.engine.owner(theirs)->page == 2);
    CHECK(h.engine.owner(ours)->page == 1);
    // Acting on another tab's ref is refused, naming the tab it belongs to.
    auto wrong = h.resolve(theirs);
    REQUIRE_FALSE(wrong);
    CHECK(wrong.error().code == ErrorCode::kPageMismatch);
    CHECK(wrong.error().message ==
          "ref e3 belongs to tab c0p2, not c0p1; act on the tab it came from, or use refs from this page's FactPacks");
    auto across = h.engine.resolve(private_tab, ours);
    REQUIRE_FALSE(across);
    CHECK(across.error().code == ErrorCode::kContextMismatch);
    CHECK(h.engine.owner("e999").error().code == ErrorCode::kUnknownRef);
    CHECK(h.engine.owner("p1e1").error().code == ErrorCode::kMalformedRef);
    CHECK(h.engine.next_ref() == 4);
    // A closed tab's refs still name it (by the span they were numbered in): the agent is told
    // what became of that tab, and no new ref can fall in that span.
    REQUIRE(h.engine.close_page(other));
    CHECK(h.engine.owner(theirs)->page == 2);
    CHECK(h.resolve(theirs).error().code == ErrorCode::kPageMismatch);
  }
  SECTION("Config::first_ref: an Engine that follows another numbers past what that one handed out") {
    Config c;
    c.first_ref = 500;
    Harness later(c);
    CHECK(later.snap(s0).regions[0].elements[0].ref == "e500");
    CHECK(later.engine.next_ref() == 502);
  }
}

TEST_CASE("matcher: identity, then unique key, then unique key after the same neighbour", "[engine][matcher]") {
  using engine::MatchNode;
  auto n = [](int scope, std::int64_t id, std::uint64_t ident, engine::RefId ref = 0) {
    return MatchNode{scope, id, ident, ref};
  };
  SECTION("scoped identity first, even when the key changed (a modification)") {
    auto r = engine::match_nodes({n(0, 5, 1, 11)}, {n(0, 5, 2)});
    CHECK(r.refs == std::vector<engine::RefId>{11});
    CHECK(r.by_identity == 1);
  }
  SECTION("never across scopes (frame, document, overlay)") {
    auto r = engine::match_nodes({n(0, 5, 1, 11)}, {n(1, 5, 1)});
    CHECK(r.refs == std::vector<engine::RefId>{0});
    CHECK(r.unmatched == std::vector<std::size_t>{0});
  }
  SECTION("unique key on both sides rebinds; two candidates never do") {
    auto r =
        engine::match_nodes({n(0, 1, 7, 11), n(0, 2, 8, 12), n(0, 3, 8, 13)}, {n(0, 9, 7), n(0, 10, 8), n(0, 11, 8)});
    CHECK(r.refs == std::vector<engine::RefId>{11, 0, 0});
    // 8 is ambiguous, and both 8s follow the same matched neighbour (the 7): still ambiguous.
    CHECK(r.by_key == 1);
    CHECK(r.unmatched == std::vector<std::size_t>{1, 2});
  }
  SECTION("the neighbour anchor separates equals") {
    // [A x B x] -> [A' x' B' x']: each x follows a different matched neighbour.
    auto r = engine::match_nodes({n(0, 1, 1, 11), n(0, 2, 9, 12), n(0, 3, 2, 13), n(0, 4, 9, 14)},
                                 {n(0, 5, 1), n(0, 6, 9), n(0, 7, 2), n(0, 8, 9)});
    CHECK(r.refs == std::vector<engine::RefId>{11, 12, 13, 14});
    CHECK(r.by_neighbour == 2);
  }
}
