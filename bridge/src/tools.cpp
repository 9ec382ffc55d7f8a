#include "tools.h"

#include <cmath>
#include <set>

namespace athena::bridge {

namespace {

json prop(const char* type, const char* description = nullptr) {
  json p = {{"type", type}};
  if (description) p["description"] = description;
  return p;
}

json strings() { return {{"type", "array"}, {"items", {{"type", "string"}}}}; }

json tool(const char* name, const char* description, json props, std::vector<std::string> required, bool mutating) {
  if (mutating) {
    props["version"] = prop("integer", "v of the last FactPack you read");
  }
  props["tab"] = prop("string", "tab id from tabs list, e.g. c0p1 (default: current)");
  json schema = {{"type", "object"}, {"properties", props}, {"additionalProperties", false}};
  if (!required.empty()) schema["required"] = required;
  json t = {{"name", name}, {"description", description}, {"inputSchema", schema}};
  return t;
}

const std::set<std::string> kFactPackTools = {"navigate", "back", "forward", "reload", "snapshot", "click", "type", "press",
                                               "select", "hover", "scroll", "wait_for", "dialog", "upload"};

json build() {
  const json ref = prop("string", "element ref, e.g. c0p1f0e12");
  json out = json::array();
  out.push_back(tool("navigate", "Open a URL in the agent's tab. Returns a full FactPack.", {{"url", prop("string")}}, {"url"}, true));
  out.push_back(tool("back", "Go back in history.", json::object(), {}, true));
  out.push_back(tool("forward", "Go forward in history.", json::object(), {}, true));
  out.push_back(tool("reload", "Reload the page.", json::object(), {}, true));
  out.push_back(tool("snapshot", "Full FactPack of the page now.", json::object(), {}, false));
  out.push_back(tool("click", "Click an element. Returns what changed.", {{"ref", ref}}, {"ref"}, true));
  out.push_back(tool("type", "Type into a field.",
                     {{"ref", ref}, {"text", prop("string")}, {"clear", prop("boolean", "replace the value")},
                      {"submit", prop("boolean", "press Enter after")}},
                     {"ref", "text"}, true));
  out.push_back(tool("press", "Press keys, e.g. Enter, Escape, Control+A.", {{"keys", prop("string")}}, {"keys"}, true));
  out.push_back(tool("select", "Choose options of a select.", {{"ref", ref}, {"values", strings()}}, {"ref", "values"}, true));
  out.push_back(tool("hover", "Move the mouse over an element.", {{"ref", ref}}, {"ref"}, true));
  out.push_back(tool("scroll", "Scroll the page or an element.",
                     {{"ref", ref}, {"direction", {{"type", "string"}, {"enum", {"up", "down", "left", "right"}}}},
                      {"amount", prop("number", "pixels")}},
                     {}, true));
  out.push_back(tool("wait_for", "Wait until text appears or goes, a ref reaches a state, or time passes.",
                     {{"text", prop("string")}, {"gone", prop("string", "text to disappear")}, {"ref", ref},
                      {"state", {{"type", "string"},
                                 {"enum", {"visible", "hidden", "enabled", "disabled", "checked", "unchecked", "attached", "detached"}}}},
                      {"ms", prop("integer")}},
                     {}, true));
  out.push_back(tool("find", "Find elements, also those trimmed from a FactPack.",
                     {{"role", prop("string")}, {"name", prop("string", "substring")},
                      {"region", prop("string", "region name or label")}, {"frame", prop("string", "e.g. f2")},
                      {"after", prop("string", "ref: continue after it")}, {"limit", prop("integer")}},
                     {}, false));
  out.push_back(tool("read", "Text of an element or region.",
                     {{"ref", ref}, {"region", prop("string", "region name or label")}, {"frame", prop("string")}}, {}, false));
  out.push_back(tool("dialog", "Answer an alert/confirm/prompt.", {{"accept", prop("boolean")}, {"text", prop("string")}}, {"accept"}, true));
  out.push_back(tool("upload", "Set files on a file input.", {{"ref", ref}, {"files", strings()}}, {"ref", "files"}, true));
  out.push_back(tool("screenshot", "PNG of the page or an element.", {{"ref", ref}}, {}, false));
  out.push_back(tool("tabs", "List, open, select or close tabs.",
                     {{"action", {{"type", "string"}, {"enum", {"list", "new", "select", "close"}}}}, {"url", prop("string")}},
                     {"action"}, false));
  return out;
}

/// The list with an outputSchema on every FactPack tool: only for clients that asked for
/// structured results (`athena-bridge mcp --structured`); on_host then honours it on every result.
json with_output_schemas(json list) {
  const json factpack_schema = {{"type", "object"},
                                {"properties", {{"type", {{"type", "string"}}}, {"version", {{"type", "integer"}}}}},
                                {"required", {"type", "version"}}};
  for (json& t : list)
    if (kFactPackTools.count(t["name"].get<std::string>())) t["outputSchema"] = factpack_schema;
  return list;
}

bool type_ok(const std::string& want, const json& v) {
  if (want == "string") return v.is_string();
  if (want == "boolean") return v.is_boolean();
  if (want == "integer") {
    if (v.is_number_integer()) return true;
    if (!v.is_number_float()) return false;
    // 5000.0 is an integer; 9.2e19 is not one we can hold. Range first: casting a double beyond
    // 64 bits to an integer is undefined behaviour (found by fuzz/jsonrpc.cpp).
    const double d = v.get<double>();
    return std::isfinite(d) && d >= -9.2e18 && d <= 9.2e18 && std::trunc(d) == d;
  }
  if (want == "number") return v.is_number();
  if (want == "array") return v.is_array();
  if (want == "object") return v.is_object();
  return true;
}

}  // namespace

const json& tool_list(bool structured) {
  static const json plain = build();
  static const json with_schemas = with_output_schemas(plain);
  return structured ? with_schemas : plain;
}

const json* find_tool(const std::string& name) {
  for (const json& t : tool_list())
    if (t["name"] == name) return &t;
  return nullptr;
}

bool returns_factpack(const std::string& name) { return kFactPackTools.count(name) > 0; }

std::string check_arguments(const json& tool, const json& args) {
  const std::string name = tool["name"];
  if (!args.is_object()) return name + ": arguments must be an object";
  const json& schema = tool["inputSchema"];
  const json& props = schema["properties"];
  if (schema.contains("required"))
    for (const json& r : schema["required"])
      if (!args.contains(r.get<std::string>())) return name + ": missing required argument '" + r.get<std::string>() + "'";
  for (auto it = args.begin(); it != args.end(); ++it) {
    if (!props.contains(it.key())) {
      std::string known;
      for (auto p = props.begin(); p != props.end(); ++p) known += (known.empty() ? "" : ", ") + p.key();
      return name + ": unknown argument '" + it.key() + "' (known: " + known + ")";
    }
    const json& p = props[it.key()];
    if (p.contains("type") && !type_ok(p["type"], it.value()))
      return name + ": argument '" + it.key() + "' must be " + p["type"].get<std::string>();
    if (p.contains("enum")) {
      bool ok = false;
      for (const json& e : p["enum"]) ok = ok || e == it.value();
      if (!ok) return name + ": argument '" + it.key() + "' must be one of " + p["enum"].dump();
    }
    if (p.contains("items") && it.value().is_array())
      for (const json& x : it.value())
        if (!type_ok(p["items"]["type"], x)) return name + ": every item of '" + it.key() + "' must be " + p["items"]["type"].get<std::string>();
  }
  return "";
}

}  // namespace athena::bridge
