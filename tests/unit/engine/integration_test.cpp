// The design's integration flows (docs/design.md, "Tests named after the design"), each named after what it checks, on
// synthetic snapshots.
#include <catch2/catch.hpp>

#include "agent_view.h"
#include "fidelity.h"
#include "helpers.h"

using namespace athena;
using namespace athena::testing;

namespace {
PageBuilder shop(const std::string& loader = "L1") {
  PageBuilder b(loader);
  b.el(1, "link", "Home", Region::kNav)
      .el(2, "link", "Cart", Region::kNav)
      .el(3, "button", "Add to cart")
      .el(4, "textbox", "Qty");
  return b;
}
}  // namespace

TEST_CASE("integration flows (docs/design.md)", "[engine][integration]") {
  Harness h;
  AgentView agent;
  auto apply = [&](const FactPack& p, const Snapshot& s) {
    REQUIRE(agent.apply(p) == "");
    REQUIRE(check_fidelity(agent, h.engine, h.key, s) == "");
  };

  SECTION("1. Modal flow: Open modal → interact → close → verify base state") {
    auto s0 = shop().build();
    apply(h.snap(s0), s0);
    auto s1 = shop()
                  .overlay(90, OverlayType::kModal, "Added")
                  .el(91, "button", "Checkout", Region::kDialog, "", 0)
                  .el(92, "checkbox", "Gift", Region::kDialog, "", 0)
                  .build();
    h.begin(s0, agent.version());
    FactPack open = h.finish(s1);
    CHECK(open.type == PackType::kOverlayOpened);
    apply(open, s1);
    auto s2 = s1;
    s2.nodes[5].state.checked = Tri::kTrue;  // interact: tick "Gift"
    h.begin(s1, agent.version());
    FactPack d = h.finish(s2);
    CHECK(d.type == PackType::kDelta);
    CHECK(d.modified.size() == 1);
    apply(d, s2);
    auto s3 = shop().build();
    s3.nodes[1].name = "Cart (1)";  // the base changed behind the modal
    h.begin(s2, agent.version());
    FactPack c = h.finish(s3);
    REQUIRE(c.type == PackType::kOverlayClosed);
    CHECK(c.invalidated.size() == 2);
    REQUIRE(c.modified.size() == 1);
    CHECK(c.modified[0].before.name == "Cart");
    CHECK(c.modified[0].after.name == "Cart (1)");
    apply(c, s3);
  }
  SECTION("2. Navigation flow: Navigate → full snapshot → interact → delta") {
    auto s0 = shop().build();
    apply(h.snap(s0), s0);
    auto s1 = shop("L2").build();
    s1.nodes[2].name = "Buy now";
    h.begin(s0, agent.version());
    FactPack nav = h.finish(s1);
    REQUIRE(nav.type == PackType::kFull);
    CHECK(nav.reason == "navigation");
    apply(nav, s1);
    auto s2 = s1;
    s2.nodes[3].state.value = "2";
    h.begin(s1, agent.version());
    FactPack d = h.finish(s2);
    CHECK(d.type == PackType::kDelta);
    apply(d, s2);
  }
  SECTION("3. Frame navigation: iframe navigates → old refs invalidated") {
    auto s0 = shop().frame("SUB", "S1").el(10, "button", "Pay", Region::kMain, "SUB").build();
    FactPack full = h.snap(s0);
    apply(full, s0);
    auto s1 = shop().frame("SUB", "S2").el(11, "button", "Pay", Region::kMain, "SUB").build();
    h.begin(s0, agent.version());
    FactPack d = h.finish(s1);
    REQUIRE(d.type == PackType::kDelta);
    CHECK(invalidated_refs(d) == std::vector<std::string>{ref_of(full, "button", "Pay")});
    CHECK(d.added.size() == 1);
    apply(d, s1);
    CHECK(h.resolve(ref_of(full, "button", "Pay")).error().code == ErrorCode::kDocumentReplaced);
  }
  SECTION("4. Stale agent: Agent with old version gets appropriate response") {
    auto s0 = shop().build();
    FactPack full = h.snap(s0);
    PreCheck future = h.begin(s0, full.version + 5);
    CHECK(future.freshness == Freshness::kStaleNoHistory);
    CHECK(future.pack->reason == "stale_version");
  }
  SECTION("5. Unstable page: Page with animations → bounded response") {
    // Stabilization is the extension's (bounded there); the core passes its warning through.
    auto s0 = shop().build();
    h.snap(s0);
    h.begin(s0, std::nullopt);
    ActionInfo info;
    info.warnings = {"page still changing after 2000 ms"};
    auto p = h.engine.finish_action_from(h.key, s0, info);
    REQUIRE(p);
    CHECK(p->warnings == info.warnings);
  }
  SECTION("6. Overlay baseline isolation: Pre-validation staleness during overlay doesn't corrupt base") {
    auto s0 = shop().overlay(90).el(91, "button", "OK", Region::kDialog, "", 0).build();
    apply(h.snap(s0), s0);
    auto drift = s0;
    drift.nodes.erase(drift.nodes.begin() + 2);  // base: "Add to cart" gone behind the dialog
    PreCheck pre = h.begin(drift, agent.version());
    CHECK(pre.freshness == Freshness::kCurrent);  // nothing changed in the agent's context
    FactPack p = h.finish(drift);
    CHECK(p.type == PackType::kNoChange);
    apply(p, drift);
    auto closed = shop().build();
    closed.nodes.erase(closed.nodes.begin() + 2);
    h.begin(drift, agent.version());
    FactPack c = h.finish(closed);
    REQUIRE(c.type == PackType::kOverlayClosed);
    CHECK(c.invalidated.size() == 2);  // OK (overlay_closed) + Add to cart (removed)
    apply(c, closed);
  }
  SECTION("7. Iframe loader_id: Nodes in iframes have correct loader_id in refs") {
    auto s0 = shop()
                  .frame("SUB", "S1")
                  .el(10, "button", "Pay", Region::kMain, "SUB")
                  .frame("SUB2", "T1", "SUB")
                  .el(10, "button", "Deep", Region::kMain, "SUB2")
                  .build();
    FactPack full = h.snap(s0);
    auto pay = h.resolve(ref_of(full, "button", "Pay"));
    auto deep = h.resolve(ref_of(full, "button", "Deep"));
    REQUIRE(pay);
    REQUIRE(deep);
    CHECK(pay->loader_id == "S1");
    CHECK(deep->loader_id == "T1");
    CHECK(pay->backend_node_id == deep->backend_node_id);  // same id, two frames, two refs
    CHECK(pay->ref != deep->ref);
  }
  SECTION(
      "8. Pre-validation in overlay mode: changes reported before the action (before_action) are not counted again "
      "after it") {
    auto s0 = shop().overlay(90).el(91, "button", "OK", Region::kDialog, "", 0).build();
    apply(h.snap(s0), s0);
    auto drift = shop()
                     .overlay(90)
                     .el(91, "button", "OK", Region::kDialog, "", 0)
                     .el(92, "alert", "Required", Region::kDialog, "", 0)
                     .build();
    PreCheck pre = h.begin(drift, agent.version());
    REQUIRE(pre.freshness == Freshness::kStaleWithHistory);
    CHECK(pre.pack->added.size() == 1);
    FactPack p = h.finish(drift);
    CHECK(p.type == PackType::kNoChange);
    CHECK(p.before_action.at(0).added.size() == 1);
    apply(p, drift);
  }
  SECTION("9. Overlay close after frame navigation: invalidations use the loader_id from open time") {
    auto s0 = shop()
                  .frame("SUB", "S1")
                  .overlay(70, OverlayType::kDialog, "D", "SUB")
                  .el(71, "button", "Go", Region::kDialog, "SUB", 0)
                  .build();
    FactPack full = h.snap(s0);
    apply(full, s0);
    REQUIRE(h.engine.on_event(h.key, nav_event("SUB", "S2", "MAIN")));
    auto s1 = shop().frame("SUB", "S2").build();
    h.begin(s1, std::nullopt);
    FactPack c = h.finish(s1);
    REQUIRE(c.type == PackType::kOverlayClosed);
    CHECK(invalidated_refs(c) == std::vector<std::string>{ref_of(full, "button", "Go")});
    apply(c, s1);
  }
  SECTION("10. FrameTracker init failure recovery: After init failure, next call retries successfully") {
    Snapshot broken = shop().build();
    broken.frames.push_back(FrameInfo{"ORPHAN", "O1", "NOWHERE", "", false});
    auto bad = h.engine.snapshot_from(h.key, broken);
    REQUIRE_FALSE(bad);
    CHECK(bad.error().code == ErrorCode::kMalformedCapture);
    auto good = h.engine.snapshot_from(h.key, shop().build());
    REQUIRE(good);
    CHECK(good->reason == "first");
  }
  SECTION("11. A version other than the delivered one: action NOT executed, full snapshot returned, agent must retry") {
    auto s0 = shop().build();
    FactPack full = h.snap(s0);
    PreCheck pre = h.begin(s0, full.version + 1);
    REQUIRE(pre.freshness == Freshness::kStaleNoHistory);
    REQUIRE(pre.pack->type == PackType::kFull);
    auto f = h.engine.finish_action_from(h.key, s0, {});
    REQUIRE_FALSE(f);  // there is no action to finish: it must not have run
    CHECK(f.error().code == ErrorCode::kWrongCallOrder);
    CHECK(h.begin(s0, pre.pack->version).freshness == Freshness::kCurrent);  // re-synced
  }
  SECTION(
      "12. Action failure preserves baseline: a failed or aborted action does NOT advance the baseline, old refs "
      "valid") {
    auto s0 = shop().build();
    FactPack full = h.snap(s0);
    apply(full, s0);
    auto drift = shop().el(5, "button", "New").build();
    h.begin(drift, agent.version());
    REQUIRE(h.engine.abort_action(h.key));
    CHECK(h.engine.stats(h.key)->delivered_version == full.version);
    for (const auto& [ref, e] : agent.elements()) CHECK(h.resolve(ref));
    PreCheck again = h.begin(drift, agent.version());
    CHECK(again.freshness == Freshness::kStaleWithHistory);
  }
  SECTION(
      "13. Unknown frame forces full snapshot: a snapshot with frames the engine does not know gets a full answer") {
    auto s0 = shop().build();
    apply(h.snap(s0), s0);
    auto s1 = shop().el(6, "button", "More").build();
    s1.has_unknown_frames = true;
    h.begin(s0, agent.version());
    FactPack p = h.finish(s1);
    CHECK(p.type == PackType::kFull);
    CHECK(p.reason == "unknown_frames");
    apply(p, s1);
    // A node claiming a frame the capture does not list is dropped, with the same answer.
    auto s2 = shop().el(6, "button", "More").build();
    s2.nodes.back().frame_id = "GHOST";
    auto clean = shop().el(6, "button", "More").build();
    h.begin(clean, agent.version());  // (a capture still missing frames would be answered here already)
    FactPack q = h.finish(s2);
    CHECK(q.type == PackType::kFull);
    CHECK(q.reason == "unknown_frames");
    CHECK(ref_of(q, "button", "More").empty());
  }
  SECTION("14. Overlay replacement across frames: another frame or loader_id is another overlay") {
    auto s0 = shop()
                  .frame("SUB", "S1")
                  .overlay(70, OverlayType::kDialog, "D", "SUB")
                  .el(71, "button", "Go", Region::kDialog, "SUB", 0)
                  .build();
    FactPack full = h.snap(s0);
    apply(full, s0);
    // Same backend id 70 for the root, but in the main frame now: a different overlay.
    auto s1 = shop()
                  .frame("SUB", "S1")
                  .overlay(70, OverlayType::kDialog, "D")
                  .el(71, "button", "Go", Region::kDialog, "", 0)
                  .build();
    h.begin(s0, agent.version());
    FactPack r = h.finish(s1);
    REQUIRE(r.type == PackType::kOverlayOpened);
    CHECK(invalidated_refs(r) == std::vector<std::string>{ref_of(full, "button", "Go")});
    CHECK(ref_of(r, "button", "Go") != ref_of(full, "button", "Go"));
    apply(r, s1);
  }
}
