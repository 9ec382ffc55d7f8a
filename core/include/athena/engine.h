// The delta engine's public face: one Engine per browser, one state per page.
// Every call is coarse (one per CDP result, event or action) so the WASM facade
// can forward it as one call. Nothing here talks to a browser.
//
// The action flow (docs/design.md, "The action flow"), as the extension drives it:
//   begin_action(page, capture, agent_version)   pre-validation; may answer by itself
//   resolve(page, ref)                            ref -> live node, or a precise error
//   ... the extension acts ...
//   finish_action(page, capture, info)            FactPack (delta / no_change / overlay / full)
//   abort_action(page)                            the action failed: nothing advances
//   resolve_fresh(page, capture, ref)             outside any action (read, screenshot): a ref
//                                                 against a fresh capture; no version, no delivery
//
// What the engine guarantees (tests/unit/engine prove each):
// - A FactPack is always the difference between what the agent holds (the last FactPack
//   returned: returned = delivered) and the new capture, by ref. Applying it to the agent's view
//   gives exactly a fresh full snapshot of the page (in overlay mode: of the top overlay; the
//   base page is frozen while an overlay is open and its changes come with overlay_closed).
// - Refs survive what is not a change: same node, or (same document, same overlay context) the
//   only remaining element with the same frame/region/role/name/href, or the only one of those
//   after the same matched neighbour. Anything ambiguous is an explicit remove + add.
// - A re-render that swaps in identical nodes is no_change and does NOT bump the version: the
//   version counts states of the agent's view (refs included), not DOM churn.
// - begin_action with agent_version == the last delivered version and a changed page returns
//   kStaleWithHistory; its pack is delivered with the action's result as FactPack::before_action
//   (finish_action fills it in). Any other agent version (older, newer, never delivered) is
//   kStaleNoHistory: a full snapshot, and finish_action will refuse (the action must not run).
//   No agent_version at all means "assume current": drift shows up in the action's result.
//   Versions committed and never delivered (aborted actions) never make the last delivered one
//   stale: the check is against what the agent was delivered, not against what was committed.
// - Full snapshot reasons: "first", "navigation" (main frame document or main frame changed),
//   "unknown_frames" (capture dropped nodes, or events the frame tree could not place),
//   "unreliable_delta" (limits.h rule), "stale_version", "requested" (ActionInfo::force_full, or
//   snapshot() without any other reason).
// - Bad captures and events return an Error and leave the page exactly as it was.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "athena/error.h"
#include "athena/factpack.h"
#include "athena/limits.h"
#include "athena/snapshot.h"

namespace athena {

// No history of versions is configured or kept: the engine reconciles only from the view it last
// delivered (docs/design.md, "Versions and stale agents").
struct Config {
  double max_change_ratio = limits::kDefaultMaxChangeRatio;  // the one reliability rule
  bool dedup_regions = true;                                 // docs/design.md, "Trimming and dedup across baselines"
  std::size_t token_budget =
      limits::kDefaultBaselineTokenBudget;  // RenderOptions::token_budget for the facades that render
  /// The first ref's n. Refs are e{n}, n unique among every page of one Engine; a host that
  /// outlives its Engine (a service worker Chrome restarts) starts the next one past every n it
  /// handed out, so that no ref of before can name a new element (1..limits::kMaxFirstRef).
  std::uint64_t first_ref = 1;
};

/// A tab the agent controls, c{context}p{page} (its refs, e{n}, name no tab: Engine::owner finds it).
struct PageKey {
  int context = 0;
  int page = 0;
};

/// What pre-validation found (docs/design.md, "Versions and stale agents").
enum class Freshness : std::uint8_t { kCurrent = 0, kStaleWithHistory, kStaleNoHistory };

struct PreCheck {
  Freshness freshness = Freshness::kCurrent;
  std::uint64_t current_version = 0;
  /// kStaleWithHistory: the delta from the agent's version (becomes FactPack::before_action).
  /// kStaleNoHistory: the full snapshot to return instead of acting (the action must not run).
  std::optional<FactPack> pack;
};

/// A node as the agent knows it (Engine::describe_node): ref empty when it holds none.
struct NodeName {
  bool found = false;
  std::string ref, role, name;
};

/// A ref resolved against the latest capture: everything needed to act on the live node.
struct Target {
  std::string ref;
  std::int64_t backend_node_id = 0;
  std::string frame_id;
  std::string loader_id;
  std::string role;
  std::string name;
  Rect bbox;  // main-frame viewport CSS px
  bool disabled = false;
  /// The live element as the agent would see it now (same ref; in_viewport as of the capture).
  Element element;
};

struct ActionInfo {
  std::string kind;                   // "click", "type", "navigate", ...
  std::vector<std::string> warnings;  // e.g. from bounded stabilization
  bool force_full = false;            // the agent asked for a full snapshot
  /// snapshot(): regions the agent already holds, unchanged, are collapsed (false: every region
  /// shown, as the agent's own snapshot tool asks to recover a lost context). A flag of the action,
  /// set from the tool's declaration (extension/lib/tools/define.js collapsesUnchanged): the core
  /// never reads a tool's name.
  bool collapse_unchanged = true;
  /// snapshot(): the baseline follows a step the page may take within its document (a history
  /// entry of a single-page app: back, forward). When the document is the one the agent holds,
  /// the answer is the delta from what it holds (a full only where a delta cannot be trusted).
  bool in_document = false;
};

/// Sizes of one page's bounded state (benchmarks, memory checks; see limits.h for the bounds).
struct PageStats {
  std::uint64_t version = 0;  // current version
  std::uint64_t delivered_version = 0;
  std::size_t live_elements = 0;       // elements of the latest capture
  std::size_t delivered_elements = 0;  // elements the agent holds
  std::size_t registry = 0;            // refs tracked (live + tombstones)
  std::size_t tombstones = 0;          // <= limits::kMaxRemovedTombstones
  std::size_t frames = 0;
  std::size_t retired_documents = 0;  // <= limits::kMaxRetiredDocuments
  std::size_t recalled_pages = 0;     // <= limits::kMaxRecalledPages: views of documents the tab left, kept for recall
  std::size_t overlay_depth = 0;
};

struct FindQuery {
  std::string role;    // exact role ("link", "text"), or empty
  std::string name;    // case-insensitive substring of the name, or empty
  std::string region;  // region name ("main") or region label ("Primary", case-insensitive), or empty
  std::string frame;   // "f2": only that frame's elements, or empty
  std::string after;   // a ref: the page starts after it in document order (the cursor), or empty
  std::string within;  // a ref: only the lines under it in the outline (what "(N more …)" at its end holds), or empty
  std::size_t limit = limits::kDefaultFindLimit;
  /// The page's element lines stop before they pass this many estimated tokens (at least one is
  /// shown): a find answer is bounded like a FactPack. find_paged() sets it from Config::token_budget.
  std::size_t token_budget = limits::kDefaultBaselineTokenBudget;
};

/// One page of find_paged(): the matches after the cursor, at most `limit` of them and at most
/// `token_budget` of lines; `next` continues where it stopped.
struct FindResult {
  std::uint64_t version = 0;  // the delivered version the refs belong to
  std::size_t total = 0;      // matches on the whole page, cursor ignored
  std::size_t remaining = 0;  // matches after the last one shown
  std::vector<Element> elements;
  std::string next;  // ref of the last element shown when more remain, else empty
};

class PageSession;

class Engine {
 public:
  explicit Engine(Config config = {});
  ~Engine();
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  Status open_page(PageKey key);
  Status close_page(PageKey key);

  /// A CDP event for this page, as JSON {"method": "...", "params": {...}} (Page.frameNavigated,
  /// Page.frameDetached, Page.frameAttached, Target.detachedFromTarget, ...). Unknown methods are ignored.
  Status on_event(PageKey key, std::string_view event_json);

  /// Baseline request (navigate result, snapshot tool): a full FactPack, trimmed and
  /// deduplicated against the previous baseline of this page (and, back on a document the tab
  /// left, against what the agent held there); with ActionInfo::in_document and the same
  /// document as the agent holds, the delta from it instead.
  Result<FactPack> snapshot(PageKey key, std::string_view capture_json, const ActionInfo& info = {});

  Result<PreCheck> begin_action(PageKey key, std::string_view capture_json, std::optional<std::uint64_t> agent_version);
  /// A ref of another page of this Engine is kPageMismatch (kContextMismatch in another context),
  /// naming that page.
  Result<Target> resolve(PageKey key, std::string_view ref) const;
  /// The role and name the core gives a node of the page (backendNodeId in frame `frame_id`, or in
  /// any frame when it is empty: the first found, the page's own documents first): with
  /// its ref when the agent holds one (what it was shown), else as the latest capture compiled it
  /// (ref empty); `found` false when the compiler emitted no line for it. The extension names what
  /// is in the way of an action by it, so a role or name is computed in one place: the compiler.
  Result<NodeName> describe_node(PageKey key, std::int64_t backend_node_id, std::string_view frame_id) const;
  /// The page that issued a ref (kMalformedRef, or kUnknownRef when no page remembers it): an open
  /// page that holds it, else a closed one (the last limits::kMaxPages) whose refs spanned it.
  Result<PageKey> owner(std::string_view ref) const;
  /// The n the next new ref gets (a host persists a bound past it: Config::first_ref).
  std::uint64_t next_ref() const { return *next_ref_; }
  /// Moves the next ref's n forward to `next` (never back; at most limits::kMaxFirstRef): a replay
  /// of one page's calls numbers its refs as the engine that served several pages did.
  void advance_refs(std::uint64_t next);
  /// A ref resolved against a fresh capture outside any action (read, screenshot): the capture
  /// becomes the live state refs resolve against, but no version is committed, nothing is
  /// delivered and a pending action (begin_action .. finish_action) is left untouched.
  Result<Target> resolve_fresh(PageKey key, std::string_view capture_json, std::string_view ref);
  Result<Target> resolve_fresh_from(PageKey key, Snapshot snapshot, std::string_view ref);
  Result<FactPack> finish_action(PageKey key, std::string_view capture_json, const ActionInfo& info);
  Status abort_action(PageKey key);

  /// Elements of the current state matching the query, including those the renderer trimmed
  /// or a dedup collapsed. "Current" is what the agent was last delivered (every ref returned
  /// is one it holds and can resolve).
  /// Ignores `frame` and `after` and never fails on a query (an unknown region is no match).
  Result<std::vector<Element>> find(PageKey key, const FindQuery& query) const;

  /// find() with paging and checked queries: a role, region or frame that nothing on the page has,
  /// or an `after` that is not a ref the agent holds, is an Error naming what exists
  /// (kInvalidArgument, kNoSuchRegion for regions). Render with render_find().
  Result<FindResult> find_paged(PageKey key, const FindQuery& query) const;

  /// The same three calls on an already compiled Snapshot (tests, benches, replay of synthetic
  /// pages). The JSON entry points are compile_capture() + these.
  Result<FactPack> snapshot_from(PageKey key, Snapshot snapshot, const ActionInfo& info = {});
  Result<PreCheck> begin_action_from(PageKey key, Snapshot snapshot, std::optional<std::uint64_t> agent_version);
  Result<FactPack> finish_action_from(PageKey key, Snapshot snapshot, const ActionInfo& info);

  /// Sizes of the page's bounded state.
  Result<PageStats> stats(PageKey key) const;

  const Config& config() const { return config_; }

 private:
  Result<PageSession*> page(PageKey key) const;
  Config config_;
  std::shared_ptr<std::uint32_t> next_ref_;  // RefId: shared by every page
  std::vector<std::unique_ptr<PageSession>> pages_;
  struct Closed {
    PageKey key;
    std::uint32_t lo = 0, hi = 0;  // the ref numbers it issued lay within
  };
  std::vector<Closed> closed_;  // oldest first, at most limits::kMaxPages
};

}  // namespace athena
