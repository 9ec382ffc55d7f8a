// resolve(ref): a live node, or a precise error saying what to do next. Acting on a stale ref
// must be impossible.
#include <catch2/catch.hpp>

#include "helpers.h"

using namespace athena;
using namespace athena::testing;

TEST_CASE("resolve: every way a ref can be wrong has its own error and next step", "[engine][resolve]") {
  Harness h;
  auto s0 = PageBuilder()
                .frame("SUB", "S1")
                .el(1, "button", "Save")
                .el(2, "link", "Help")
                .el(3, "button", "Pay", Region::kMain, "SUB")
                .build();
  FactPack full = h.snap(s0);
  const std::string save = ref_of(full, "button", "Save"), help = ref_of(full, "link", "Help"),
                    pay = ref_of(full, "button", "Pay");
  REQUIRE(save == "e1");
  REQUIRE(pay == "e3");

  SECTION("a live ref resolves to its node") {
    auto t = h.resolve(save);
    REQUIRE(t);
    CHECK(t->backend_node_id == 1);
    CHECK(t->frame_id == "MAIN");
    CHECK(t->loader_id == "L1");
    CHECK(t->role == "button");
    CHECK(t->element.name == "Save");
  }
  SECTION("malformed ref") {
    auto r = h.resolve("button Save");
    CHECK(r.error().code == ErrorCode::kMalformedRef);
    CHECK(r.error().message == "'button Save' is not an element ref (like e17); use a ref from the latest FactPack");
  }
  SECTION("context mismatch: a ref of a tab in another browser context") {
    const PageKey incognito{1, 1};
    REQUIRE(h.engine.open_page(incognito));
    auto r = h.engine.resolve(incognito, "e1");
    CHECK(r.error().code == ErrorCode::kContextMismatch);
    CHECK(r.error().message ==
          "ref e1 belongs to tab c0p1, in browser context 0, not this page's context 1; use refs from this page's "
          "FactPacks");
  }
  SECTION("page mismatch: a ref of another tab") {
    const PageKey other{0, 2};
    REQUIRE(h.engine.open_page(other));
    auto r = h.engine.resolve(other, "e1");
    CHECK(r.error().code == ErrorCode::kPageMismatch);
    CHECK(r.error().message.find("belongs to tab c0p1, not c0p2") != std::string::npos);
  }
  SECTION("unknown ref: never issued; a ref of an iframe resolves to its node there") {
    CHECK(h.resolve("e999").error().code == ErrorCode::kUnknownRef);
    CHECK(h.resolve("e3")->frame_id == "SUB");
    CHECK(h.resolve("e999").error().message ==
          "ref e999 was never issued on this page (or is no longer remembered); take a snapshot and use its refs");
  }
  SECTION("unknown ref: issued internally but never shown to the agent") {
    auto s1 = PageBuilder()
                  .frame("SUB", "S1")
                  .el(1, "button", "Save")
                  .el(2, "link", "Help")
                  .el(3, "button", "Pay", Region::kMain, "SUB")
                  .el(4, "button", "Hidden so far")
                  .build();
    h.begin(s1, std::nullopt);  // the capture issued e4, nothing delivered it
    CHECK(h.resolve("e4").error().code == ErrorCode::kUnknownRef);
  }
  SECTION("removed in vN") {
    auto s1 =
        PageBuilder().frame("SUB", "S1").el(2, "link", "Help").el(3, "button", "Pay", Region::kMain, "SUB").build();
    FactPack d = h.act(full.version, s1, &s0);
    auto r = h.resolve(save);
    CHECK(r.error().code == ErrorCode::kRefRemoved);
    CHECK(r.error().message == "ref e1 (button \"Save\") was removed in v" + std::to_string(d.version) +
                                   "; use refs from the latest FactPack, or take a snapshot");
  }
  SECTION("document replaced by navigation") {
    auto s1 = PageBuilder("L2").frame("SUB", "S9").el(11, "button", "Other").build();
    FactPack nav = h.act(full.version, s1, &s0);
    REQUIRE(nav.reason == "navigation");
    auto r = h.resolve(help);
    CHECK(r.error().code == ErrorCode::kDocumentReplaced);
    CHECK(r.error().message == "ref e2 (link \"Help\") is gone: its frame navigated in v" +
                                   std::to_string(nav.version) +
                                   " and every ref of the old document is dead; take a snapshot");
  }
  SECTION("identity changed: was button \"Save\", now button \"Delete\"") {
    auto s1 = s0;
    s1.nodes[0].name = "Delete";  // same DOM node, now something else
    h.begin(s1, full.version);    // the agent thinks it clicks "Save"
    auto r = h.resolve(save);
    REQUIRE_FALSE(r);
    CHECK(r.error().code == ErrorCode::kIdentityChanged);
    CHECK(r.error().message ==
          "ref e1 was button \"Save\", now is button \"Delete\"; it was not acted on: read the latest "
          "FactPack (or take a snapshot) and pick the ref again");
    // Once the change is delivered the agent knows the ref as "Delete": it resolves again.
    REQUIRE(h.engine.abort_action(h.key));
    FactPack shown = h.snap(s1);
    CHECK(h.resolve(save)->name == "Delete");
    CHECK(ref_of(shown, "button", "Delete") == save);
  }
  SECTION("a state change is not an identity change") {
    auto s1 = s0;
    s1.nodes[0].state.disabled = true;
    h.begin(s1, full.version);
    auto t = h.resolve(save);
    REQUIRE(t);
    CHECK(t->disabled);
  }
  SECTION("unknown page") {
    CHECK(h.engine.resolve(PageKey{0, 9}, save).error().code == ErrorCode::kUnknownPage);
  }
}

TEST_CASE("resolve_fresh: a ref against a fresh capture, outside any action, changes no version", "[engine][resolve]") {
  Harness h;
  auto s0 = PageBuilder().el(1, "button", "Save").el(2, "link", "Help").build();
  FactPack full = h.snap(s0);
  const std::string save = ref_of(full, "button", "Save"), help = ref_of(full, "link", "Help");

  SECTION("three reads on a changing page, then an action with the current version is not stale") {
    for (int i = 0; i < 3; ++i) {
      auto s = PageBuilder()
                   .el(1, "button", "Save")
                   .el(2, "link", "Help")
                   .el(10 + i, "button", "New " + std::to_string(i))
                   .build();
      auto t = h.engine.resolve_fresh_from(h.key, s, save);
      REQUIRE(t);
      CHECK(t->backend_node_id == 1);
      CHECK(h.engine.stats(h.key)->version == full.version);
      CHECK(h.engine.stats(h.key)->delivered_version == full.version);
    }
    auto s1 = PageBuilder().el(1, "button", "Save").el(2, "link", "Help").el(20, "button", "Later").build();
    PreCheck pre = h.begin(s1, full.version);
    CHECK(pre.freshness == Freshness::kStaleWithHistory);
    FactPack after = h.finish(s1);
    CHECK(after.before_action.size() == 1);
    CHECK(after.version > full.version);
  }
  SECTION("a read racing an action leaves the action pending: finish_action still works") {
    auto s1 = PageBuilder().el(1, "button", "Save").el(2, "link", "Help").build();
    PreCheck pre = h.begin(s1, full.version);
    CHECK(pre.freshness == Freshness::kCurrent);
    REQUIRE(h.engine.resolve_fresh_from(h.key, s1, help));
    auto s2 = PageBuilder().el(1, "button", "Save").el(2, "link", "Help").el(3, "button", "Saved").build();
    FactPack pack = h.finish(s2);
    CHECK(pack.type == PackType::kDelta);
    CHECK(pack.added.size() == 1);
  }
  SECTION("a ref whose node is gone in the fresh capture is refused, without a version number") {
    auto s1 = PageBuilder().el(1, "button", "Save").build();
    auto r = h.engine.resolve_fresh_from(h.key, s1, help);
    REQUIRE_FALSE(r);
    CHECK(r.error().code == ErrorCode::kRefRemoved);
    CHECK(r.error().message.find("removed since the last FactPack") != std::string::npos);
    CHECK(h.engine.stats(h.key)->version == full.version);
    // The next FactPack still reports the removal.
    PreCheck pre = h.begin(s1, full.version);
    CHECK(pre.freshness == Freshness::kStaleWithHistory);
    REQUIRE(pre.pack);
    CHECK(invalidated_refs(*pre.pack) == std::vector<std::string>{help});
  }
  SECTION("the JSON entry point checks the page and the capture") {
    CHECK(h.engine.resolve_fresh(PageKey{0, 9}, "{}", save).error().code == ErrorCode::kUnknownPage);
    CHECK_FALSE(h.engine.resolve_fresh(h.key, "not json", save));
  }
}

TEST_CASE("describe_node: the core's role and name of a node, with the ref the agent holds", "[engine][resolve]") {
  // The extension names what covers a target by this (extension/lib/actionability.js): one naming.
  Harness h;
  auto s0 =
      PageBuilder().frame("SUB", "S1").el(1, "button", "Save").el(3, "button", "Pay", Region::kMain, "SUB").build();
  FactPack full = h.snap(s0);
  auto d = h.engine.describe_node(h.key, 1, "MAIN");
  REQUIRE(d);
  CHECK(d->found);
  CHECK(d->ref == ref_of(full, "button", "Save"));
  CHECK(d->role == "button");
  CHECK(d->name == "Save");
  CHECK(h.engine.describe_node(h.key, 3, "SUB")->ref == ref_of(full, "button", "Pay"));
  CHECK_FALSE(h.engine.describe_node(h.key, 3, "MAIN")->found);   // same node id, another frame
  CHECK(h.engine.describe_node(h.key, 3, "")->name == "Pay");     // frame not known: any frame
  CHECK_FALSE(h.engine.describe_node(h.key, 99, "MAIN")->found);  // no line of the compiler's
  // Compiled but never delivered (a capture that began an action): its role and name, no ref.
  auto s1 = PageBuilder()
                .frame("SUB", "S1")
                .el(1, "button", "Save")
                .el(3, "button", "Pay", Region::kMain, "SUB")
                .el(4, "link", "New")
                .build();
  h.begin(s1, std::nullopt);
  auto n = h.engine.describe_node(h.key, 4, "MAIN");
  REQUIRE(n);
  CHECK(n->found);
  CHECK(n->ref.empty());
  CHECK(n->role == "link");
  CHECK(n->name == "New");
  CHECK(h.engine.describe_node(PageKey{0, 9}, 1, "MAIN").error().code == ErrorCode::kUnknownPage);
}
