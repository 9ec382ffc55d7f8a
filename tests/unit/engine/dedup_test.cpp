// Cross-baseline region dedup (docs/design.md, "Trimming and dedup across baselines").
#include <catch2/catch.hpp>

#include "agent_view.h"
#include "athena/limits.h"
#include "athena/render.h"
#include "fidelity.h"
#include "helpers.h"

using namespace athena;
using namespace athena::testing;

namespace {
Snapshot site(const std::string& loader, std::int64_t base, const std::string& article) {
  PageBuilder b(loader);
  b.el(base + 1, "link", "Home", Region::kNav)
      .el(base + 2, "link", "Shop", Region::kNav)
      .el(base + 3, "link", "Cart", Region::kNav);
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

  SECTION(
      "a region whose ordered semantic keys equal the previous baseline's is unchanged, across a navigation, and its "
      "refs stay valid") {
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
    CHECK(invalidated_refs(nav) ==
          std::vector<std::string>{ref_of(first, "heading", "Phone"), ref_of(first, "button", "Buy Phone")});
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
    CHECK(t.find("\n... 160 more in 80 form regions: \"Quantity 1\" \xE2\x80\xA6 \"Save 80\" (find region=form "
                 "frame=f0)\n") != std::string::npos);
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
  SECTION(
      "a requested snapshot of an unchanged page shows every region (an agent recovering after its client compacted "
      "its context)") {
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
  SECTION(
      "the agent's own snapshot after the page navigated (the user went elsewhere) shows every region, the same ones "
      "included") {
    auto s1 = site("L2", 100, "Laptop");  // a new document with the same nav and footer
    ActionInfo info;
    info.kind = "snapshot";
    info.collapse_unchanged = false;  // what the snapshot tool's declaration asks
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
  SECTION(
      "an action on an older version than the one delivered: the stale_version full shows every region (the agent does "
      "not hold them)") {
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

TEST_CASE("back on a page the tab left: the regions the agent held there are unchanged, seen_in names when",
          "[engine][dedup]") {
  Harness h;
  AgentView agent;
  const auto list = site("L1", 0, "Phone");
  const FactPack first = h.snap(list);
  REQUIRE(agent.apply(first) == "");
  const auto detail = site("L2", 100, "Laptop");
  const FactPack away = h.act(first.version, detail, &list);
  REQUIRE(away.reason == "navigation");
  REQUIRE(agent.apply(away) == "");
  REQUIRE(h.resolve(ref_of(first, "button", "Buy Phone")).error().code == ErrorCode::kDocumentReplaced);

  SECTION("the same page again: its main region is the one held at that version, under the refs the agent held") {
    const auto again = site("L3", 200, "Phone");  // a new document, every node new
    const FactPack back = h.act(away.version, again, &detail);
    REQUIRE(back.reason == "navigation");
    const RegionBlock* main = block(back, Region::kMain);
    REQUIRE(main);
    CHECK(main->unchanged);
    CHECK(main->seen_in == first.version);
    // The regions the page it left shares are unchanged against it, as before.
    CHECK(block(back, Region::kNav)->unchanged);
    CHECK(block(back, Region::kNav)->seen_in == 0);
    const std::string text = render_text(back);
    CHECK(text.find("<region name=\"main\" unchanged=\"true\" count=\"2\" seen_in=\"" + std::to_string(first.version) +
                    "\"/>") != std::string::npos);
    auto t = h.resolve(ref_of(first, "button", "Buy Phone"));
    REQUIRE(t);
    CHECK(t->backend_node_id == 205);
    CHECK(t->loader_id == "L3");
    CHECK(h.resolve(ref_of(away, "button", "Buy Laptop")).error().code == ErrorCode::kDocumentReplaced);
    REQUIRE(agent.apply(back) == "");
    CHECK(check_fidelity(agent, h.engine, h.key, again) == "");
  }
  SECTION("changed since it was held: the region is sent again, under new refs") {
    auto again = site("L3", 200, "Phone");
    again.nodes[4].state.disabled = true;
    const FactPack back = h.act(away.version, again, &detail);
    CHECK_FALSE(block(back, Region::kMain)->unchanged);
    CHECK(ref_of(back, "button", "Buy Phone") != ref_of(first, "button", "Buy Phone"));
    CHECK(h.resolve(ref_of(first, "button", "Buy Phone")).error().code == ErrorCode::kDocumentReplaced);
    REQUIRE(agent.apply(back) == "");
    CHECK(check_fidelity(agent, h.engine, h.key, again) == "");
  }
  // Through `pages` other documents, then back to the same page.
  auto through = [&](std::size_t pages) {
    Snapshot last = detail;
    std::uint64_t v = away.version;
    for (std::size_t k = 0; k < pages; ++k) {
      const auto other =
          site("M" + std::to_string(k), 1000 * static_cast<std::int64_t>(k + 1), "Item " + std::to_string(k));
      const FactPack p = h.act(v, other, &last);
      REQUIRE(agent.apply(p) == "");
      v = p.version;
      last = other;
    }
    const FactPack back = h.act(v, site("L3", 200, "Phone"), &last);
    REQUIRE(agent.apply(back) == "");
    CHECK(check_fidelity(agent, h.engine, h.key, site("L3", 200, "Phone")) == "");
    return back;
  };
  SECTION("the pages the tab left are remembered up to limits::kMaxRecalledPages") {
    // Between leaving it and coming back: the detail page, then kMaxRecalledPages - 1 others.
    CHECK(block(through(limits::kMaxRecalledPages - 1), Region::kMain)->seen_in == first.version);
  }
  SECTION("after more pages than limits::kMaxRecalledPages: the page is not recalled") {
    CHECK_FALSE(block(through(limits::kMaxRecalledPages), Region::kMain)->unchanged);
    CHECK(h.engine.stats(h.key)->recalled_pages == limits::kMaxRecalledPages);
  }
  SECTION("the agent's own snapshot on the page it came back to shows every region") {
    const auto again = site("L3", 200, "Phone");
    ActionInfo info;
    info.kind = "snapshot";
    info.collapse_unchanged = false;  // what the snapshot tool's declaration asks
    auto r = h.engine.snapshot_from(h.key, again, info);
    REQUIRE(r);
    for (const RegionBlock& b : r->regions) CHECK_FALSE(b.unchanged);
    REQUIRE(agent.apply(*r) == "");
    CHECK(check_fidelity(agent, h.engine, h.key, again) == "");
  }
}

TEST_CASE("a page of more than limits::kMaxRecalledEntries elements is not kept when the tab leaves it",
          "[engine][dedup]") {
  auto page = [](const std::string& loader, std::int64_t base, std::size_t links) {
    PageBuilder b(loader);
    for (std::size_t i = 0; i < links; ++i)
      b.el(base + static_cast<std::int64_t>(i) + 1, "link", "Entry " + std::to_string(i));
    return b.build();
  };
  // (Half the bound: the refs of the page in between die too, and the registry remembers
  // limits::kMaxRemovedTombstones dead refs in all.)
  for (const std::size_t links : {limits::kMaxRecalledEntries / 2, limits::kMaxRecalledEntries + 1}) {
    Harness h;
    const auto list = page("L1", 0, links);
    const FactPack first = h.snap(list);
    const auto other = site("L2", 100'000, "Laptop");
    const FactPack away = h.act(first.version, other, &list);
    const FactPack back = h.act(away.version, page("L3", 200'000, links), &other);
    INFO(links << " elements");
    // Left: the list and the page in between; a list over the bound was never kept.
    CHECK(h.engine.stats(h.key)->recalled_pages == (links <= limits::kMaxRecalledEntries ? 2u : 1u));
    CHECK(block(back, Region::kMain)->unchanged == (links <= limits::kMaxRecalledEntries));
  }
}
