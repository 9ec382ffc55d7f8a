// The pieces every agent-text line is made of, shared by FactPacks and find answers: one quoting
// routine for every page-derived string, and one element line.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "athena/factpack.h"

namespace athena::render {

/// A quoted value: quote and backslash backslash-escaped, "<" as "\<" (page text can never open
/// or close a tag), control characters and Unicode line/paragraph separators as spaces (page text
/// can never start a line).
void quoted(std::string& out, std::string_view s);

/// The same escaping without the quotes, for text between tags (<warning>…</warning>): the text
/// can never hold a "<" that closes or opens a tag, nor a line break.
void escaped(std::string& out, std::string_view s);

/// A role as one word of [A-Za-z0-9_-]; anything else renders as "generic".
void role_word(std::string& out, std::string_view role);

/// ` key="value"` through quoted().
void attr(std::string& out, const char* key, std::string_view value);

/// One state word and the key it sets (`checked=false` sets "checked", `value="a"` "value").
struct StateWord {
  const char* key;
  std::string word;
};

/// The state words of an element, in a fixed order (level, flags, checked/expanded/pressed, sort,
/// value, href of a nameless link, desc).
std::vector<StateWord> state_word_list(const Element& e);
/// "ascending", "descending", "other" (aria-sort's words); nullptr when unset.
const char* sort_name(Sort s);
/// "true", "false", "mixed" (the words of a tri-state: checked, expanded, pressed); nullptr when
/// unset. The text and the JSON of a FactPack both spell a tri-state with it.
const char* tri_name(Tri t);

/// state_word_list joined, each word after a space; "" when nothing is set.
std::string state_words(const Element& e);

/// `ref role "name" state...\n`. `say_frame`: end with ` frame=f2` when the element is in an
/// iframe (a find answer's lines stand alone; in a FactPack its region or added block says it).
void element_line(std::string& out, const Element& e, bool say_frame = false);

/// ASCII letters in lower case, nothing else folded (find's names and regions, region labels).
std::string ascii_lower(std::string_view s);

/// `<region name="main"[ label="…"][ frame="f2"]` (the caller closes the tag).
void region_open(std::string& out, const RegionBlock& b);

/// ` overlay="modal"` and, for one opened over another, ` depth="2"`: which open overlay a full's
/// region (or the innermost, on a full's tag) is; nothing at depth 0 (no overlay).
void overlay_attrs(std::string& out, OverlayType type, int depth);

}  // namespace athena::render
