// Helpers the PageSession files share (page_session.cpp: the flows; baseline.cpp: full FactPacks
// and cross-baseline dedup; transition.cpp: the overlay transition; delta.cpp: the diff of one
// context and the one reliability rule). Private to core/src/engine.
#pragma once

#include <string>
#include <tuple>
#include <vector>

#include "athena/factpack.h"
#include "engine/view.h"

namespace athena::engine {

inline OverlayInfo info_of(const std::vector<OverlayId>& stack) {
  OverlayInfo info;
  if (stack.empty()) return info;
  info.type = stack.back().type;
  info.name = stack.back().name;
  info.depth = static_cast<int>(stack.size());
  return info;
}

/// Entries of `view` in contexts [lo, hi) (-1 = base page).
template <typename F>
void each_ctx(const View& view, int lo, int hi, F f) {
  for (const ViewEntry& e : view.entries)
    if (e.element.overlay >= lo && e.element.overlay < hi) f(e);
}

/// A region block of one frame and overlay: frame index, region, label, overlay.
using BlockKey = std::tuple<int, int, std::string, int>;
inline BlockKey block_key(const ViewEntry& e) {
  return {e.frame_index, static_cast<int>(e.element.region), e.element.region_label, e.element.overlay};
}

/// Context index of everything above every overlay (each_ctx's `hi` for "all of them").
inline constexpr int kAllContexts = 1 << 30;

}  // namespace athena::engine
