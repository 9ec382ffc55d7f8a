// Bad input gives an Error or a full snapshot, never a wrong delta, and never corrupts state.
#include <catch2/catch.hpp>

#include "helpers.h"

using namespace athena;
using namespace athena::testing;

TEST_CASE("bad input: an error or a full snapshot, never a wrong delta", "[engine][bad-input]") {
  Harness h;
  auto s0 =
      PageBuilder().frame("SUB", "S1").el(1, "button", "Save").el(2, "button", "Pay", Region::kMain, "SUB").build();
  FactPack full = h.snap(s0);
  const std::string save = ref_of(full, "button", "Save");

  SECTION("garbage JSON") {
    auto r = h.engine.snapshot(h.key, "{not json");
    REQUIRE_FALSE(r);
    CHECK(r.error().code == ErrorCode::kMalformedJson);
    CHECK(h.engine.begin_action(h.key, "", 1).error().code == ErrorCode::kMalformedJson);
    CHECK(h.engine.on_event(h.key, "[1,2").error().code == ErrorCode::kMalformedEvent);
    CHECK(h.engine.on_event(h.key, R"({"params":{}})").error().code == ErrorCode::kMalformedEvent);
    CHECK(h.engine.on_event(h.key, R"({"method":"Page.frameNavigated","params":{}})").error().code ==
          ErrorCode::kMalformedEvent);
    CHECK(h.engine.on_event(h.key, R"({"method":"Network.requestWillBeSent","params":{}})"));  // ignored
    CHECK(h.resolve(save));                                                                    // nothing was corrupted
    CHECK(h.engine.stats(h.key)->delivered_version == full.version);
  }
  SECTION("a capture that contradicts itself") {
    auto dup = s0;
    dup.nodes.push_back(dup.nodes[0]);
    CHECK(h.engine.snapshot_from(h.key, dup).error().code == ErrorCode::kMalformedCapture);
    auto bad_overlay = s0;
    bad_overlay.nodes[0].overlay = 3;
    CHECK(h.engine.snapshot_from(h.key, bad_overlay).error().code == ErrorCode::kMalformedCapture);
    CHECK(h.engine.snapshot_from(h.key, Snapshot{}).error().code == ErrorCode::kMalformedCapture);
    CHECK(h.resolve(save));
  }
  SECTION("events out of order: a capture older than a frameNavigated event is refused") {
    REQUIRE(h.engine.on_event(h.key, nav_event("SUB", "S2", "MAIN")));
    auto r = h.engine.begin_action_from(h.key, s0, full.version);
    REQUIRE_FALSE(r);
    CHECK(r.error().code == ErrorCode::kWrongCallOrder);
    CHECK(r.error().message.find("capture the page again") != std::string::npos);
    CHECK(h.resolve(save));  // the main frame was not touched
  }
  SECTION("events out of order: a document that already navigated away comes back -> full snapshot") {
    REQUIRE(h.engine.on_event(h.key, nav_event("SUB", "S2", "MAIN")));
    REQUIRE(h.engine.on_event(h.key, nav_event("SUB", "S1", "MAIN")));  // S1 was retired
    auto s1 =
        PageBuilder().frame("SUB", "S3").el(1, "button", "Save").el(3, "button", "Pay", Region::kMain, "SUB").build();
    h.begin(s1, std::nullopt);
    FactPack p = h.finish(s1);
    CHECK(p.type == PackType::kFull);
    CHECK(p.reason == "unknown_frames");
  }
  SECTION("unknown frames in events -> full snapshot") {
    REQUIRE(h.engine.on_event(h.key, nav_event("NEW", "N1", "NOWHERE")));
    h.begin(s0, std::nullopt);
    FactPack p = h.finish(s0);
    CHECK(p.type == PackType::kFull);
    CHECK(p.reason == "unknown_frames");
    h.begin(s0, p.version);
    CHECK(h.finish(s0).type == PackType::kNoChange);  // once re-synced, deltas resume
  }
  SECTION("a snapshot from another page (other main frame) with no navigation event -> full, every ref invalidated") {
    auto other = PageBuilder("X1", "OTHER").el(1, "button", "Save").build();
    h.begin(s0, full.version);
    FactPack p = h.finish(other);
    CHECK(p.type == PackType::kFull);
    CHECK(p.reason == "navigation");
    CHECK(p.invalidated.size() == 2);
    CHECK(ref_of(p, "button", "Save") != save);
  }
  SECTION("another URL, same document (history.pushState) is a delta, not a navigation") {
    auto spa = PageBuilder()
                   .frame("SUB", "S1")
                   .el(1, "button", "Save")
                   .el(2, "button", "Pay", Region::kMain, "SUB")
                   .el(4, "link", "Back")
                   .build();
    spa.url = "https://a.test/route2";
    FactPack p = h.act(full.version, spa, &s0);
    CHECK(p.type == PackType::kDelta);
    CHECK(p.url == "https://a.test/route2");
  }
  SECTION("wrong call order and unknown pages") {
    CHECK(h.engine.finish_action_from(h.key, s0, {}).error().code == ErrorCode::kWrongCallOrder);
    CHECK(h.engine.abort_action(h.key).error().code == ErrorCode::kWrongCallOrder);
    CHECK(h.engine.snapshot_from(PageKey{5, 5}, s0).error().code == ErrorCode::kUnknownPage);
    REQUIRE(h.engine.close_page(h.key));
    CHECK(h.engine.resolve(h.key, save).error().code == ErrorCode::kUnknownPage);
  }
}

TEST_CASE("bad input: random garbage events and captures never crash or corrupt", "[engine][bad-input]") {
  Harness h;
  auto s0 =
      PageBuilder().frame("SUB", "S1").el(1, "button", "Save").el(2, "button", "Pay", Region::kMain, "SUB").build();
  FactPack full = h.snap(s0);
  const char* pieces[] = {"{",
                          "}",
                          "[",
                          "]",
                          "\"method\"",
                          ":",
                          ",",
                          "\"Page.frameNavigated\"",
                          "\"Page.frameDetached\"",
                          "\"params\"",
                          "\"frame\"",
                          "\"id\"",
                          "\"SUB\"",
                          "\"MAIN\"",
                          "\"loaderId\"",
                          "\"X\"",
                          "null",
                          "1",
                          "\"frameId\"",
                          "\"parentId\"",
                          "\"reason\"",
                          "\"swap\"",
                          "true"};
  std::uint64_t x = 12345;
  auto next = [&] {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return x;
  };
  for (int i = 0; i < 3000; ++i) {
    std::string ev;
    const int n = 1 + static_cast<int>(next() % 24);
    for (int k = 0; k < n; ++k) ev += pieces[next() % (sizeof pieces / sizeof *pieces)];
    (void)h.engine.on_event(h.key, ev);  // any answer but a crash
    (void)h.engine.snapshot(h.key, ev);  // garbage captures are errors
  }
  // Whatever the events did, the next capture is either refused or answered safely.
  auto pre = h.engine.begin_action_from(h.key, s0, full.version);
  if (pre) {
    auto p = h.engine.finish_action_from(h.key, s0, {});
    if (p) CHECK((p->type == PackType::kFull || p->type == PackType::kNoChange));
  } else {
    CHECK(pre.error().code == ErrorCode::kWrongCallOrder);
  }
}
