// The overlay transition: from the view the agent holds to the new one, by what happened to the
// stack of overlays (modal dialogs, opened menus). Same stack: a delta of the live context
// (delta.cpp). Closed: back to the context below, its overlay's refs invalid. Opened or replaced:
// the new overlays listed whole, everything below frozen. A navigation or an unreliable delta
// is a full FactPack (baseline.cpp).
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "engine/page_parts.h"
#include "engine/page_session.h"
#include "words.h"

namespace athena {

using engine::block_key;
using engine::BlockKey;
using engine::each_ctx;
using engine::info_of;
using engine::kAllContexts;
using engine::OverlayId;
using engine::View;
using engine::ViewEntry;

PageSession::Outcome PageSession::transition(const View& from, View& to, std::string reason) {
  if (reason.empty()) reason = full_reason_for(to);
  if (!reason.empty()) return full(&from, to, reason);

  const std::vector<OverlayId>& T = from.stack;
  const std::vector<OverlayId>& S = to.stack;
  std::size_t P = 0;
  while (P < T.size() && P < S.size() && T[P] == S[P]) ++P;
  const int p = static_cast<int>(P), t = static_cast<int>(T.size()), s = static_cast<int>(S.size());

  Outcome out;
  auto keep = [&](int lo, int hi) {
    each_ctx(from, lo, hi, [&](const ViewEntry& e) { out.target.entries.push_back(e); });
  };
  auto take = [&](int lo, int hi) {
    each_ctx(to, lo, hi, [&](const ViewEntry& e) { out.target.entries.push_back(e); });
  };
  out.target.main_frame_id = to.main_frame_id;
  out.target.main_loader_id = to.main_loader_id;
  out.target.stack = S;
  out.target.entries.reserve(std::max(from.entries.size(), to.entries.size()));
  // The refs of an overlay that closed go with it, whatever became of each before (one removed
  // by a change the agent was not yet told of): the pack's tag says they went, and nothing else.
  auto closed_with_overlay = [&](const ViewEntry& e) {
    out.pack.invalidated.push_back({e.element.ref, "overlay_closed", e.element.role, e.element.name, e.element.frame});
  };

  if (p == t && p == s) {
    // Same overlay stack: a delta of the live context (top overlay, or the base page).
    const int c = s - 1;
    if (!diff_context(from, to, c, out)) return full(&from, to, "unreliable_delta");
    keep(-1, c);
    take(c, c + 1);
    out.pack.type =
        out.pack.added.empty() && out.pack.modified.empty() && out.pack.invalidated.empty() && out.pack.regions.empty()
            ? PackType::kNoChange
            : PackType::kDelta;
    return out;
  }
  if (p == s && p < t) {
    // Closed back to context s-1: its refs were captured at open and die now; the context we
    // return to reports what changed while it was frozen.
    const int c = s - 1;
    if (!diff_context(from, to, c, out)) return full(&from, to, "unreliable_delta");
    std::vector<Invalidation> changes = std::move(out.pack.invalidated);
    out.pack.invalidated.clear();
    each_ctx(from, p, kAllContexts, closed_with_overlay);
    out.pack.invalidated.insert(out.pack.invalidated.end(), changes.begin(), changes.end());
    keep(-1, c);
    take(c, c + 1);
    out.pack.type = PackType::kOverlayClosed;
    out.pack.overlay = info_of(T);
    out.pack.overlay.closed = t - s;
    return out;
  }
  // Opened (p == t < s) or replaced (p < t, p < s): overlays above the common prefix close,
  // new ones are listed whole; everything below stays frozen.
  each_ctx(from, p, kAllContexts, closed_with_overlay);
  keep(-1, p);
  take(p, kAllContexts);
  std::vector<BlockKey> order;
  std::map<BlockKey, RegionBlock> blocks;
  each_ctx(to, p, kAllContexts, [&](const ViewEntry& e) {
    BlockKey k = block_key(e);
    auto [it, inserted] = blocks.emplace(k, RegionBlock{});
    if (inserted) {
      order.push_back(k);
      it->second.region = e.element.region;
      it->second.label = e.element.region_label;
      it->second.frame_ref = frame_word(e.frame_index);
      // Several overlays opened at once (a dialog and a menu open in it): each region says whose
      // it is, so that closing the inner one takes only its lines along. One says it in the tag.
      const auto ctx = static_cast<std::size_t>(e.element.overlay);
      if (s - p > 1 && ctx < S.size()) {
        it->second.overlay_depth = e.element.overlay + 1;
        it->second.overlay_type = S[ctx].type;
      }
    }
    it->second.elements.push_back(e.element);
  });
  for (const BlockKey& k : order) out.pack.regions.push_back(std::move(blocks[k]));
  out.pack.type = PackType::kOverlayOpened;
  out.pack.overlay = info_of(S);
  out.pack.overlay.closed = t - p;  // the overlays it replaced (0: opened over what was open)
  return out;
}

}  // namespace athena
