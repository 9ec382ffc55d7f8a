// Engine: pages by PageKey, JSON entry points (compile_capture + PageSession).
#include "athena/engine.h"

#include <algorithm>

#include "athena/compiler.h"
#include "engine/page_session.h"
#include "words.h"

namespace athena {

Engine::Engine(Config config)
    : config_(config),
      next_ref_(std::make_shared<engine::RefId>(
          static_cast<engine::RefId>(std::clamp<std::uint64_t>(config.first_ref, 1, limits::kMaxFirstRef)))) {}
Engine::~Engine() = default;

Result<PageSession*> Engine::page(PageKey key) const {
  for (const auto& p : pages_)
    if (p->key().context == key.context && p->key().page == key.page) return p.get();
  return make_error(ErrorCode::kUnknownPage, "no page " + tab_word(key.context, key.page) +
                                                 " is open; call open_page first (or use a page the agent was given)");
}

Status Engine::open_page(PageKey key) {
  if (page(key)) return Ok{};  // idempotent: a service-worker restart may open it again
  if (key.context < 0 || key.page < 0)
    return make_error(ErrorCode::kInvalidArgument, "page keys are non-negative (context " +
                                                       std::to_string(key.context) + ", page " +
                                                       std::to_string(key.page) + ")");
  if (pages_.size() >= limits::kMaxPages)
    return make_error(ErrorCode::kInputTooLarge, "too many open pages (limits::kMaxPages); close unused pages first");
  pages_.push_back(std::make_unique<PageSession>(key, config_, next_ref_));
  return Ok{};
}

Status Engine::close_page(PageKey key) {
  auto it = std::find_if(pages_.begin(), pages_.end(),
                         [&](const auto& p) { return p->key().context == key.context && p->key().page == key.page; });
  if (it == pages_.end()) return page(key).error();
  const auto [lo, hi] = (*it)->ref_span();
  if (lo) {
    if (closed_.size() >= limits::kMaxPages) closed_.erase(closed_.begin());
    closed_.push_back({key, lo, hi});
  }
  pages_.erase(it);
  return Ok{};
}

Status Engine::on_event(PageKey key, std::string_view event_json) {
  auto p = page(key);
  if (!p) return p.error();
  return (*p)->on_event(event_json);
}

namespace {
Result<Snapshot> compile(std::string_view capture_json) {
  if (capture_json.size() > limits::kMaxInputBytes)
    return make_error(ErrorCode::kInputTooLarge,
                      "capture JSON is over limits::kMaxInputBytes; the page is too large to capture");
  return compile_capture(capture_json);
}
}  // namespace

Result<FactPack> Engine::snapshot(PageKey key, std::string_view capture_json, const ActionInfo& info) {
  auto p = page(key);
  if (!p) return p.error();
  auto s = compile(capture_json);
  if (!s) return s.error();
  return (*p)->snapshot(std::move(s.value()), info);
}

Result<PreCheck> Engine::begin_action(PageKey key, std::string_view capture_json,
                                      std::optional<std::uint64_t> agent_version) {
  auto p = page(key);
  if (!p) return p.error();
  auto s = compile(capture_json);
  if (!s) return s.error();
  return (*p)->begin_action(std::move(s.value()), agent_version);
}

Result<Target> Engine::resolve(PageKey key, std::string_view ref) const {
  auto p = page(key);
  if (!p) return p.error();
  Result<Target> t = (*p)->resolve(ref);
  if (t || t.error().code != ErrorCode::kUnknownRef) return t;
  auto other = owner(ref);
  if (!other || (other->context == key.context && other->page == key.page)) return t;
  const std::string tab = tab_word(other->context, other->page);
  if (other->context != key.context)
    return make_error(ErrorCode::kContextMismatch, "ref " + std::string(ref) + " belongs to tab " + tab +
                                                       ", in browser context " + std::to_string(other->context) +
                                                       ", not this page's context " + std::to_string(key.context) +
                                                       "; use refs from this page's FactPacks");
  return make_error(ErrorCode::kPageMismatch,
                    "ref " + std::string(ref) + " belongs to tab " + tab + ", not " + tab_word(key.context, key.page) +
                        "; act on the tab it came from, or use refs from this page's FactPacks");
}

void Engine::advance_refs(std::uint64_t next) {
  next = std::min<std::uint64_t>(next, limits::kMaxFirstRef);
  if (next > *next_ref_) *next_ref_ = static_cast<engine::RefId>(next);
}

Result<PageKey> Engine::owner(std::string_view ref) const {
  engine::ParsedRef p;
  if (!engine::parse_ref(std::string(ref), p))
    return make_error(
        ErrorCode::kMalformedRef,
        "'" + std::string(ref) + "' is not an element ref (like e17); use a ref from the latest FactPack");
  if (p.n > 0 && p.n < static_cast<long long>(*next_ref_))
    for (const auto& page : pages_)
      if (page->issued(static_cast<engine::RefId>(p.n))) return page->key();
  for (auto c = closed_.rbegin(); c != closed_.rend(); ++c)
    if (p.n >= c->lo && p.n <= c->hi) return c->key;
  return make_error(ErrorCode::kUnknownRef,
                    "ref " + std::string(ref) +
                        " is not one any open tab remembers (never issued, of a closed tab, or from before the "
                        "extension restarted); take a snapshot and use its refs");
}

Result<Target> Engine::resolve_fresh(PageKey key, std::string_view capture_json, std::string_view ref) {
  auto p = page(key);
  if (!p) return p.error();
  auto s = compile(capture_json);
  if (!s) return s.error();
  return (*p)->resolve_fresh(std::move(s.value()), ref);
}

Result<Target> Engine::resolve_fresh_from(PageKey key, Snapshot snapshot, std::string_view ref) {
  auto p = page(key);
  if (!p) return p.error();
  return (*p)->resolve_fresh(std::move(snapshot), ref);
}

Result<FactPack> Engine::finish_action(PageKey key, std::string_view capture_json, const ActionInfo& info) {
  auto p = page(key);
  if (!p) return p.error();
  auto s = compile(capture_json);
  if (!s) return s.error();
  return (*p)->finish_action(std::move(s.value()), info);
}

Status Engine::abort_action(PageKey key) {
  auto p = page(key);
  if (!p) return p.error();
  return (*p)->abort_action();
}

Result<NodeName> Engine::describe_node(PageKey key, std::int64_t backend_node_id, std::string_view frame_id) const {
  auto p = page(key);
  if (!p) return p.error();
  return (*p)->describe_node(backend_node_id, frame_id);
}

Result<std::vector<Element>> Engine::find(PageKey key, const FindQuery& query) const {
  auto p = page(key);
  if (!p) return p.error();
  return (*p)->find(query);
}

Result<FindResult> Engine::find_paged(PageKey key, const FindQuery& query) const {
  auto p = page(key);
  if (!p) return p.error();
  return (*p)->find_paged(query);
}

Result<FactPack> Engine::snapshot_from(PageKey key, Snapshot snapshot, const ActionInfo& info) {
  auto p = page(key);
  if (!p) return p.error();
  return (*p)->snapshot(std::move(snapshot), info);
}

Result<PreCheck> Engine::begin_action_from(PageKey key, Snapshot snapshot, std::optional<std::uint64_t> agent_version) {
  auto p = page(key);
  if (!p) return p.error();
  return (*p)->begin_action(std::move(snapshot), agent_version);
}

Result<FactPack> Engine::finish_action_from(PageKey key, Snapshot snapshot, const ActionInfo& info) {
  auto p = page(key);
  if (!p) return p.error();
  return (*p)->finish_action(std::move(snapshot), info);
}

Result<PageStats> Engine::stats(PageKey key) const {
  auto p = page(key);
  if (!p) return p.error();
  return (*p)->stats();
}

}  // namespace athena
