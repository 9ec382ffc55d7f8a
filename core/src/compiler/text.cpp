#include "compiler/text.h"

#include <cstdint>
#include <cstdlib>

namespace athena::compiler {
namespace {

// Length of an HTML whitespace sequence at s[i], 0 if none. NBSP (U+00A0, C2 A0) counts:
// Chrome's names collapse it like a space.
std::size_t ws_len(std::string_view s, std::size_t i) {
  const unsigned char c = static_cast<unsigned char>(s[i]);
  if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f') return 1;
  if (c == 0xC2 && i + 1 < s.size() && static_cast<unsigned char>(s[i + 1]) == 0xA0) return 2;
  return 0;
}

}  // namespace

// Runs of non-whitespace are appended whole: per-character push_back was a tenth of compile
// time in wasm, where it is not inlined.
void append_collapsed(std::string& out, std::string_view in) {
  bool space = !out.empty() && out.back() == ' ';
  std::size_t run = 0;  // start of the pending run of non-whitespace
  for (std::size_t i = 0; i < in.size();) {
    if (const std::size_t n = ws_len(in, i)) {
      out.append(in.data() + run, i - run);
      if (!space) out.push_back(' ');
      space = true;
      i += n;
      run = i;
    } else {
      space = false;
      ++i;
    }
  }
  out.append(in.data() + run, in.size() - run);
}

void trim_in_place(std::string& s) {
  std::size_t e = s.size();
  while (e > 0 && s[e - 1] == ' ') --e;
  s.resize(e);
  std::size_t b = 0;
  while (b < s.size() && s[b] == ' ') ++b;
  if (b) s.erase(0, b);
}

std::string collapse_ws(std::string_view in) {
  if (in.empty()) return {};
  std::string out;
  out.reserve(in.size());
  append_collapsed(out, in);
  trim_in_place(out);
  return out;
}

void cut_utf8(std::string& s, std::size_t max_bytes) {
  if (s.size() <= max_bytes) return;
  std::size_t n = max_bytes;
  // Back up over continuation bytes (10xxxxxx) so the cut lands on a character start.
  while (n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80) --n;
  s.resize(n);
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

namespace {
bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
}
}  // namespace

std::string_view first_token(std::string_view s) {
  std::size_t b = 0;
  while (b < s.size() && is_space(s[b])) ++b;
  std::size_t e = b;
  while (e < s.size() && !is_space(s[e])) ++e;
  return s.substr(b, e - b);
}

bool has_token(std::string_view list, std::string_view token) {
  std::size_t i = 0;
  while (i < list.size()) {
    while (i < list.size() && is_space(list[i])) ++i;
    std::size_t e = i;
    while (e < list.size() && !is_space(list[e])) ++e;
    if (e > i && iequals(list.substr(i, e - i), token)) return true;
    i = e;
  }
  return false;
}

bool is_blank(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t n = ws_len(s, i);
    if (!n) return false;
    i += n;
  }
  return true;
}

bool parse_int(std::string_view s, long long& out) {
  if (s.empty()) return false;
  std::string t = collapse_ws(s);
  if (t.empty() || t.size() > 18) return false;
  std::size_t i = 0;
  bool neg = false;
  if (t[0] == '-' || t[0] == '+') {
    neg = t[0] == '-';
    i = 1;
  }
  if (i == t.size()) return false;
  long long v = 0;
  for (; i < t.size(); ++i) {
    if (t[i] < '0' || t[i] > '9') return false;
    v = v * 10 + (t[i] - '0');
  }
  out = neg ? -v : v;
  return true;
}

bool has_words(std::string_view t) {
  for (std::size_t i = 0; i < t.size();) {
    const auto c = static_cast<unsigned char>(t[i]);
    if (c < 0x80) {
      if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) return true;
      ++i;
      continue;
    }
    // Decode one UTF-8 sequence; Latin-1 symbols, general punctuation, arrows and shapes say nothing.
    std::uint32_t cp = 0;
    std::size_t len = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
    cp = len == 1 ? c : c & (0xFF >> (len + 1));
    for (std::size_t k = 1; k < len && i + k < t.size(); ++k)
      cp = (cp << 6) | (static_cast<unsigned char>(t[i + k]) & 0x3F);
    i += len;
    const bool symbol = (cp >= 0xA0 && cp <= 0xBF) || cp == 0xD7 || cp == 0xF7 || (cp >= 0x2000 && cp <= 0x2BFF) ||
                        (cp >= 0xFE00 && cp <= 0xFE0F);
    if (!symbol) return true;
  }
  return false;
}

}  // namespace athena::compiler
