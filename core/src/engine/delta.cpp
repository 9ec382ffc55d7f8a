// The delta rule, in one place: what changed in one context (the base page or one overlay)
// between two views, matched by ref, and the one reliability rule that decides whether those
// changes are a delta the agent can trust or too many to be one (then a full FactPack is sent).
#include <algorithm>
#include <utility>
#include <vector>

#include "athena/limits.h"
#include "engine/page_parts.h"
#include "engine/page_session.h"

namespace athena {

using engine::each_ctx;
using engine::RefId;
using engine::View;
using engine::ViewEntry;

void PageSession::invalidate(Outcome& out, const ViewEntry& e, const char* fallback) const {
  const engine::RefRecord* r = registry_.find(e.ref);
  std::string cause = r && !r->live && !r->cause.empty() ? r->cause : fallback;
  out.pack.invalidated.push_back({e.element.ref, cause, e.element.role, e.element.name, e.element.frame});
}

bool PageSession::diff_context(const View& from, const View& to, int c, Outcome& out) const {
  // Lookups by ref in sorted arrays (no allocation per element); a stable sort keeps the
  // first entry of a ref first, as a map's emplace would.
  std::vector<std::pair<RefId, const ViewEntry*>> before;
  std::vector<RefId> after;
  // Revealed text stays out of the reliability rule (limits.h): a tab switch swapping three
  // paragraphs on a small page is a plain delta, and no ref an agent acts on is at stake.
  std::size_t text_before = 0, text_after = 0, text_changed = 0, text_added = 0;
  each_ctx(from, c, c + 1, [&](const ViewEntry& e) {
    before.emplace_back(e.ref, &e);
    text_before += e.element.category == Category::kText;
  });
  each_ctx(to, c, c + 1, [&](const ViewEntry& e) {
    after.push_back(e.ref);
    text_after += e.element.category == Category::kText;
  });
  const std::size_t n_before = before.size() - text_before, n_after = after.size() - text_after;
  std::stable_sort(before.begin(), before.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::sort(after.begin(), after.end());
  // Where an addition sits: after the line before it in the page (same region and frame), or,
  // in a run of additions, after the line before the run's first.
  const ViewEntry* prev = nullptr;
  bool prev_added = false;
  std::string run_after;
  each_ctx(to, c, c + 1, [&](const ViewEntry& e) {
    auto it = std::lower_bound(before.begin(), before.end(), e.ref, [](const auto& a, RefId r) { return a.first < r; });
    const bool text = e.element.category == Category::kText;
    const bool added = it == before.end() || it->first != e.ref;
    const bool same_place = prev && prev->frame_index == e.frame_index && prev->element.region == e.element.region &&
                            prev->element.region_label == e.element.region_label;
    // A status, alert or validation message is an announcement: where it sits says nothing, and
    // naming a line for it would cost more than the message (it is placed by its region alone).
    const Category cat = e.element.category;
    const bool announcement = cat == Category::kStatus || cat == Category::kAlert || cat == Category::kValidation;
    if (added) {
      if (!prev_added || !same_place) run_after = same_place ? prev->element.ref : std::string();
      out.pack.added.push_back(e.element);
      out.pack.added.back().after = announcement ? std::string() : run_after;
      text_changed += text;
      text_added += text;
    } else if (it->second->content != e.content) {
      out.pack.modified.push_back({e.element.ref, it->second->element, e.element});
      text_changed += text;
    }
    prev_added = added;
    prev = &e;
  });
  each_ctx(from, c, c + 1, [&](const ViewEntry& e) {
    if (std::binary_search(after.begin(), after.end(), e.ref)) return;
    invalidate(out, e, "removed");
    text_changed += e.element.category == Category::kText;
  });
  // The one reliability rule (limits.h, docs/design.md "The reliability rule"), revealed text left out of it.
  const std::size_t changed = out.pack.added.size() + out.pack.modified.size() + out.pack.invalidated.size() - text_changed;
  // Pure growth (a first todo brings its list and footer) cannot mislead: every ref the agent
  // holds is still what it was, and the delta lists exactly what is new.
  if (changed == out.pack.added.size() - text_added) return true;
  const std::size_t denom = std::max(n_before, n_after);
  if (denom < limits::kMinNodesForRatio) return true;
  return !(static_cast<double>(changed) / static_cast<double>(denom) > config_.max_change_ratio);
}

}  // namespace athena
