// Monotonic versions of a page's view (docs/design.md, "Versions and stale agents"): a version is
// bumped only when what the agent could see changed (refs included) and never decreases (also
// across navigations). Only the current version and its hash are kept: the engine always diffs
// from the view the agent holds (PageSession::delivered_), kept whole, so an agent holding the
// last DELIVERED version is never stale however many versions were committed and never delivered
// since (failed actions); any other agent version is stale_no_history (a full snapshot).
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>

#include "engine/view.h"

namespace athena::engine {

class SnapshotVersionManager {
 public:
  struct Entry {
    std::uint64_t version = 0;
    std::uint64_t hash = 0;
  };

  /// Would a view with this hash be a new version? Nothing changes.
  bool peek(std::uint64_t view_hash) const;
  /// New version only when the hash differs from the current one. Returns {entry, is_new}.
  std::pair<const Entry*, bool> capture_if_changed(const View& view);
  const Entry* current() const { return current_.version == 0 ? nullptr : &current_; }
  std::uint64_t current_version() const { return current_.version; }

 private:
  Entry current_;  // version 0: nothing captured yet
};

}  // namespace athena::engine
