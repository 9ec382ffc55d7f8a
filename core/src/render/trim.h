// Which elements of a baseline's regions the agent text shows, decided by a token budget, and the
// gap lines that say what was left out and how to get it (limits.h "Rendering").
#pragma once

#include <string>
#include <vector>

#include "athena/factpack.h"
#include "athena/render.h"

namespace athena::render {

/// Per element of one region: how it renders.
inline constexpr char kHidden = 0;   // left to a gap line
inline constexpr char kShown = 1;    // its line
inline constexpr char kRepeat = 2;   // left to a "repeated from above" gap line
inline constexpr char kExcerpt = 3;  // its line, a long text cut to limits::kTrimmedTextChars
inline constexpr char kFolded = 4;   // its iframe's regions, with the frames around it, are one line
inline constexpr char kKindFolded =
    5;  // its region, with every region of its kind in the page's own frame, is one line
using Shown = std::vector<char>;

/// Whether a region is folded (every element kFolded): it renders no tags and no lines.
bool folded(const Shown& shown);

/// The end (exclusive) of the run of folded regions that starts at `from`.
std::size_t folded_run_end(const std::vector<Shown>& shown, std::size_t from);

/// The one line of the folded regions [from, to), every region of iframes fA..fB and nothing
/// else: `... 200 more in frames f1..f100: "first" … "last" (find frame=f1..f100)`.
void folded_line(std::string& out, const FactPack& pack, std::size_t from, std::size_t to);

/// Whether a region is folded with the others of its kind (every element kKindFolded): it renders
/// no tags and no lines of its own.
bool kind_folded(const Shown& shown);

/// At the first of the page's own regions of one kind folded together, their one line:
/// `... 200 more in 100 form regions: "first" … "last" (find region=form frame=f0)`; nothing at
/// the others.
void kind_folded_line(std::string& out, const FactPack& pack, const std::vector<Shown>& shown, std::size_t index);

/// Everything shown: in a baseline the token budget decides, not a count.
std::vector<Shown> untrimmed(const FactPack& pack);

/// Trims `shown` until the pack fits options.token_budget (`untrimmed_bytes` is the size of the
/// pack's text rendered with `shown` as given), outline first: the deepest levels collapse first,
/// then the first nested level, then the largest regions keep their heads (with their headings,
/// focused and in-viewport lines while they fit), and last a hard cut: iframes' regions first,
/// then, when their tags alone are still too many, they fold into one line per run of frames,
/// then the page's own regions. The budget is a bound.
void trim_to_budget(const FactPack& pack, const RenderOptions& options, std::size_t untrimmed_bytes,
                    std::vector<Shown>& shown);

/// Within the budget, a block the page shows twice (the same navigation at its top and bottom) is
/// still shown once: marks kRepeat each run of limits::kMinRepeatLinesWithinBudget or more lines
/// equal to earlier lines of the pack. Returns whether it marked any.
bool mark_long_repeats(const FactPack& pack, const RenderOptions& options, std::vector<Shown>& shown);

/// The lines of region `b` (pack.regions[index]), each indented by its outline depth below the
/// region's shallowest, and for each run of hidden ones a gap line that names the find call
/// listing them: `... 71 more links under "Built-in Functions" (find region=main after=REF)`
/// under the line that holds them, else `... 40 more here: "first" … "last" (find region=main
/// after=REF)`. Returns how many were shown.
std::size_t region_lines(std::string& out, const FactPack& pack, std::size_t index, const Shown& shown);

}  // namespace athena::render
