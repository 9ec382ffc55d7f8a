// Every JSON value the bridge reads comes from outside (an MCP client, a socket client, the
// extension) and is read through here: its size and nesting are bounded before it is parsed, so
// nothing recursive (dump, comparison, destruction) ever meets a value deeper than
// limits::kMaxJsonDepth, and fields are read with their type checked, never with a throwing
// accessor.
#pragma once

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace athena::bridge {

using nlohmann::json;

/// What a cheap scan of JSON text sees without building anything.
struct JsonShape {
  std::size_t depth = 0;      // deepest nesting of arrays/objects
  std::size_t top_items = 0;  // elements of a top-level array (0 otherwise)
};
JsonShape scan_json(std::string_view text);

/// Parses text whose nesting is at most limits::kMaxJsonDepth and, if it is an array, whose
/// elements number at most `max_top_items`. On refusal returns a discarded value and says why
/// in `error` ("nested 80000 levels deep; at most 64", "not valid JSON", ...).
json parse_untrusted(std::string_view text, std::string& error, std::size_t max_top_items = SIZE_MAX);

/// Typed field access on an object of unknown shape: the fallback when the field is absent or
/// of another type (never an exception).
std::string str_field(const json& object, const char* key, const std::string& fallback = "");
bool bool_field(const json& object, const char* key, bool fallback = false);
double number_field(const json& object, const char* key, double fallback = 0);
/// The field if present (any type), else nullptr.
const json* field(const json& object, const char* key);

/// A JSON-RPC id or progress token as MCP allows it: a string or an integer.
bool is_id(const json& value);

}  // namespace athena::bridge
