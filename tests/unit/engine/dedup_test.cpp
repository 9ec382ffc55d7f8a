// Cross-baseline region dedup (docs/design.md, "Trimming and dedup across baselines").
#include <catch2/catch.hpp>

#include "agent_view.h"
#include "athena/render.h"
#include "fidelity.h"
#include "helpers.h"

using namespace athena;
using namespace athena::testing;

namespace {
Snapshot site(const std::string& loader, std::int64_t base, const std::string& article) {
  PageBuilder b(loader);
  b.el(base + 1, "link", "Home", Region::kNav).el(base + 2, "link", "Shop", Region::kNav).el(base + 3, "link", "Cart", Region::kNav);
  b.el(base + 4, "heading", article).el(base + 5, "button", "Buy " + article);
  b.el(base + 6, "link", "Imprint", Region::kFooter);
  return b.build();
}
const RegionBlock* block(const FactPack& p, Region r) {
  for (const RegionBlock& b : p.regions)
    if (b.region == r) return &b;
  return nullptr;
}
}  // namespace

TEST_CASE("cross-baseline region dedup", "[engine][dedup]") {
  Harness h;
  AgentView agent;
  auto s0 = site("L1", 0, "Phone");
  FactPack first = h.snap(s0);
  REQUIRE(agent.apply(first) == "");
  for (const RegionBlock& b : first.regions) CHECK_FALSE(b.unchanged);

  SECTION("a region whose ordered semantic keys equal the previous baseline's is unchanged, across a navigation, and its refs stay valid") {
    auto s1 = site("L2", 100, "Laptop");  // new document, every node new
    FactPack nav = h.act(first.version, s1, &s0);
    REQUIRE(nav.reason == "navigation");
    REQUIRE(block(nav, Region::kNav));
    CHECK(block(nav, Region::kNav)->unchanged);
    CHECK(block(nav, Region::kFooter)->unchanged);
    CHECK_FALSE(block(nav, Region::kMain)->unchanged);
    // The agent's nav refs act on the new document's nodes.
    auto t = h.resolve(ref_of(first, "link", "Shop"));
    REQUIRE(t);
    CHECK(t->backend_node_id == 102);
    CHECK(t->loader_id == "L2");
    // Every other ref of the replaced document is invalid, and said so.
    CHECK(invalidated_refs(nav) == std::vector<std::string>{ref_of(first, "heading", "Phone"), ref_of(first, "button", "Buy Phone")});
    for (const Invalidation& i : nav.invalidated) CHECK(i.cause == "navigated");
    CHECK(h.resolve(ref_of(first, "button", "Buy Phone")).error().code == ErrorCode::kDocumentReplaced);
    REQUIRE(agent.apply(nav) == "");
    CHECK(check_fidelity(agent, h.engine, h.key, s1) == "");
  }
  SECTION("so many unchanged regions that their lines pass the budget: they render and fold, and find lists them") {
    // Each row's form unchanged after a navigation was a line no trimming took.
    auto rows = [](const std::string& loader, std::int64_t base) {
      PageBuilder b(loader);
      b.el(base + 1, "heading", "Orders").el(base + 2, "button", "New order");
      for (int r = 1; r <= 80; ++r) {
        b.el(base + 100 + 2 * r, "textbox", "Quantity " + std::to_string(r), Region::kForm);
        b.last().region_label = "Edit row " + std::to_string(r);
        b.el(base + 101 + 2 * r, "button", "Save " + std::to_string(r), Region::kForm);
        b.last().region_label = "Edit row " + std::to_string(r);
      }
      return b.build();
    };
    Harness m;
    auto r0 = rows("L1", 0), r1 = rows("L2", 1000);
    const FactPack before = m.snap(r0);
    const FactPack nav = m.act(before.version, r1, &r0);
    REQUIRE(nav.reason == "navigation");
    std::size_t unchanged = 0;
    for (const RegionBlock& b : nav.regions) unchanged += b.unchanged ? 1 : 0;
    REQUIRE(unchanged == 81);  // the rows and the main region
    RenderOptions o;
    o.token_budget = 500;
    const std::string t = render_text(nav, o);
    INFO(t);
    CHECK(estimate_tokens(t) <= o.token_budget);
    CHECK(t.find("unchanged=\"true\"") == std::string::npos);
    CHECK(t.find("\n... 160 more in 80 form regions: \"Quantity 1\" \xE2\x80\xA6 \"Save 80\" (find region=form frame=f0)\n") != std::string::npos);
    FindQuery q;
    q.region = "form";
    q.frame = "f0";
    q.limit = limits::kMaxFindLimit;
    auto found = m.engine.find_paged(m.key, q);
    REQUIRE(found);
    CHECK(found->total == 160);
    // The refs it lists are the agent's, rebound to the new document.
    auto target = m.resolve(found->elements.back().ref);
    REQUIRE(target);
    CHECK(target->loader_id == "L2");
    CHECK(target->name == "Save 80");
  }
  SECTION("one element different: the region is sent again") {
    auto s1 = site("L2", 100, "Laptop");
    s1.nodes[2].name = "Cart (1)";
    FactPack nav = h.act(first.version, s1, &s0);
    CHECK_FALSE(block(nav, Region::kNav)->unchanged);
    CHECK(h.resolve(ref_of(first, "link", "Home")).error().code == ErrorCode::kDocumentReplaced);
    REQUIRE(agent.apply(nav) == "");
    CHECK(check_fidelity(agent, h.engine, h.key, s1) == "");
  }
  SECTION("same keys, different state: not unchanged (the agent would hold stale state)") {
    auto s1 = site("L2", 100, "Phone");
    s1.nodes[4].state.disabled = true;
    FactPack nav = h.act(first.version, s1, &s0);
    CHECK(block(nav, Region::kNav)->unchanged);
    CHECK_FALSE(block(nav, Region::kMain)->unchanged);
  }
  SECTION("a requested snapshot of an unchanged page shows every region (an agent recovering after its client compacted its context)") {
    FactPack again = h.snap(s0);
    REQUIRE(again.reason == "requested");
    for (const RegionBlock& b : again.regions) CHECK_FALSE(b.unchanged);
    CHECK(again.version == first.version);
    // Same refs as before: nothing the agent holds was invalidated.
    CHECK(again.invalidated.empty());
    CHECK(ref_of(again, "button", "Buy Phone") == ref_of(first, "button", "Buy Phone"));
    const std::string text = render_text(again);
    CHECK(text.find("unchanged=") == std::string::npos);
    CHECK(text.find(ref_of(first, "link", "Shop") + " link \"Shop\"") != std::string::npos);
    REQUIRE(agent.apply(again) == "");
  }
  SECTION("the agent's own snapshot after the page navigated (the user went elsewhere) shows every region, the same ones included") {
    auto s1 = site("L2", 100, "Laptop");  // a new document with the same nav and footer
    ActionInfo info;
    info.kind = "snapshot";
    auto r = h.engine.snapshot_from(h.key, s1, info);
    REQUIRE(r);
    CHECK(r->reason == "navigation");
    for (const RegionBlock& b : r->regions) CHECK_FALSE(b.unchanged);
    const std::string text = render_text(*r);
    CHECK(text.find("unchanged=") == std::string::npos);
    CHECK(text.find(" link \"Shop\"") != std::string::npos);
    REQUIRE(agent.apply(*r) == "");
    CHECK(check_fidelity(agent, h.engine, h.key, s1) == "");
  }
  SECTION("an action on an older version than the one delivered: the stale_version full shows every region (the agent does not hold them)") {
    auto s1 = site("L1", 0, "Phone");
    s1.nodes[4].name = "Buy Phone now";
    const FactPack d = h.act(first.version, s1, &s0);
    REQUIRE(d.type == PackType::kDelta);
    const PreCheck stale = h.begin(s1, first.version);  // the agent passes the version before d
    REQUIRE(stale.freshness == Freshness::kStaleNoHistory);
    REQUIRE(stale.pack);
    CHECK(stale.pack->reason == "stale_version");
    for (const RegionBlock& b : stale.pack->regions) CHECK_FALSE(b.unchanged);
    const std::string text = render_text(*stale.pack);
    CHECK(text.find("unchanged=") == std::string::npos);
    CHECK(text.find(ref_of(first, "link", "Shop") + " link \"Shop\"") != std::string::npos);
    CHECK(text.find("button \"Buy Phone now\"") != std::string::npos);
  }
  SECTION("Config::dedup_regions = false sends every region") {
    Config off;
    off.dedup_regions = false;
    Harness h2(off);
    h2.snap(s0);
    for (const RegionBlock& b : h2.snap(s0).regions) CHECK_FALSE(b.unchanged);
  }
}
