// One file past 400 lines: the grammar below is written by one renderer whose block writers share the line writer and
// the escaping (the JSON form is json.cpp).
//
// The agent text of a FactPack (docs/design.md: "What a FactPack contains", "Trimming and dedup across baselines").
//
// One line per element: `<ref> <role> "<name>"` then only the state that is set
// (`checked`, `expanded=false`, `value="…"`; a link's `href="…"` only when it has no name). Blocks are XML-like tags
// whose attribute names are words, so an agent reads it without a manual:
//
//   <delta v="5" after="4">
//   <removed>e7 button "Undo"</removed>            (invalidated refs come first)
//   <added region="main">
//   e9 button "Delete"
//   </added>
//   <modified>
//   e3 checkbox "Buy milk": checked=false -> checked
//   </modified>
//   </delta>
//
// Lines are indented by outline depth (lists, tables, rows, trees, menus: one space a level).
// Bounds (limits.h): a baseline over RenderOptions::token_budget is trimmed outline first
// (render/trim.h), each gap line naming what it holds and the find call that lists it; delta
// lists keep kDeltaCapPerCategory interactive, kNonInteractiveCap other and kMaxTextLinesPerPack
// text lines (for a whole list, not each run), each count naming the find call that lists the rest,
// and a delta still over the budget halves those caps until it fits (render_text). Output is a pure
// function of the FactPack and options: byte-identical everywhere.
#include <algorithm>
#include <array>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "athena/limits.h"
#include "athena/render.h"
#include "engine/view.h"
#include "render/lines.h"
#include "render/trim.h"
#include "words.h"

namespace athena {
namespace {

using render::attr;
using render::element_line;
using render::quoted;
using Hidden = std::array<std::size_t, kCategoryCount>;

/// How many lines of each category one list shows (limits.h: kDeltaCapPerCategory interactive,
/// kNonInteractiveCap other, kMaxTextLinesPerPack text for the whole pack), halved `shift` times
/// while the pack is over its budget (render_text). Off (RenderOptions::caps false): every line.
struct Caps {
  bool on = true;
  unsigned shift = 0;
  std::size_t of(Category c) const {
    if (!on) return static_cast<std::size_t>(-1);
    const std::size_t base = c == Category::kInteractive ? limits::kDeltaCapPerCategory
                             : c == Category::kText      ? limits::kMaxTextLinesPerPack
                                                         : limits::kNonInteractiveCap;
    return shift < 32 ? base >> shift : 0;
  }
  /// Refs of lines that only moved (kMaxMovedRefsPerPack), over every run of the pack.
  std::size_t moved() const {
    if (!on) return static_cast<std::size_t>(-1);
    return shift < 32 ? limits::kMaxMovedRefsPerPack >> shift : 0;
  }
  /// Every cap is 0: halving again shows nothing less.
  bool spent() const {
    for (std::size_t k = 0; k < kCategoryCount; ++k)
      if (of(static_cast<Category>(k))) return false;
    return moved() == 0;
  }
};

/// Writes a capped list of lines, counting in `shown` what it wrote and in `hidden` what it left
/// out, per category. Text lines count against `text_shown`, shared by every list of the pack (the
/// bound is per FactPack).
template <typename T, typename Line>
void capped(std::string& out, const std::vector<const T*>& items, Category (*cat)(const T&), const Caps& caps,
            Line line, Hidden& hidden, Hidden& shown, std::size_t& text_shown) {
  for (const T* it : items) {
    const Category c = cat(*it);
    const std::size_t k = static_cast<std::size_t>(c);
    std::size_t& n = c == Category::kText ? text_shown : shown[k];
    if (n >= caps.of(c)) {
      ++hidden[k];
      continue;
    }
    ++n;
    line(out, *it);
  }
}

void more_lines(std::string& out, const Hidden& hidden, const char* what) {
  for (std::size_t k = 0; k < hidden.size(); ++k) {
    if (!hidden[k]) continue;
    // The hint names a call that works: find cannot list removed refs, but a requested snapshot
    // shows every region as the page now is (and its gap lines lead on to find).
    out += "... " + std::to_string(hidden[k]) + " more " + what + " " + category_name(static_cast<Category>(k)) +
           " (snapshot shows the page now)\n";
  }
}

/// What an <added> list left out, and the find call that lists it: the added elements of one
/// category follow the last one shown in document order, so `after=` that one is where they start.
void added_more_line(std::string& out, std::size_t count, Category c, const Element& first, const Element* last_shown) {
  out += "... " + std::to_string(count) + " more added " + category_name(c) + " (find";
  if (c == Category::kHeading) out += " role=heading";  // text is "text" or "row": no one role
  out += " region=";
  if (!first.region_label.empty())
    quoted(out, first.region_label);
  else
    out += region_name(first.region);
  const int frame = last_shown ? last_shown->frame : first.frame;
  if (frame) out += " frame=f" + std::to_string(frame);
  if (last_shown) out += " after=" + last_shown->ref;
  out += ")\n";
}

Category element_category(const Element& e) {
  return e.category;
}
Category modified_category(const Modified& m) {
  return m.after.category;
}
// Invalidations keep only role and name; a revealed text line is the one role that says its category.
Category invalidation_category(const Invalidation& inv) {
  return inv.role == "text" || inv.role == "row" ? Category::kText : Category::kInteractive;
}

/// "checked=false -> checked", "name was "A"", "new text": only what differs.
std::string change_words(const Modified& m) {
  std::string out;
  const Element& a = m.before;
  const Element& b = m.after;
  auto sep = [&] {
    if (!out.empty()) out += ", ";
  };
  if (a.role != b.role) {
    sep();
    out += "role ";
    render::role_word(out, a.role);
    out += " -> ";
    render::role_word(out, b.role);
  }
  // A description or address the line does not show: what it is now (`desc ""` when it went),
  // never the old words again (a refused field's message appended to its hint).
  auto text_change = [&](const char* what, const std::string& before, const std::string& after) {
    if (before == after) return;
    sep();
    out += what;
    out.push_back(' ');
    quoted(out, after);
  };
  // The line already shows the new name: a changed name says what it was, and changed text (a
  // paragraph, a row a sort or a filter refilled) says only that: the agent needs what it is now.
  if (a.name != b.name || a.cut != b.cut) {
    sep();
    if (b.category == Category::kText) {
      out += "new text";
    } else {
      out += "name was ";
      quoted(out, a.name);
    }
  }
  text_change("desc", a.description, b.description);
  // An address is on a link's line only while it has no name (a named link is known by its name):
  // said when it changed there, or when the link just lost its name.
  if (b.name.empty()) text_change("href", a.name.empty() ? a.href : std::string(), b.href);
  Element sa = a, sb = b;  // compare state words only
  sa.href.clear();
  sb.href.clear();
  sa.description.clear();
  sb.description.clear();
  // Only the state words that differ, each side in line order, never an unchanged value twice:
  // `checked=false -> checked` when a key changed its word, `- disabled` when words were only
  // cleared (a field enabled), `+ focused value="ada"` when they were only set (a field typed into).
  const std::vector<render::StateWord> la = render::state_word_list(sa), lb = render::state_word_list(sb);
  auto word_of = [](const std::vector<render::StateWord>& l, const char* key) -> const std::string* {
    for (const render::StateWord& w : l)
      if (std::strcmp(w.key, key) == 0) return &w.word;
    return nullptr;
  };
  auto side = [&](const std::vector<render::StateWord>& mine, const std::vector<render::StateWord>& other) {
    std::string words;
    for (const render::StateWord& w : mine) {
      const std::string* there = word_of(other, w.key);
      if (there && *there == w.word) continue;
      if (!words.empty()) words.push_back(' ');
      words += w.word;
    }
    return words;
  };
  const std::string wa = side(la, lb), wb = side(lb, la);
  if (!wa.empty() || !wb.empty()) {
    sep();
    if (wa.empty())
      out += "+ " + wb;
    else if (wb.empty())
      out += "- " + wa;
    else
      out += wa + " -> " + wb;
  }
  if (a.depth != b.depth) {
    sep();
    out += "depth " + std::to_string(a.depth) + " -> " + std::to_string(b.depth);
  }
  // Where it went among the lines that stayed: the line it follows now, or the top of its region.
  if (m.moved) {
    sep();
    out += m.moved_after.empty() ? "moved first" : "moved after " + m.moved_after;
  }
  if (out.empty()) out = "moved";  // region or overlay changed only
  return out;
}

struct Totals {
  std::size_t elements = 0, shown = 0, unchanged_regions = 0, in_unchanged = 0;
};

void regions(std::string& out, const FactPack& p, const std::vector<render::Shown>& shown, const RenderOptions& o,
             Totals& t) {
  for (std::size_t k = 0; k < p.regions.size(); ++k) {
    const RegionBlock& b = p.regions[k];
    if (render::kind_folded(shown[k])) {  // the page's own regions of one kind: one line, at the first
      t.elements += b.elements.size();
      render::kind_folded_line(out, p, shown, k);
      continue;
    }
    if (render::folded(shown[k])) {  // iframes' regions the budget left no line: one line for the run
      const std::size_t end = render::folded_run_end(shown, k);
      for (std::size_t i = k; i < end; ++i) t.elements += p.regions[i].elements.size();
      render::folded_line(out, p, k, end);
      k = end - 1;
      continue;
    }
    t.elements += b.elements.size();
    if (b.unchanged && o.dedup) {
      render::region_open(out, b);
      out += " unchanged=\"true\" count=\"" + std::to_string(b.elements.size()) + "\"";
      if (b.seen_in) out += " seen_in=\"" + std::to_string(b.seen_in) + "\"";
      out += "/>\n";
      ++t.unchanged_regions;
      t.in_unchanged += b.elements.size();
      continue;
    }
    if (b.replaced) {
      // A delta's region in place of what the agent held there: what it does not list is gone.
      // Said like an <added> block's place (no `region` for the page's own lines).
      out += "<replaced";
      if (b.region != Region::kPage) {
        out += " region=\"";
        out += region_name(b.region);
        out.push_back('"');
      }
      if (!b.label.empty()) attr(out, "label", b.label);
      if (!b.frame_ref.empty() && b.frame_ref != "f0") attr(out, "frame", b.frame_ref);
      if (b.elements.empty()) {
        out += "/>\n";
        continue;
      }
      out += ">\n";
      t.shown += render::region_lines(out, p, k, shown[k]);
      out += "</replaced>\n";
      continue;
    }
    render::region_open(out, b);
    out += ">\n";
    t.shown += render::region_lines(out, p, k, shown[k]);
    out += "</region>\n";
  }
}

/// What follows the regions of a baseline (added, modified, summary): a close estimate is enough.
std::size_t after_regions_bytes(const FactPack& p) {
  return 64 + 48 * (p.added.size() + p.modified.size());
}

void open_tag(std::string& out, const FactPack& p) {
  out.push_back('<');
  out += pack_type_name(p.type);
  out += " v=\"" + std::to_string(p.version) + "\"";
  // A full with a new url and title is a navigation: only another reason is said.
  if (!p.reason.empty() && !(p.type == PackType::kFull && p.reason == "navigation")) attr(out, "reason", p.reason);
  if (p.type == PackType::kFull) {
    if (!p.address_held) {  // else the agent holds them from the last pack (FactPack::address_held)
      attr(out, "url", p.url);
      attr(out, "title", p.title);
    }
    // Taken while overlays are open: the innermost one's type and how many (its regions, and
    // those of the ones below, say `overlay=` too); one may have nothing to show.
    render::overlay_attrs(out, p.overlay.type, p.overlay.depth);
  }
  if (p.type == PackType::kOverlayOpened || p.type == PackType::kOverlayClosed) {
    attr(out, "overlay", overlay_type_name(p.overlay.type));
    // The name is said once, when the overlay opens (by its region's label, when that says it):
    // what closes is always what the agent holds open, innermost first.
    const bool label_says_it = !p.regions.empty() && p.regions.front().label == p.overlay.name;
    if (p.type == PackType::kOverlayOpened && !p.overlay.name.empty() && !label_says_it)
      attr(out, "name", p.overlay.name);
    if (p.overlay.depth > 1) out += " depth=\"" + std::to_string(p.overlay.depth) + "\"";
    // Closing takes every ref of the overlay along: the tag says so (and how many closed, when an
    // action closed nested ones at once, or an opened one replaced some), no `<invalid>` line counts them.
    if (p.overlay.closed > (p.type == PackType::kOverlayClosed ? 1 : 0))
      out += " closed=\"" + std::to_string(p.overlay.closed) + "\"";
  }
}

/// `<added region="main" label="…" frame="f2" after="e7">`: where the run's lines sit.
void added_open(std::string& out, const Element& first, bool with_after) {
  out += "<added";
  if (first.region != Region::kPage) {
    out += " region=\"";
    out += region_name(first.region);
    out.push_back('"');
  }
  if (!first.region_label.empty()) attr(out, "label", first.region_label);
  if (first.frame) out += " frame=\"" + frame_word(first.frame) + "\"";
  if (with_after && !first.after.empty()) out += " after=\"" + first.after + "\"";
  out += ">\n";
}

/// The refs of the overlays a pack closed (an overlay_closed, or an overlay_opened that replaced
/// them) are said by its tag (open_tag), not by a line.
bool said_by_tag(const FactPack& p, const std::string& cause) {
  return (p.type == PackType::kOverlayClosed || p.type == PackType::kOverlayOpened) && cause == "overlay_closed";
}

/// A delta that is one region replaced whole, with nothing said before it (a client-side route, a
/// filter that re-rendered its list): its tag names the region and the region's lines come first,
/// in no block of their own: `<delta v="3" replaced="main">` then the lines, up to the next tag.
/// A `<replaced region="main">` block's two tags are 37 bytes, a third of what a five-line route
/// change sends beside its own lines, and they say nothing the pack's tag cannot. (A region with
/// a label or in a frame, or now empty, keeps its block.) True when `whole` went there.
bool lead_region(std::string& out, const FactPack& p, const std::string& whole, std::size_t tag_end) {
  if (p.type != PackType::kDelta || p.regions.size() != 1 || !p.regions.front().replaced || !p.warnings.empty() ||
      !p.before_action.empty())
    return false;
  const RegionBlock& b = p.regions.front();
  const std::string name = region_name(b.region);
  const std::string head = b.region == Region::kPage ? "<replaced>\n" : "<replaced region=\"" + name + "\">\n";
  static constexpr std::string_view kTail = "</replaced>\n";
  if (whole.size() < head.size() + kTail.size() || whole.compare(0, head.size(), head) != 0 ||
      whole.compare(whole.size() - kTail.size(), kTail.size(), kTail) != 0)
    return false;
  std::string lines = " replaced=\"" + name + "\">\n";
  lines.append(whole, head.size(), whole.size() - head.size() - kTail.size());
  out.replace(tag_end, 2, lines);  // `>\n` of the open tag
  return true;
}

void render_into(std::string& out, const FactPack& p, const RenderOptions& o, const Caps& caps) {
  open_tag(out, p);
  const std::size_t tag_end = out.size();  // where the open tag's `>` goes (a delta may name its one region there)
  // A menu closed with nothing else changed is one line.
  const bool no_lines = std::all_of(p.invalidated.begin(), p.invalidated.end(),
                                    [&](const Invalidation& inv) { return said_by_tag(p, inv.cause); });
  const bool empty = no_lines && p.regions.empty() && p.added.empty() && p.modified.empty() && p.warnings.empty() &&
                     p.before_action.empty();
  if ((p.type == PackType::kNoChange || p.type == PackType::kOverlayClosed) && empty) {
    out += "/>\n";
    return;
  }
  out += ">\n";
  for (const std::string& w : p.warnings) {
    // Warnings quote page text (a dialog's message, a frame's URL): escaped like every value.
    out += "<warning>";
    render::escaped(out, w);
    out += "</warning>\n";
  }
  for (const FactPack& b : p.before_action) {
    out += "<before_action>\n";
    render_into(out, b, o, caps);
    out += "</before_action>\n";
  }

  // Invalidated refs first: the agent must stop using them. Grouped by cause.
  std::size_t text_shown = 0;
  std::map<std::string, std::vector<const Invalidation*>> by_cause;
  for (const Invalidation& inv : p.invalidated) by_cause[inv.cause].push_back(&inv);
  for (const auto& [cause, list] : by_cause) {
    // A full says nothing of the refs that went, whatever took them: it replaces what the agent
    // holds (refs inside regions rendered unchanged="true" are rebound and stay valid), so a
    // `<removed>` list would only repeat what it shows by leaving them out. The JSON keeps them.
    if (p.type == PackType::kFull) continue;
    // A replaced document or a detached frame takes all its refs along, and a closed overlay
    // the refs inside it: one line says it.
    if (cause == "navigated" || cause == "detached" || cause == "overlay_closed") {
      if (said_by_tag(p, cause)) continue;
      // A frame's document goes with all its refs: a line per frame names it (refs do not).
      std::map<int, std::size_t> by_frame;
      for (const Invalidation* inv : list) ++by_frame[cause == "overlay_closed" ? 0 : inv->frame];
      // A hundred frames reloaded by one click are not a hundred lines: past
      // kMaxInvalidFrameLines, frames whose numbers follow one another share one (`frame="f2..f101"`).
      const bool join = by_frame.size() > limits::kMaxInvalidFrameLines;
      for (auto it = by_frame.begin(); it != by_frame.end();) {
        const int first = it->first;
        int last = first;
        std::size_t n = 0;
        do {
          last = it->first;
          n += it->second;
          ++it;
        } while (join && first && it != by_frame.end() && it->first == last + 1);
        out += "<invalid cause=\"" + cause + "\"";
        if (first) out += " frame=\"" + frame_word(first) + (last != first ? ".." + frame_word(last) : "") + "\"";
        out += " count=\"" + std::to_string(n) + "\"/>\n";
      }
      continue;
    }
    const bool plain = cause == "removed";
    out += plain ? "<removed>\n" : "<invalid cause=\"" + cause + "\">\n";
    // A control that went keeps its role and name; a text line that went is its ref alone (the
    // agent was shown its words and acts on none of them), and a run of those with consecutive
    // numbers is one range line (`e2748..2761`: a sort that replaced 30 rows is a line or two).
    // When more controls went than their cap names (a search that replaced a page's content, a
    // sort that replaced a grid's rows), they are refs alone too: the names of the first 25 of
    // 3,000 tell the agent nothing the pack's new lines do not, and were most of its tokens.
    struct Bare {
      long long num;
      Category category;
      bool operator<(const Bare& o) const { return num < o.num; }
    };
    std::vector<const Invalidation*> named;
    std::vector<Bare> bare, controls;  // refs alone; `controls`: the named ones', for a mass removal
    for (const Invalidation* inv : list) {
      engine::ParsedRef ref;
      const bool numbered = engine::parse_ref(inv->ref, ref);
      const Category c = invalidation_category(*inv);
      if (numbered && c == Category::kText) {
        bare.push_back({ref.n, c});
        continue;
      }
      named.push_back(inv);
      if (numbered) controls.push_back({ref.n, c});
    }
    if (named.size() > caps.of(Category::kInteractive) && controls.size() == named.size()) {
      named.clear();
      bare.insert(bare.end(), controls.begin(), controls.end());
    }
    Hidden h{}, shown{};
    capped<Invalidation>(
        out, named, invalidation_category, caps,
        [](std::string& s, const Invalidation& inv) {
          s += inv.ref;
          if (invalidation_category(inv) != Category::kText && (!inv.role.empty() || !inv.name.empty())) {
            s.push_back(' ');
            render::role_word(s, inv.role);
            s.push_back(' ');
            quoted(s, inv.name);
          }
          s.push_back('\n');
        },
        h, shown, text_shown);
    std::sort(bare.begin(), bare.end());
    for (std::size_t k = 0; k < bare.size();) {
      std::size_t end = k + 1;
      while (end < bare.size() && bare[end].num == bare[end - 1].num + 1) ++end;
      if (text_shown >= caps.of(Category::kText)) {  // a range line counts as one text line
        for (std::size_t j = k; j < end; ++j) ++h[static_cast<std::size_t>(bare[j].category)];
        k = end;
        continue;
      }
      ++text_shown;
      out += "e" + std::to_string(bare[k].num);
      if (end - k >= 2) out += ".." + std::to_string(bare[end - 1].num);
      out.push_back('\n');
      k = end;
    }
    more_lines(out, h, "refs of");
    out += plain ? "</removed>\n" : "</invalid>\n";
  }

  Totals t;
  if (!p.regions.empty()) {
    // Rendered once with everything the text bound allows; trimmed and rendered again only
    // when that is over the budget.
    const std::size_t budget = o.token_budget * limits::kBytesPerToken, after = after_regions_bytes(p);
    auto fit = [&](const RenderOptions& with, std::string& whole) {
      std::vector<render::Shown> shown = render::untrimmed(p);
      t = Totals{};
      regions(whole, p, shown, with, t);
      const std::size_t bytes = out.size() + whole.size() + after;
      if (!with.trim_regions) return;
      if (bytes <= budget) {
        if (!render::mark_long_repeats(p, with, shown)) return;
      } else {
        render::trim_to_budget(p, with, bytes, shown);
      }
      t = Totals{};
      whole.clear();
      regions(whole, p, shown, with, t);
    };
    std::string whole;
    fit(o, whole);
    // A region unchanged since the last baseline is one line that no trimming takes. When so
    // many of them keep the pack over its budget, the pack renders without that dedup: those
    // regions show their lines (the same refs) and trim and fold like any other.
    if (o.trim_regions && o.dedup && t.unchanged_regions > 0 && out.size() + whole.size() + after > budget) {
      RenderOptions plain = o;
      plain.dedup = false;
      whole.clear();
      fit(plain, whole);
    }
    if (!lead_region(out, p, whole, tag_end)) out += whole;
  }

  // Added: grouped by region in order of first appearance, capped per category.
  if (!p.added.empty()) {
    std::vector<std::pair<std::string, std::vector<const Element*>>> groups;
    std::map<std::string, std::size_t> group_of;
    for (const Element& e : p.added) {
      // A group per place: region, label, frame, and the line its run follows (`after=`).
      std::string key = region_name(e.region);
      key += "\t" + e.region_label + "\t" + std::to_string(e.frame) + "\t" + e.after;
      const auto [it, fresh] = group_of.emplace(key, groups.size());
      if (fresh) groups.emplace_back(key, std::vector<const Element*>{});
      groups[it->second].second.push_back(&e);
    }
    // The caps bound the whole list, not each run: a click that put a button in each of 2,000
    // rows is 2,000 runs of one line. A run left with no line shown is counted after the last one.
    Hidden shown{}, rest{};
    using Last = std::array<const Element*, kCategoryCount>;  // the last line shown, per category
    std::map<std::string, Last> last_at;                      // ... per place (region, label, frame)
    const Element* rest_first = nullptr;
    std::string rest_place;
    bool rest_places = false;  // the rest lies in more than one place
    for (const auto& [key, list] : groups) {
      const std::string place = key.substr(0, key.rfind('\t'));
      Last& last_here = last_at[place];
      std::string lines;
      Hidden h{};
      Last last{};
      capped<Element>(
          lines, list, element_category, caps,
          [&](std::string& s, const Element& e) {
            // Indented as in a full snapshot: an addition under the line it follows
            // (a disclosure's text under its summary) says so.
            s.append(static_cast<std::size_t>(e.depth), ' ');
            element_line(s, e);
            last[static_cast<std::size_t>(e.category)] = last_here[static_cast<std::size_t>(e.category)] = &e;
          },
          h, shown, text_shown);
      if (lines.empty()) {
        for (std::size_t k = 0; k < h.size(); ++k) rest[k] += h[k];
        if (!rest_first) {
          rest_first = list.front();
          rest_place = place;
        } else if (place != rest_place) {
          rest_places = true;
        }
        continue;
      }
      added_open(out, *list.front(), true);
      out += lines;
      for (std::size_t k = 0; k < h.size(); ++k)
        if (h[k]) added_more_line(out, h[k], static_cast<Category>(k), *list.front(), last[k]);
      out += "</added>\n";
    }
    if (rest_first) {
      // One place: the find from the last line shown there lists the rest. Several: a snapshot
      // shows the page now, and its gap lines lead on to find.
      if (rest_places)
        out += "<added>\n";
      else
        added_open(out, *rest_first, false);
      const Last& last = last_at[rest_place];
      for (std::size_t k = 0; k < rest.size(); ++k) {
        if (!rest[k]) continue;
        if (rest_places)
          out += "... " + std::to_string(rest[k]) + " more added " + category_name(static_cast<Category>(k)) +
                 " (snapshot shows the page now)\n";
        else
          added_more_line(out, rest[k], static_cast<Category>(k), *rest_first, last[k]);
      }
      out += "</added>\n";
    }
  }
  if (!p.modified.empty()) {
    out += "<modified>\n";
    Hidden h{}, shown{};
    // A line that only moved is its ref alone, and a run of them, each after the one before, is
    // one line: `e9 e4 e7: moved after e2` (a sorted table of a hundred rows is a line or two).
    // Each keeps its place in the list: the moves are read in order.
    std::vector<const Modified*> run;
    std::size_t moved_shown = 0, moved_hidden = 0;
    auto flush = [&] {
      if (run.empty()) return;
      if (moved_hidden || moved_shown >= caps.moved()) {  // past the bound, later places would name unplaced lines
        moved_hidden += run.size();
        run.clear();
        return;
      }
      const std::size_t n = std::min(run.size(), caps.moved() - moved_shown);
      for (std::size_t k = 0; k < n; ++k) {
        if (k) out.push_back(' ');
        out += run[k]->ref;
      }
      out += run.front()->moved_after.empty() ? ": moved first\n" : ": moved after " + run.front()->moved_after + "\n";
      moved_shown += n;
      moved_hidden += run.size() - n;
      run.clear();
    };
    std::vector<const Modified*> one(1);
    for (const Modified& m : p.modified) {
      const std::string words = change_words(m);
      if (m.moved && words == (m.moved_after.empty() ? "moved first" : "moved after " + m.moved_after)) {
        if (!run.empty() && m.moved_after != run.back()->ref) flush();
        run.push_back(&m);
        continue;
      }
      flush();
      one[0] = &m;
      capped<Modified>(
          out, one, modified_category, caps,
          [&words](std::string& s, const Modified& mod) {
            s += mod.ref;
            s.push_back(' ');
            render::role_word(s, mod.after.role);
            s.push_back(' ');
            quoted(s, mod.after.name);
            if (mod.after.cut) s += " cut";  // its words now are the start of longer ones
            s += ": ";
            s += words;
            s.push_back('\n');
          },
          h, shown, text_shown);
    }
    flush();
    if (moved_hidden) out += "... " + std::to_string(moved_hidden) + " more moved (snapshot shows the page now)\n";
    more_lines(out, h, "modified");
    out += "</modified>\n";
  }

  // A count summary only where the lines above do not show everything: a trimmed baseline (its
  // gap lines say where the rest is; this says how much of the page that is). Lists count
  // themselves, and a capped list says what it left out.
  if (t.elements - t.in_unchanged != t.shown) {
    out += "<summary elements=\"" + std::to_string(t.elements) + "\" shown=\"" + std::to_string(t.shown) + "\"";
    if (t.unchanged_regions) out += " unchanged_regions=\"" + std::to_string(t.unchanged_regions) + "\"";
    out += "/>\n";
  }
  out += "</";
  out += pack_type_name(p.type);
  out += ">\n";
}

}  // namespace

std::size_t estimate_tokens(std::string_view text) {
  return (text.size() + limits::kBytesPerToken - 1) / limits::kBytesPerToken;
}

std::string render_text(const FactPack& pack, const RenderOptions& options) {
  std::string out;
  out.reserve(256 + 64 * (pack.added.size() + pack.modified.size() + pack.invalidated.size()));
  Caps caps{options.caps, 0};
  render_into(out, pack, options, caps);
  // The budget bounds every pack, not only a baseline's regions: a delta over it shows fewer lines
  // of each list (the caps halved, down to none), each list counting what it left out.
  const bool lists =
      !pack.added.empty() || !pack.modified.empty() || !pack.invalidated.empty() || !pack.before_action.empty();
  const std::size_t budget = options.token_budget * limits::kBytesPerToken;
  while (caps.on && lists && out.size() > budget && !caps.spent()) {
    ++caps.shift;
    out.clear();
    render_into(out, pack, options, caps);
  }
  return out;
}

}  // namespace athena
