#include "render/lines.h"

namespace athena::render {

void escaped(std::string& out, std::string_view s) {
  for (std::size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c == '"' || c == '\\' || c == '<') {
      out.push_back('\\');
      out.push_back(static_cast<char>(c));
    } else if (c < 0x20 || c == 0x7f) {
      out.push_back(' ');
    } else if (c == 0xC2 && i + 1 < s.size() && static_cast<unsigned char>(s[i + 1]) == 0x85) {
      out.push_back(' ');  // U+0085 NEXT LINE
      ++i;
    } else if (c == 0xE2 && i + 2 < s.size() && static_cast<unsigned char>(s[i + 1]) == 0x80 &&
               (static_cast<unsigned char>(s[i + 2]) == 0xA8 || static_cast<unsigned char>(s[i + 2]) == 0xA9)) {
      out.push_back(' ');  // U+2028 LINE SEPARATOR, U+2029 PARAGRAPH SEPARATOR
      i += 2;
    } else {
      out.push_back(static_cast<char>(c));
    }
  }
}

void quoted(std::string& out, std::string_view s) {
  out.push_back('"');
  escaped(out, s);
  out.push_back('"');
}

void role_word(std::string& out, std::string_view role) {
  // Roles come from the compiler's closed lists (compiler/roles.cpp); this guard keeps a role
  // word a word even if a new path ever hands the renderer something else.
  bool word = !role.empty();
  for (const char c : role)
    word = word && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_');
  out += word ? role : std::string_view("generic");
}

void attr(std::string& out, const char* key, std::string_view value) {
  out.push_back(' ');
  out += key;
  out.push_back('=');
  quoted(out, value);
}

const char* tri_name(Tri t) {
  switch (t) {
    case Tri::kTrue:
      return "true";
    case Tri::kFalse:
      return "false";
    case Tri::kMixed:
      return "mixed";
    case Tri::kUnset:
      break;
  }
  return nullptr;
}

const char* sort_name(Sort s) {
  switch (s) {
    case Sort::kAscending:
      return "ascending";
    case Sort::kDescending:
      return "descending";
    case Sort::kOther:
      return "other";
    case Sort::kUnset:
      break;
  }
  return nullptr;
}

std::vector<StateWord> state_word_list(const Element& e) {
  std::vector<StateWord> out;
  const NodeState& s = e.state;
  auto word = [&](const char* w) { out.push_back({w, w}); };
  auto tri = [&](const char* key, Tri t, bool false_matters) {
    const char* w = tri_name(t);
    if (w == nullptr || (t == Tri::kFalse && !false_matters)) return;
    out.push_back({key, t == Tri::kTrue ? std::string(key) : std::string(key) + "=" + w});
  };
  if (e.category == Category::kHeading && e.level > 0) out.push_back({"level", "level=" + std::to_string(e.level)});
  if (s.disabled) word("disabled");
  if (s.focused) word("focused");
  if (s.required) word("required");
  if (s.invalid) word("invalid");
  if (s.readonly) word("readonly");
  if (s.selected) word("selected");
  if (s.current) word("current");
  // A checkbox that is not checked says so: "checked=false" is information, not noise.
  tri("checked", s.checked, true);
  tri("expanded", s.expanded, true);
  tri("pressed", s.pressed, true);
  if (const char* w = sort_name(s.sort)) out.push_back({"sort", std::string("sort=") + w});
  if (s.value_redacted) {
    out.push_back({"value", "value=redacted"});
  } else if (!s.value.empty()) {
    std::string w;
    attr(w, "value", s.value);
    out.push_back({"value", w.substr(1)});
  }
  // A link's name says where it leads; its address only when it has no name (read gives it).
  if (!e.href.empty() && e.name.empty()) {
    std::string w;
    attr(w, "href", e.href);
    out.push_back({"href", w.substr(1)});
  }
  if (!e.description.empty()) {
    std::string w;
    attr(w, "desc", e.description);
    out.push_back({"desc", w.substr(1)});
  }
  return out;
}

std::string state_words(const Element& e) {
  std::string out;
  for (const StateWord& w : state_word_list(e)) {
    out.push_back(' ');
    out += w.word;
  }
  return out;
}

// Non-interactive things have no ref worth acting on but keep it (a delta can remove them).
void element_line(std::string& out, const Element& e, bool say_frame) {
  out += e.ref;
  out.push_back(' ');
  if (e.role.empty())
    out += category_name(e.category);
  else
    role_word(out, e.role);
  out.push_back(' ');
  quoted(out, e.name);
  out += state_words(e);
  if (e.cut) out += " cut";
  if (say_frame && e.frame != 0) out += " frame=f" + std::to_string(e.frame);
  out.push_back('\n');
}

std::string ascii_lower(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

void region_open(std::string& out, const RegionBlock& b) {
  out += "<region name=\"";
  out += region_name(b.region);
  out.push_back('"');
  if (!b.label.empty()) attr(out, "label", b.label);
  if (!b.frame_ref.empty() && b.frame_ref != "f0") attr(out, "frame", b.frame_ref);
  overlay_attrs(out, b.overlay_type, b.overlay_depth);
}

void overlay_attrs(std::string& out, OverlayType type, int depth) {
  if (depth <= 0) return;
  attr(out, "overlay", overlay_type_name(type));
  if (depth > 1) out += " depth=\"" + std::to_string(depth) + "\"";
}

}  // namespace athena::render
