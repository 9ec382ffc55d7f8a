#include "mcp_eras.h"

#include <algorithm>

#include "athena/version.h"
#include "untrusted_json.h"

namespace athena::bridge {

namespace {

constexpr const char* kProtocolVersionKey = "io.modelcontextprotocol/protocolVersion";
constexpr const char* kClientCapabilitiesKey = "io.modelcontextprotocol/clientCapabilities";
constexpr const char* kClientInfoKey = "io.modelcontextprotocol/clientInfo";
constexpr const char* kServerInfoKey = "io.modelcontextprotocol/serverInfo";

bool speaks(const std::vector<std::string>& versions, const std::string& v) {
  return std::find(versions.begin(), versions.end(), v) != versions.end();
}

std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
}

}  // namespace

const std::vector<std::string>& modern_protocol_versions() {
  static const std::vector<std::string> v = {"2026-07-28"};
  return v;
}

const std::vector<std::string>& legacy_protocol_versions() {
  static const std::vector<std::string> v = {"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05", "2024-10-07"};
  return v;
}

const std::vector<std::string>& supported_protocol_versions() {
  static const std::vector<std::string> v = [] {
    std::vector<std::string> all = modern_protocol_versions();
    for (const auto& x : legacy_protocol_versions()) all.push_back(x);
    return all;
  }();
  return v;
}

json server_info() {
  return {{"name", "athena-delta"}, {"version", kVersion}};
}

RequestEra read_era(const json& params) {
  RequestEra era;
  const json* meta = field(params, "_meta");
  if (meta && !meta->is_object()) {
    // Neither era allows it; a legacy request's _meta only ever held progressToken.
    era.error_code = kInvalidParams;
    era.error = "params._meta must be an object";
    return era;
  }
  if (!meta) return era;
  if (const json* info = field(*meta, kClientInfoKey)) era.client_name = str_field(*info, "name");
  const json* version = field(*meta, kProtocolVersionKey);
  if (!version) return era;  // legacy: no per-request version
  era.modern = true;
  if (!version->is_string()) {
    era.error_code = kInvalidParams;
    era.error = std::string("_meta[\"") + kProtocolVersionKey +
                "\"] must be a string, the protocol version of this request (e.g. \"" +
                modern_protocol_versions().front() + "\")";
    return era;
  }
  era.version = version->get<std::string>();
  if (!speaks(modern_protocol_versions(), era.version)) {
    era.error_code = kUnsupportedProtocolVersion;
    era.error = "Unsupported protocol version \"" + era.version + "\": athena-delta serves " +
                joined(modern_protocol_versions()) + " per request, and " + joined(legacy_protocol_versions()) +
                " after initialize";
    era.error_data = {{"supported", supported_protocol_versions()}, {"requested", era.version}};
    return era;
  }
  const json* caps = field(*meta, kClientCapabilitiesKey);
  if (!caps || !caps->is_object()) {
    era.error_code = kInvalidParams;
    era.error = std::string("a ") + era.version + " request must carry _meta[\"" + kClientCapabilitiesKey +
                "\"], an object ({} for a client that declares none)";
    return era;
  }
  return era;
}

json modern_result(json result) {
  result["resultType"] = "complete";
  if (!result.contains("_meta") || !result["_meta"].is_object()) result["_meta"] = json::object();
  result["_meta"][kServerInfoKey] = server_info();
  return result;
}

std::string legacy_version_for(const std::string& asked) {
  return speaks(legacy_protocol_versions(), asked) ? asked : legacy_protocol_versions().front();
}

}  // namespace athena::bridge
