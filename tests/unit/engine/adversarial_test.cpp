// Adversarial identity: the cases where a naive matcher rebinds a ref to the wrong node.
#include <catch2/catch.hpp>

#include "agent_view.h"
#include "fidelity.h"
#include "helpers.h"

using namespace athena;
using namespace athena::testing;

TEST_CASE("adversarial identity", "[engine][adversarial]") {
  Harness h;
  SECTION("the same backend_node_id in two frames") {
    auto s0 = PageBuilder()
                  .frame("A", "LA")
                  .frame("B", "LB")
                  .el(5, "button", "X", Region::kMain, "A")
                  .el(5, "button", "Y", Region::kMain, "B")
                  .build();
    FactPack full = h.snap(s0);
    const std::string x = ref_of(full, "button", "X"), y = ref_of(full, "button", "Y");
    auto s1 = PageBuilder().frame("A", "LA").frame("B", "LB").el(5, "button", "Y", Region::kMain, "B").build();
    FactPack d = h.act(full.version, s1, &s0);
    CHECK(invalidated_refs(d) == std::vector<std::string>{x});
    CHECK(d.added.empty());
    CHECK(h.resolve(y)->frame_id == "B");
    // And the other way: node 5 of frame A reappears with Y's content: not Y's ref.
    auto s2 = PageBuilder()
                  .frame("A", "LA")
                  .frame("B", "LB")
                  .el(5, "button", "Y", Region::kMain, "A")
                  .el(5, "button", "Y", Region::kMain, "B")
                  .build();
    FactPack d2 = h.act(d.version, s2, &s1);
    REQUIRE(d2.added.size() == 1);
    CHECK(d2.added[0].ref != y);
    CHECK(d2.added[0].ref != x);
  }
  SECTION("a frame navigating between capture and action") {
    auto s0 =
        PageBuilder().frame("SUB", "S1").el(1, "button", "Top").el(2, "button", "Pay", Region::kMain, "SUB").build();
    FactPack full = h.snap(s0);
    const std::string pay = ref_of(full, "button", "Pay");
    h.begin(s0, full.version);
    REQUIRE(h.resolve(pay));
    REQUIRE(h.engine.on_event(h.key, nav_event("SUB", "S2", "MAIN")));
    CHECK(h.resolve(pay).error().code == ErrorCode::kDocumentReplaced);  // the extension must not click
    // A capture taken before the event is refused, not diffed.
    auto stale = h.engine.finish_action_from(h.key, s0, {});
    REQUIRE_FALSE(stale);
    CHECK(stale.error().code == ErrorCode::kWrongCallOrder);
    auto s1 =
        PageBuilder().frame("SUB", "S2").el(1, "button", "Top").el(2, "button", "Pay", Region::kMain, "SUB").build();
    FactPack d = h.finish(s1);
    CHECK(invalidated_refs(d) == std::vector<std::string>{pay});
    REQUIRE(d.added.size() == 1);
    CHECK(d.added[0].ref != pay);  // same backend id and content, new document: new ref
  }
  SECTION("a list re-rendered with one item inserted at the top: only that item is added") {
    auto list = [](bool inserted, std::int64_t base) {
      PageBuilder b;
      b.el(1, "heading", "Inbox");
      if (inserted) b.el(base + 99, "link", "Item new").el(base + 98, "button", "Delete");
      for (int i = 0; i < 10; ++i)
        b.el(base + 2 * i, "link", "Item " + std::to_string(i)).el(base + 2 * i + 1, "button", "Delete");
      return b.build();
    };
    auto s0 = list(false, 100);
    FactPack full = h.snap(s0);
    auto s1 = list(true, 500);  // everything re-rendered: all new backend ids
    AgentView agent;
    REQUIRE(agent.apply(full) == "");
    FactPack d = h.act(full.version, s1, &s0);
    REQUIRE(d.type == PackType::kDelta);
    CHECK(d.invalidated.empty());
    CHECK(d.modified.empty());
    REQUIRE(d.added.size() == 2);
    CHECK(d.added[0].name == "Item new");
    CHECK(d.added[1].name == "Delete");
    // Each old "Delete" ref now acts on the Delete of the same row (the one after its item).
    const auto els = listed(full);
    for (std::size_t i = 0; i + 1 < els.size(); ++i) {
      if (els[i].role != "link") continue;
      const int row = std::stoi(els[i].name.substr(5));
      auto t = h.resolve(els[i + 1].ref);
      REQUIRE(t);
      CHECK(t->backend_node_id == 500 + 2 * row + 1);
    }
    REQUIRE(agent.apply(d) == "");
    CHECK(check_fidelity(agent, h.engine, h.key, s1) == "");
  }
  SECTION("duplicate labels: ambiguity is remove + add, never a wrong rebind") {
    auto two = [](std::int64_t a, std::int64_t b) {
      return PageBuilder().el(1, "heading", "Cart").el(a, "button", "Remove").el(b, "button", "Remove").build();
    };
    auto s0 = two(10, 11);
    FactPack full = h.snap(s0);
    auto s1 = two(20, 21);  // both re-rendered, nothing tells them apart
    FactPack d = h.act(full.version, s1, &s0);
    REQUIRE(d.type == PackType::kDelta);
    CHECK(d.invalidated.size() == 2);
    CHECK(d.added.size() == 2);
    for (const Invalidation& i : d.invalidated) CHECK(h.resolve(i.ref).error().code == ErrorCode::kRefRemoved);
    // One of two identical buttons removed and the other re-rendered: still ambiguous.
    auto s2 = PageBuilder().el(1, "heading", "Cart").el(30, "button", "Remove").build();
    FactPack d2 = h.act(d.version, s2, &s1);
    CHECK(d2.invalidated.size() == 2);
    CHECK(d2.added.size() == 1);
  }
  SECTION("an element replaced by a different one at the same position: the old ref must not point at it") {
    auto s0 = PageBuilder().el(1, "heading", "Doc").el(2, "button", "Save").el(3, "link", "Next").build();
    FactPack full = h.snap(s0);
    const std::string save = ref_of(full, "button", "Save");
    auto s1 = PageBuilder().el(1, "heading", "Doc").el(9, "button", "Delete").el(3, "link", "Next").build();
    FactPack d = h.act(full.version, s1, &s0);
    CHECK(invalidated_refs(d) == std::vector<std::string>{save});
    REQUIRE(d.added.size() == 1);
    CHECK(d.added[0].ref != save);
    CHECK(h.resolve(save).error().code == ErrorCode::kRefRemoved);
  }
}
