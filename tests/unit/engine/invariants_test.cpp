// The safety invariants (docs/design.md, "Safety invariants"), one SECTION each, in its words.
#include <catch2/catch.hpp>

#include "agent_view.h"
#include "athena/render.h"
#include "fidelity.h"
#include "helpers.h"

using namespace athena;
using namespace athena::testing;

TEST_CASE("safety invariants (docs/design.md)", "[engine][invariants]") {
  Harness h;
  auto page = [](std::int64_t extra = 0, const std::string& loader = "L1") {
    PageBuilder b(loader);
    b.el(1, "link", "Home", Region::kNav).el(2, "button", "Save").el(3, "checkbox", "Agree");
    if (extra) b.el(extra, "button", "Extra " + std::to_string(extra));
    return b.build();
  };

  SECTION("1. a baseline exists before any delta: the first call sends a full snapshot") {
    // The first answer is always full, whichever call comes first.
    CHECK(h.begin(page(), std::nullopt).freshness == Freshness::kCurrent);
    FactPack p = h.finish(page(9));
    CHECK(p.type == PackType::kFull);
    CHECK(p.reason == "first");
    Harness h2;
    PreCheck pre = h2.begin(page(), 42);  // an agent version before any baseline
    CHECK(pre.freshness == Freshness::kCurrent);
    CHECK(h2.finish(page()).reason == "first");
  }
  SECTION("2. the baseline advances after a delta is computed, never before") {
    FactPack full = h.snap(page());
    h.begin(page(), full.version);
    CHECK(h.engine.stats(h.key)->delivered_version == full.version);
    // A failed capture at finish does not advance anything either; the action can still finish.
    auto bad = h.engine.finish_action_from(h.key, Snapshot{}, {});
    REQUIRE_FALSE(bad);
    CHECK(h.engine.stats(h.key)->delivered_version == full.version);
    FactPack d = h.finish(page(9));
    CHECK(d.type == PackType::kDelta);
    CHECK(h.engine.stats(h.key)->delivered_version == d.version);
    CHECK(d.version > full.version);
  }
  SECTION("3. while an overlay is open the base page's baseline is frozen") {
    auto open = PageBuilder()
                    .el(1, "link", "Home", Region::kNav)
                    .el(2, "button", "Save")
                    .el(3, "checkbox", "Agree")
                    .overlay(50)
                    .el(51, "button", "OK", Region::kDialog, "", 0)
                    .build();
    FactPack full = h.snap(open);
    auto base_changed = open;
    base_changed.nodes[1].name = "Saved";
    h.begin(open, full.version);
    FactPack p = h.finish(base_changed);
    CHECK(p.type == PackType::kNoChange);  // base changes are not the overlay's
    // ...but acting on the changed base element is refused until the agent has seen it.
    auto r = h.resolve(ref_of(full, "button", "Save"));
    REQUIRE_FALSE(r);
    CHECK(r.error().code == ErrorCode::kIdentityChanged);
  }
  SECTION("4. refs are scoped by frame and loader, so navigations and frames never collide") {
    auto s = PageBuilder()
                 .frame("A", "LA")
                 .frame("B", "LB")
                 .el(5, "button", "X", Region::kMain, "A")
                 .el(5, "button", "X", Region::kMain, "B")
                 .build();
    FactPack full = h.snap(s);
    auto els = listed(full);
    REQUIRE(els.size() == 2);
    CHECK(els[0].ref != els[1].ref);
    CHECK(h.resolve(els[0].ref)->frame_id == "A");
    CHECK(h.resolve(els[1].ref)->frame_id == "B");
  }
  SECTION("5. invalidations are explicit: the agent is always told which refs died") {
    FactPack full = h.snap(page(9));
    h.begin(page(9), full.version);
    FactPack d = h.finish(page());
    REQUIRE(d.invalidated.size() == 1);
    CHECK(d.invalidated[0].ref == ref_of(full, "button", "Extra 9"));
    // Also on a navigation: every ref of the old document not carried over is listed.
    const Snapshot before = page();
    FactPack nav = h.act(d.version, page(9, "L2"), &before);
    CHECK(nav.type == PackType::kFull);
    CHECK(nav.invalidated.size() == 2);  // Save, Agree (Home's nav region is unchanged and kept)
  }
  SECTION("6. stabilization is bounded: a hard cap, and a warning when it was reached") {
    // Stabilization lives in the extension; the core's part is that every call is one bounded
    // pass over its input (limits.h) and passes the stabilization warning through.
    h.snap(page());
    h.begin(page(), std::nullopt);
    ActionInfo info;
    info.warnings = {"DOM still mutating after 2000ms"};
    CHECK(h.engine.finish_action_from(h.key, page(), info)->warnings.size() == 1);
  }
  SECTION("7. versions never decrease, even across navigations") {
    std::uint64_t last = h.snap(page()).version;
    for (int i = 0; i < 6; ++i) {
      FactPack p = h.snap(page(i % 2 ? 9 : 0, "L" + std::to_string(2 + i / 2)));
      CHECK(p.version > last);
      last = p.version;
    }
    CHECK(h.snap(page(0, "L5")).version == last + 1);
    CHECK(h.snap(page(0, "L5")).version == last + 1);  // unchanged: same version
  }
  SECTION("8. the frame tracker is initialised before any ref is made") {
    auto r = h.resolve("e1");
    REQUIRE_FALSE(r);
    CHECK(r.error().code == ErrorCode::kUnknownRef);
    REQUIRE(h.engine.on_event(h.key, nav_event("MAIN", "L9")));  // before init: the capture is the truth
    auto bad = h.engine.snapshot_from(h.key, Snapshot{});
    REQUIRE_FALSE(bad);
    CHECK(h.engine.stats(h.key)->registry == 0);  // no ref was issued by the failed attempt
    FactPack full = h.snap(page());
    CHECK(full.reason == "first");
    CHECK(h.engine.stats(h.key)->registry == 3);
  }
  SECTION("9. removed refs are taken from the old view before it is replaced") {
    FactPack full = h.snap(page(9));
    h.begin(page(9), full.version);
    FactPack d = h.finish(page());
    REQUIRE(d.invalidated.size() == 1);
    CHECK(d.invalidated[0].name == "Extra 9");
    auto r = h.resolve(d.invalidated[0].ref);
    REQUIRE_FALSE(r);
    CHECK(r.error().code == ErrorCode::kRefRemoved);
    CHECK(r.error().message.find("removed in v" + std::to_string(d.version)) != std::string::npos);
  }
  SECTION("10. every element says its frame's per-page index, stable per frame_id") {
    auto s =
        PageBuilder().frame("SUB", "S1").el(1, "button", "Top").el(2, "button", "Inner", Region::kMain, "SUB").build();
    FactPack full = h.snap(s);
    for (const RegionBlock& b : full.regions)
      for (const Element& e : b.elements) CHECK(e.frame == (e.name == "Inner" ? 1 : 0));
    auto s2 = PageBuilder()
                  .frame("SUB", "S2")
                  .el(1, "button", "Top")
                  .el(3, "button", "Inner 2", Region::kMain, "SUB")
                  .build();
    FactPack d = h.act(full.version, s2, &s);
    CHECK(d.added.at(0).frame == 1);  // same frame, same index, new document
    CHECK(render_text(d).find("<added region=\"main\" frame=\"f1\">\n" + d.added.at(0).ref + " button \"Inner 2\"\n") !=
          std::string::npos);
  }
  SECTION("11. a removed ref is reported with the loader it was captured under, not the current one") {
    auto s = PageBuilder().frame("SUB", "S1").el(2, "button", "Inner", Region::kMain, "SUB").build();
    FactPack full = h.snap(s);
    REQUIRE(h.engine.on_event(h.key, nav_event("SUB", "S2", "MAIN")));
    auto s2 = PageBuilder().frame("SUB", "S2").build();
    FactPack d = h.act(full.version, s2, &s2);
    // (the drift arrives as before_action: the agent's version predates the navigation)
    const FactPack& where = d.before_action.empty() ? d : d.before_action[0];
    CHECK(invalidated_refs(where) == std::vector<std::string>{ref_of(full, "button", "Inner")});
  }
  SECTION("12. an overlay's refs are recorded when it opens and invalidated when it closes") {
    FactPack full = h.snap(page());
    auto open = PageBuilder()
                    .el(1, "link", "Home", Region::kNav)
                    .el(2, "button", "Save")
                    .el(3, "checkbox", "Agree")
                    .overlay(50)
                    .el(51, "button", "OK", Region::kDialog, "", 0)
                    .el(52, "button", "No", Region::kDialog, "", 0)
                    .build();
    const Snapshot before = page();
    FactPack o = h.act(full.version, open, &before);
    auto rerendered = open;  // the dialog re-renders its buttons while open (new node ids)
    rerendered.nodes[3].backend_node_id = 151;
    rerendered.nodes[4].backend_node_id = 152;
    FactPack same = h.act(o.version, rerendered, &open);
    CHECK(same.type == PackType::kNoChange);
    FactPack c = h.act(same.version, page(), &rerendered);
    REQUIRE(c.type == PackType::kOverlayClosed);
    CHECK(invalidated_refs(c) == std::vector<std::string>{ref_of(o, "button", "OK"), ref_of(o, "button", "No")});
  }
  SECTION("13. an action on a version other than the delivered one is not performed: a full snapshot instead") {
    FactPack full = h.snap(page());
    PreCheck pre = h.begin(page(9), full.version - 1);
    CHECK(pre.freshness == Freshness::kStaleNoHistory);
    CHECK(pre.pack->type == PackType::kFull);
    CHECK(h.engine.abort_action(h.key).error().code == ErrorCode::kWrongCallOrder);  // nothing is pending
  }
  SECTION("14. a ref resolves only in the document it was issued for") {
    auto s = PageBuilder().frame("SUB", "S1").el(2, "button", "Inner", Region::kMain, "SUB").build();
    FactPack full = h.snap(s);
    // A Page.frameNavigated arrives between capture and action: the ref must not resolve to
    // whatever the new document has under that backend id.
    REQUIRE(h.engine.on_event(h.key, nav_event("SUB", "S2", "MAIN")));
    CHECK(h.resolve(ref_of(full, "button", "Inner")).error().code == ErrorCode::kDocumentReplaced);
  }
}
