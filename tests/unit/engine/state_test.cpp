// The page's state in PageSession (the first snapshot, overlays over a frozen base, when the
// baseline advances), the delta between two views (which refs it invalidates), and the no-change
// decision for re-renders.
#include <catch2/catch.hpp>

#include "agent_view.h"
#include "athena/render.h"
#include "fidelity.h"
#include "helpers.h"

using namespace athena;
using namespace athena::testing;

namespace {
Snapshot base_page(bool with_dialog = false, bool nested = false) {
  PageBuilder b;
  b.el(1, "link", "Home", Region::kNav).el(2, "button", "Open dialog").el(3, "checkbox", "Remember");
  if (with_dialog) {
    b.overlay(50, OverlayType::kModal, "Confirm")
        .el(51, "button", "OK", Region::kDialog, "", 0)
        .el(52, "button", "Cancel", Region::kDialog, "", 0);
    if (nested) b.overlay(60, OverlayType::kDropdown, "Menu").el(61, "menuitem", "One", Region::kDialog, "", 1);
  }
  return b.build();
}
}  // namespace

TEST_CASE("page state: first snapshot, overlays over the base, deltas, when the baseline advances", "[engine][state]") {
  Harness h;
  SECTION("Initializes on first call") {
    // The first action on a page with nothing delivered answers with the baseline itself.
    PreCheck pre = h.begin(base_page(), std::nullopt);
    CHECK(pre.freshness == Freshness::kCurrent);
    FactPack p = h.finish(base_page());
    CHECK(p.type == PackType::kFull);
    CHECK(p.reason == "first");
    CHECK(listed(p).size() == 3);
  }
  SECTION("Detects overlay open/close") {
    FactPack full = h.snap(base_page());
    h.begin(base_page(), full.version);
    FactPack open = h.finish(base_page(true));
    REQUIRE(open.type == PackType::kOverlayOpened);
    CHECK(open.overlay.type == OverlayType::kModal);
    CHECK(open.overlay.name == "Confirm");
    CHECK(open.overlay.depth == 1);
    CHECK(listed(open).size() == 2);
    h.begin(base_page(true), open.version);
    FactPack closed = h.finish(base_page());
    REQUIRE(closed.type == PackType::kOverlayClosed);
    CHECK(closed.invalidated.size() == 2);
    for (const Invalidation& i : closed.invalidated) CHECK(i.cause == "overlay_closed");
  }
  SECTION("A snapshot taken while overlays are open says which regions are theirs") {
    // The overlay_closed that follows names no ref: the agent knows which lines went only
    // because the full marked the overlays' regions.
    FactPack full = h.snap(base_page());
    h.begin(base_page(), full.version);
    FactPack open = h.finish(base_page(true, true));
    REQUIRE(open.type == PackType::kOverlayOpened);
    FactPack again = h.snap(base_page(true, true));
    REQUIRE(again.type == PackType::kFull);
    REQUIRE(again.reason == "requested");
    int page = 0, modal = 0, menu = 0;
    for (const RegionBlock& b : again.regions) {
      if (b.overlay_depth == 0) ++page;
      if (b.overlay_depth == 1 && b.overlay_type == OverlayType::kModal) ++modal;
      if (b.overlay_depth == 2 && b.overlay_type == OverlayType::kDropdown) ++menu;
    }
    CHECK(page == 2);  // nav, main
    CHECK(modal == 1);
    CHECK(menu == 1);
    const std::string text = render_text(again);
    INFO(text);
    CHECK(text.find("\n<region name=\"dialog\" overlay=\"modal\">\n") != std::string::npos);
    CHECK(text.find("\n<region name=\"dialog\" overlay=\"dropdown\" depth=\"2\">\n") != std::string::npos);
    CHECK(text.find("<region name=\"main\">\n") != std::string::npos);
    // The tag says how many are open, and the innermost's type (one could have no line at all).
    CHECK(text.rfind(
              "<full v=\"" + std::to_string(again.version) +
                  "\" reason=\"requested\" url=\"https://a.test/\" title=\"A\" overlay=\"dropdown\" depth=\"2\">\n",
              0) == 0);
    // A full with nothing open marks none.
    CHECK(render_text(full).find(" overlay=") == std::string::npos);
  }
  SECTION("Computes correct deltas") {
    FactPack full = h.snap(PageBuilder().many(10).build());
    auto after = PageBuilder().many(10).build();
    after.nodes.erase(after.nodes.begin() + 3);  // B3 removed
    after.nodes[0].state.disabled = true;        // B0 modified (state)
    after.nodes[1].name = "Renamed";             // B1 modified (label), same node
    after.nodes.push_back(PageBuilder().el(77, "link", "New").build().nodes[0]);
    h.begin(PageBuilder().many(10).build(), full.version);
    FactPack d = h.finish(after);
    REQUIRE(d.type == PackType::kDelta);
    REQUIRE(d.added.size() == 1);
    CHECK(d.added[0].name == "New");
    REQUIRE(d.invalidated.size() == 1);
    CHECK(d.invalidated[0].ref == ref_of(full, "button", "B3"));
    CHECK(d.invalidated[0].cause == "removed");
    REQUIRE(d.modified.size() == 2);
    CHECK(d.modified[0].ref == ref_of(full, "button", "B0"));
    CHECK_FALSE(d.modified[0].before.state.disabled);
    CHECK(d.modified[0].after.state.disabled);
    CHECK(d.modified[1].before.name == "B1");
    CHECK(d.modified[1].after.name == "Renamed");
  }
  SECTION("Advances baseline at right time") {
    FactPack full = h.snap(base_page());
    auto drifted = PageBuilder()
                       .el(1, "link", "Home", Region::kNav)
                       .el(2, "button", "Open dialog")
                       .el(3, "checkbox", "Remember")
                       .el(4, "button", "Late")
                       .build();
    PreCheck pre = h.begin(drifted, full.version);
    REQUIRE(pre.freshness == Freshness::kStaleWithHistory);
    // Not delivered yet: the action fails, the baseline stays where the agent is.
    REQUIRE(h.engine.abort_action(h.key));
    PreCheck again = h.begin(drifted, full.version);
    REQUIRE(again.freshness == Freshness::kStaleWithHistory);
    CHECK(again.pack->added.size() == 1);
    // The action succeeds: the drift is delivered as before_action, the delta starts from it.
    FactPack d = h.finish(drifted);
    CHECK(d.type == PackType::kNoChange);
    REQUIRE(d.before_action.size() == 1);
    CHECK(d.before_action[0].added.size() == 1);
    // Delivered: the next action from this version is current.
    CHECK(h.begin(drifted, d.version).freshness == Freshness::kCurrent);
  }
  SECTION("Handles nested overlays") {
    FactPack full = h.snap(base_page(true));
    CHECK(full.overlay.depth == 1);
    h.begin(base_page(true), full.version);
    FactPack nested = h.finish(base_page(true, true));
    REQUIRE(nested.type == PackType::kOverlayOpened);
    CHECK(nested.overlay.depth == 2);
    CHECK(nested.overlay.type == OverlayType::kDropdown);
    REQUIRE(listed(nested).size() == 1);
    CHECK(listed(nested)[0].overlay == 1);
    h.begin(base_page(true, true), nested.version);
    FactPack back = h.finish(base_page(true));
    REQUIRE(back.type == PackType::kOverlayClosed);
    CHECK(back.overlay.depth == 2);
    CHECK(back.invalidated.size() == 1);
    CHECK(h.resolve(ref_of(full, "button", "OK")));  // the dialog below is still live
  }
  SECTION("A dialog replaced by another: the opened pack's tag says how many closed, no line counts their refs") {
    FactPack full = h.snap(base_page());
    h.begin(base_page(), full.version);
    FactPack open = h.finish(base_page(true));
    REQUIRE(open.type == PackType::kOverlayOpened);
    CHECK(open.overlay.closed == 0);
    PageBuilder b;
    b.el(1, "link", "Home", Region::kNav).el(2, "button", "Open dialog").el(3, "checkbox", "Remember");
    b.overlay(70, OverlayType::kModal, "Done").el(71, "button", "Close", Region::kDialog, "", 0);
    const Snapshot second = b.build();
    h.begin(base_page(true), open.version);
    FactPack replaced = h.finish(second);
    REQUIRE(replaced.type == PackType::kOverlayOpened);
    CHECK(replaced.overlay.name == "Done");
    CHECK(replaced.overlay.closed == 1);
    REQUIRE(replaced.invalidated.size() == 2);  // OK and Cancel, in the JSON
    for (const Invalidation& i : replaced.invalidated) CHECK(i.cause == "overlay_closed");
    const std::string text = render_text(replaced);
    INFO(text);
    CHECK(text.rfind("<overlay_opened v=\"" + std::to_string(replaced.version) +
                         "\" overlay=\"modal\" name=\"Done\" closed=\"1\">\n",
                     0) == 0);
    CHECK(text.find("<invalid") == std::string::npos);
    // Opened over what was open: no closed="…".
    CHECK(render_text(open).find(" closed=") == std::string::npos);
  }
  SECTION("drift under an open overlay is reported for the overlay; the base change comes at its close, once") {
    // Pre-validation drift while an overlay is open: reported for the overlay only, and the
    // base change made meanwhile comes when the overlay closes, once.
    FactPack full = h.snap(base_page(true));
    auto drift = base_page(true);
    drift.nodes[4].name = "Dismiss";            // overlay content changed (Cancel -> Dismiss, same node)
    drift.nodes[2].state.checked = Tri::kTrue;  // base changed behind the dialog
    PreCheck pre = h.begin(drift, full.version);
    REQUIRE(pre.freshness == Freshness::kStaleWithHistory);
    REQUIRE(pre.pack->modified.size() == 1);
    CHECK(pre.pack->modified[0].after.name == "Dismiss");
    FactPack d = h.finish(drift);
    CHECK(d.type == PackType::kNoChange);  // not counted twice
    auto closed = base_page();
    closed.nodes[2].state.checked = Tri::kTrue;
    h.begin(drift, d.version);
    FactPack c = h.finish(closed);
    REQUIRE(c.type == PackType::kOverlayClosed);
    REQUIRE(c.modified.size() == 1);
    CHECK(c.modified[0].after.name == "Remember");
    CHECK(c.modified[0].after.state.checked == Tri::kTrue);
  }
  SECTION("drift with no overlay is reported before the action and not again after it") {
    FactPack full = h.snap(base_page());
    auto drift = base_page();
    drift.nodes[2].state.checked = Tri::kTrue;
    PreCheck pre = h.begin(drift, full.version);
    REQUIRE(pre.freshness == Freshness::kStaleWithHistory);
    FactPack d = h.finish(drift);
    CHECK(d.before_action.at(0).modified.size() == 1);
    CHECK(d.type == PackType::kNoChange);
  }
  SECTION("an overlay opened in a frame gets refs of that frame's current document") {
    FactPack full = h.snap(PageBuilder().frame("SUB", "S1").el(1, "button", "Top").build());
    auto open = PageBuilder()
                    .frame("SUB", "S1")
                    .el(1, "button", "Top")
                    .overlay(70, OverlayType::kDialog, "Frame dialog", "SUB")
                    .el(71, "button", "Go", Region::kDialog, "SUB", 0)
                    .build();
    h.begin(PageBuilder().frame("SUB", "S1").el(1, "button", "Top").build(), full.version);
    FactPack o = h.finish(open);
    REQUIRE(o.type == PackType::kOverlayOpened);
    const std::string go = ref_of(o, "button", "Go");
    auto t = h.resolve(go);
    REQUIRE(t);
    CHECK(t->loader_id == "S1");
    CHECK(t->frame_id == "SUB");
    CHECK(o.regions.at(0).elements.at(0).frame == 1);
  }
  SECTION("an overlay closed by its frame's navigation invalidates the refs the agent got at open time") {
    // The frame navigates while its overlay is open; the close lists the refs the agent got
    // when it opened, not new ones.
    auto open = PageBuilder()
                    .frame("SUB", "S1")
                    .el(1, "button", "Top")
                    .overlay(70, OverlayType::kDialog, "Frame dialog", "SUB")
                    .el(71, "button", "Go", Region::kDialog, "SUB", 0)
                    .el(72, "button", "Stop", Region::kDialog, "SUB", 0)
                    .build();
    FactPack full = h.snap(open);
    REQUIRE(h.engine.on_event(h.key, nav_event("SUB", "S2", "MAIN")));
    auto gone = PageBuilder().frame("SUB", "S2").el(1, "button", "Top").build();
    h.begin(gone, std::nullopt);
    FactPack c = h.finish(gone);
    REQUIRE(c.type == PackType::kOverlayClosed);
    std::vector<std::string> expect = {ref_of(full, "button", "Go"), ref_of(full, "button", "Stop")};
    CHECK(invalidated_refs(c) == expect);
    // They go with the overlay (its tag says so, no other line); a use of one says why.
    for (const Invalidation& i : c.invalidated) CHECK(i.cause == "overlay_closed");
    CHECK(render_text(c).find("<invalid") == std::string::npos);
    CHECK(h.resolve(ref_of(full, "button", "Go")).error().code == ErrorCode::kDocumentReplaced);
  }
}

TEST_CASE("delta between two views: invalidations name the refs the agent holds", "[engine][delta]") {
  Harness h;
  SECTION("a navigated frame's removed refs are the ones from its old document") {
    // The frame navigated; the invalidation names the ref the agent holds, not a new one.
    FactPack full = h.snap(
        PageBuilder().frame("SUB", "S1").el(1, "button", "Top").el(2, "link", "Doc", Region::kMain, "SUB").build());
    auto after =
        PageBuilder().frame("SUB", "S2").el(1, "button", "Top").el(3, "link", "Doc", Region::kMain, "SUB").build();
    h.begin(PageBuilder().frame("SUB", "S1").el(1, "button", "Top").el(2, "link", "Doc", Region::kMain, "SUB").build(),
            full.version);
    FactPack d = h.finish(after);
    REQUIRE(d.invalidated.size() == 1);
    CHECK(d.invalidated[0].ref == ref_of(full, "link", "Doc"));
    CHECK(d.invalidated[0].cause == "navigated");
  }
  SECTION("Invalidation messages reference agent's known refs") {
    FactPack full = h.snap(PageBuilder().many(5).build());
    auto after = PageBuilder().many(3).build();
    h.begin(PageBuilder().many(5).build(), full.version);
    FactPack d = h.finish(after);
    std::vector<std::string> expect = {ref_of(full, "button", "B3"), ref_of(full, "button", "B4")};
    CHECK(invalidated_refs(d) == expect);
    CHECK(d.invalidated[0].role == "button");
    CHECK(d.invalidated[0].name == "B3");
  }
}

TEST_CASE("a re-render that swaps in identical nodes is no_change, and the version does not bump",
          "[engine][rerender]") {
  Harness h;
  FactPack full = h.snap(PageBuilder().many(20).build());
  auto rerendered = PageBuilder().many(20, 5000).build();  // same content, all new backend ids
  h.begin(PageBuilder().many(20).build(), full.version);
  FactPack p = h.finish(rerendered);
  CHECK(p.type == PackType::kNoChange);
  CHECK(p.version == full.version);  // decision: the agent's view (refs included) is identical
  // The refs were rebound: B7 now acts on the new node.
  auto t = h.resolve(ref_of(full, "button", "B7"));
  REQUIRE(t);
  CHECK(t->backend_node_id == 5007);
}
