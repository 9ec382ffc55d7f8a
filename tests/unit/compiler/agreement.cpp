#include "agreement.h"

#include <map>
#include <nlohmann/json.hpp>
#include <utility>

#include "athena/limits.h"
#include "compiler/roles.h"
#include "compiler/text.h"

namespace athena::test {

Agreement compare_with_chrome(const Snapshot& snap, const std::string& ax_json, bool headings) {
  using nlohmann::json;
  struct Ax {
    std::string role, name;
    bool ignored = false;
  };
  std::map<std::pair<std::string, long long>, Ax> chrome;
  const json ax = json::parse(ax_json, nullptr, false);
  if (ax.is_object()) {
    for (auto it = ax.begin(); it != ax.end(); ++it) {
      if (!it.value().is_array()) continue;
      for (const json& n : it.value()) {
        if (!n.is_object() || !n.contains("backendDOMNodeId") || !n["backendDOMNodeId"].is_number_integer()) continue;
        Ax a;
        a.ignored = n.value("ignored", false);
        if (n.contains("role") && n["role"].is_object()) a.role = n["role"].value("value", std::string());
        if (n.contains("name") && n["name"].is_object() && n["name"].contains("value") &&
            n["name"]["value"].is_string())
          a.name = n["name"]["value"].get<std::string>();
        a.name = compiler::collapse_ws(a.name);
        compiler::cut_utf8(a.name, limits::kMaxNameChars);
        compiler::trim_in_place(a.name);
        chrome[{it.key(), n["backendDOMNodeId"].get<long long>()}] = a;
      }
    }
  }
  Agreement out;
  for (const ReadableNode& r : snap.nodes) {
    if (r.category != Category::kInteractive && !(headings && r.category == Category::kHeading)) continue;
    ++out.compared;
    const auto it = chrome.find({r.frame_id, r.backend_node_id});
    Disagreement d{r.frame_id, r.backend_node_id, r.role, r.name, "", ""};
    if (it != chrome.end() && !it->second.ignored) {
      d.chrome_role = compiler::agent_role(it->second.role);  // the words both sides print
      d.chrome_name = it->second.name;
      if (d.chrome_role == r.role && d.chrome_name == r.name) {
        ++out.agreed;
        continue;
      }
    } else if (it != chrome.end()) {
      d.chrome_role = "(ignored)";
    }
    out.diffs.push_back(std::move(d));
  }
  std::map<std::pair<std::string, long long>, bool> ours;
  for (const ReadableNode& r : snap.nodes) ours[{r.frame_id, r.backend_node_id}] = true;
  static const char* const kInteractive[] = {
      "button",        "link",   "textbox",  "searchbox", "spinbutton",        "checkbox",
      "radio",         "slider", "combobox", "listbox",   "menuitem",          "menuitemcheckbox",
      "menuitemradio", "tab",    "switch",   "treeitem",  "DisclosureTriangle"};
  for (const auto& [key, a] : chrome) {
    if (a.ignored || ours.count(key)) continue;
    if (headings && a.role == "heading") {
      out.missed.push_back(Disagreement{key.first, key.second, "", "", a.role, a.name});
      continue;
    }
    for (const char* role : kInteractive)
      if (a.role == role) {
        out.missed.push_back(Disagreement{key.first, key.second, "", "", a.role, a.name});
        break;
      }
  }
  return out;
}

}  // namespace athena::test
