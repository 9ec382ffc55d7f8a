// The two eras of MCP that `athena-bridge mcp` speaks, and what tells them apart.
//
// Legacy (2024-10-07 … 2025-11-25): the client opens with `initialize`, which fixes the version
// for the process. Modern (2026-07-28 on, specification basic/versioning): there is no handshake;
// every request carries its protocol version and the client's capabilities in
// params._meta["io.modelcontextprotocol/…"], every result says its `resultType`, and a version the
// server does not speak is answered -32022 with the versions it does. A request is served in the
// era it names: one with the modern `_meta` is modern, any other is legacy, so one process serves
// both kinds of client (a "dual-era" server, as the specification calls it).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace athena::bridge {

using nlohmann::json;

/// JSON-RPC's "invalid params" code: both eras answer a bad envelope or argument with it (here
/// once, since mcp.cpp and mcp_eras.cpp share one unity source in the asan and fuzz builds).
inline constexpr int kInvalidParams = -32602;

/// Revisions served per request (server/discover, the `_meta` envelope), newest first.
const std::vector<std::string>& modern_protocol_versions();
/// Revisions served after `initialize`, newest first (those the official TypeScript SDK 1.x speaks).
const std::vector<std::string>& legacy_protocol_versions();
/// Both, newest first: what server/discover and a -32022 error list.
const std::vector<std::string>& supported_protocol_versions();

inline constexpr int kUnsupportedProtocolVersion = -32022;  // 2026-07-28 basic/index "Error Codes"

/// What a request's params say about its era.
struct RequestEra {
  bool modern = false;      // it carries io.modelcontextprotocol/protocolVersion
  std::string version;      // that version (modern only)
  std::string client_name;  // its clientInfo's name, "" when it names none
  /// A modern request we cannot serve: -32602 (a malformed envelope) or -32022 (a version we do
  /// not speak, with `error_data` {supported, requested}); 0 when it can be served.
  int error_code = 0;
  std::string error;
  json error_data;
};

/// Who we are ({name, version}): initialize's serverInfo, and every modern result's.
json server_info();

/// Reads params._meta (params is an object). Never throws: every field is type-checked.
RequestEra read_era(const json& params);

/// A modern result: `resultType` "complete" and, in its `_meta`, who answered
/// (io.modelcontextprotocol/serverInfo, which 2026-07-28 asks of every result).
json modern_result(json result);

/// What `initialize` answers a legacy client asking for `asked`: the same version when we speak
/// it, else our newest legacy one (the client then decides whether it can go on).
std::string legacy_version_for(const std::string& asked);

}  // namespace athena::bridge
