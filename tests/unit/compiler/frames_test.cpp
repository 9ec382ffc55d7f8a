// Frames, iframes (same process and out of process), unknown frames, coordinates.
#include "helpers.h"

using namespace athena;
using namespace athena::test;

TEST_CASE("nodes carry their frame's id and loader id: iframe offsets are applied", "[compiler][frames]") {
  CaptureBuilder b("MAIN", "LOAD0");
  const int body = b.el(0, 0, "body");
  b.text(0, b.el(0, body, "button", {}, {10, 10, 50, 20}), "Top");
  const int ifr = b.el(0, body, "iframe", {}, {100, 200, 300, 150});  // clientRects give a 2px border
  const int d1 = b.add_document("CHILD", "https://example.test/frame");
  b.add_frame("CHILD", "LOAD1", "MAIN", "https://example.test/frame");
  b.content_document(0, ifr, d1);
  b.scroll(d1, 0, 5);
  const int ib = b.el(d1, b.el(d1, 0, "body"), "button", {}, {8, 8, 40, 20});
  b.text(d1, ib, "Inner");
  const Snapshot s = compile_ok(b);
  REQUIRE(s.frames.size() == 2);
  CHECK(s.frames[0].frame_id == "MAIN");
  CHECK(s.frames[1].parent_id == "MAIN");
  const ReadableNode* top = by_name(s, "Top");
  CHECK(top->frame_id == "MAIN");
  CHECK(top->loader_id == "LOAD0");
  const ReadableNode* inner = by_name(s, "Inner");
  REQUIRE(inner != nullptr);
  CHECK(inner->frame_id == "CHILD");
  CHECK(inner->loader_id == "LOAD1");
  CHECK(inner->bbox.x == 110);  // 100 + 2 border + 8
  CHECK(inner->bbox.y == 205);  // 200 + 2 border + 8 - 5 scrolled
  CHECK_FALSE(s.has_unknown_frames);
}

TEST_CASE("main document scroll moves boxes into viewport coordinates: in_viewport", "[compiler][frames]") {
  CaptureBuilder b;
  const int body = b.el(0, 0, "body");
  b.text(0, b.el(0, body, "button", {}, {0, 1000, 50, 20}), "Below");
  b.text(0, b.el(0, body, "button", {}, {0, 10, 50, 20}), "Above");
  b.scroll(0, 0, 900);
  const Snapshot s = compile_ok(b);
  CHECK(by_name(s, "Below")->bbox.y == 100);
  CHECK(by_name(s, "Below")->in_viewport);
  CHECK_FALSE(by_name(s, "Above")->in_viewport);
  CompileOptions only_visible;
  only_visible.include_offscreen = false;
  auto r = compile_capture(b.str(), only_visible);
  REQUIRE(r.ok());
  CHECK(by_name(r.value(), "Above") == nullptr);
}

TEST_CASE("a document whose frame is not in the frame tree is skipped and flagged", "[compiler][frames]") {
  CaptureBuilder b;
  const int body = b.el(0, 0, "body");
  const int ifr = b.el(0, body, "iframe");
  const int d1 = b.add_document("GHOST", "https://ads.test/");
  b.content_document(0, ifr, d1);
  b.text(d1, b.el(d1, 0, "button"), "Ghost");
  b.text(0, b.el(0, body, "button"), "Real");
  const Snapshot s = compile_ok(b);
  CHECK(s.has_unknown_frames);
  CHECK(by_name(s, "Ghost") == nullptr);
  CHECK(by_name(s, "Real") != nullptr);
  for (const auto& n : s.nodes) CHECK(n.loader_id != "unknown");
  REQUIRE(s.warnings.size() == 1);
  CHECK(s.warnings[0] ==
        "document https://ads.test/ (frame GHOST) is not in the frame tree: its elements were left out; take a new "
        "snapshot");
}

TEST_CASE("OOPIF nodes are placed at their <iframe> with their own frame and loader", "[compiler][frames][oopif]") {
  for (const bool with_owner : {true, false}) {
    CaptureBuilder b("MAIN", "L0");
    const int body = b.el(0, 0, "body");
    b.el(0, body, "iframe", {{"src", "https://elsewhere.test/a"}}, {10, 10, 100, 100});
    const int ifr = b.el(0, body, "iframe", {{"src", "https://other.test/"}}, {50, 300, 400, 200});
    b.text(0, b.el(0, body, "button"), "After");
    CaptureBuilder& o = b.add_oopif("OOP", "LOOP", "MAIN", with_owner ? b.backend(0, ifr) : -1, "https://other.test/");
    b.text(0, b.el(0, body, "button"), "Last");
    o.text(0, o.el(0, o.el(0, 0, "body"), "button", {}, {5, 6, 30, 20}), "Cross");
    const Snapshot s = compile_ok(b);
    INFO(with_owner);
    const ReadableNode* cross = by_name(s, "Cross");
    REQUIRE(cross != nullptr);
    CHECK(cross->frame_id == "OOP");
    CHECK(cross->loader_id == "LOOP");
    CHECK(cross->bbox.x == 57);   // 50 + 2 + 5
    CHECK(cross->bbox.y == 308);  // 300 + 2 + 6
    // Document order: the OOPIF's content sits where its iframe is.
    std::size_t at_cross = 0, at_after = 0;
    for (std::size_t k = 0; k < s.nodes.size(); ++k) {
      if (s.nodes[k].name == "Cross") at_cross = k;
      if (s.nodes[k].name == "After") at_after = k;
    }
    CHECK(at_cross < at_after);
    REQUIRE(s.frames.size() == 2);
    CHECK(s.frames[1].out_of_process);
  }
}
