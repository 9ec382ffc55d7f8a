// The CSS `content` property of a ::before/::after, as Chrome's computed style serializes it
// (`"Step " counter(step) ": "`, `"★" / "Favourite"`): what a name takes from it (accname 1.2
// step 2F.ii). Capture::styles asks for it (extension/lib/capture.js); a capture without it names
// from the generated text alone, as before.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace athena::compiler {

/// One item of a `content` list.
struct ContentItem {
  enum Kind { kString, kCounter, kAttr, kOther } kind = kOther;
  std::string text;  // kString: the string unescaped; kAttr: the attribute's name; else the item as written
};

/// A `content` value split at its top-level "/": the generated items, and the alternative text's.
struct CssContent {
  std::vector<ContentItem> items;
  std::vector<ContentItem> alt;
  bool has_alt = false;  // a "/" was there (an empty alternative, `/ ""`, hides the content from names)
};

/// Parses a computed `content` value. False for "normal", "none", an empty value or one it cannot
/// read (the caller then names from the generated text as it is).
bool parse_css_content(std::string_view value, CssContent& out);

}  // namespace athena::compiler
