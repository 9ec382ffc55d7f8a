// Every bound of the core, in one place. Benchmarks and tests refer to these names;
// README "Limits" points here. Configurable ones are defaults of athena::Config.
#pragma once

#include <cstddef>
#include <cstdint>

namespace athena::limits {

// Input.
inline constexpr std::size_t kMaxInputBytes = 64u << 20;      // one capture / event JSON string
inline constexpr std::size_t kMaxNodes = 500'000;             // DOM nodes per capture (all frames)
inline constexpr std::size_t kMaxFrames = 512;                // frames per page
inline constexpr std::size_t kMaxDepth = 4'096;               // DOM depth walked
inline constexpr std::size_t kMaxNameChars = 160;             // accessible name kept per element (UTF-8 bytes, cut on a char boundary)
inline constexpr std::size_t kMaxValueChars = 200;            // input value kept per element
inline constexpr std::size_t kMaxTextChars = 300;            // alert/status/toast text kept
inline constexpr int kContextHops = 3;                        // ancestors searched for the text around a nameless control
inline constexpr std::size_t kContextMaxChars = 80;           // ... and the most of it used as its description

// History and registries (memory stays flat over long sessions).
inline constexpr std::size_t kDefaultHistory = 3;             // snapshot versions kept per page (seeds/000 §3)
inline constexpr std::size_t kMaxHistory = 16;
inline constexpr std::size_t kMaxRemovedTombstones = 4'096;   // refs remembered as "removed in vN" per page
inline constexpr std::size_t kMaxPages = 256;                 // pages per engine
inline constexpr std::size_t kMaxRetiredDocuments = 1'024;    // (frame, loader) pairs remembered as navigated/detached per page
inline constexpr std::size_t kMaxMatchRounds = 64;            // neighbour-anchored matching rounds (engine matcher; one list row per round)

// Delta reliability: ONE rule (DESIGN §7). A delta is unreliable, and a full snapshot is sent,
// when changed / max(before, after) > kDefaultMaxChangeRatio, with changed = added + removed + modified
// and both counts taken in the context being diffed (base page or top overlay).
// Contexts smaller than kMinNodesForRatio never fall back on this rule.
inline constexpr double kDefaultMaxChangeRatio = 0.40;
inline constexpr std::size_t kMinNodesForRatio = 8;

// Rendering (seeds/003 trimming, seeds/004 caps).
inline constexpr std::size_t kRegionTrimThreshold = 40;       // a baseline region longer than this is trimmed
inline constexpr std::size_t kRegionTrimHead = 15;            // ... to its first N
inline constexpr std::size_t kRegionTrimTail = 5;             // ... and last N (plus focused / in-viewport ones)
inline constexpr std::size_t kDeltaCapPerCategory = 25;       // added / modified / removed lines per category
inline constexpr std::size_t kNonInteractiveCap = 10;         // headings, alerts, status lines per delta

}  // namespace athena::limits
