// The engine on every recorded real flow (tests/cases, docs/capture-format.md): each step's
// capture is the page after its action; the previous step's capture is the page before it.
// Every FactPack must apply cleanly to the agent's view and keep the fidelity property.
#include "corpus.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "agent_view.h"
#include "athena/compiler.h"
#include "fidelity.h"

using namespace athena;
using namespace athena::testing;

TEST_CASE("recorded flows: every FactPack is faithful", "[engine][corpus]") {
  std::vector<corpus::Case> cases;
  try {
    cases = corpus::load_cases();
  } catch (const std::exception& e) {
    FAIL("no recorded corpus readable: " << e.what());
  }
  REQUIRE_FALSE(cases.empty());  // tests/cases is empty: the recorded flows were not checked
  std::size_t steps = 0;
  std::string summary;
  for (const corpus::Case& c : cases) {
    if (c.steps.empty()) continue;
    INFO("case " << c.name);
    summary += "\n  " + c.name + ":";
    {
      Engine engine;
      const PageKey key{0, 1};
      REQUIRE(engine.open_page(key));
      AgentView agent;
      auto compiled = compile_capture(c.steps[0].capture_json);
      REQUIRE(compiled);
      auto first = engine.snapshot(key, c.steps[0].capture_json);
      REQUIRE(first);
      REQUIRE(agent.apply(*first) == "");
      REQUIRE(check_fidelity(agent, engine, key, *compiled) == "");
      for (std::size_t i = 1; i < c.steps.size(); ++i) {
        const corpus::Step& st = c.steps[i];
        INFO(c.name << " / " << st.name);
        auto pre = engine.begin_action(key, c.steps[i - 1].capture_json, agent.version());
        REQUIRE(pre);
        if (pre->freshness == Freshness::kStaleNoHistory) {
          REQUIRE(agent.apply(*pre->pack) == "");
          pre = engine.begin_action(key, c.steps[i - 1].capture_json, agent.version());
          REQUIRE(pre);
        }
        nlohmann::json events = nlohmann::json::parse(st.events_json, nullptr, false);
        if (events.is_array())
          for (const auto& ev : events) CHECK(engine.on_event(key, ev.dump()));
        auto pack = engine.finish_action(key, st.capture_json, {});
        REQUIRE(pack);
        auto state = compile_capture(st.capture_json);
        REQUIRE(state);
        REQUIRE(agent.apply(*pack) == "");
        REQUIRE(check_fidelity(agent, engine, key, *state) == "");
        summary += " " + std::string(pack_type_name(pack->type)) +
                   (pack->reason.empty() ? "" : "(" + pack->reason + ")") + "[+" + std::to_string(pack->added.size()) +
                   " ~" + std::to_string(pack->modified.size()) + " -" + std::to_string(pack->invalidated.size()) + "]";
        ++steps;
      }
    }
  }
  WARN("recorded flows: " << cases.size() << " cases, " << steps << " action steps checked" << summary);
}
