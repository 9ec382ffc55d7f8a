#include "render/trim.h"

#include <algorithm>

#include "athena/limits.h"
#include "render/lines.h"

namespace athena::render {
namespace {

bool renders_lines(const RegionBlock& b, const RenderOptions& o) { return !(b.unchanged && o.dedup); }

/// ` region=main`, or ` region="Primary"` when another region of the pack has the same name
/// under another label (the label is what tells them apart), then ` frame=f2` in an iframe.
void region_hint(std::string& out, const FactPack& pack, const RegionBlock& b) {
  bool ambiguous = false;
  for (const RegionBlock& o : pack.regions)
    ambiguous = ambiguous || (&o != &b && o.region == b.region && o.label != b.label);
  out += " region=";
  if (ambiguous && !b.label.empty()) quoted(out, b.label);
  else out += region_name(b.region);
  if (!b.frame_ref.empty() && b.frame_ref != "f0") out += " frame=" + b.frame_ref;
}

void gap_line(std::string& out, const FactPack& pack, const RegionBlock& b, std::size_t from, std::size_t to,
              const Element* before) {
  out += "... " + std::to_string(to - from) + " more here: ";
  quoted(out, b.elements[from].name);
  if (to - from > 1) {
    out += " \xE2\x80\xA6 ";  // …
    quoted(out, b.elements[to - 1].name);
  }
  out += " (find";
  region_hint(out, pack, b);
  if (before) out += " after=" + before->ref;
  out += ")\n";
}

/// Bytes of region_lines() for `shown`, from each element line's length measured once (`line`):
/// only the few gap lines are rendered to be measured.
std::size_t lines_bytes(const FactPack& pack, std::size_t index, const Shown& shown, const std::vector<std::size_t>& line) {
  const RegionBlock& b = pack.regions[index];
  std::size_t bytes = 0;
  const Element* last_shown = nullptr;
  std::string gap;
  for (std::size_t i = 0; i < b.elements.size();) {
    if (shown[i]) {
      bytes += line[i];
      last_shown = &b.elements[i++];
      continue;
    }
    std::size_t j = i;
    while (j < b.elements.size() && !shown[j]) ++j;
    gap.clear();
    gap_line(gap, pack, b, i, j, last_shown);
    bytes += gap.size();
    i = j;
  }
  return bytes;
}

std::vector<std::size_t> line_lengths(const RegionBlock& b) {
  std::vector<std::size_t> out;
  out.reserve(b.elements.size());
  std::string scratch;
  for (const Element& e : b.elements) {
    scratch.clear();
    element_line(scratch, e);
    out.push_back(scratch.size());
  }
  return out;
}

/// What a trimmed region keeps whatever the budget: its first `head`, last kRegionTrimTail,
/// focused and in-viewport elements, its first kMaxHeadingsPerTrimmedRegion headings; never an
/// element the text bound already left out.
Shown kept(const RegionBlock& b, const Shown& allowed, std::size_t head) {
  const std::size_t n = b.elements.size();
  Shown out(n, 0);
  std::size_t headings = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const Element& e = b.elements[i];
    const bool heading = e.category == Category::kHeading && headings < limits::kMaxHeadingsPerTrimmedRegion;
    headings += heading;
    out[i] = allowed[i] && (i < head || i + limits::kRegionTrimTail >= n || e.state.focused || e.in_viewport || heading);
  }
  return out;
}

}  // namespace

std::vector<Shown> untrimmed(const FactPack& pack, const RenderOptions& o) {
  std::vector<Shown> out;
  std::size_t text = 0;
  for (const RegionBlock& b : pack.regions) {
    Shown s(b.elements.size(), 1);
    if (renders_lines(b, o))
      for (std::size_t i = 0; i < s.size(); ++i)
        if (b.elements[i].category == Category::kText) s[i] = text++ < limits::kMaxTextLinesPerPack;
    out.push_back(std::move(s));
  }
  return out;
}

void trim_to_budget(const FactPack& pack, const RenderOptions& o, std::size_t untrimmed_bytes, std::vector<Shown>& shown) {
  const std::size_t budget = o.token_budget * limits::kBytesPerToken;
  if (!o.trim_regions || untrimmed_bytes <= budget) return;
  std::vector<std::size_t> order;
  for (std::size_t k = 0; k < pack.regions.size(); ++k)
    if (renders_lines(pack.regions[k], o) && pack.regions[k].elements.size() > limits::kRegionTrimThreshold) order.push_back(k);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return pack.regions[a].elements.size() > pack.regions[b].elements.size();
  });
  std::size_t total = untrimmed_bytes;
  for (const std::size_t k : order) {
    const RegionBlock& b = pack.regions[k];
    const std::vector<std::size_t> line = line_lengths(b);
    const std::size_t rest = total - lines_bytes(pack, k, shown[k], line);
    auto cost = [&](std::size_t head) { return rest + lines_bytes(pack, k, kept(b, shown[k], head), line); };
    // The most leading elements that still fit (binary search; the cost grows with the head).
    std::size_t lo = limits::kRegionTrimHead, hi = b.elements.size();
    if (cost(lo) <= budget) {
      while (lo < hi) {
        const std::size_t mid = lo + (hi - lo + 1) / 2;
        if (cost(mid) <= budget) lo = mid;
        else hi = mid - 1;
      }
    }
    shown[k] = kept(b, shown[k], lo);
    total = cost(lo);
    if (total <= budget) return;
  }
}

std::size_t region_lines(std::string& out, const FactPack& pack, std::size_t index, const Shown& shown) {
  const RegionBlock& b = pack.regions[index];
  const Element* last_shown = nullptr;
  std::size_t count = 0;
  for (std::size_t i = 0; i < b.elements.size();) {
    if (shown[i]) {
      element_line(out, b.elements[i]);
      last_shown = &b.elements[i];
      ++count;
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < b.elements.size() && !shown[j]) ++j;
    gap_line(out, pack, b, i, j, last_shown);
    i = j;
  }
  return count;
}

}  // namespace athena::render
