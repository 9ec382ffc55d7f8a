// The JSON of a FactPack: everything, nothing trimmed or capped, for programs and the demo.
// Keys are sorted (nlohmann's default object), so the bytes are a pure function of the pack.
#include <nlohmann/json.hpp>

#include "athena/render.h"
#include "render/lines.h"
#include "words.h"

namespace athena {
namespace {

using nlohmann::json;

json state_json(const NodeState& s) {
  json j = json::object();
  if (s.disabled) j["disabled"] = true;
  if (s.focused) j["focused"] = true;
  if (s.required) j["required"] = true;
  if (s.invalid) j["invalid"] = true;
  if (s.selected) j["selected"] = true;
  if (s.readonly) j["readonly"] = true;
  if (s.current) j["current"] = true;
  if (const char* t = render::tri_name(s.checked)) j["checked"] = t;
  if (const char* t = render::tri_name(s.expanded)) j["expanded"] = t;
  if (const char* t = render::tri_name(s.pressed)) j["pressed"] = t;
  if (const char* w = render::sort_name(s.sort)) j["sort"] = w;
  if (s.value_redacted)
    j["value_redacted"] = true;
  else if (!s.value.empty())
    j["value"] = s.value;
  return j;
}

json element_json(const Element& e) {
  json j = {{"ref", e.ref},
            {"role", e.role},
            {"name", e.name},
            {"category", category_name(e.category)},
            {"region", region_name(e.region)}};
  if (e.frame) j["frame"] = frame_word(e.frame);
  if (!e.description.empty()) j["description"] = e.description;
  if (!e.href.empty()) j["href"] = e.href;
  if (e.level) j["level"] = e.level;
  if (!e.region_label.empty()) j["region_label"] = e.region_label;
  if (e.overlay >= 0) j["overlay"] = e.overlay;
  if (e.in_viewport) j["in_viewport"] = true;
  if (e.cut) j["cut"] = true;
  if (e.depth > 0) j["depth"] = e.depth;
  if (!e.after.empty()) j["after"] = e.after;
  json s = state_json(e.state);
  if (!s.empty()) j["state"] = std::move(s);
  return j;
}

json pack_json(const FactPack& p) {
  json j = {{"type", pack_type_name(p.type)}, {"version", p.version}};
  if (!p.reason.empty()) j["reason"] = p.reason;
  if (!p.url.empty()) j["url"] = p.url;
  if (!p.title.empty()) j["title"] = p.title;
  json inv = json::array();
  for (const Invalidation& i : p.invalidated)
    inv.push_back(
        {{"ref", i.ref}, {"cause", i.cause}, {"role", i.role}, {"name", i.name}, {"frame", frame_word(i.frame)}});
  j["invalidated"] = std::move(inv);
  json regions = json::array();
  for (const RegionBlock& b : p.regions) {
    json r = {{"region", region_name(b.region)},
              {"frame", b.frame_ref},
              {"unchanged", b.unchanged},
              {"count", b.elements.size()}};
    if (!b.label.empty()) r["label"] = b.label;
    if (b.seen_in) r["seen_in"] = b.seen_in;
    if (b.replaced) r["replaced"] = true;
    json els = json::array();
    for (const Element& e : b.elements) els.push_back(element_json(e));
    r["elements"] = std::move(els);
    regions.push_back(std::move(r));
  }
  j["regions"] = std::move(regions);
  json added = json::array();
  for (const Element& e : p.added) added.push_back(element_json(e));
  j["added"] = std::move(added);
  json modified = json::array();
  for (const Modified& m : p.modified) {
    json one = {{"ref", m.ref}, {"before", element_json(m.before)}, {"after", element_json(m.after)}};
    if (m.moved) one["moved_after"] = m.moved_after;  // "" = first line of its region
    modified.push_back(std::move(one));
  }
  j["modified"] = std::move(modified);
  if (p.type == PackType::kOverlayOpened || p.type == PackType::kOverlayClosed)
    j["overlay"] = {{"type", overlay_type_name(p.overlay.type)}, {"name", p.overlay.name}, {"depth", p.overlay.depth}};
  if (!p.warnings.empty()) j["warnings"] = p.warnings;
  if (!p.before_action.empty()) {
    json b = json::array();
    for (const FactPack& x : p.before_action) b.push_back(pack_json(x));
    j["before_action"] = std::move(b);
  }
  return j;
}

}  // namespace

std::string render_json(const FactPack& pack) {
  // Invalid UTF-8 cannot come from the compiler (names are cut on char boundaries), but a
  // renderer must never throw: replace rather than fail.
  return pack_json(pack).dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string render_element_json(const Element& element) {
  return element_json(element).dump(-1, ' ', false, json::error_handler_t::replace);
}

}  // namespace athena
