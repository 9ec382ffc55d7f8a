// The agent text of a FactPack (DESIGN §3–5, seeds/003, 004, 000 §5).
//
// One line per element: `<ref> <role> "<name>"` then only the state that is set
// (`checked`, `expanded=false`, `value="…"`, `href="…"`). Blocks are XML-like tags whose
// attribute names are words, so an agent reads it without a manual:
//
//   <delta v="5" after="4">
//   <removed>c0p1f0e7 button "Undo"</removed>            (invalidated refs come first)
//   <added region="main">
//   c0p1f0e9 button "Delete"
//   </added>
//   <modified>
//   c0p1f0e3 checkbox "Buy milk": checked=false -> checked
//   </modified>
//   <summary added="1" modified="1" removed="1"/>
//   </delta>
//
// Bounds (limits.h): baseline regions longer than kRegionTrimThreshold keep their first
// kRegionTrimHead and last kRegionTrimTail elements plus every focused or in-viewport one; delta
// lists keep kDeltaCapPerCategory interactive and kNonInteractiveCap other lines per category.
// Whatever is left out is counted ("... 12 more: find role=link region=nav") and reachable with
// the find tool. Output is a pure function of the FactPack: byte-identical everywhere.
#include <algorithm>
#include <array>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "athena/limits.h"
#include "athena/render.h"

namespace athena {
namespace {

/// A quoted value: backslash-escaped quote and backslash, control characters as spaces.
void quoted(std::string& out, std::string_view s) {
  out.push_back('"');
  for (const char c : s) {
    if (c == '"' || c == '\\') {
      out.push_back('\\');
      out.push_back(c);
    } else if (static_cast<unsigned char>(c) < 0x20) {
      out.push_back(' ');
    } else {
      out.push_back(c);
    }
  }
  out.push_back('"');
}

void attr(std::string& out, const char* key, std::string_view value) {
  out.push_back(' ');
  out += key;
  out.push_back('=');
  quoted(out, value);
}

const char* tri_word(Tri t) {
  switch (t) {
    case Tri::kTrue: return "true";
    case Tri::kFalse: return "false";
    case Tri::kMixed: return "mixed";
    case Tri::kUnset: break;
  }
  return "";
}

/// The state words of an element, in a fixed order; "" when nothing is set.
std::string state_words(const Element& e) {
  std::string out;
  const NodeState& s = e.state;
  auto word = [&](const char* w) {
    out.push_back(' ');
    out += w;
  };
  auto tri = [&](const char* key, Tri t, bool false_matters) {
    if (t == Tri::kUnset || (t == Tri::kFalse && !false_matters)) return;
    out.push_back(' ');
    out += key;
    if (t != Tri::kTrue) {
      out.push_back('=');
      out += tri_word(t);
    }
  };
  if (e.category == Category::kHeading && e.level > 0) out += " level=" + std::to_string(e.level);
  if (s.disabled) word("disabled");
  if (s.focused) word("focused");
  if (s.required) word("required");
  if (s.invalid) word("invalid");
  if (s.readonly) word("readonly");
  if (s.selected) word("selected");
  // A checkbox that is not checked says so: "checked=false" is information, not noise.
  tri("checked", s.checked, true);
  tri("expanded", s.expanded, true);
  tri("pressed", s.pressed, true);
  if (s.value_redacted) {
    out += " value=redacted";
  } else if (!s.value.empty()) {
    attr(out, "value", s.value);
  }
  if (!e.href.empty()) attr(out, "href", e.href);
  if (!e.description.empty()) attr(out, "desc", e.description);
  return out;
}

/// `ref role "name" state...`; non-interactive things have no ref worth acting on but keep it.
void element_line(std::string& out, const Element& e) {
  out += e.ref;
  out.push_back(' ');
  out += e.role.empty() ? category_name(e.category) : e.role;
  out.push_back(' ');
  quoted(out, e.name);
  out += state_words(e);
  out.push_back('\n');
}

bool cap_interactive(Category c) { return c == Category::kInteractive; }

/// Writes a capped list of lines; returns how many were left out per category.
template <typename T, typename Line>
void capped(std::string& out, const std::vector<const T*>& items, Category (*cat)(const T&), bool caps, Line line,
            std::array<std::size_t, 5>& hidden) {
  std::array<std::size_t, 5> shown{};
  for (const T* it : items) {
    const Category c = cat(*it);
    const std::size_t k = static_cast<std::size_t>(c);
    const std::size_t cap = cap_interactive(c) ? limits::kDeltaCapPerCategory : limits::kNonInteractiveCap;
    if (caps && shown[k] >= cap) {
      ++hidden[k];
      continue;
    }
    ++shown[k];
    line(out, *it);
  }
}

void more_lines(std::string& out, const std::array<std::size_t, 5>& hidden, const char* what) {
  for (std::size_t k = 0; k < hidden.size(); ++k) {
    if (!hidden[k]) continue;
    out += "... " + std::to_string(hidden[k]) + " more " + what + " " + category_name(static_cast<Category>(k)) +
           " (use find to see them)\n";
  }
}

Category element_category(const Element& e) { return e.category; }
Category modified_category(const Modified& m) { return m.after.category; }
Category invalidation_category(const Invalidation&) { return Category::kInteractive; }

/// "checked=false -> checked", "name "A" -> "B"": only what differs.
std::string change_words(const Modified& m) {
  std::string out;
  const Element& a = m.before;
  const Element& b = m.after;
  auto sep = [&] {
    if (!out.empty()) out += ", ";
  };
  if (a.role != b.role) {
    sep();
    out += "role " + a.role + " -> " + b.role;
  }
  auto text_change = [&](const char* what, const std::string& before, const std::string& after) {
    if (before == after) return;
    sep();
    out += what;
    out.push_back(' ');
    quoted(out, before);
    out += " -> ";
    quoted(out, after);
  };
  text_change("name", a.name, b.name);
  text_change("desc", a.description, b.description);
  text_change("href", a.href, b.href);
  Element sa = a, sb = b;  // compare state words only
  sa.href.clear();
  sb.href.clear();
  sa.description.clear();
  sb.description.clear();
  std::string wa = state_words(sa), wb = state_words(sb);
  if (wa != wb) {
    sep();
    auto trim = [](std::string s) { return s.empty() ? std::string("(none)") : s.substr(1); };
    out += trim(wa) + " -> " + trim(wb);
  }
  if (out.empty()) out = "moved";  // region or overlay changed only
  return out;
}

/// Head/tail trimming of one baseline region: the elements kept, in order, with gap sizes.
std::vector<std::pair<const Element*, std::size_t>> trim_region(const std::vector<Element>& els, bool trim) {
  std::vector<std::pair<const Element*, std::size_t>> out;  // element, then count hidden before it
  const std::size_t n = els.size();
  if (!trim || n <= limits::kRegionTrimThreshold) {
    for (const Element& e : els) out.emplace_back(&e, 0);
    return out;
  }
  std::size_t gap = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const Element& e = els[i];
    const bool keep = i < limits::kRegionTrimHead || i >= n - limits::kRegionTrimTail || e.state.focused || e.in_viewport;
    if (!keep) {
      ++gap;
      continue;
    }
    out.emplace_back(&e, gap);
    gap = 0;
  }
  if (gap) out.emplace_back(nullptr, gap);
  return out;
}

void region_open(std::string& out, const RegionBlock& b) {
  out += "<region name=\"";
  out += region_name(b.region);
  out.push_back('"');
  if (!b.label.empty()) attr(out, "label", b.label);
  if (!b.frame_ref.empty() && b.frame_ref != "f0") attr(out, "frame", b.frame_ref);
}

struct Totals {
  std::size_t elements = 0, shown = 0, unchanged_regions = 0;
};

void regions(std::string& out, const std::vector<RegionBlock>& blocks, const RenderOptions& o, Totals& t) {
  for (const RegionBlock& b : blocks) {
    t.elements += b.elements.size();
    if (b.unchanged && o.dedup) {
      region_open(out, b);
      out += " unchanged=\"true\" count=\"" + std::to_string(b.elements.size()) + "\"/>\n";
      ++t.unchanged_regions;
      continue;
    }
    region_open(out, b);
    out += ">\n";
    for (const auto& [e, gap] : trim_region(b.elements, o.trim_regions)) {
      if (gap) {
        out += "... " + std::to_string(gap) + " more here (use find with region=";
        out += region_name(b.region);
        out += ")\n";
      }
      if (e) {
        element_line(out, *e);
        ++t.shown;
      }
    }
    out += "</region>\n";
  }
}

void open_tag(std::string& out, const FactPack& p) {
  out.push_back('<');
  out += pack_type_name(p.type);
  out += " v=\"" + std::to_string(p.version) + "\"";
  if (!p.reason.empty()) attr(out, "reason", p.reason);
  if (p.type == PackType::kFull) {
    attr(out, "url", p.url);
    attr(out, "title", p.title);
  }
  if (p.type == PackType::kOverlayOpened || p.type == PackType::kOverlayClosed) {
    attr(out, "overlay", overlay_type_name(p.overlay.type));
    if (!p.overlay.name.empty()) attr(out, "name", p.overlay.name);
    if (p.overlay.depth > 1) out += " depth=\"" + std::to_string(p.overlay.depth) + "\"";
  }
}

void render_into(std::string& out, const FactPack& p, const RenderOptions& o) {
  open_tag(out, p);
  const bool empty = p.invalidated.empty() && p.regions.empty() && p.added.empty() && p.modified.empty() &&
                     p.warnings.empty() && p.before_action.empty();
  if (p.type == PackType::kNoChange && empty) {
    out += "/>\n";
    return;
  }
  out += ">\n";
  for (const std::string& w : p.warnings) {
    out += "<warning>";
    out += w;
    out += "</warning>\n";
  }
  for (const FactPack& b : p.before_action) {
    out += "<before_action>\n";
    render_into(out, b, o);
    out += "</before_action>\n";
  }

  // Invalidated refs first: the agent must stop using them. Grouped by cause.
  std::array<std::size_t, 5> hidden{};
  std::map<std::string, std::vector<const Invalidation*>> by_cause;
  for (const Invalidation& inv : p.invalidated) by_cause[inv.cause].push_back(&inv);
  std::size_t removed_total = 0;
  for (const auto& [cause, list] : by_cause) {
    removed_total += list.size();
    // A replaced document or a detached frame takes all its refs along: one line says it.
    // (Refs inside regions rendered unchanged="true" are rebound and stay valid.)
    if (cause == "navigated" || cause == "detached") {
      out += "<invalid cause=\"" + cause + "\" count=\"" + std::to_string(list.size()) + "\"/>\n";
      continue;
    }
    const bool plain = cause == "removed";
    out += plain ? "<removed>\n" : "<invalid cause=\"" + cause + "\">\n";
    std::array<std::size_t, 5> h{};
    capped<Invalidation>(out, list, invalidation_category, o.caps,
                         [](std::string& s, const Invalidation& inv) {
                           s += inv.ref;
                           if (!inv.role.empty() || !inv.name.empty()) {
                             s.push_back(' ');
                             s += inv.role;
                             s.push_back(' ');
                             quoted(s, inv.name);
                           }
                           s.push_back('\n');
                         },
                         h);
    more_lines(out, h, "refs of");
    out += plain ? "</removed>\n" : "</invalid>\n";
  }

  Totals t;
  if (!p.regions.empty()) regions(out, p.regions, o, t);

  // Added: grouped by region in order of first appearance, capped per category.
  if (!p.added.empty()) {
    std::vector<std::pair<std::string, std::vector<const Element*>>> groups;
    for (const Element& e : p.added) {
      std::string key = region_name(e.region);
      if (!e.region_label.empty()) key += "\t" + e.region_label;
      auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == key; });
      if (it == groups.end()) {
        groups.emplace_back(key, std::vector<const Element*>{});
        it = groups.end() - 1;
      }
      it->second.push_back(&e);
    }
    std::array<std::size_t, 5> h{};
    for (const auto& [key, list] : groups) {
      out += "<added";
      if (list.front()->region != Region::kPage) {
        out += " region=\"";
        out += region_name(list.front()->region);
        out.push_back('"');
      }
      if (!list.front()->region_label.empty()) attr(out, "label", list.front()->region_label);
      out += ">\n";
      capped<Element>(out, list, element_category, o.caps, element_line, h);
      out += "</added>\n";
    }
    more_lines(out, h, "added");
  }
  if (!p.modified.empty()) {
    std::vector<const Modified*> list;
    for (const Modified& m : p.modified) list.push_back(&m);
    out += "<modified>\n";
    std::array<std::size_t, 5> h{};
    capped<Modified>(out, list, modified_category, o.caps,
                     [](std::string& s, const Modified& m) {
                       s += m.ref;
                       s.push_back(' ');
                       s += m.after.role;
                       s.push_back(' ');
                       quoted(s, m.after.name);
                       s += ": ";
                       s += change_words(m);
                       s.push_back('\n');
                     },
                     h);
    more_lines(out, h, "modified");
    out += "</modified>\n";
  }

  // One-line count summary.
  out += "<summary";
  if (p.type == PackType::kFull || !p.regions.empty()) {
    out += " elements=\"" + std::to_string(t.elements) + "\"";
    if (t.shown + 0 != t.elements) out += " shown=\"" + std::to_string(t.shown) + "\"";
    if (t.unchanged_regions) out += " unchanged_regions=\"" + std::to_string(t.unchanged_regions) + "\"";
  }
  if (!p.added.empty()) out += " added=\"" + std::to_string(p.added.size()) + "\"";
  if (!p.modified.empty()) out += " modified=\"" + std::to_string(p.modified.size()) + "\"";
  if (removed_total) out += " removed=\"" + std::to_string(removed_total) + "\"";
  out += "/>\n";
  (void)hidden;
  out += "</";
  out += pack_type_name(p.type);
  out += ">\n";
}

}  // namespace

std::string render_text(const FactPack& pack, const RenderOptions& options) {
  std::string out;
  out.reserve(256 + 64 * (pack.added.size() + pack.modified.size() + pack.invalidated.size()));
  render_into(out, pack, options);
  return out;
}

}  // namespace athena
