// One file past 400 lines: PageSession is the engine's one face per page; ingest, actions, resolve and find share its
// view and ref table. What they call (matching, trimming, rendering) lives in its own files.
#include "engine/page_session.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <tuple>
#include <unordered_set>

#include "athena/limits.h"
#include "engine/find_query.h"
#include "engine/matcher.h"

namespace athena {

using engine::Binding;
using engine::OverlayId;
using engine::RefId;
using engine::View;
using engine::ViewEntry;

namespace {

std::string quoted(const std::string& role, const std::string& name) {
  return role + " \"" + name + "\"";
}

std::string scope_of(const Snapshot& s, const ReadableNode& n) {
  std::string k = n.frame_id;
  k += '\x1f';
  k += n.loader_id;
  if (n.overlay >= 0) {
    const Overlay& o = s.overlays[static_cast<std::size_t>(n.overlay)];
    k += '\x1f';
    k += o.frame_id;
    k += '\x1f';
    k += o.loader_id;
    k += '\x1f';
    k += std::to_string(o.backend_node_id);
  }
  return k;
}

}  // namespace

PageSession::PageSession(PageKey key, const Config& config, std::shared_ptr<engine::RefId> refs)
    : key_(key), config_(config), registry_(std::move(refs)) {}

Binding PageSession::binding_of(const ReadableNode& node) {
  return Binding{node.frame_id, node.loader_id, node.backend_node_id, tracker_.frame_index(node.frame_id)};
}

int PageSession::FrameIndexCache::operator()(engine::FrameTracker& tracker, const std::string& frame_id) {
  // Nodes come frame by frame: the last answer is nearly always the one asked for again.
  if (last_ == nullptr || *last_ != frame_id) {
    index_ = tracker.frame_index(frame_id);
    last_ = &frame_id;
  }
  return index_;
}

namespace {

/// A node as the agent is shown it, under its ref: the one place a ReadableNode becomes an Element.
Element element_of(const ReadableNode& n, std::string ref, int frame) {
  Element el;
  el.ref = std::move(ref);
  el.frame = frame;
  el.role = n.role;
  el.name = n.name;
  el.cut = n.cut;
  el.description = n.description;
  el.category = n.category;
  el.state = n.state;
  el.href = n.href;
  el.level = n.level;
  el.region = n.region;
  el.region_label = n.region_label;
  el.overlay = n.overlay;
  el.in_viewport = n.in_viewport;
  el.depth = n.depth;
  return el;
}

}  // namespace

View PageSession::build_view(const Snapshot& s, const std::vector<RefId>& refs) {
  View v;
  v.main_frame_id = s.frames[0].frame_id;
  v.main_loader_id = s.frames[0].loader_id;
  for (const Overlay& o : s.overlays)
    v.stack.push_back(OverlayId{o.frame_id, o.loader_id, o.backend_node_id, o.type, o.name});
  v.entries.reserve(s.nodes.size());
  FrameIndexCache frame_index;
  for (std::size_t i = 0; i < s.nodes.size(); ++i) {
    const ReadableNode& n = s.nodes[i];
    ViewEntry e;
    e.ref = refs[i];
    e.frame_index = frame_index(tracker_, n.frame_id);
    e.ident = engine::ident_hash(n);
    e.element = element_of(n, engine::format_ref(e.ref), e.frame_index);
    e.content = engine::element_hash(e.element);
    v.entries.push_back(std::move(e));
  }
  return v;
}

// A new node the matcher found no old one for, that is the only one of its ident in its document,
// takes back the ref the agent was shown it by and the page removed since, when exactly one was
// (docs/design.md, "Two identities"): a single-page app that re-renders a list on `back`, or an item
// on `forward`, shows the agent the refs it knew. The ref is dead, so no live node holds it: it
// names the same thing again, never another one.
void PageSession::recall(const Snapshot& s, const std::vector<engine::MatchNode>& news, engine::MatchResult& m) {
  std::unordered_map<std::uint64_t, int> count;  // (ident, scope) -> nodes of the new capture
  auto key = [](const engine::MatchNode& n) {
    return n.ident ^ (static_cast<std::uint64_t>(n.scope) * 0x9E3779B97F4A7C15ULL);
  };
  bool any = false;
  for (std::size_t j = 0; j < news.size(); ++j) {
    ++count[key(news[j])];
    any = any || m.refs[j] == 0;
  }
  if (!any) return;
  std::map<std::pair<std::string, std::string>, std::unordered_map<std::uint64_t, RefId>> index;  // per document
  for (std::size_t j = 0; j < news.size(); ++j) {
    if (m.refs[j] != 0 || count[key(news[j])] != 1) continue;
    const ReadableNode& n = s.nodes[j];
    auto doc = index.find({n.frame_id, n.loader_id});
    if (doc == index.end())
      doc =
          index.emplace(std::make_pair(n.frame_id, n.loader_id), registry_.recall_index(n.frame_id, n.loader_id)).first;
    auto it = doc->second.find(news[j].ident);
    if (it == doc->second.end() || it->second == 0) continue;
    m.refs[j] = it->second;
    it->second = 0;  // one node per ref
  }
}

// Validates everything before touching any state, so a bad capture leaves the page as it was.
Result<View> PageSession::ingest(Snapshot s) {
  if (s.frames.empty() || !s.frames[0].parent_id.empty() || s.frames[0].frame_id.empty())
    return make_error(ErrorCode::kMalformedCapture, "capture has no main frame; capture the page again");
  if (s.nodes.size() > limits::kMaxNodes)
    return make_error(ErrorCode::kInputTooLarge,
                      "capture has more elements than limits::kMaxNodes; the page is too large");
  std::map<std::string, std::string> loaders;
  for (const FrameInfo& f : s.frames) loaders[f.frame_id] = f.loader_id;
  bool unknown = s.has_unknown_frames;
  {
    // Nodes whose document is not in the capture's frame tree cannot get a trustworthy ref.
    // Dropped in place, order kept (nearly always nothing moves).
    std::size_t kept = 0;
    for (std::size_t k = 0; k < s.nodes.size(); ++k) {
      ReadableNode& n = s.nodes[k];
      auto it = loaders.find(n.frame_id);
      if (it == loaders.end() || it->second != n.loader_id || n.loader_id.empty()) {
        unknown = true;
        continue;
      }
      if (kept != k) s.nodes[kept] = std::move(n);
      ++kept;
    }
    s.nodes.erase(s.nodes.begin() + static_cast<std::ptrdiff_t>(kept), s.nodes.end());
  }
  for (const ReadableNode& n : s.nodes)
    if (n.overlay < -1 || n.overlay >= static_cast<int>(s.overlays.size()))
      return make_error(ErrorCode::kMalformedCapture, "element overlay index " + std::to_string(n.overlay) +
                                                          " is outside the capture's overlays; capture the page again");
  {
    std::map<std::string, std::size_t> frame_pos;
    for (std::size_t i = 0; i < s.frames.size(); ++i) frame_pos.emplace(s.frames[i].frame_id, i);
    // (frame, backend id, node) sorted: equal identities end up side by side, with no allocation
    // per node. The error names the first node (document order) whose identity came before.
    std::vector<std::tuple<std::size_t, std::int64_t, std::size_t>> ids;
    ids.reserve(s.nodes.size());
    const std::string* last_frame = nullptr;
    std::size_t pos = 0;
    for (std::size_t k = 0; k < s.nodes.size(); ++k) {
      const ReadableNode& n = s.nodes[k];
      if (last_frame == nullptr || *last_frame != n.frame_id) {
        pos = frame_pos[n.frame_id];
        last_frame = &n.frame_id;
      }
      ids.emplace_back(pos, n.backend_node_id, k);
    }
    std::sort(ids.begin(), ids.end());
    std::size_t dup = s.nodes.size();
    for (std::size_t k = 1; k < ids.size(); ++k)
      if (std::get<0>(ids[k]) == std::get<0>(ids[k - 1]) && std::get<1>(ids[k]) == std::get<1>(ids[k - 1]) &&
          std::get<2>(ids[k]) < dup &&
          (k < 2 || std::get<0>(ids[k - 2]) != std::get<0>(ids[k]) || std::get<1>(ids[k - 2]) != std::get<1>(ids[k])))
        dup = std::get<2>(ids[k]);  // the second of its group: where a set's insert would fail
    if (dup < s.nodes.size()) {
      const ReadableNode& n = s.nodes[dup];
      return make_error(ErrorCode::kMalformedCapture, "two elements share backend node id " +
                                                          std::to_string(n.backend_node_id) + " in frame '" +
                                                          n.frame_id + "'; capture the page again");
    }
  }
  if (tracker_.initialized()) {
    Status fresh = tracker_.check_capture(s);
    if (!fresh) return fresh.error();
  } else {
    Status init = tracker_.init(s.frames);  // retried by the next capture if it fails
    if (!init) return init.error();
  }

  // From here on the capture is accepted.
  tracker_.sync(s);
  if (unknown || tracker_.needs_full()) unknown_frames_ = true;
  const std::uint64_t raw = content_hash(s);

  std::vector<RefId> refs(s.nodes.size(), 0);
  if (live_ && live_->raw_hash == raw && live_->snapshot.nodes.size() == s.nodes.size()) {
    refs = live_->refs;  // same identities, same content: nothing to match
  } else {
    std::unordered_map<std::string, int> scopes;
    // A node's scope is that of the node before it when both are in the same document and
    // overlay (nearly always): the key string is built and hashed once per run, not per node.
    auto scope_id = [&](const Snapshot& snap, std::size_t i) {
      return scopes.emplace(scope_of(snap, snap.nodes[i]), static_cast<int>(scopes.size())).first->second;
    };
    auto same_scope = [](const ReadableNode& a, const ReadableNode& b) {
      return a.overlay == b.overlay && a.frame_id == b.frame_id && a.loader_id == b.loader_id;
    };
    auto intern_all = [&](const Snapshot& snap, auto each) {
      int scope = -1;
      for (std::size_t i = 0; i < snap.nodes.size(); ++i) {
        if (i == 0 || !same_scope(snap.nodes[i], snap.nodes[i - 1])) scope = scope_id(snap, i);
        each(i, scope);
      }
    };
    std::vector<engine::MatchNode> olds, news;
    if (live_) {
      olds.reserve(live_->snapshot.nodes.size());
      intern_all(live_->snapshot, [&](std::size_t i, int scope) {
        const ReadableNode& n = live_->snapshot.nodes[i];
        olds.push_back({scope, n.backend_node_id, engine::ident_hash(n), live_->refs[i]});
      });
    }
    news.reserve(s.nodes.size());
    intern_all(s, [&](std::size_t i, int scope) {
      const ReadableNode& n = s.nodes[i];
      news.push_back({scope, n.backend_node_id, engine::ident_hash(n), 0});
    });
    engine::MatchResult m = engine::match_nodes(olds, news);
    recall(s, news, m);
    FrameIndexCache frame_index;
    Binding b;  // reused: its strings keep their capacity from node to node
    for (std::size_t j = 0; j < s.nodes.size(); ++j) {
      const ReadableNode& n = s.nodes[j];
      b.frame_id = n.frame_id;
      b.loader_id = n.loader_id;
      b.backend_node_id = n.backend_node_id;
      b.frame_index = frame_index(tracker_, n.frame_id);
      if (m.refs[j] != 0) {
        refs[j] = m.refs[j];
        registry_.rebind(refs[j], b);
      } else {
        refs[j] = registry_.issue(b);
      }
    }
    for (std::size_t i : m.unmatched) {
      const ReadableNode& n = live_->snapshot.nodes[i];
      std::string cause = "removed";
      switch (tracker_.doc(n.frame_id, n.loader_id)) {
        case engine::FrameTracker::Doc::kNavigated:
          cause = "navigated";
          break;
        case engine::FrameTracker::Doc::kDetached:
        case engine::FrameTracker::Doc::kUnknown:
          cause = "detached";
          break;
        case engine::FrameTracker::Doc::kLive:
          if (n.overlay >= 0) {
            const Overlay& o = live_->snapshot.overlays[static_cast<std::size_t>(n.overlay)];
            bool still = false;
            for (const Overlay& now : s.overlays)
              still = still || (now.backend_node_id == o.backend_node_id && now.frame_id == o.frame_id &&
                                now.loader_id == o.loader_id);
            if (!still) cause = "overlay_closed";
          }
          break;
      }
      registry_.kill(live_->refs[i], cause);
    }
  }
  View view = build_view(s, refs);
  Live next;
  next.snapshot = std::move(s);
  next.refs = std::move(refs);
  next.raw_hash = raw;
  next.node_of_ref.reserve(next.refs.size());
  for (std::size_t i = 0; i < next.refs.size(); ++i) next.node_of_ref[next.refs[i]] = i;
  live_ = std::move(next);
  return view;
}

// Versions the view (a new version only if what the agent could see changed) and stamps the
// refs that vanished in it.
void PageSession::commit(View& view, Outcome* outcome) {
  view.hash = engine::view_hash(view);
  auto [entry, is_new] = versions_.capture_if_changed(view);
  (void)is_new;
  view.version = entry->version;
  registry_.stamp(entry->version);
  if (outcome) {
    outcome->pack.version = entry->version;
    // Every FactPack names the page it shows: the capture just ingested (live_).
    outcome->pack.url = live_->snapshot.url;
    outcome->pack.title = live_->snapshot.title;
    outcome->target.version = entry->version;
    outcome->target.hash = engine::view_hash(outcome->target);
  }
}

std::string PageSession::full_reason_for(const View& to) const {
  if (!delivered_) return "first";
  if (delivered_->main_frame_id != to.main_frame_id || delivered_->main_loader_id != to.main_loader_id)
    return "navigation";
  if (unknown_frames_) return "unknown_frames";
  return "";
}

void PageSession::deliver(Outcome& outcome) {
  // A full the agent did not ask for, of the document it holds, where it already is: the address
  // and title it was given are still right (a tab panel swapped on a small page, an unreliable
  // delta). A first, a navigation and the agent's own snapshot (it may have lost its context) say them.
  FactPack& pack = outcome.pack;
  pack.address_held =
      pack.type == PackType::kFull && delivered_ &&
      (pack.reason == "unreliable_delta" || pack.reason == "stale_version" || pack.reason == "unknown_frames") &&
      delivered_->main_frame_id == outcome.target.main_frame_id &&
      delivered_->main_loader_id == outcome.target.main_loader_id && pack.url == delivered_url_ &&
      pack.title == delivered_title_;
  delivered_url_ = pack.url;
  delivered_title_ = pack.title;
  // Returned = delivered: only now does the agent hold these refs with these identities.
  for (const ViewEntry& e : outcome.target.entries) registry_.show(e.ref, e.ident, e.element.role, e.element.name);
  // The document the agent held is left behind: what it held there is kept a while, for the
  // regions it finds again when it comes back (baseline.cpp).
  if (delivered_ && (delivered_->main_frame_id != outcome.target.main_frame_id ||
                     delivered_->main_loader_id != outcome.target.main_loader_id)) {
    if (delivered_->entries.size() <= limits::kMaxRecalledEntries) left_.push_front(delivered_);
    if (left_.size() > limits::kMaxRecalledPages) left_.pop_back();
  }
  delivered_ = std::make_shared<const View>(std::move(outcome.target));
  if (outcome.pack.type == PackType::kFull) {
    unknown_frames_ = false;
    tracker_.clear_needs_full();
  }
}

Result<FactPack> PageSession::snapshot(Snapshot snapshot, const ActionInfo& info) {
  Result<View> view = ingest(std::move(snapshot));
  if (!view) return view.error();
  pending_.reset();  // a baseline replaces whatever an unfinished action was going to report
  View& to = view.value();
  std::string reason = full_reason_for(to);
  // A history step or a fragment within the document the agent holds (a single-page app's back
  // and forward) is no new page: what changed is a delta, and a full only where one cannot be
  // trusted. The agent's own `snapshot` never asks for this: it shows the page whole.
  if (reason.empty() && info.in_document && !info.force_full) {
    Outcome out = transition(*delivered_, to, "");
    commit(to, &out);
    out.pack.warnings = info.warnings;
    deliver(out);
    return std::move(out.pack);
  }
  if (reason.empty()) reason = "requested";
  // A baseline that asks for every region (ActionInfo::collapse_unchanged false: the agent's own
  // snapshot) collapses nothing, whatever happened since; a navigation's dedups against what the
  // agent holds.
  Outcome out = full(delivered_.get(), to, reason, info.collapse_unchanged);
  commit(to, &out);
  out.pack.warnings = info.warnings;
  deliver(out);
  return std::move(out.pack);
}

Result<PreCheck> PageSession::begin_action(Snapshot snapshot, std::optional<std::uint64_t> agent_version) {
  Result<View> view = ingest(std::move(snapshot));
  if (!view) return view.error();
  pending_.reset();
  View& to = view.value();
  PreCheck pre;
  auto no_history = [&](const std::string& reason) {
    Outcome out = full(delivered_.get(), to, reason);
    commit(to, &out);
    deliver(out);
    pre.freshness = Freshness::kStaleNoHistory;
    pre.current_version = out.pack.version;
    pre.pack = std::move(out.pack);
    return pre;  // no pending action: the action must not run
  };
  if (!delivered_ || !agent_version) {
    // Nothing delivered yet, or the agent did not say: nothing to reconcile before acting;
    // any drift shows up in the action's own result (computed from what was delivered).
    commit(to, nullptr);
    pre.current_version = to.version;
    pending_ = Pending{};
    return pre;
  }
  if (*agent_version != delivered_->version) return no_history("stale_version");
  Outcome out = transition(*delivered_, to, "");
  if (out.pack.type == PackType::kFull) {
    // A navigation, unknown frames or an unreliable delta before the action: never act on it.
    commit(to, &out);
    deliver(out);
    pre.freshness = Freshness::kStaleNoHistory;
    pre.current_version = out.pack.version;
    pre.pack = std::move(out.pack);
    return pre;
  }
  commit(to, &out);
  pre.current_version = to.version;
  if (out.pack.type == PackType::kNoChange) {
    pending_ = Pending{};
    return pre;
  }
  // No history check against committed versions here: the agent holds exactly delivered_ (checked
  // above) and delivered_ is kept whole, so versions committed since and never delivered (failed
  // or aborted actions) cannot put the agent's own state out of reach.
  pre.freshness = Freshness::kStaleWithHistory;
  pre.pack = out.pack;
  pending_ = Pending{std::move(out)};
  return pre;
}

Result<FactPack> PageSession::finish_action(Snapshot snapshot, const ActionInfo& info) {
  if (!pending_)
    return make_error(ErrorCode::kWrongCallOrder,
                      "finish_action without begin_action (or after abort_action / a stale_no_history answer); "
                      "call begin_action before acting");
  Result<View> view = ingest(std::move(snapshot));
  if (!view) return view.error();  // the action stays pending: a retry with a good capture can finish it
  View& to = view.value();
  Pending pending = std::move(*pending_);
  pending_.reset();
  Outcome out;
  if (!delivered_) {
    out = full(nullptr, to, "first");
  } else {
    const View& from = pending.before ? pending.before->target : *delivered_;
    out = transition(from, to, info.force_full ? "requested" : "");
  }
  commit(to, &out);
  out.pack.warnings = info.warnings;
  if (pending.before) {
    // The agent reads it first: it holds its target (where `out` started from) when it reads
    // `out`, also the page it left when `out` is a navigation's full.
    deliver(*pending.before);
    out.pack.before_action.push_back(std::move(pending.before->pack));
  }
  deliver(out);
  return std::move(out.pack);
}

Status PageSession::abort_action() {
  if (!pending_) return make_error(ErrorCode::kWrongCallOrder, "abort_action without begin_action; nothing to abort");
  pending_.reset();  // nothing advances: the agent's refs and version stay what it holds
  return Ok{};
}

Result<Target> PageSession::resolve_fresh(Snapshot snapshot, std::string_view ref) {
  // Only the live capture moves (refs rebind to the nodes they now are); versions, what the
  // agent was delivered and a pending action stay as they were.
  Result<View> view = ingest(std::move(snapshot));
  if (!view) return view.error();
  return resolve(ref);
}

Result<Target> PageSession::resolve(std::string_view ref_text) const {
  const std::string ref(ref_text);
  engine::ParsedRef p;
  if (!engine::parse_ref(ref, p))
    return make_error(ErrorCode::kMalformedRef,
                      "'" + ref + "' is not an element ref (like e17); use a ref from the latest FactPack");
  const engine::RefRecord* r =
      p.n > 0 && p.n <= registry_.last_issued() ? registry_.find(static_cast<RefId>(p.n)) : nullptr;
  if (!r || !r->shown)
    return make_error(
        ErrorCode::kUnknownRef,
        "ref " + ref + " was never issued on this page (or is no longer remembered); take a snapshot and use its refs");
  const std::string what = quoted(r->shown_role, r->shown_name);
  if (!r->live) {
    // dead_in is 0 until a version is committed (a capture taken by resolve_fresh commits none).
    const std::string v = r->dead_in ? " in v" + std::to_string(r->dead_in) : std::string(" since the last FactPack");
    if (r->cause == "navigated")
      return make_error(ErrorCode::kDocumentReplaced,
                        "ref " + ref + " (" + what + ") is gone: its frame navigated" + v +
                            " and every ref of the old document is dead; take a snapshot");
    if (r->cause == "detached")
      return make_error(ErrorCode::kDocumentReplaced,
                        "ref " + ref + " (" + what + ") is gone: its frame was removed" + v + "; take a snapshot");
    if (r->cause == "overlay_closed")
      return make_error(ErrorCode::kRefRemoved, "ref " + ref + " (" + what + ") was removed" + v +
                                                    " when its overlay closed; use refs from the latest FactPack");
    return make_error(ErrorCode::kRefRemoved, "ref " + ref + " (" + what + ") was removed" + v +
                                                  "; use refs from the latest FactPack, or take a snapshot");
  }
  if (tracker_.doc(r->binding.frame_id, r->binding.loader_id) != engine::FrameTracker::Doc::kLive)
    return make_error(
        ErrorCode::kDocumentReplaced,
        "ref " + ref + " (" + what + ") is gone: its frame navigated after the last capture; take a snapshot");
  if (!live_ || !live_->node_of_ref.count(static_cast<RefId>(p.n)))
    return make_error(ErrorCode::kInternal, "ref " + ref + " is live but has no node; take a snapshot");
  auto it = live_->node_of_ref.find(static_cast<RefId>(p.n));
  const ReadableNode& n = live_->snapshot.nodes[it->second];
  if (engine::ident_hash(n) != r->shown_ident)
    return make_error(
        ErrorCode::kIdentityChanged,
        "ref " + ref + " was " + what + ", now is " + quoted(n.role, n.name) +
            "; it was not acted on: read the latest FactPack (or take a snapshot) and pick the ref again");
  Target t;
  t.ref = ref;
  t.backend_node_id = n.backend_node_id;
  t.frame_id = n.frame_id;
  t.loader_id = n.loader_id;
  t.role = n.role;
  t.name = n.name;
  t.bbox = n.bbox;
  t.disabled = n.state.disabled;
  t.element = element_of(n, ref, r->binding.frame_index);
  return t;
}

NodeName PageSession::describe_node(std::int64_t backend_node_id, std::string_view frame_id) const {
  NodeName out;
  // What the agent was shown, when it holds a ref for the node.
  if (delivered_)
    for (const ViewEntry& e : delivered_->entries) {
      const engine::RefRecord* r = registry_.find(e.ref);
      if (r && r->binding.backend_node_id == backend_node_id && (frame_id.empty() || r->binding.frame_id == frame_id))
        return {true, e.element.ref, e.element.role, e.element.name};
    }
  // Else as the latest capture compiled it (a line the renderer trimmed, or one never delivered).
  if (live_)
    for (const ReadableNode& n : live_->snapshot.nodes)
      if (n.backend_node_id == backend_node_id && (frame_id.empty() || n.frame_id == frame_id))
        return {true, "", n.role, n.name};
  return out;
}

std::vector<Element> PageSession::find(const FindQuery& q) const {
  std::vector<Element> out;
  if (!delivered_) return out;
  auto lower = [](std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
  };
  const std::string name = lower(q.name);
  for (const ViewEntry& e : delivered_->entries) {
    if (out.size() >= q.limit) break;
    if (!q.role.empty() && e.element.role != q.role) continue;
    if (!q.region.empty() && !engine::region_matches(e.element, q.region)) continue;
    if (!name.empty() && lower(e.element.name).find(name) == std::string::npos) continue;
    out.push_back(e.element);
  }
  return out;
}

Result<FindResult> PageSession::find_paged(const FindQuery& q) const {
  if (!delivered_)
    return make_error(ErrorCode::kWrongCallOrder,
                      "find: nothing was delivered on this page yet; take a snapshot first");
  FindQuery bounded = q;
  bounded.token_budget = config_.token_budget;
  return engine::find_in_view(*delivered_, bounded);
}

PageStats PageSession::stats() const {
  PageStats s;
  s.version = versions_.current_version();
  s.delivered_version = delivered_ ? delivered_->version : 0;
  s.live_elements = live_ ? live_->snapshot.nodes.size() : 0;
  s.delivered_elements = delivered_ ? delivered_->entries.size() : 0;
  s.registry = registry_.size();
  s.tombstones = registry_.tombstones();
  s.frames = tracker_.frame_count();
  s.retired_documents = tracker_.retired_count();
  s.recalled_pages = left_.size();
  s.overlay_depth = delivered_ ? delivered_->stack.size() : 0;
  return s;
}

}  // namespace athena
