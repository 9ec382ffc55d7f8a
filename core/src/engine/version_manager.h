// Monotonic versions of a page's view (docs/design.md, "Versions and stale agents"): a version is bumped only when what the
// agent could see changed (refs included), never decreases (also across navigations), and the
// last N are remembered. Only ids and hashes are kept: the engine always diffs from the view the
// agent holds (PageSession::delivered_), kept whole, so an agent holding the last DELIVERED
// version is never stale however many versions were committed and never delivered since (failed
// actions); any other agent version is stale_no_history (a full snapshot).
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>

#include "engine/view.h"

namespace athena::engine {

class SnapshotVersionManager {
 public:
  struct Entry {
    std::uint64_t version = 0;
    std::uint64_t hash = 0;
  };

  /// history: versions kept besides the current one (clamped to 1..limits::kMaxHistory).
  explicit SnapshotVersionManager(std::size_t history);

  /// Would a view with this hash be a new version? Nothing changes.
  bool peek(std::uint64_t view_hash) const;
  /// New version only when the hash differs from the current one. Returns {entry, is_new}.
  std::pair<const Entry*, bool> capture_if_changed(const View& view);
  /// Current or one of the kept versions; nullptr when unknown or dropped.
  const Entry* get(std::uint64_t version) const;
  const Entry* current() const { return entries_.empty() ? nullptr : &entries_.back(); }
  std::uint64_t current_version() const { return entries_.empty() ? 0 : entries_.back().version; }
  /// Versions kept besides the current one.
  std::size_t history_size() const { return entries_.empty() ? 0 : entries_.size() - 1; }

 private:
  const Entry* push(std::uint64_t hash);
  std::size_t history_;
  std::uint64_t last_ = 0;
  std::deque<Entry> entries_;  // oldest first; back() is current
};

}  // namespace athena::engine
