// One page's state (docs/design.md, "The page's state"): uninitialized -> base <-> overlay.
//
// Two Views carry everything: `live_` (the latest capture, refs assigned by the matcher) and
// `delivered_` (exactly what the agent holds: the last FactPack applied); `versions_` keeps only
// the current version number and hash. A FactPack is always delivered_ -> target, where target is the latest capture
// with the contexts the state machine keeps frozen (the base page while an overlay is open, every overlay below the top
// one) taken from delivered_. Applying the pack to what the agent holds gives target, which is what the fidelity tests
// check.
#pragma once

#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "athena/engine.h"
#include "engine/frame_tracker.h"
#include "engine/matcher.h"
#include "engine/ref_registry.h"
#include "engine/version_manager.h"
#include "engine/view.h"

namespace athena {

class PageSession {
 public:
  /// `refs`: the Engine's ref counter, shared by its pages.
  PageSession(PageKey key, const Config& config, std::shared_ptr<engine::RefId> refs);
  /// Did this page issue e{n} (and still remember it)?
  bool issued(engine::RefId n) const { return registry_.find(n) != nullptr; }
  /// The least and greatest ref number it issued (0, 0 before any).
  std::pair<engine::RefId, engine::RefId> ref_span() const { return registry_.span(); }

  PageKey key() const { return key_; }
  Status on_event(std::string_view event_json) { return tracker_.on_event(event_json); }
  Result<FactPack> snapshot(Snapshot snapshot, const ActionInfo& info);
  Result<PreCheck> begin_action(Snapshot snapshot, std::optional<std::uint64_t> agent_version);
  Result<Target> resolve(std::string_view ref) const;
  /// ingest() + resolve(): no version, no delivery, pending_ untouched.
  Result<Target> resolve_fresh(Snapshot snapshot, std::string_view ref);
  Result<FactPack> finish_action(Snapshot snapshot, const ActionInfo& info);
  Status abort_action();
  std::vector<Element> find(const FindQuery& query) const;
  NodeName describe_node(std::int64_t backend_node_id, std::string_view frame_id) const;
  Result<FindResult> find_paged(const FindQuery& query) const;
  PageStats stats() const;

 private:
  using View = engine::View;
  struct Outcome {
    FactPack pack;
    View target;
  };
  struct Live {
    Snapshot snapshot;
    std::vector<engine::RefId> refs;  // per node
    std::uint64_t raw_hash = 0;       // content_hash(snapshot): the cheap "nothing moved" check
    std::unordered_map<engine::RefId, std::size_t> node_of_ref;
  };
  struct Pending {
    std::optional<Outcome> before;  // stale_with_history: delivered only with the action's result
  };

  Result<View> ingest(Snapshot snapshot);
  View build_view(const Snapshot& snapshot, const std::vector<engine::RefId>& refs);
  /// Gives the new nodes the matcher left unmatched the removed refs they were shown by (ingest).
  void recall(const Snapshot& snapshot, const std::vector<engine::MatchNode>& news, engine::MatchResult& m);
  void commit(View& view, Outcome* outcome);
  /// The overlay transition (transition.cpp).
  Outcome transition(const View& from, View& to, std::string reason);
  /// A full FactPack and cross-baseline dedup (baseline.cpp).
  /// A full FactPack of `to`; a region equal to `from`'s is collapsed (`unchanged`) only when
  /// `collapse` and the reason allows it (see baseline.cpp).
  Outcome full(const View* from, View& to, const std::string& reason, bool collapse = true);
  /// The diff of context c (-1: the base page) into out.pack, and the one reliability rule:
  /// false when the changes are too many to be a trustworthy delta (delta.cpp).
  bool diff_context(const View& from, const View& to, int c, Outcome& out) const;
  /// Context c's changes, as diffed into out.pack, are one run of lines replaced by another at
  /// the same place and nothing else: a delta to trust whatever the ratio (delta.cpp).
  bool replaced_run(const View& from, const View& to, int c, const Outcome& out) const;
  /// Records e's ref as invalid in out, with the cause the registry recorded, else `fallback`.
  void invalidate(Outcome& out, const engine::ViewEntry& e, const char* fallback) const;
  /// Marks every ref of the outcome's target as shown; its target becomes what the agent holds
  /// (moved out), and the document it held before is kept in left_ when it is another.
  void deliver(Outcome& outcome);
  engine::Binding binding_of(const ReadableNode& node);
  /// tracker_.frame_index() for a run of nodes, remembering the last frame asked about.
  class FrameIndexCache {
   public:
    int operator()(engine::FrameTracker& tracker, const std::string& frame_id);

   private:
    const std::string* last_ = nullptr;
    int index_ = 0;
  };
  std::string full_reason_for(const View& to) const;

  PageKey key_;
  Config config_;
  engine::FrameTracker tracker_;
  engine::RefRegistry registry_;
  engine::SnapshotVersionManager versions_;
  std::optional<Live> live_;
  std::shared_ptr<const View> delivered_;        // null = uninitialized
  std::string delivered_url_, delivered_title_;  // the address and title the last delivered pack gave
  /// What the agent held of the documents the tab left, newest first (limits::kMaxRecalledPages):
  /// a page it comes back to shows the regions it held there as `unchanged` (baseline.cpp).
  std::deque<std::shared_ptr<const View>> left_;
  std::optional<Pending> pending_;
  bool unknown_frames_ = false;  // the next pack must be full (reason unknown_frames)
};

}  // namespace athena
