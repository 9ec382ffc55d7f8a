// Small string helpers shared by the compiler: whitespace collapsing the way Chrome's
// accessible names do it, UTF-8-safe truncation, ASCII case folding and token lists.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace athena::compiler {

/// Appends `in` to `out` with every run of HTML whitespace (incl. NBSP) turned into one space.
/// Leading/trailing spaces are kept as a single space so pieces can be concatenated.
void append_collapsed(std::string& out, std::string_view in);

/// Collapses whitespace runs into one space and trims both ends.
std::string collapse_ws(std::string_view in);

/// Trims spaces at both ends in place.
void trim_in_place(std::string& s);

/// Cuts `s` to at most `max_bytes` bytes without splitting a UTF-8 sequence.
void cut_utf8(std::string& s, std::size_t max_bytes);

/// ASCII lower-case copy (tag names, attribute values compared case-insensitively).
std::string lower(std::string_view s);

/// True if `s` equals `t` ignoring ASCII case.
// Inline: attribute lookups call it for every attribute of every element.
inline bool iequals(std::string_view s, std::string_view t) {
  if (s.size() != t.size()) return false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    char a = s[i], b = t[i];
    if (a >= 'A' && a <= 'Z') a = static_cast<char>(a - 'A' + 'a');
    if (b >= 'A' && b <= 'Z') b = static_cast<char>(b - 'A' + 'a');
    if (a != b) return false;
  }
  return true;
}

/// First whitespace-separated token of `s` (empty if none).
std::string_view first_token(std::string_view s);

/// True if the whitespace-separated token list `list` contains `token` (ASCII case-insensitive).
bool has_token(std::string_view list, std::string_view token);

/// True if `s` is only HTML whitespace (or empty).
bool is_blank(std::string_view s);

/// Says something: a letter or a digit, not only separators and symbols ("|", "»", "·", "—", "→").
bool has_words(std::string_view t);

/// Parses a decimal integer (leading sign allowed, trailing junk rejected); false if not one.
bool parse_int(std::string_view s, long long& out);

}  // namespace athena::compiler
