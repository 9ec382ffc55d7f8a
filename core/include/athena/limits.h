// Every bound of the core, in one place. Benchmarks and tests refer to these names;
// README "Limits" points here. Configurable ones are defaults of athena::Config.
#pragma once

#include <cstddef>
#include <cstdint>

namespace athena::limits {

// Input.
inline constexpr std::size_t kMaxInputBytes = 64u << 20;  // one capture / event JSON string
inline constexpr std::size_t kMaxNodes = 500'000;         // DOM nodes per capture (all frames)
inline constexpr std::size_t kMaxFrames = 512;            // frames per page
inline constexpr std::size_t kMaxDepth = 4'096;           // DOM depth walked
inline constexpr std::size_t kMaxNameChars =
    160;  // accessible name kept per element (UTF-8 bytes, cut on a char boundary)
inline constexpr std::size_t kMaxValueChars = 200;        // input value kept per element
inline constexpr std::size_t kMaxSecretLabelChars = 400;  // label text read to tell whether a field holds a secret
inline constexpr std::size_t kMaxHrefChars = 300;  // link address kept per element (a data: URL can be megabytes)
inline constexpr std::size_t kMaxTextChars = 300;  // alert/status/toast text kept
inline constexpr std::size_t kMaxRevealedTextChars =
    300;                                          // one text block (paragraph, list item, caption, table row) kept
inline constexpr std::size_t kMaxRowCells = 256;  // cells read into one table row's line
inline constexpr std::size_t kMaxHeaderCellNodes =
    64;                                              // nodes looked at in a heading or header cell for its one control
inline constexpr int kMaxOutlineDepth = 12;          // nesting levels told apart (deeper ones render at this depth)
inline constexpr int kContextHops = 3;               // ancestors searched for the text around a nameless control
inline constexpr std::size_t kContextMaxChars = 80;  // ... and the most of it used as its description
inline constexpr int kFeedbackSiblings = 3;  // siblings after a refused field searched for the page's message beside it
inline constexpr int kMaxDisplayHops = 3;  // levels between a control and the read-only box in it that shows its value
inline constexpr std::size_t kMaxPopupNodes =
    2'000;  // nodes a dropdown's floating box may hold (its search field, its list)

// Registries (memory stays flat over long sessions). No older versions are kept: only the
// delivered view (docs/design.md, "Versions and stale agents"), and the last views of a few pages
// the tab left, for a region the agent finds again when it comes back (docs/design.md, "Trimming
// and dedup across baselines").
inline constexpr std::size_t kMaxRemovedTombstones = 4'096;  // refs remembered as "removed in vN" per page
inline constexpr std::size_t kMaxPages = 256;                // pages per engine
inline constexpr std::size_t kMaxRetiredDocuments =
    1'024;  // (frame, loader) pairs remembered as navigated/detached per page
inline constexpr std::size_t kMaxMatchRounds =
    64;  // neighbour-anchored matching rounds (engine matcher; one list row per round)
inline constexpr std::size_t kMaxRecalledPages = 4;  // documents the tab left whose last view is kept per page: one it
                                                     // comes back to within this many navigations is recalled
inline constexpr std::size_t kMaxRecalledEntries =
    kMaxRemovedTombstones;  // a left view of more elements is not kept: more refs than the registry remembers dead

// Delta reliability: ONE rule (docs/design.md, "The reliability rule"). A delta is unreliable, and a full snapshot is
// sent, when changed / max(before, after) > kDefaultMaxChangeRatio, with changed = added + removed + modified and both
// counts taken in the context being diffed (base page or top overlay). Pure growth (only additions) is always a delta:
// every ref the agent holds is unchanged. Contexts smaller than kMinNodesForRatio never fall back on this rule. A
// context the rule does not trust is judged again region by region (core/src/engine/delta.cpp): a region the agent held
// whose own ratio passes the same bound is replaced whole in the delta, and the full is sent only when the regions left
// are not trusted by the rule either, or none is left (unless the changes are one run of lines replaced by another at
// its place, nothing else changed: that is a plain delta). Revealed text lines (Category::kText) are left out of both
// counts: a tab switch swapping a few paragraphs on a small page is exactly what a delta is for, and text has no refs
// an agent acts on by mistake.
inline constexpr double kDefaultMaxChangeRatio = 0.40;
inline constexpr std::size_t kMinNodesForRatio = 8;

// Refs are e{n} (core/src/engine/view.cpp), n from one counter per Engine (RefId, 32 bits): the
// most a host may ask it to start from (Config::first_ref) leaves room for a billion refs after.
inline constexpr std::uint64_t kMaxFirstRef = 3'000'000'000ULL;

// Rendering (docs/design.md: "Trimming and dedup across baselines", "What a FactPack contains").
// Baselines (full, overlay_opened) are trimmed only when their text is over a token budget,
// estimated as bytes / kBytesPerToken: cheap and deterministic. 3 is what the recorded corpus
// measures (tests/golden: 2.9 bytes per o200k token; refs and quotes tokenize densely).
// The budget is a bound: no keep rule takes a pack past it. Trimming goes outline first
// (render/trim.cpp): a run of kMinRepeatLines or more lines that repeats earlier lines of the pack
// (the same navigation at the top and the bottom) is always one line; over the budget the deepest
// outline levels collapse first, each run one gap line under the line it sits under, down to the
// top level (kOutlineKeptLevels: a manual's chapters, a list's items, a table's rows); then text
// lines longer than kTrimmedTextChars are cut to that; then the largest regions are trimmed,
// each keeping its outline: as many headings as fit, the higher levels first, with as many
// leading elements as still fit but at least kRegionTrimHead, its last kRegionTrimTail and every
// focused or in-viewport element; when those rules leave fewer whole levels of headings than the
// headings alone would, the headings and the focused line with as many leading elements as the
// rest allows; last, a hard cut from the end of the largest regions. A gap line names the first
// and last lines it stands for by their first kGapNameChars characters.
// 1,400: a manual's whole chapter outline (the Python library index: 36 chapters, each line ending
// with the count of its collapsed entries) fits beside the page's navigation and first words of
// its paragraphs (tests/golden/pydocs/00-load.txt: 66 lines, 962 o200k tokens). Much below it the
// last chapters fold into a gap line (bench/flows.mjs manual-index then needs reads). Measured on
// each docs generator's nested sidebar (bench/outline-budget.md): the smallest budget showing a
// sidebar's whole top level beside its page is 252-893 tokens (MkDocs, Sphinx, Python, Docusaurus
// 664, mdBook's 111 links 893), all within this one; only long flat lists beside a long outline
// of the page's own (rustdoc's 51 items: 3,577, Node.js's 64 modules: 3,211) need more, and those
// are cut head and tail with a find, as any list.
inline constexpr std::size_t kDefaultBaselineTokenBudget = 1'400;  // RenderOptions::token_budget default
inline constexpr std::size_t kMaxBaselineTokenBudget = 1'000'000;  // the most a caller may set
inline constexpr std::size_t kBytesPerToken = 3;
inline constexpr std::size_t kMinRepeatLines = 2;  // a repeated run this long or longer is shown once
// Within the budget only a long repeat is left to its gap line: a page's navigation repeated at its
// bottom, not two cards' "Add to cart" and "Save for later", whose refs the agent acts on.
inline constexpr std::size_t kMinRepeatLinesWithinBudget = 6;
inline constexpr int kOutlineKeptLevels = 1;  // outline levels never collapsed before heads and tails
inline constexpr std::size_t kTrimmedTextChars =
    80;  // a text line over the budget is cut to this (read shows it whole)
inline constexpr std::size_t kRegionTrimThreshold =
    40;  // a region with at most this many elements keeps its lines until the hard cut
inline constexpr std::size_t kRegionTrimHead = 15;  // a trimmed region keeps at least its first N
inline constexpr std::size_t kRegionTrimTail = 5;   // ... and its last N (plus focused / in-viewport ones)
inline constexpr std::size_t kGapNameChars = 40;    // a gap line's sample of a name it stands for
inline constexpr std::size_t kMaxTextLinesPerPack =
    40;  // text lines per delta; the rest are "... N more" lines naming a find
inline constexpr std::size_t kDeltaCapPerCategory = 25;  // added / modified / removed lines per category
inline constexpr std::size_t kNonInteractiveCap = 10;    // headings, alerts, status lines per delta
inline constexpr std::size_t kMaxMovedRefsPerPack =
    200;  // refs of lines that only moved, in their runs, per delta (a sort)
inline constexpr std::size_t kMaxInvalidFrameLines =
    8;  // one line per frame whose document went; past it, frames in a row share one
inline constexpr std::size_t kDefaultFindLimit = 50;  // elements per find page
inline constexpr std::size_t kMaxFindLimit = 100'000;
inline constexpr std::size_t kMaxFindQueryChars =
    4'096;  // a find's role, name or region string (the wasm wrapper refuses longer)

}  // namespace athena::limits
