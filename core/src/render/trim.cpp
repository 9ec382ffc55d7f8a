// One file past 400 lines: the steps below share one line index and the budget's arithmetic; each step is its own
// function.
//
// Trimming a baseline to its token budget, outline first (limits.h "Rendering"):
//   0. a run of lines that repeats earlier lines of the pack is one line;
//   1. the deepest outline levels collapse first (a manual's sub-entries, a row's buttons), each
//      run one gap line under the line it sits under, down to the top level (headings never
//      collapse: step 3 chooses among them);
//   2. text lines are cut to kTrimmedTextChars;
//   3. the largest regions keep their head and tail, headings, focused and in-viewport lines
//      (the keep rules), as far as the budget allows;
//   4. last, a hard cut: lines go from the end of the largest regions until the pack fits.
// In 3 and 4 iframes' regions are trimmed before the page's own; when their tags alone are too
// many, the last frames fold into one line per run (fold_frames), and when even the hard cut
// cannot fit the page's own regions, the regions of one kind fold into one line (fold_kinds).
// No keep rule takes a pack past its budget.
#include "render/trim.h"

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <map>
#include <optional>
#include <unordered_map>

#include "athena/limits.h"
#include "render/lines.h"
#include "words.h"

namespace athena::render {
namespace {

bool renders_lines(const RegionBlock& b, const RenderOptions& o) {
  return !(b.unchanged && o.dedup);
}

/// ` region=main`, or ` region="Primary"` when another region of the pack has the same name
/// under another label (the label is what tells them apart), then ` frame=f2` in an iframe.
void region_hint(std::string& out, const FactPack& pack, const RegionBlock& b) {
  bool ambiguous = false;
  for (const RegionBlock& o : pack.regions)
    ambiguous = ambiguous || (&o != &b && o.region == b.region && o.label != b.label);
  out += " region=";
  if (ambiguous && !b.label.empty())
    quoted(out, b.label);
  else
    out += region_name(b.region);
  if (!b.frame_ref.empty() && b.frame_ref != "f0") out += " frame=" + b.frame_ref;
}

/// Whether a line is in the page's outline: a heading, or the control a heading stands for (an
/// accordion's `<h3><button>`, which carries its heading's level).
bool heads(const Element& e) {
  return e.category == Category::kHeading || e.level > 0;
}

int base_depth(const RegionBlock& b) {
  int base = limits::kMaxOutlineDepth;
  for (const Element& e : b.elements) base = std::min(base, e.depth);
  return b.elements.empty() ? 0 : base;
}

// A line's indentation is its outline depth, as in an <added> list: a region whose lines all sit
// one level down (a dropdown's links under its menu) shows them so, and an addition after one of
// them lines up with it. (A region's base depth sets the levels trimming collapses, not this.)
std::size_t indent_of(const Element& e) {
  return static_cast<std::size_t>(std::max(0, e.depth));
}

/// How much of `s` to keep to cut it to at most `n` bytes: at a word's end when one is near, on a
/// character boundary.
std::size_t cut_length(const std::string& s, std::size_t n) {
  if (s.size() <= n) return s.size();
  while (n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80) --n;
  const std::size_t space = s.rfind(' ', n);
  return space != std::string::npos && space > n / 2 ? space : n;
}

/// A text line cut to kTrimmedTextChars of its name, marked ` cut`:
/// `e17 text "While the Language Reference describes the exact" cut` (read shows it whole).
void excerpt_line(std::string& out, const Element& e) {
  Element cut = e;
  cut.name.resize(cut_length(cut.name, limits::kTrimmedTextChars));
  cut.cut = true;
  element_line(out, cut);
}

/// A name as a gap line quotes it: its first kGapNameChars, then `…` when it goes on. A gap line
/// says where its lines begin and end; their words are what find and read are for.
void sample(std::string& out, const std::string& name) {
  const std::size_t n = cut_length(name, limits::kGapNameChars);
  quoted(out, n == name.size() ? name : name.substr(0, n) + "\xE2\x80\xA6");
}

/// The gap for the hidden run [from, to) (all of one kind of Shown). Under the line just
/// before, one outline level up, it ends that line with what the run holds: `(71 more links)`
/// (`find within=` that line's ref lists them). A repeat says so: `... 13 more repeated from
/// above (find region=nav after=e421)`. Otherwise it names the run's first
/// and last element: `... 40 more here: "Built-in Types" … "Exceptions" (find region=main after=e20)`.
void gap_line(std::string& out, const FactPack& pack, const RegionBlock& b, std::size_t from, std::size_t to,
              const Element* before, bool repeat) {
  const Element& first = b.elements[from];
  // Under the line before only when all it hides sits under that line (a head-and-tail cut
  // through a table hides rows too: that is a run "here").
  bool under = !repeat && before && from > 0 && before == &b.elements[from - 1];
  for (std::size_t i = from; under && i < to; ++i) under = b.elements[i].depth > before->depth;
  if (under) {
    // The end of that line says it: `… link "Built-in Functions" (61 more links)`, and `find within=`
    // its ref lists them (engine/find_query.cpp, docs/factpack-format.md). When
    // only measured (`out` empty) the line break it moves counts once more: never an underestimate.
    if (!out.empty() && out.back() == '\n') out.pop_back();
    out += " (" + std::to_string(to - from) + " more";
    bool same_role = true;
    for (std::size_t i = from; i < to && same_role; ++i) same_role = b.elements[i].role == first.role;
    if (same_role && !first.role.empty()) {
      out.push_back(' ');
      role_word(out, first.role);
      if (to - from > 1 && first.role != "text") out.push_back('s');
    }
    out += ")\n";
    return;
  }
  std::size_t indent = indent_of(first);  // the run's shallowest line's
  for (std::size_t i = from + 1; i < to && indent > 0; ++i) indent = std::min(indent, indent_of(b.elements[i]));
  out.append(indent, ' ');
  out += "... " + std::to_string(to - from) + " more";
  if (repeat) {
    // What it repeats was just shown: its count and where to list it are enough.
    out += " repeated from above (find";
    region_hint(out, pack, b);
    if (before) out += " after=" + before->ref;
    out += ")\n";
    return;
  }
  out += " here";
  // Right under a heading, the heading says what its section holds: `... 93 more here (find …)`.
  const bool section = before && from > 0 && before == &b.elements[from - 1] && heads(*before);
  // It quotes the first and last names it hides that say something: a nameless control's "" does not.
  std::size_t head = from, tail = to;
  while (head < to && b.elements[head].name.empty()) ++head;
  while (tail > head && b.elements[tail - 1].name.empty()) --tail;
  if (!section && head < tail) {
    out += ": ";
    sample(out, b.elements[head].name);
    if (tail - head > 1) {
      out += " \xE2\x80\xA6 ";  // …
      sample(out, b.elements[tail - 1].name);
    }
  }
  out += " (find";
  region_hint(out, pack, b);
  if (before) out += " after=" + before->ref;
  out += ")\n";
}

struct Lines {  // one region's element lines, measured once
  int base = 0;
  std::vector<std::size_t> bytes;    // as shown (kShown)
  std::vector<std::size_t> excerpt;  // as an excerpt (kExcerpt)
  // The region's outline: its headings' indices, the higher levels first, each in page order
  // (every h2 before any h3), and per line its place there (kNotHeading for the other lines).
  // Trimming keeps the first N.
  std::vector<std::size_t> outline;
  std::vector<std::size_t> outline_rank;
};

constexpr std::size_t kNotHeading = std::numeric_limits<std::size_t>::max();

Lines measure(const RegionBlock& b) {
  Lines out;
  out.base = base_depth(b);
  out.bytes.reserve(b.elements.size());
  out.excerpt.reserve(b.elements.size());
  for (std::size_t i = 0; i < b.elements.size(); ++i)
    if (heads(b.elements[i])) out.outline.push_back(i);
  std::stable_sort(out.outline.begin(), out.outline.end(),
                   [&](std::size_t x, std::size_t y) { return b.elements[x].level < b.elements[y].level; });
  out.outline_rank.assign(b.elements.size(), kNotHeading);
  for (std::size_t r = 0; r < out.outline.size(); ++r) out.outline_rank[out.outline[r]] = r;
  std::string scratch;
  for (const Element& e : b.elements) {
    scratch.clear();
    element_line(scratch, e);
    out.bytes.push_back(scratch.size() + indent_of(e));
    if (e.category == Category::kText && e.name.size() > limits::kTrimmedTextChars) {
      scratch.clear();
      excerpt_line(scratch, e);
      out.excerpt.push_back(scratch.size() + indent_of(e));
    } else {
      out.excerpt.push_back(out.bytes.back());
    }
  }
  return out;
}

bool visible(char s) {
  return s == kShown || s == kExcerpt;
}

/// The end (exclusive) of the gap that starts at `from`: every line in a row that is not shown,
/// hidden and repeated alike, is one gap line, "repeated from above" only when all of it is. A
/// repeat between two hidden runs is no line of its own (a page whose paragraphs were all hidden
/// wrote one per repeated pair of type links, and no cut could shorten those).
std::size_t gap_end(const Shown& shown, std::size_t from, bool& repeat) {
  repeat = true;
  std::size_t j = from;
  for (; j < shown.size() && !visible(shown[j]); ++j) repeat = repeat && shown[j] == kRepeat;
  return j;
}

/// Bytes of region_lines() for `shown`: only the few gap lines are rendered to be measured.
std::size_t lines_bytes(const FactPack& pack, std::size_t index, const Shown& shown, const Lines& line) {
  const RegionBlock& b = pack.regions[index];
  std::size_t bytes = 0;
  const Element* last_shown = nullptr;
  std::string gap;
  for (std::size_t i = 0; i < b.elements.size();) {
    if (visible(shown[i])) {
      bytes += shown[i] == kExcerpt ? line.excerpt[i] : line.bytes[i];
      last_shown = &b.elements[i++];
      continue;
    }
    bool repeat = false;
    const std::size_t j = gap_end(shown, i, repeat);
    gap.clear();
    gap_line(gap, pack, b, i, j, last_shown, repeat);
    bytes += gap.size();
    i = j;
  }
  return bytes;
}

/// The bytes of a region's own tags: `<region …>\n` and `</region>\n`.
std::size_t tag_bytes(const RegionBlock& b) {
  std::string open;
  region_open(open, b);
  return open.size() + 2 + 10;
}

/// The pack's text size as `shown` stands: what lies outside the regions that render lines, plus
/// each of those (its tags and lines), plus one line per run of folded ones.
struct Meter {
  const FactPack& pack;
  std::vector<std::size_t> candidates;  // regions that render lines
  std::vector<Lines> lines;             // per region (empty for the others)
  std::vector<std::size_t> tags;        // per region: tag_bytes (candidates only)
  std::size_t rest = 0;

  std::size_t total(const std::vector<Shown>& shown) const {
    std::size_t t = rest;
    for (const std::size_t k : candidates)
      if (!folded(shown[k]) && !kind_folded(shown[k])) t += tags[k] + lines_bytes(pack, k, shown[k], lines[k]);
    std::string line;
    for (std::size_t k = 0; k < shown.size();) {
      if (kind_folded(shown[k])) {
        line.clear();
        kind_folded_line(line, pack, shown, k);
        t += line.size();
      }
      if (!folded(shown[k])) {
        ++k;
        continue;
      }
      const std::size_t end = folded_run_end(shown, k);
      line.clear();
      folded_line(line, pack, k, end);
      t += line.size();
      k = end;
    }
    return t;
  }
};

/// A run of lines one outline level (or more) below the line it sits under.
struct Run {
  std::size_t region = 0, from = 0, to = 0, bytes = 0;
};

/// Runs at relative level `level`: maximal runs of lines at least that deep, right after a shown
/// line less deep (the line they sit under) or a heading. A heading is never in a run: the
/// outline stays for step 3 to choose from (rustdoc's method names sit three levels down, in
/// <details>, and collapsed with their sections left only the sections' "Examples" headings).
/// A run starts with a shown line and goes on through lines repeated from above: a function's
/// docs that link to globals() and locals() twice are one run, not a run cut short by the repeat
/// and a tail of links shown under a signature whose docs collapsed.
std::vector<Run> runs_at(const Meter& m, const std::vector<Shown>& shown, int level) {
  std::vector<Run> out;
  std::string gap;
  for (const std::size_t k : m.candidates) {
    const RegionBlock& b = m.pack.regions[k];
    const Lines& l = m.lines[k];
    for (std::size_t i = 1; i < b.elements.size(); ++i) {
      const int rel = b.elements[i].depth - l.base;
      const Element& under = b.elements[i - 1];
      if (rel < level || shown[k][i] == kRepeat || heads(b.elements[i]) || !visible(shown[k][i - 1]) ||
          (under.depth - l.base >= level && !heads(under)))
        continue;
      Run r{k, i, i, 0};
      while (r.to < b.elements.size() && b.elements[r.to].depth - l.base >= level && !heads(b.elements[r.to])) {
        if (visible(shown[k][r.to])) r.bytes += l.bytes[r.to];
        ++r.to;
      }
      // Worth it only when the gap line is shorter than what it hides.
      gap.clear();
      gap_line(gap, m.pack, b, r.from, r.to, &b.elements[r.from - 1], false);
      if (r.bytes > gap.size()) out.push_back(r);
      i = r.to - 1;
    }
  }
  std::stable_sort(out.begin(), out.end(), [](const Run& a, const Run& b) { return a.bytes > b.bytes; });
  return out;
}

/// Collapses runs at `level`, largest first: all of them if even that is over the budget, else
/// the fewest that fit. Returns the size after.
std::size_t collapse_level(const Meter& m, std::vector<Shown>& shown, int level, std::size_t budget) {
  const std::vector<Run> runs = runs_at(m, shown, level);
  if (runs.empty()) return m.total(shown);
  auto with = [&](std::size_t count) {
    std::vector<Shown> s = shown;
    for (std::size_t r = 0; r < count; ++r)
      for (std::size_t i = runs[r].from; i < runs[r].to; ++i)
        if (visible(s[runs[r].region][i])) s[runs[r].region][i] = kHidden;
    return s;
  };
  std::size_t lo = 1, hi = runs.size();
  if (m.total(with(hi)) > budget) {
    shown = with(hi);
    return m.total(shown);
  }
  while (lo < hi) {  // the fewest runs whose collapse fits
    const std::size_t mid = lo + (hi - lo) / 2;
    if (m.total(with(mid)) <= budget)
      hi = mid;
    else
      lo = mid + 1;
  }
  shown = with(lo);
  return m.total(shown);
}

/// What a trimmed region keeps besides its head.
struct Keep {
  bool tail_and_viewport = false;  // its last kRegionTrimTail and its in-viewport lines
  bool focused = false;            // the focused line
  std::size_t headings = 0;        // the first N headings of its outline (Lines::outline_rank)
};

/// The keep rules: a trimmed region's tail, focused and in-viewport lines, and its outline's
/// first `headings`.
constexpr Keep keep_rules(std::size_t headings) {
  return {true, true, headings};
}
/// The page's outline alone: its first `headings`, and the focused line.
constexpr Keep outline(std::size_t headings) {
  return {false, true, headings};
}
/// The hard cut: a region's head alone.
constexpr Keep kKeepNothing{};

/// What a trimmed region shows: its first `head` and what `keep` keeps; never an element already
/// left out.
Shown kept(const RegionBlock& b, const Lines& l, const Shown& allowed, std::size_t head, const Keep& keep) {
  const std::size_t n = b.elements.size();
  Shown out(n, kHidden);
  for (std::size_t i = 0; i < n; ++i) {
    const Element& e = b.elements[i];
    const bool rule = (l.outline_rank[i] != kNotHeading && l.outline_rank[i] < keep.headings) ||
                      (keep.focused && e.state.focused) ||
                      (keep.tail_and_viewport && (i + limits::kRegionTrimTail >= n || e.in_viewport));
    out[i] = visible(allowed[i]) && (i < head || rule) ? allowed[i] : (allowed[i] == kRepeat ? kRepeat : kHidden);
  }
  return out;
}

/// The frame index of a region (0: the page's own).
int frame_index(const RegionBlock& b) {
  return static_cast<int>(std::max(0L, frame_span(b.frame_ref).first));
}

/// Whether a region is an iframe's (its lines sit one level below the page's own).
bool in_subframe(const RegionBlock& b) {
  return frame_index(b) != 0;
}

/// Which regions a trimming pass takes.
enum class Which { kAll, kSubframes };

/// Trims regions, iframes' before the page's own (outline first: a frame's content sits below
/// the page that embeds it), largest first, each to the longest head that fits (at least
/// `min_head`). Returns the size after.
std::size_t trim_heads(const Meter& m, std::vector<Shown>& shown, std::size_t budget, std::size_t threshold,
                       std::size_t min_head, const Keep& keep, Which which = Which::kAll) {
  std::vector<std::size_t> order;
  for (const std::size_t k : m.candidates)
    if (m.pack.regions[k].elements.size() > threshold && !folded(shown[k]) && !kind_folded(shown[k]) &&
        (which == Which::kAll || in_subframe(m.pack.regions[k])))
      order.push_back(k);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    const RegionBlock &ra = m.pack.regions[a], &rb = m.pack.regions[b];
    if (in_subframe(ra) != in_subframe(rb)) return in_subframe(ra);
    return ra.elements.size() > rb.elements.size();
  });
  std::size_t total = m.total(shown);
  for (const std::size_t k : order) {
    if (total <= budget) break;
    const RegionBlock& b = m.pack.regions[k];
    const std::size_t rest = total - lines_bytes(m.pack, k, shown[k], m.lines[k]);
    auto cost = [&](std::size_t head) {
      return rest + lines_bytes(m.pack, k, kept(b, m.lines[k], shown[k], head, keep), m.lines[k]);
    };
    std::size_t lo = std::min(min_head, b.elements.size()), hi = b.elements.size();
    if (cost(lo) <= budget) {
      while (lo < hi) {  // the most leading elements that still fit
        const std::size_t mid = lo + (hi - lo + 1) / 2;
        if (cost(mid) <= budget)
          lo = mid;
        else
          hi = mid - 1;
      }
    }
    shown[k] = kept(b, m.lines[k], shown[k], lo, keep);
    total = cost(lo);
  }
  return total;
}

/// Trims the largest regions keeping their outline: the most headings that fit, the higher levels
/// first (every h2 of a reference page before its first h3). With the keep rules and a head of at
/// least kRegionTrimHead, or, when that shows fewer whole levels of the outline, the headings and
/// the focused line alone, with as many leading lines as the rest allows. Returns the size after;
/// when neither fits, `shown` is as the keep rules with no heading left it, for the hard cut.
std::size_t trim_outline(const Meter& m, std::vector<Shown>& shown, std::size_t budget) {
  std::vector<std::size_t> trimmed;  // the regions a trim may take lines from
  std::size_t most = 0;              // the most headings one of them has
  for (const std::size_t k : m.candidates)
    if (m.pack.regions[k].elements.size() > limits::kRegionTrimThreshold) {
      trimmed.push_back(k);
      most = std::max(most, m.lines[k].outline.size());
    }
  // The outline levels shown whole when each region keeps its first `headings`.
  auto whole_levels = [&](std::size_t headings) {
    int levels = std::numeric_limits<int>::max();
    for (const std::size_t k : trimmed) {
      const std::vector<std::size_t>& order = m.lines[k].outline;
      if (headings < order.size()) levels = std::min(levels, m.pack.regions[k].elements[order[headings]].level - 1);
    }
    return levels;
  };
  struct Fit {
    std::vector<Shown> shown;
    std::size_t total = 0, headings = 0;
  };
  auto fit = [&](bool rules) -> std::optional<Fit> {
    auto trial = [&](std::size_t headings, Fit& f) {
      f.shown = shown;
      f.headings = headings;
      f.total = trim_heads(m, f.shown, budget, limits::kRegionTrimThreshold, rules ? limits::kRegionTrimHead : 0,
                           rules ? keep_rules(headings) : outline(headings));
      return f.total <= budget;
    };
    Fit f;
    if (!trial(0, f)) return std::nullopt;
    std::size_t lo = 0, hi = most;
    while (lo < hi) {  // the most headings that still fit
      const std::size_t mid = lo + (hi - lo + 1) / 2;
      if (trial(mid, f))
        lo = mid;
      else
        hi = mid - 1;
    }
    trial(lo, f);
    return f;
  };
  std::optional<Fit> best = fit(true);
  if (!best || whole_levels(best->headings) < std::numeric_limits<int>::max()) {
    std::optional<Fit> bare = fit(false);
    if (bare && (!best || whole_levels(bare->headings) > whole_levels(best->headings))) best = std::move(bare);
  }
  if (!best) return trim_heads(m, shown, budget, limits::kRegionTrimThreshold, limits::kRegionTrimHead, keep_rules(0));
  shown = std::move(best->shown);
  return best->total;
}

/// Whether each run of folded regions holds every region of the frames it spans (fA..fB), so that
/// `find frame=fA..fB` lists exactly what its line counts.
bool folds_exact(const FactPack& pack, const std::vector<Shown>& shown) {
  for (std::size_t k = 0; k < shown.size();) {
    if (!folded(shown[k])) {
      ++k;
      continue;
    }
    const std::size_t end = folded_run_end(shown, k);
    int lo = frame_index(pack.regions[k]), hi = lo;
    for (std::size_t i = k; i < end; ++i) {
      lo = std::min(lo, frame_index(pack.regions[i]));
      hi = std::max(hi, frame_index(pack.regions[i]));
    }
    for (std::size_t i = 0; i < pack.regions.size(); ++i)
      if ((i < k || i >= end) && frame_index(pack.regions[i]) >= lo && frame_index(pack.regions[i]) <= hi) return false;
    k = end;
  }
  return true;
}

/// Folds iframes' regions, the last first, into one line per run of frames, until the pack fits:
/// the fewest that make it fit, else as many as fold exactly (folds_exact). Returns the size after.
std::size_t fold_frames(const Meter& m, std::vector<Shown>& shown, std::size_t budget) {
  std::vector<std::size_t> order;  // iframes' regions that render lines, the last first
  for (auto it = m.candidates.rbegin(); it != m.candidates.rend(); ++it)
    if (in_subframe(m.pack.regions[*it])) order.push_back(*it);
  std::size_t total = m.total(shown);
  std::vector<Shown> trial = shown;
  for (const std::size_t k : order) {
    std::fill(trial[k].begin(), trial[k].end(), kFolded);
    if (!folds_exact(m.pack, trial)) {  // its frame holds a region that cannot fold: it stays
      trial[k] = shown[k];
      continue;
    }
    const std::size_t t = m.total(trial);
    if (t < total) {
      shown = trial;
      total = t;
    }
    if (total <= budget) break;
  }
  return total;
}

/// Folds the page's own regions of one kind (a hundred forms, each named for its row), the kind
/// with the most regions first, each kind whole, until the pack fits: `find region=KIND frame=f0`
/// lists exactly what its line counts, so a kind folds only when every region of it renders lines
/// and no region of another kind is labelled with the kind's word. Returns the size after.
std::size_t fold_kinds(const Meter& m, std::vector<Shown>& shown, std::size_t budget) {
  const std::vector<RegionBlock>& regions = m.pack.regions;
  std::vector<bool> candidate(regions.size(), false);
  for (const std::size_t k : m.candidates) candidate[k] = true;
  std::map<Region, std::vector<std::size_t>> by_kind;
  for (std::size_t k = 0; k < regions.size(); ++k)
    if (!in_subframe(regions[k])) by_kind[regions[k].region].push_back(k);
  std::vector<std::pair<std::size_t, Region>> kinds;  // (regions, kind), most first
  for (const auto& [kind, ks] : by_kind)
    if (ks.size() >= 2) kinds.emplace_back(ks.size(), kind);
  std::stable_sort(kinds.begin(), kinds.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  std::size_t total = m.total(shown);
  for (const auto& [n, kind] : kinds) {
    if (total <= budget) break;
    const std::vector<std::size_t>& ks = by_kind[kind];
    bool exact = std::all_of(ks.begin(), ks.end(), [&](std::size_t k) { return candidate[k]; });
    for (std::size_t k = 0; k < regions.size() && exact; ++k)
      exact = regions[k].region == kind || ascii_lower(regions[k].label) != region_name(kind);
    if (!exact) continue;
    for (const std::size_t k : ks) std::fill(shown[k].begin(), shown[k].end(), kKindFolded);
    total = m.total(shown);
  }
  return total;
}

/// Where a repeated line's earlier one is: (region, index) per line of each region, kNone for a
/// line that repeats nothing.
using Origins = std::vector<std::vector<std::pair<std::size_t, std::size_t>>>;
constexpr std::size_t kNone = std::numeric_limits<std::size_t>::max();

/// Marks kRepeat every run of kMinRepeatLines or more lines equal (role, name, state, depth) to an
/// earlier run of the pack's lines: the same navigation at the top and bottom shows once. Returns
/// where each repeated line's earlier one is.
Origins mark_repeats(const FactPack& pack, const std::vector<std::size_t>& candidates, std::vector<Shown>& shown,
                     std::size_t min_lines = limits::kMinRepeatLines) {
  Origins origin(pack.regions.size());
  for (const std::size_t k : candidates) origin[k].assign(pack.regions[k].elements.size(), {kNone, kNone});
  std::vector<std::vector<std::string>> keys(pack.regions.size());
  for (const std::size_t k : candidates)
    for (const Element& e : pack.regions[k].elements) {
      std::string key = e.role;
      key.push_back('\0');
      key += e.name;
      key += state_words(e);
      key.push_back('\0');
      key += std::to_string(e.depth);
      keys[k].push_back(std::move(key));
    }
  std::unordered_map<std::string, std::pair<std::size_t, std::size_t>> first;  // key -> (region, index)
  for (const std::size_t k : candidates) {
    const std::size_t n = keys[k].size();
    for (std::size_t i = 0; i < n;) {
      const auto it = first.find(keys[k][i]);
      if (it != first.end()) {
        const auto [k2, i2] = it->second;
        std::size_t len = 0;
        while (i + len < n && i2 + len < keys[k2].size() && (k2 != k || i2 + len < i) &&
               shown[k2][i2 + len] == kShown && keys[k][i + len] == keys[k2][i2 + len])
          ++len;
        if (len >= min_lines) {
          for (std::size_t j = 0; j < len; ++j) {
            shown[k][i + j] = kRepeat;
            origin[k][i + j] = {k2, i2 + j};
          }
          i += len;
          continue;
        }
      }
      first.emplace(keys[k][i], std::make_pair(k, i));
      ++i;
    }
  }
  return origin;
}

/// A repeat whose earlier lines trimming then left out repeats nothing the agent is shown: it
/// becomes a plain gap (`e68 link "Table of contents" (275 more links)`, not "275 more repeated
/// from above" when the lines above are a count too), when the pack still fits.
void unrepeat(const Meter& m, const Origins& origin, std::size_t budget, std::vector<Shown>& shown) {
  std::vector<Shown> plain = shown;
  bool changed = false;
  for (const std::size_t k : m.candidates)
    for (std::size_t i = 0; i < plain[k].size(); ++i)
      if (plain[k][i] == kRepeat && !visible(shown[origin[k][i].first][origin[k][i].second])) {
        plain[k][i] = kHidden;
        changed = true;
      }
  if (changed && m.total(plain) <= budget) shown = std::move(plain);
}

}  // namespace

namespace {

/// Whether every element of a region is in `state` (a region folds whole).
bool all_in(const Shown& shown, char state) {
  return !shown.empty() && std::all_of(shown.begin(), shown.end(), [state](char c) { return c == state; });
}

/// The line of regions folded together: `... N more in WHERE: "first" … "last" (find FIND)`.
void fold_line(std::string& out, std::size_t n, const std::string& where, const std::string& first,
               const std::string& last, const std::string& find) {
  out += "... " + std::to_string(n) + " more in " + where + ": ";
  sample(out, first);
  if (n > 1) {
    out += " \xE2\x80\xA6 ";  // …
    sample(out, last);
  }
  out += " (find " + find + ")\n";
}

}  // namespace

bool folded(const Shown& shown) {
  return all_in(shown, kFolded);
}

std::size_t folded_run_end(const std::vector<Shown>& shown, std::size_t from) {
  std::size_t end = from;
  while (end < shown.size() && folded(shown[end])) ++end;
  return end;
}

void folded_line(std::string& out, const FactPack& pack, std::size_t from, std::size_t to) {
  std::size_t n = 0;
  int lo = frame_index(pack.regions[from]), hi = lo;
  for (std::size_t k = from; k < to; ++k) {
    n += pack.regions[k].elements.size();
    lo = std::min(lo, frame_index(pack.regions[k]));
    hi = std::max(hi, frame_index(pack.regions[k]));
  }
  const std::string frames = lo == hi ? frame_word(lo) : frame_word(lo) + ".." + frame_word(hi);
  fold_line(out, n, (lo == hi ? "frame " : "frames ") + frames, pack.regions[from].elements.front().name,
            pack.regions[to - 1].elements.back().name, "frame=" + frames);
}

bool kind_folded(const Shown& shown) {
  return all_in(shown, kKindFolded);
}

void kind_folded_line(std::string& out, const FactPack& pack, const std::vector<Shown>& shown, std::size_t index) {
  const Region kind = pack.regions[index].region;
  auto same = [&](std::size_t k) {
    return !in_subframe(pack.regions[k]) && pack.regions[k].region == kind && kind_folded(shown[k]);
  };
  for (std::size_t k = 0; k < index; ++k)
    if (same(k)) return;  // written at the first of them
  std::size_t n = 0, count = 0, last = index;
  for (std::size_t k = index; k < pack.regions.size(); ++k)
    if (same(k)) {
      n += pack.regions[k].elements.size();
      ++count;
      last = k;
    }
  const std::string word = region_name(kind);
  fold_line(out, n, std::to_string(count) + " " + word + " regions", pack.regions[index].elements.front().name,
            pack.regions[last].elements.back().name, "region=" + word + " frame=f0");
}

std::vector<Shown> untrimmed(const FactPack& pack) {
  std::vector<Shown> out;
  for (const RegionBlock& b : pack.regions) out.emplace_back(b.elements.size(), kShown);
  return out;
}

bool mark_long_repeats(const FactPack& pack, const RenderOptions& o, std::vector<Shown>& shown) {
  if (!o.trim_regions) return false;
  std::vector<std::size_t> candidates;
  for (std::size_t k = 0; k < pack.regions.size(); ++k)
    if (renders_lines(pack.regions[k], o)) candidates.push_back(k);
  const Origins origin = mark_repeats(pack, candidates, shown, limits::kMinRepeatLinesWithinBudget);
  return std::any_of(origin.begin(), origin.end(), [](const auto& lines) {
    return std::any_of(lines.begin(), lines.end(), [](const auto& from) { return from.first != kNone; });
  });
}

void trim_to_budget(const FactPack& pack, const RenderOptions& o, std::size_t untrimmed_bytes,
                    std::vector<Shown>& shown) {
  const std::size_t budget = o.token_budget * limits::kBytesPerToken;
  if (!o.trim_regions || untrimmed_bytes <= budget) return;
  Meter m{pack, {}, std::vector<Lines>(pack.regions.size()), std::vector<std::size_t>(pack.regions.size(), 0), 0};
  std::size_t lines_total = 0;
  int deepest = 0;
  for (std::size_t k = 0; k < pack.regions.size(); ++k) {
    if (!renders_lines(pack.regions[k], o)) continue;
    m.candidates.push_back(k);
    m.lines[k] = measure(pack.regions[k]);
    m.tags[k] = tag_bytes(pack.regions[k]);
    lines_total += m.tags[k] + lines_bytes(pack, k, shown[k], m.lines[k]);
    for (const Element& e : pack.regions[k].elements) deepest = std::max(deepest, e.depth - m.lines[k].base);
  }
  m.rest = untrimmed_bytes - std::min(untrimmed_bytes, lines_total);
  const Origins origin = mark_repeats(pack, m.candidates, shown);
  std::size_t total = m.total(shown);
  for (int level = deepest; level >= limits::kOutlineKeptLevels && total > budget; --level)
    total = collapse_level(m, shown, level, budget);
  if (total > budget) {
    for (const std::size_t k : m.candidates)
      for (std::size_t i = 0; i < shown[k].size(); ++i)
        if (shown[k][i] == kShown && m.lines[k].excerpt[i] < m.lines[k].bytes[i]) shown[k][i] = kExcerpt;
    total = m.total(shown);
  }
  if (total > budget) total = trim_outline(m, shown, budget);
  if (total > budget) {
    // The hard cut takes iframes' lines first. When that fits and leaves every frame a line, it
    // stands; else their tags are too many: frames fold, the last first, then the cut goes on.
    std::vector<Shown> cut = shown;
    const std::size_t cut_total = trim_heads(m, cut, budget, 0, 0, kKeepNothing, Which::kSubframes);
    bool every_frame_shows = true;
    for (const std::size_t k : m.candidates)
      if (in_subframe(pack.regions[k]))
        every_frame_shows = every_frame_shows && std::any_of(cut[k].begin(), cut[k].end(), visible);
    if (cut_total <= budget && every_frame_shows) {
      shown = std::move(cut);
      total = cut_total;
    } else {
      total = fold_frames(m, shown, budget);
      if (total > budget) total = trim_heads(m, shown, budget, 0, 0, kKeepNothing, Which::kSubframes);
    }
  }
  if (total > budget) {
    // Last, the hard cut of every region. When even that cannot fit (the page's own regions'
    // tags are too many), regions of one kind fold first, then the cut goes on.
    std::vector<Shown> cut = shown;
    if (trim_heads(m, cut, budget, 0, 0, kKeepNothing) <= budget) {
      shown = std::move(cut);
    } else {
      fold_kinds(m, shown, budget);
      trim_heads(m, shown, budget, 0, 0, kKeepNothing);
    }
  }
  unrepeat(m, origin, budget, shown);
}

std::size_t region_lines(std::string& out, const FactPack& pack, std::size_t index, const Shown& shown) {
  const RegionBlock& b = pack.regions[index];
  const Element* last_shown = nullptr;
  std::size_t count = 0;
  for (std::size_t i = 0; i < b.elements.size();) {
    if (visible(shown[i])) {
      out.append(indent_of(b.elements[i]), ' ');
      if (shown[i] == kExcerpt)
        excerpt_line(out, b.elements[i]);
      else
        element_line(out, b.elements[i]);
      last_shown = &b.elements[i];
      ++count;
      ++i;
      continue;
    }
    bool repeat = false;
    const std::size_t j = gap_end(shown, i, repeat);
    gap_line(out, pack, b, i, j, last_shown, repeat);
    i = j;
  }
  return count;
}

}  // namespace athena::render
