// The MCP tool list: the extension's actions, generated at build time from the one tool contract
// (extension/lib/tool-contract.js, via bridge/gen-tools.mjs), described as briefly as an agent needs. The whole list is
// in every agent's context: it is budgeted and measured (bench/tool-list-results.md).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace athena::bridge {

using nlohmann::json;

/// tools/list's `tools` array. Plain by default: no outputSchema, because a tool that declares
/// one must return structuredContent, and some clients (Claude Code) then give the model
/// JSON.stringify(structuredContent) instead of the FactPack text (docs/factpack-format.md,
/// "What reaches the model"). `structured` adds an outputSchema to every FactPack tool.
const json& tool_list(bool structured = false);

/// tools/list's `tools` for a server started with these tool groups (`athena-bridge mcp
/// --tools core,input`): only the tools of those groups, in the contract's order.
json served_tools(bool structured, const std::vector<std::string>& groups);

/// The contract's tool groups, in order (extension/lib/tool-contract.js GROUPS); "core" first.
const std::vector<std::string>& tool_groups();

/// The group a tool is served in ("" for an unknown tool).
std::string tool_group(const std::string& name);

/// The tool's definition, or nullptr.
const json* find_tool(const std::string& name);

/// "" if `args` satisfy the tool's inputSchema (required keys, property types, no unknown keys),
/// else what is wrong, in words an agent can act on.
std::string check_arguments(const json& tool, const json& args);

/// Whether the tool answers with a FactPack (and so, in structured mode, has an outputSchema).
bool returns_factpack(const std::string& name);

/// The argument of tool `name` that lists files on this computer (its declaration's localFiles),
/// which the native host resolves before the call goes on; "" when it names none.
std::string local_files_arg(const std::string& name);

}  // namespace athena::bridge
