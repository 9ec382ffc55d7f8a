// Every ref a page has issued: what it is bound to, what the agent was shown, and — for a
// bounded number of dead ones — why and when it died, so resolve() can say "removed in v12".
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "engine/view.h"

namespace athena::engine {

/// The scoped identity of a ref is bound to (docs/design.md, "Identity").
struct Binding {
  std::string frame_id;
  std::string loader_id;
  std::int64_t backend_node_id = 0;
  int frame_index = 0;
};

struct RefRecord {
  Binding binding;
  bool live = false;              // bound to a node of the latest capture
  bool shown = false;             // delivered to the agent at least once
  std::uint64_t shown_ident = 0;  // identity key the agent was last shown
  std::string shown_role, shown_name;
  std::string cause;          // when dead: "removed", "navigated", "detached", "overlay_closed"
  std::uint64_t dead_in = 0;  // version of the capture it vanished from
  std::uint64_t seq = 0;      // tombstone generation (bounded FIFO)
};

class RefRegistry {
 public:
  /// `counter`: the next n, shared by every page of one Engine (refs are unique across its pages).
  explicit RefRegistry(std::shared_ptr<RefId> counter = std::make_shared<RefId>(1)) : next_(std::move(counter)) {}
  /// New ref, never reused (n only grows, across every page sharing the counter).
  RefId issue(const Binding& binding);
  const RefRecord* find(RefId ref) const;
  /// Moves a ref to another node (matcher rebinding, region dedup). Revives a dead one.
  void rebind(RefId ref, const Binding& binding);
  /// The ref's node is gone. Unshown refs are forgotten (nobody can hold them); shown ones
  /// become tombstones, stamped with a version by stamp().
  void kill(RefId ref, const std::string& cause);
  /// Stamps refs killed since the last stamp with the version they vanished in, then trims the
  /// tombstones to limits::kMaxRemovedTombstones (oldest first).
  void stamp(std::uint64_t version);
  /// The agent was shown this ref as (ident, role, name).
  void show(RefId ref, std::uint64_t ident, const std::string& role, const std::string& name);
  /// The refs the agent was shown in this document (frame, loader) that the page removed since
  /// (cause "removed"), by the ident they were shown as: the same thing back in a single-page app
  /// (back to a list, forward to an item) is bound again to the ref the agent knew it by. An ident
  /// several removed refs were shown as maps to 0 (ambiguous: none is recalled).
  std::unordered_map<std::uint64_t, RefId> recall_index(const std::string& frame_id,
                                                        const std::string& loader_id) const;
  /// Forgets a ref that was never shown (dedup replaced it by the one the agent holds).
  void drop_unshown(RefId ref);

  RefId last_issued() const { return *next_ - 1; }
  /// The least and greatest n this page issued (0, 0 before any).
  std::pair<RefId, RefId> span() const { return {lo_, hi_}; }
  std::size_t size() const { return records_.size(); }
  std::size_t tombstones() const { return dead_; }

 private:
  void trim();
  std::unordered_map<RefId, RefRecord> records_;
  std::deque<std::pair<RefId, std::uint64_t>> tomb_order_;
  std::vector<RefId> unstamped_;
  std::size_t dead_ = 0;
  std::uint64_t seq_ = 0;
  std::shared_ptr<RefId> next_;
  RefId lo_ = 0, hi_ = 0;
};

}  // namespace athena::engine
