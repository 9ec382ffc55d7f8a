#include "replay.h"

#include <nlohmann/json.hpp>

#include "athena/engine.h"
#include "athena/render.h"

namespace athena::testing {

namespace {

std::string action_of(const corpus::Step& st) {
  const auto j = nlohmann::json::parse(st.step_json, nullptr, false);
  if (j.is_object() && j.contains("action") && j["action"].is_object() && j["action"].contains("op") &&
      j["action"]["op"].is_string())
    return j["action"]["op"].get<std::string>();
  return "";
}

std::string err(const Error& e) {
  return std::string(error_code_name(e.code)) + ": " + e.message;
}

std::string fresh_full(const std::string& capture) {
  Engine engine;
  const PageKey key{0, 1};
  if (!engine.open_page(key)) return "";
  auto p = engine.snapshot(key, capture);
  if (!p) return "";
  RenderOptions o;
  o.trim_regions = false;
  o.caps = false;
  return render_text(*p, o);
}

}  // namespace

std::string floor_text(const FactPack& p) {
  std::string out;
  for (const Invalidation& i : p.invalidated) out += "- " + i.ref + " " + i.role + " " + i.name + "\n";
  for (const Element& e : p.added)
    out += "+ " + e.ref + " " + e.role + " " + e.name + (e.description.empty() ? "" : " " + e.description) + "\n";
  for (const Modified& m : p.modified) {
    out += "~ " + m.ref + " " + m.after.role + " " + m.after.name;
    if (m.before.name != m.after.name) out += " (was " + m.before.name + ")";
    if (m.before.state != m.after.state) out += " (state changed)";
    out += "\n";
  }
  if (p.type == PackType::kOverlayOpened)
    for (const RegionBlock& b : p.regions)
      for (const Element& e : b.elements) out += "+ " + e.ref + " " + e.role + " " + e.name + "\n";
  for (const FactPack& b : p.before_action) out += floor_text(b);
  return out;
}

std::vector<ReplayStep> replay_case(const corpus::Case& c) {
  std::vector<ReplayStep> out;
  Engine engine;
  const PageKey key{0, 1};
  (void)engine.open_page(key);
  std::uint64_t version = 0;
  for (std::size_t i = 0; i < c.steps.size(); ++i) {
    const corpus::Step& st = c.steps[i];
    ReplayStep r;
    r.name = st.name;
    r.action = action_of(st);
    Result<FactPack> pack = make_error(ErrorCode::kInternal, "not run");
    if (i == 0) {
      pack = engine.snapshot(key, st.capture_json);
    } else {
      auto pre = engine.begin_action(key, c.steps[i - 1].capture_json, version);
      if (!pre) {
        pack = pre.error();
      } else {
        // The events were seen while the action ran: after begin_action, before finish_action.
        const auto events = nlohmann::json::parse(st.events_json, nullptr, false);
        if (events.is_array())
          for (const auto& ev : events) (void)engine.on_event(key, ev.dump());
        ActionInfo info;
        info.kind = r.action;
        pack = engine.finish_action(key, st.capture_json, info);
      }
    }
    if (pack) {
      r.ok = true;
      r.pack = std::move(*pack);
      version = r.pack.version;
      r.text = render_text(r.pack);
      r.json = render_json(r.pack);
      RenderOptions nodedup;
      nodedup.dedup = false;
      r.nodedup_text = render_text(r.pack, nodedup);
      r.full_text = fresh_full(st.capture_json);
      r.floor_text = floor_text(r.pack);
    } else {
      r.error = err(pack.error());
    }
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace athena::testing
