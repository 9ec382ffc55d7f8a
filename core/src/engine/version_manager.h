// Monotonic versions of a page's view (seeds/000 §3): a version is bumped only when what the
// agent could see changed (refs included), never decreases (also across navigations), and the
// last N are kept so an agent one or two versions behind can be told what changed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>

#include "engine/view.h"

namespace athena::engine {

class SnapshotVersionManager {
 public:
  struct Entry {
    std::uint64_t version = 0;
    std::uint64_t hash = 0;
    std::shared_ptr<const View> view;
  };

  /// history: versions kept besides the current one (clamped to 1..limits::kMaxHistory).
  explicit SnapshotVersionManager(std::size_t history);

  /// Would a view with this hash be a new version? Nothing changes.
  bool peek(std::uint64_t view_hash) const;
  /// New version only when the hash differs from the current one. Returns {entry, is_new}.
  std::pair<const Entry*, bool> capture_if_changed(View view);
  /// New version regardless of the hash.
  const Entry* force_capture(View view);
  /// Current or one of the kept versions; nullptr when unknown or dropped.
  const Entry* get(std::uint64_t version) const;
  const Entry* current() const { return entries_.empty() ? nullptr : &entries_.back(); }
  std::uint64_t current_version() const { return entries_.empty() ? 0 : entries_.back().version; }
  /// Versions kept besides the current one.
  std::size_t history_size() const { return entries_.empty() ? 0 : entries_.size() - 1; }

 private:
  const Entry* push(View view);
  std::size_t history_;
  std::uint64_t last_ = 0;
  std::deque<Entry> entries_;  // oldest first; back() is current
};

}  // namespace athena::engine
