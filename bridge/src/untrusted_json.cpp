#include "untrusted_json.h"

#include "limits.h"

namespace athena::bridge {

JsonShape scan_json(std::string_view text) {
  JsonShape s;
  std::size_t depth = 0;
  bool in_string = false, escaped = false, top_array = false, top_has_item = false;
  for (const char c : text) {
    if (in_string) {
      if (escaped)
        escaped = false;
      else if (c == '\\')
        escaped = true;
      else if (c == '"')
        in_string = false;
      continue;
    }
    switch (c) {
      case '"':
        in_string = true;
        if (depth == 1 && top_array) top_has_item = true;
        break;
      case '[':
      case '{':
        if (depth == 0 && c == '[') top_array = true;
        if (depth == 1 && top_array) top_has_item = true;
        if (++depth > s.depth) s.depth = depth;
        break;
      case ']':
      case '}':
        if (depth > 0) --depth;
        break;
      case ',':
        if (depth == 1 && top_array) ++s.top_items;
        break;
      case ' ':
      case '\t':
      case '\r':
      case '\n':
        break;
      default:
        if (depth == 1 && top_array) top_has_item = true;
    }
  }
  if (top_has_item) ++s.top_items;  // n commas separate n + 1 items
  return s;
}

json parse_untrusted(std::string_view text, std::string& error, std::size_t max_top_items) {
  const JsonShape shape = scan_json(text);
  if (shape.depth > limits::kMaxJsonDepth) {
    error = "nested " + std::to_string(shape.depth) + " levels deep; at most " + std::to_string(limits::kMaxJsonDepth);
    return json(json::value_t::discarded);
  }
  if (shape.top_items > max_top_items) {
    error = "a batch of " + std::to_string(shape.top_items) + " messages; at most " + std::to_string(max_top_items);
    return json(json::value_t::discarded);
  }
  json v = json::parse(text.begin(), text.end(), nullptr, false);
  if (v.is_discarded()) error = "not valid JSON";
  return v;
}

const json* field(const json& object, const char* key) {
  if (!object.is_object()) return nullptr;
  const auto it = object.find(key);
  return it == object.end() ? nullptr : &*it;
}

std::string str_field(const json& object, const char* key, const std::string& fallback) {
  const json* f = field(object, key);
  return f && f->is_string() ? f->get<std::string>() : fallback;
}

bool bool_field(const json& object, const char* key, bool fallback) {
  const json* f = field(object, key);
  return f && f->is_boolean() ? f->get<bool>() : fallback;
}

double number_field(const json& object, const char* key, double fallback) {
  const json* f = field(object, key);
  return f && f->is_number() ? f->get<double>() : fallback;
}

bool is_id(const json& value) {
  return value.is_string() || value.is_number_integer();
}

}  // namespace athena::bridge
