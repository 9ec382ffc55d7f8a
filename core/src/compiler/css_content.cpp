#include "compiler/css_content.h"

#include <algorithm>
#include <cstdint>
#include <utility>

#include "athena/limits.h"
#include "compiler/text.h"

namespace athena::compiler {
namespace {

// A `content` value longer than this is not read: its generated text is used as it is.
constexpr std::size_t kMaxContentValue = 4 * limits::kMaxTextChars;

bool css_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
}
bool hex_digit(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

void append_code_point(std::string& out, std::uint32_t cp) {
  // CSS Syntax §4.3.7: zero, a surrogate or a value past U+10FFFF reads as U+FFFD.
  if (cp == 0 || (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF) cp = 0xFFFD;
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

// A quoted string at v[i] (CSS Syntax §4.3.5): escapes read, i past the closing quote.
bool read_string(std::string_view v, std::size_t& i, std::string& out) {
  const char q = v[i++];
  while (i < v.size()) {
    const char c = v[i];
    if (c == q) {
      ++i;
      return true;
    }
    if (c != '\\') {
      out.push_back(c);
      ++i;
      continue;
    }
    if (++i >= v.size()) return true;
    if (v[i] == '\n') {  // an escaped newline continues the string
      ++i;
      continue;
    }
    if (!hex_digit(v[i])) {
      out.push_back(v[i++]);
      continue;
    }
    std::uint32_t cp = 0;
    for (int k = 0; k < 6 && i < v.size() && hex_digit(v[i]); ++k, ++i) {
      const char h = v[i];
      cp = cp * 16 + static_cast<std::uint32_t>(h <= '9' ? h - '0' : (h | 0x20) - 'a' + 10);
    }
    if (i < v.size() && css_space(v[i])) ++i;  // one space ends the escape
    append_code_point(out, cp);
  }
  return true;  // an unclosed string ends with the value (CSS Syntax: a parse error, kept)
}

}  // namespace

bool parse_css_content(std::string_view v, CssContent& out) {
  out = CssContent{};
  if (v.empty() || v.size() > kMaxContentValue || v == "normal" || v == "none") return false;
  std::vector<ContentItem>* list = &out.items;
  for (std::size_t i = 0; i < v.size();) {
    const char c = v[i];
    if (css_space(c)) {
      ++i;
    } else if (c == '"' || c == '\'') {
      ContentItem& s = list->emplace_back();
      s.kind = ContentItem::kString;
      read_string(v, i, s.text);
    } else if (c == '/') {
      if (out.has_alt) return false;  // one alternative at most
      out.has_alt = true;
      list = &out.alt;
      ++i;
    } else {
      // An identifier (open-quote) or a function (counter(step), attr(title), url("x.png")), to
      // its closing parenthesis, strings inside skipped whole.
      const std::size_t b = i;
      int depth = 0;
      while (i < v.size() && (depth > 0 || (!css_space(v[i]) && v[i] != '/' && v[i] != '"' && v[i] != '\''))) {
        if (v[i] == '(') {
          ++depth;
        } else if (v[i] == ')') {
          --depth;
        } else if ((v[i] == '"' || v[i] == '\'') && depth > 0) {
          std::string skipped;
          read_string(v, i, skipped);
          continue;
        } else if (v[i] == '\\') {
          ++i;
        }
        ++i;
      }
      if (i == b) return false;
      const std::string_view w = v.substr(b, i - b);
      ContentItem& it = list->emplace_back();
      it.text = std::string(w);
      const std::size_t paren = w.find('(');
      const std::string name = lower(w.substr(0, paren == std::string_view::npos ? w.size() : paren));
      if (name == "counter" || name == "counters") {
        it.kind = ContentItem::kCounter;
      } else if (name == "attr" && paren != std::string_view::npos && w.back() == ')') {
        // attr(name type, fallback): the attribute's name is its first word
        std::string a = collapse_ws(w.substr(paren + 1, w.size() - paren - 2));
        a.resize(std::min(a.size(), a.find_first_of(" ,")));
        if (!a.empty()) {
          it.kind = ContentItem::kAttr;
          it.text = std::move(a);
        }
      }
    }
  }
  return true;
}

}  // namespace athena::compiler
