// Which elements of a baseline's regions the agent text shows, decided by a token budget, and the
// gap lines that say what was left out and how to get it (limits.h "Rendering").
#pragma once

#include <string>
#include <vector>

#include "athena/factpack.h"
#include "athena/render.h"

namespace athena::render {

/// Per element of one region: shown (1) or left to a gap line (0).
using Shown = std::vector<char>;

/// Everything shown except revealed text past limits::kMaxTextLinesPerPack (counted over the
/// pack's regions in order; regions rendered as unchanged="true" count nothing).
std::vector<Shown> untrimmed(const FactPack& pack, const RenderOptions& options);

/// Trims `shown` until the pack fits options.token_budget: `untrimmed_bytes` is the size of the
/// pack's text rendered with `shown` as given. Regions up to kRegionTrimThreshold elements are
/// never trimmed; the largest go first; focused, in-viewport elements and a trimmed region's first
/// headings always stay.
void trim_to_budget(const FactPack& pack, const RenderOptions& options, std::size_t untrimmed_bytes, std::vector<Shown>& shown);

/// The lines of region `b` (pack.regions[index]): shown elements, and for each run of hidden ones
/// `... 40 more here: "first" … "last" (find region=main after=REF)`. Returns how many were shown.
std::size_t region_lines(std::string& out, const FactPack& pack, std::size_t index, const Shown& shown);

}  // namespace athena::render
