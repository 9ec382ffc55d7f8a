// The JSON entry points end to end: captures in the format of docs/capture-format.md, compiled by
// compile_capture(), CDP events as JSON. (Captures built with the compiler tests' CaptureBuilder.)
#include <catch2/catch.hpp>

#include "../compiler/capture_builder.cpp"  // NOLINT: reuse the hand-written capture builder
#include "agent_view.h"
#include "athena/compiler.h"
#include "fidelity.h"
#include "helpers.h"

using namespace athena;
using namespace athena::testing;

namespace {
std::string capture(const std::string& loader, bool dialog, bool extra) {
  test::CaptureBuilder b("F0", loader);
  const int body = b.el(0, 0, "body");
  const int nav = b.el(0, body, "nav", {}, {0, 0, 800, 40});
  b.text(0, b.el(0, nav, "a", {{"href", "/"}}), "Home");
  b.text(0, b.el(0, nav, "a", {{"href", "/cart"}}), "Cart");
  const int main = b.el(0, body, "main", {}, {0, 50, 800, 400});
  b.text(0, b.el(0, main, "button"), "Add to cart");
  if (dialog) {
    const int d = b.el(0, body, "div", {{"role", "dialog"}, {"aria-modal", "true"}, {"aria-label", "Added"}},
                       {100, 100, 300, 200});
    b.style(0, d, "z-index", "1000");
    b.style(0, d, "position", "fixed");
    b.text(0, b.el(0, d, "button"), "OK");
  }
  if (extra) b.text(0, b.el(0, main, "button"), "Checkout");
  return b.str();
}
}  // namespace

TEST_CASE("JSON entry points: captures and events through compile_capture", "[engine][json]") {
  Engine engine;
  const PageKey key{0, 1};
  REQUIRE(engine.open_page(key));
  AgentView agent;
  auto step = [&](const Result<FactPack>& p, const std::string& json) {
    REQUIRE(p);
    REQUIRE(agent.apply(*p) == "");
    auto state = compile_capture(json);
    REQUIRE(state);
    REQUIRE(check_fidelity(agent, engine, key, *state) == "");
  };
  const std::string c0 = capture("L0", false, false), c1 = capture("L0", true, false), c2 = capture("L0", false, true);
  auto full = engine.snapshot(key, c0);
  step(full, c0);
  CHECK(full->reason == "first");
  const std::string add = ref_of(*full, "button", "Add to cart");
  REQUIRE_FALSE(add.empty());

  REQUIRE(engine.begin_action(key, c0, agent.version())->freshness == Freshness::kCurrent);
  REQUIRE(engine.resolve(key, add));
  auto open = engine.finish_action(key, c1, {});
  step(open, c1);
  CHECK(open->type == PackType::kOverlayOpened);
  CHECK(open->overlay.name == "Added");

  REQUIRE(engine.begin_action(key, c1, agent.version()));
  auto closed = engine.finish_action(key, c2, {});
  step(closed, c2);
  CHECK(closed->type == PackType::kOverlayClosed);
  CHECK(closed->added.size() == 1);
  CHECK(closed->invalidated.size() == 1);

  REQUIRE(engine.on_event(key, nav_event("F0", "L1")));
  CHECK(engine.resolve(key, add).error().code == ErrorCode::kDocumentReplaced);
  CHECK(engine.begin_action(key, c2, agent.version()).error().code ==
        ErrorCode::kWrongCallOrder);  // older than the event
  const std::string c3 = capture("L1", false, true);
  auto pre = engine.begin_action(key, c3, agent.version());
  REQUIRE(pre);
  REQUIRE(pre->freshness == Freshness::kStaleNoHistory);  // navigated before the action: do not act
  step(*pre->pack, c3);
  CHECK(pre->pack->reason == "navigation");
  bool nav_unchanged = false;
  for (const RegionBlock& b : pre->pack->regions)
    nav_unchanged = nav_unchanged || (b.region == Region::kNav && b.unchanged);
  CHECK(nav_unchanged);
}
