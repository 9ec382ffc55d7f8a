#include "tools.h"

#include <algorithm>
#include <cmath>

#include "tool_contract.inc"

namespace athena::bridge {

namespace {

/// The contract, as generated from extension/lib/tool-contract.js: {tools, factpack}.
const json& contract() {
  static const json c = json::parse(kToolContractJson);
  return c;
}

/// The list with an outputSchema on every FactPack tool: only for clients that asked for
/// structured results (`athena-bridge mcp --structured`); on_host then honours it on every result.
json with_output_schemas(json list) {
  const json factpack_schema = {{"type", "object"},
                                {"properties", {{"type", {{"type", "string"}}}, {"version", {{"type", "integer"}}}}},
                                {"required", {"type", "version"}}};
  for (json& t : list)
    if (returns_factpack(t["name"].get<std::string>())) t["outputSchema"] = factpack_schema;
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
  static const json plain = contract()["tools"];
  static const json with_schemas = with_output_schemas(plain);
  return structured ? with_schemas : plain;
}

json served_tools(bool structured, const std::vector<std::string>& groups) {
  json out = json::array();
  for (const json& t : tool_list(structured))
    if (std::find(groups.begin(), groups.end(), tool_group(t["name"].get<std::string>())) != groups.end())
      out.push_back(t);
  return out;
}

const std::vector<std::string>& tool_groups() {
  static const std::vector<std::string> groups = contract()["groups"].get<std::vector<std::string>>();
  return groups;
}

std::string tool_group(const std::string& name) {
  const json& g = contract()["group"];
  const auto it = g.find(name);
  return it == g.end() ? "" : it->get<std::string>();
}

const json* find_tool(const std::string& name) {
  for (const json& t : tool_list())
    if (t["name"] == name) return &t;
  return nullptr;
}

std::string local_files_arg(const std::string& name) {
  const json& f = contract()["localFiles"];
  const auto it = f.find(name);
  return it == f.end() ? "" : it->get<std::string>();
}

bool returns_factpack(const std::string& name) {
  for (const json& n : contract()["factpack"])
    if (n == name) return true;
  return false;
}

std::string check_arguments(const json& tool, const json& args) {
  const std::string name = tool["name"];
  if (!args.is_object()) return name + ": arguments must be an object";
  const json& schema = tool["inputSchema"];
  const json& props = schema["properties"];
  if (schema.contains("required"))
    for (const json& r : schema["required"])
      if (!args.contains(r.get<std::string>()))
        return name + ": missing required argument '" + r.get<std::string>() + "'";
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
        if (!type_ok(p["items"]["type"], x))
          return name + ": every item of '" + it.key() + "' must be " + p["items"]["type"].get<std::string>();
  }
  return "";
}

}  // namespace athena::bridge
