// seeds/000 §9 "Unit Tests": FrameTracker, SnapshotVersionManager, PageSnapshotState, format,
// computeDeltaBetweenSnapshots — as they exist in this engine (refs are opaque, formatting is
// the renderer's; what the seed asks of them is asserted on FactPacks and resolve()).
#include <catch2/catch.hpp>

#include "athena/limits.h"
#include "engine/frame_tracker.h"
#include "engine/ref_registry.h"
#include "engine/version_manager.h"
#include "engine/view.h"
#include "helpers.h"

using namespace athena;
using namespace athena::testing;
using engine::FrameTracker;

TEST_CASE("seeds/000 §9 unit 1: FrameTracker", "[engine][frames]") {
  SECTION("Invalidates refs on frame navigation") {
    Harness h;
    auto s1 = PageBuilder().frame("SUB", "S1").el(1, "button", "Top").el(2, "button", "In frame", Region::kMain, "SUB").build();
    FactPack full = h.snap(s1);
    const std::string in_frame = ref_of(full, "button", "In frame");
    REQUIRE(h.resolve(in_frame));
    REQUIRE(h.engine.on_event(h.key, nav_event("SUB", "S2", "MAIN")));
    auto r = h.resolve(in_frame);
    REQUIRE_FALSE(r);
    CHECK(r.error().code == ErrorCode::kDocumentReplaced);
    CHECK(h.resolve(ref_of(full, "button", "Top")));  // the main frame's refs are untouched
    auto s2 = PageBuilder().frame("SUB", "S2").el(1, "button", "Top").el(7, "button", "In frame", Region::kMain, "SUB").build();
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
    auto s1 = PageBuilder().frame("SUB", "S1").el(1, "button", "Top").el(2, "button", "Ad", Region::kMain, "SUB").build();
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
  SECTION("Serializes/parses refs correctly") {
    CHECK(engine::format_ref(0, 1, 0, 17) == "c0p1f0e17");
    engine::ParsedRef p;
    REQUIRE(engine::parse_ref("c12p3f4e567", p));
    CHECK((p.context == 12 && p.page == 3 && p.frame == 4 && p.n == 567));
    for (const char* bad : {"", "c0p1f0", "c0p1f0e", "c0p1f0e1x", "p1c0f0e1", "c00p1f0e1", "c-1p1f0e1", "C0P1F0E1", "c0p1f0e1 ",
                            "c0p1f0e99999999999999"})
      CHECK_FALSE(engine::parse_ref(bad, p));
  }
  SECTION("Prunes refs on removal") {
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
  SECTION("Initialize succeeds on first call") {
    FrameTracker t;
    REQUIRE(t.init(PageBuilder().frame("SUB", "S1").build().frames));
    CHECK(t.initialized());
    CHECK(t.doc("SUB", "S1") == FrameTracker::Doc::kLive);
    CHECK(t.frame_index("MAIN") == 0);
    CHECK(t.frame_index("SUB") == 1);
    CHECK(t.frame_index("SUB") == 1);
  }
  SECTION("Initialize retries after failure (reset initPromise)") {
    FrameTracker t;
    std::vector<FrameInfo> broken = {FrameInfo{"SUB", "S1", "NOPE", "", false}};
    auto r = t.init(broken);
    REQUIRE_FALSE(r);
    CHECK(r.error().code == ErrorCode::kMalformedCapture);
    CHECK_FALSE(t.initialized());
    REQUIRE(t.init(PageBuilder().build().frames));
    CHECK(t.initialized());
  }
  SECTION("Initialize is idempotent (multiple calls safe)") {
    FrameTracker t;
    REQUIRE(t.init(PageBuilder("L1").build().frames));
    REQUIRE(t.init(PageBuilder("L2", "OTHER").build().frames));  // no-op: the first tree stays
    CHECK(t.main_frame_id() == "MAIN");
    CHECK(t.doc("MAIN", "L1") == FrameTracker::Doc::kLive);
  }
}

TEST_CASE("seeds/000 §9 unit 2: SnapshotVersionManager", "[engine][versions]") {
  auto view = [](std::uint64_t hash) {
    engine::View v;
    v.hash = hash;
    return v;
  };
  SECTION("Increments version on change") {
    engine::SnapshotVersionManager m(3);
    CHECK(m.capture_if_changed(view(1)).first->version == 1);
    auto [e, is_new] = m.capture_if_changed(view(2));
    CHECK(is_new);
    CHECK(e->version == 2);
    CHECK(m.force_capture(view(2))->version == 3);  // forced: even when equal
  }
  SECTION("Doesn't increment when unchanged (peek)") {
    engine::SnapshotVersionManager m(3);
    m.capture_if_changed(view(7));
    CHECK_FALSE(m.peek(7));
    CHECK(m.peek(8));
    auto [e, is_new] = m.capture_if_changed(view(7));
    CHECK_FALSE(is_new);
    CHECK(e->version == 1);
    CHECK(m.current_version() == 1);
  }
  SECTION("Maintains history up to limit") {
    engine::SnapshotVersionManager m(3);
    for (std::uint64_t i = 1; i <= 10; ++i) m.capture_if_changed(view(i));
    CHECK(m.history_size() == 3);
    CHECK(m.get(10) != nullptr);
    CHECK(m.get(7) != nullptr);
    CHECK(m.get(6) == nullptr);
    engine::SnapshotVersionManager big(1000);  // clamped to limits::kMaxHistory
    for (std::uint64_t i = 1; i <= 100; ++i) big.capture_if_changed(view(i));
    CHECK(big.history_size() == limits::kMaxHistory);
  }
  SECTION("Validates agent versions correctly") {
    Harness h;  // history 3
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
    // stale_no_history: four more versions since (history 3) -> the agent's is gone
    for (int i = 3; i < 7; ++i) {
      auto s = PageBuilder().el(1, "button", "A").el(i, "button", "B" + std::to_string(i)).build();
      h.begin(s, std::nullopt);
      REQUIRE(h.engine.abort_action(h.key));
    }
    auto c = PageBuilder().el(1, "button", "A").el(9, "button", "C").build();
    PreCheck gone = h.begin(c, full.version);
    CHECK(gone.freshness == Freshness::kStaleNoHistory);
    REQUIRE(gone.pack);
    CHECK(gone.pack->type == PackType::kFull);
    CHECK(gone.pack->reason == "stale_version");
  }
}
