// Single-page apps (issue 52, "Single-page apps as deltas"): a route change, a filter or a list
// re-rendered in the same document is a delta that replaces the region where most changed, and
// leaves the header and nav the agent holds alone; back and forward keep the refs of what is the
// same; a full after such a change comes only where no delta can be trusted, and lists no refs as
// removed (it replaces what the agent holds).
#include <catch2/catch.hpp>

#include "agent_view.h"
#include "athena/render.h"
#include "helpers.h"

using namespace athena;
using namespace athena::testing;

namespace {

// One document (loader L1) of an app: a banner and a nav that never change, and main holding
// either the list of `items` (ids from `id`, each render new nodes as a framework's would) under a
// filter, or one item's page.
PageBuilder shell() {
  PageBuilder b;
  b.el(1, "link", "Shop", Region::kHeader);
  b.el(2, "link", "Items", Region::kNav);
  b.el(3, "link", "About", Region::kNav);
  return b;
}
Snapshot list(const std::vector<int>& items, std::int64_t id, const std::string& filter = "") {
  PageBuilder b = shell();
  b.el(10, "heading", "Items");
  b.el(11, "textbox", "Filter");
  b.last().state.value = filter;
  for (int i : items) b.el(id + i, "link", "Item " + std::to_string(i));
  return b.build();
}
Snapshot item(int i, std::int64_t id) {
  PageBuilder b = shell();
  b.el(id, "heading", "Item " + std::to_string(i));
  b.el(id + 1, "text", "About item " + std::to_string(i));
  b.last().category = Category::kText;
  b.el(id + 2, "link", "Back to the list");
  b.el(id + 3, "button", "Add to cart");
  return b.build();
}
std::vector<int> range(int n) {
  std::vector<int> v;
  for (int i = 0; i < n; ++i) v.push_back(i);
  return v;
}
FactPack history_step(Harness& h, const Snapshot& s) {
  ActionInfo info;
  info.kind = "back";
  info.in_document = true;
  auto r = h.engine.snapshot_from(h.key, s, info);
  if (!r) throw std::runtime_error(r.error().message);
  return *r;
}
const RegionBlock* replaced(const FactPack& p, Region region) {
  for (const RegionBlock& b : p.regions)
    if (b.region == region && b.replaced) return &b;
  return nullptr;
}
bool lists_region(const FactPack& p, Region region) {
  for (const RegionBlock& b : p.regions)
    if (b.region == region) return true;
  for (const Element& e : p.added)
    if (e.region == region) return true;
  for (const Modified& m : p.modified)
    if (m.after.region == region) return true;
  return false;
}

}  // namespace

TEST_CASE("a route change that replaces most of main is a delta with main replaced", "[engine][spa]") {
  Harness h;
  AgentView agent;
  const Snapshot l0 = list(range(12), 100);
  FactPack full = h.snap(l0);
  REQUIRE(agent.apply(full).empty());
  const std::string banner = ref_of(full, "link", "Shop"), items = ref_of(full, "link", "Items");

  const Snapshot i3 = item(3, 500);
  const FactPack p = h.act(full.version, i3, &l0);
  REQUIRE(p.type == PackType::kDelta);
  const RegionBlock* main = replaced(p, Region::kMain);
  REQUIRE(main);
  CHECK(main->elements.size() == 4);
  CHECK(main->elements[0].name == "Item 3");
  // The banner and nav are not repeated, and the list's refs are not listed one by one.
  CHECK_FALSE(lists_region(p, Region::kHeader));
  CHECK_FALSE(lists_region(p, Region::kNav));
  CHECK(p.invalidated.empty());
  CHECK(p.added.empty());
  const std::string text = render_text(p);
  // One region replaced, nothing else said first: the pack's tag names it, its lines follow.
  CHECK(text.rfind("<delta v=\"" + std::to_string(p.version) + "\" replaced=\"main\">\ne", 0) == 0);
  CHECK(text.find("<replaced") == std::string::npos);
  CHECK(text.find("<removed>") == std::string::npos);
  CHECK(text.find("Shop") == std::string::npos);
  // Applied, the agent holds exactly the page: the fidelity property.
  REQUIRE(agent.apply(p).empty());
  Harness fresh;
  CHECK(agent.canonical() == canonical_full(fresh.snap(i3)));
  // The refs the agent holds of the banner and nav still act; the list's are gone.
  CHECK(h.resolve(banner));
  CHECK(h.resolve(items));
  CHECK(h.resolve(ref_of(full, "link", "Item 5")).error().code == ErrorCode::kRefRemoved);
}

TEST_CASE("a filter that hides most of a list is a delta: the region replaced, no removed list", "[engine][spa]") {
  Harness h;
  AgentView agent;
  const Snapshot l0 = list(range(12), 100);
  FactPack full = h.snap(l0);
  REQUIRE(agent.apply(full).empty());
  // The same nodes stay for what still matches (a keyed v-for): only the filtered ones go.
  const Snapshot l1 = list({1, 10, 11}, 100, "1");
  const FactPack p = h.act(full.version, l1, &l0);
  REQUIRE(p.type == PackType::kDelta);
  const RegionBlock* main = replaced(p, Region::kMain);
  REQUIRE(main);
  CHECK(main->elements.size() == 5);  // heading, filter, three items
  CHECK(p.invalidated.empty());
  // What stayed keeps its ref.
  CHECK(ref_of(p, "link", "Item 10") == ref_of(full, "link", "Item 10"));
  CHECK(ref_of(p, "textbox", "Filter") == ref_of(full, "textbox", "Filter"));
  REQUIRE(agent.apply(p).empty());
  Harness fresh;
  CHECK(agent.canonical() == canonical_full(fresh.snap(l1)));
  SECTION("a filter that hides a few is still the plain delta") {
    Harness h2;
    const FactPack f2 = h2.snap(l0);
    const FactPack q = h2.act(f2.version, list({0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, 100, "x"), &l0);
    REQUIRE(q.type == PackType::kDelta);
    CHECK(q.regions.empty());
    CHECK(q.invalidated.size() == 2);
  }
}

TEST_CASE("back and forward within one document keep the refs of what is the same", "[engine][spa]") {
  Harness h;
  AgentView agent;
  // Every render of the list or of an item makes new nodes (new backend ids), as a router's would.
  const Snapshot l0 = list(range(12), 100);
  FactPack full = h.snap(l0);
  REQUIRE(agent.apply(full).empty());
  const FactPack open = h.act(full.version, item(3, 500), &l0);
  REQUIRE(open.type == PackType::kDelta);
  REQUIRE(agent.apply(open).empty());
  const std::string heading = ref_of(open, "heading", "Item 3");

  const Snapshot l1 = list(range(12), 200);
  const FactPack back = history_step(h, l1);
  REQUIRE(back.type == PackType::kDelta);
  REQUIRE(replaced(back, Region::kMain));
  CHECK_FALSE(lists_region(back, Region::kNav));
  // Every line of the list is back under the ref the agent had for it.
  for (int i = 0; i < 12; ++i)
    CHECK(ref_of(back, "link", "Item " + std::to_string(i)) == ref_of(full, "link", "Item " + std::to_string(i)));
  CHECK(ref_of(back, "heading", "Items") == ref_of(full, "heading", "Items"));
  REQUIRE(agent.apply(back).empty());
  CHECK(h.resolve(ref_of(full, "link", "Item 7")));

  const FactPack forward = history_step(h, item(3, 600));
  REQUIRE(forward.type == PackType::kDelta);
  CHECK(ref_of(forward, "heading", "Item 3") == heading);
  REQUIRE(agent.apply(forward).empty());
  Harness fresh;
  CHECK(agent.canonical() == canonical_full(fresh.snap(item(3, 600))));
  auto t = h.resolve(heading);
  REQUIRE(t);
  CHECK(t->backend_node_id == 600);

  SECTION("the agent's own snapshot is still a full, every region shown") {
    const FactPack s = h.snap(item(3, 600));
    CHECK(s.type == PackType::kFull);
    CHECK(s.reason == "requested");
  }
}

TEST_CASE("a removed ref comes back only where it is unambiguous", "[engine][spa]") {
  Harness h;
  auto page = [](std::int64_t id, int rows) {
    PageBuilder b = shell();
    for (int i = 0; i < rows; ++i) {
      b.el(id + 2 * i, "text", "Row " + std::to_string(i));
      b.last().category = Category::kText;
      b.el(id + 2 * i + 1, "button", "Delete");
    }
    return b.build();
  };
  const Snapshot s0 = page(100, 3);
  const FactPack full = h.snap(s0);
  const Snapshot s1 = shell().build();
  const FactPack gone = h.act(full.version, s1, &s0);
  REQUIRE(gone.type == PackType::kDelta);
  const FactPack back = history_step(h, page(300, 3));
  // Three "Delete" buttons went and three came: which is which would be a guess, so each is new.
  for (const Element& e : listed(back))
    if (e.name == "Delete") {
      for (const RegionBlock& b : full.regions)
        for (const Element& was : b.elements) CHECK(was.ref != e.ref);
    }
  // The rows' text is unique: each has its ref back.
  CHECK(ref_of(back, "text", "Row 1") == ref_of(full, "text", "Row 1"));
}

TEST_CASE("a same-document change where every region changed is a full, with no removed list", "[engine][spa]") {
  Harness h;
  PageBuilder b0;
  for (int i = 0; i < 12; ++i) b0.el(100 + i, "link", "A" + std::to_string(i));
  const Snapshot s0 = b0.build();
  const FactPack full = h.snap(s0);
  PageBuilder b1;
  for (int i = 0; i < 12; ++i) b1.el(300 + i, "link", "B" + std::to_string(i));
  const FactPack p = h.act(full.version, b1.build(), &s0);
  REQUIRE(p.type == PackType::kFull);
  CHECK(p.reason == "unreliable_delta");
  const std::string text = render_text(p);
  CHECK(text.find("<removed>") == std::string::npos);
  CHECK(text.find("A3") == std::string::npos);
  // The agent is where the last pack said it was: the tag does not say the address and title again
  // (the JSON keeps them); the first full said them.
  CHECK(render_text(full).find("url=\"https://a.test/\" title=\"A\"") != std::string::npos);
  CHECK(p.address_held);
  CHECK(text.rfind("<full v=\"" + std::to_string(p.version) + "\" reason=\"unreliable_delta\">\n", 0) == 0);
  CHECK(p.url == "https://a.test/");
  CHECK(render_json(p).find("\"url\":\"https://a.test/\"") != std::string::npos);
  // A pushState that changed the address, then a full: the tag says the new one.
  PageBuilder b2;
  for (int i = 0; i < 12; ++i) b2.el(500 + i, "link", "C" + std::to_string(i));
  Snapshot s2 = b2.build();
  s2.url = "https://a.test/c";
  PageBuilder b1again;
  for (int i = 0; i < 12; ++i) b1again.el(300 + i, "link", "B" + std::to_string(i));
  const Snapshot s1 = b1again.build();
  const FactPack moved = h.act(p.version, s2, &s1);
  REQUIRE(moved.type == PackType::kFull);
  CHECK_FALSE(moved.address_held);
  CHECK(render_text(moved).find("url=\"https://a.test/c\" title=\"A\"") != std::string::npos);
  // The agent's own snapshot says them: it may have lost what it held.
  const FactPack asked = h.snap(s2);
  CHECK_FALSE(asked.address_held);
  CHECK(render_text(asked).find("url=\"https://a.test/c\"") != std::string::npos);
  // The refs that went still answer for themselves.
  CHECK(h.resolve(ref_of(full, "link", "A3")).error().code == ErrorCode::kRefRemoved);
}

TEST_CASE("changes spread over many small regions are no delta to trust", "[engine][spa][reliability]") {
  // Ten regions of two buttons each, all renamed: no region reaches kMinNodesForRatio, and the
  // rule over the page as a whole says full, as before.
  auto page = [](const std::string& prefix) {
    PageBuilder b;
    for (int r = 0; r < 10; ++r) {
      b.el(100 + 2 * r, "button", prefix + std::to_string(r) + "a", Region::kForm).last().region_label =
          "Form " + std::to_string(r);
      b.el(101 + 2 * r, "button", prefix + std::to_string(r) + "b", Region::kForm).last().region_label =
          "Form " + std::to_string(r);
    }
    return b.build();
  };
  Harness h;
  const Snapshot s0 = page("X");
  const FactPack full = h.snap(s0);
  const FactPack p = h.act(full.version, page("Y"), &s0);
  CHECK(p.type == PackType::kFull);
  CHECK(p.reason == "unreliable_delta");
}

// The bug of fidelity seed 107: lines the agent is shown in a <before_action> of an iframe whose
// document the action then replaced were killed, by that same capture, before they were ever
// delivered; the registry had dropped them as never shown, so they came back "removed", listed
// apart from the frame's `<invalid cause="navigated" count=>` line, which then counted fewer refs
// than the agent holds in that frame (and the frame's regions, replaced, hid nothing of it).
TEST_CASE("a frame navigated right after a before_action counts the refs that pack showed", "[engine][spa][frames]") {
  Harness h;
  AgentView agent;
  auto page = [](const std::string& loader, bool grown) {
    PageBuilder b = shell();
    b.frame("SUB", loader);
    for (int i = 0; i < 10; ++i) b.el(100 + i, "link", "Item " + std::to_string(i));
    if (loader == "S1") {
      b.el(200, "heading", "Profile", Region::kAside, "SUB");
      b.el(201, "link", "Item D", Region::kMain, "SUB");
      b.el(202, "checkbox", "Cart", Region::kMain, "SUB");
      if (grown) {
        b.el(203, "textbox", "Settings", Region::kMain, "SUB");
        b.el(204, "link", "Item E", Region::kMain, "SUB");
      }
    } else {
      b.el(300, "heading", "Settings", Region::kAside, "SUB");
      b.el(301, "textbox", "Edit", Region::kMain, "SUB");
      b.el(302, "link", "Cart", Region::kMain, "SUB");
    }
    return b.build();
  };
  const FactPack full = h.snap(page("S1", false));
  REQUIRE(agent.apply(full).empty());
  const std::string profile = ref_of(full, "heading", "Profile");
  REQUIRE_FALSE(profile.empty());
  int sub = -1;
  for (const Element& e : listed(full))
    if (e.ref == profile) sub = e.frame;
  REQUIRE(sub > 0);

  // The page grew in the frame before the action (a before_action delta adds two lines there),
  // then the action navigated the frame.
  const Snapshot grown = page("S1", true), navigated = page("S2", false);
  const FactPack p = h.act(full.version, navigated, &grown);
  REQUIRE(p.type == PackType::kDelta);
  REQUIRE(p.before_action.size() == 1);
  CHECK(p.before_action[0].added.size() == 2);
  CHECK(replaced(p, Region::kMain));
  // Every ref the agent holds in that frame (3 of the full, 2 of the before_action) is the frame's
  // document gone, counted by its one line; none is a removal of its own.
  std::size_t in_frame = 0;
  for (const Invalidation& i : p.invalidated) {
    CHECK(i.cause == "navigated");
    CHECK(i.frame == sub);
    in_frame += i.frame == sub;
  }
  CHECK(in_frame == 5);
  const std::string text = render_text(p);
  CHECK(text.find("<invalid cause=\"navigated\" frame=\"f" + std::to_string(sub) + "\" count=\"5\"/>") !=
        std::string::npos);
  CHECK(text.find("<removed>") == std::string::npos);
  REQUIRE(agent.apply(p).empty());
  Harness fresh;
  CHECK(agent.canonical() == canonical_full(fresh.snap(navigated)));
}

TEST_CASE("a run of lines replaced inside a region the rest of which stays is a delta of that run",
          "[engine][spa][reliability]") {
  // tests/sites/api-doc.html's shape: a heading and the search button, then an index of 30 links
  // the search replaces by its 3 results, all in one region. 33 of 33 lines changed: the rule alone
  // says full, and the region cannot be replaced without repeating the heading and the button.
  auto page = [](bool searched) {
    PageBuilder b;
    b.el(10, "heading", "Widgets API", Region::kMain);
    b.el(11, "link", "widgets::core::Widget", Region::kMain);
    b.el(12, "button", "Search for spin", Region::kMain);
    if (searched)
      for (int i = 0; i < 3; ++i) b.el(300 + i, "link", "Spin " + std::to_string(i), Region::kMain);
    else
      for (int i = 0; i < 30; ++i) b.el(100 + i, "link", "Widget " + std::to_string(i), Region::kMain);
    return b.build();
  };
  Harness h;
  const Snapshot s0 = page(false);
  const FactPack full = h.snap(s0);
  const FactPack p = h.act(full.version, page(true), &s0);
  REQUIRE(p.type == PackType::kDelta);
  CHECK(p.regions.empty());
  CHECK(p.invalidated.size() == 30);
  REQUIRE(p.added.size() == 3);
  CHECK(p.added[0].after == ref_of(full, "button", "Search for spin"));
  CHECK(p.modified.empty());
  SECTION("a run that only goes is left to the rule, as is a run not at the place of the one that went") {
    Harness h2;
    const FactPack f2 = h2.snap(s0);
    PageBuilder b;
    b.el(10, "heading", "Widgets API", Region::kMain);
    for (int i = 0; i < 3; ++i) b.el(300 + i, "link", "Spin " + std::to_string(i), Region::kMain);
    b.el(11, "link", "widgets::core::Widget", Region::kMain);
    b.el(12, "button", "Search for spin", Region::kMain);
    CHECK(h2.act(f2.version, b.build(), &s0).type == PackType::kFull);
    Harness h3;
    const FactPack f3 = h3.snap(s0);
    PageBuilder shrunk;
    shrunk.el(10, "heading", "Widgets API", Region::kMain);
    shrunk.el(11, "link", "widgets::core::Widget", Region::kMain);
    shrunk.el(12, "button", "Search for spin", Region::kMain);
    CHECK(h3.act(f3.version, shrunk.build(), &s0).type == PackType::kFull);
  }
}
