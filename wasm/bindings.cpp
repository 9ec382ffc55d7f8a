// One file past 400 lines: one thin bound function per engine call, a flat list with nothing to split by.
//
// Embind facade over athena_core: one bound call per CDP result, event or action, strings in,
// one Reply (text + JSON) out; never a handle per node (docs/design.md, "The WASM boundary").
// No logic of its own beyond turning results into JSON; the JS wrapper athena.mjs validates
// arguments, writes captures/events into the heap, and turns error Replies into AthenaError.
// This raw surface is internal: call it only through athena.mjs (it trusts heap pointers).
#include <emscripten/bind.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "athena/engine.h"
#include "athena/limits.h"
#include "athena/render.h"
#include "athena/version.h"
#include "boundary.h"

namespace athena::wasm {
namespace {

using nlohmann::json;

// JS numbers are doubles: integers are exact up to 2^53.
constexpr double kMaxSafeInteger = 9007199254740991.0;

// Elements of find()/resolve() are the core's one element shape, render_element_json's text
// (as in the FactPack JSON), spliced in as it is: never parsed back and dumped again.

const char* freshness_name(Freshness f) {
  switch (f) {
    case Freshness::kCurrent:
      return "current";
    case Freshness::kStaleWithHistory:
      return "stale_with_history";
    case Freshness::kStaleNoHistory:
      return "stale_no_history";
  }
  return "current";
}

Reply pack_reply(const FactPack& pack, const RenderOptions& options) {
  Reply r;
  r.type = pack_type_name(pack.type);
  r.version = static_cast<double>(pack.version);
  r.text = render_text(pack, options);
  r.json = render_json(pack);
  r.ok = true;
  return r;
}

Reply ok_reply(std::string json_text = "null") {
  Reply r;
  r.json = std::move(json_text);
  r.ok = true;
  return r;
}

Reply status_reply(const Status& s) {
  return s ? ok_reply() : error_reply(s.error());
}

// {"kind": "click", "warnings": ["..."], "forceFull": false, "collapseUnchanged": true, "inDocument": false}; every
// field optional.
Result<ActionInfo> parse_info(const std::string& info_json) {
  ActionInfo info;
  if (info_json.empty()) return info;
  if (info_json.size() > limits::kMaxInputBytes)
    return make_error(ErrorCode::kInputTooLarge,
                      "action info is over limits::kMaxInputBytes; send kind, warnings, forceFull, collapseUnchanged, "
                      "inDocument only");
  json j = json::parse(info_json, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded())
    return make_error(
        ErrorCode::kMalformedJson,
        "action info is not JSON: send a JSON object {kind?, warnings?, forceFull?, collapseUnchanged?, inDocument?}");
  if (!j.is_object())
    return make_error(
        ErrorCode::kInvalidArgument,
        "action info must be a JSON object {kind?, warnings?, forceFull?, collapseUnchanged?, inDocument?}");
  if (auto it = j.find("kind"); it != j.end()) {
    if (!it->is_string())
      return make_error(ErrorCode::kInvalidArgument, "action info: kind must be a string (\"click\", \"type\", ...)");
    info.kind = it->get<std::string>();
  }
  if (auto it = j.find("warnings"); it != j.end()) {
    if (!it->is_array())
      return make_error(ErrorCode::kInvalidArgument, "action info: warnings must be an array of strings");
    for (const json& w : *it) {
      if (!w.is_string())
        return make_error(ErrorCode::kInvalidArgument, "action info: warnings must be an array of strings");
      info.warnings.push_back(w.get<std::string>());
    }
  }
  if (auto it = j.find("forceFull"); it != j.end()) {
    if (!it->is_boolean())
      return make_error(ErrorCode::kInvalidArgument, "action info: forceFull must be true or false");
    info.force_full = it->get<bool>();
  }
  if (auto it = j.find("collapseUnchanged"); it != j.end()) {
    if (!it->is_boolean())
      return make_error(ErrorCode::kInvalidArgument, "action info: collapseUnchanged must be true or false");
    info.collapse_unchanged = it->get<bool>();
  }
  if (auto it = j.find("inDocument"); it != j.end()) {
    if (!it->is_boolean())
      return make_error(ErrorCode::kInvalidArgument, "action info: inDocument must be true or false");
    info.in_document = it->get<bool>();
  }
  return info;
}

// The wrapper already checks keys; this keeps the C++ side safe when called directly.
Result<PageKey> page_key(double context, double page) {
  auto valid = [](double v) { return std::isfinite(v) && v >= 0 && v <= 2147483647.0 && std::floor(v) == v; };
  if (!valid(context) || !valid(page))
    return make_error(ErrorCode::kInvalidArgument, "a page key is two non-negative integers {context, page}");
  return PageKey{static_cast<int>(context), static_cast<int>(page)};
}

// A capture or event as UTF-8 bytes the wrapper wrote into the wasm heap (TextEncoder +
// HEAPU8.set: ~10x faster than Embind's per-character std::string conversion on a 1.4 MB
// capture). The binding owns the block from the call on and frees it on every path.
class HeapInput {
 public:
  HeapInput(std::uintptr_t ptr, double len)
      : p_(reinterpret_cast<char*>(ptr)), n_(len >= 0 ? static_cast<std::size_t>(len) : 0) {}
  ~HeapInput() { std::free(p_); }
  HeapInput(const HeapInput&) = delete;
  HeapInput& operator=(const HeapInput&) = delete;
  std::string_view view() const { return p_ ? std::string_view(p_, n_) : std::string_view(); }

 private:
  char* p_;
  std::size_t n_;
};

// One Engine per browser. Methods mirror engine.h one for one.
class EngineBinding {
 public:
  EngineBinding(double max_change_ratio, bool dedup_regions, double token_budget, double first_ref)
      : engine_(make_config(max_change_ratio, dedup_regions, token_budget, first_ref)) {}

  /// "" when the configuration is usable, else why not (the wrapper checks before constructing).
  static Reply validate_config(double max_change_ratio) {
    return guard("validateConfig", [&] {
      if (!(std::isfinite(max_change_ratio) && max_change_ratio > 0 && max_change_ratio <= 1))
        return error_reply(ErrorCode::kInvalidArgument, "config.maxChangeRatio must be a number in (0, 1]");
      return ok_reply();
    });
  }

  /// The tab that issued a ref: {"context", "page"}, or why none (malformed_ref, unknown_ref).
  Reply owner(const std::string& ref) {
    return guard("owner", [&] {
      auto key = engine_.owner(ref);
      if (!key) return error_reply(key.error());
      return ok_reply(json{{"context", key->context}, {"page", key->page}}.dump());
    });
  }

  /// The n the next new ref gets (the host keeps a bound past it across restarts: firstRef).
  double next_ref() const { return static_cast<double>(engine_.next_ref()); }
  void advance_refs(double next) {
    if (std::isfinite(next) && next >= 1)
      engine_.advance_refs(static_cast<std::uint64_t>(std::min(next, static_cast<double>(limits::kMaxFirstRef))));
  }

  Reply open_page(double context, double page) {
    return guard("openPage", [&] {
      auto key = page_key(context, page);
      return key ? status_reply(engine_.open_page(*key)) : error_reply(key.error());
    });
  }

  Reply close_page(double context, double page) {
    return guard("closePage", [&] {
      auto key = page_key(context, page);
      return key ? status_reply(engine_.close_page(*key)) : error_reply(key.error());
    });
  }

  Reply on_event(double context, double page, std::uintptr_t event_ptr, double event_len) {
    HeapInput event_json(event_ptr, event_len);
    return guard("onEvent", [&] {
      auto key = page_key(context, page);
      return key ? status_reply(engine_.on_event(*key, event_json.view())) : error_reply(key.error());
    });
  }

  Reply snapshot(double context, double page, std::uintptr_t capture_ptr, double capture_len,
                 const std::string& info_json) {
    HeapInput capture_json(capture_ptr, capture_len);
    return guard("snapshot", [&] {
      auto key = page_key(context, page);
      if (!key) return error_reply(key.error());
      auto info = parse_info(info_json);
      if (!info) return error_reply(info.error());
      auto pack = engine_.snapshot(*key, capture_json.view(), *info);
      return pack ? pack_reply(*pack, render_options()) : error_reply(pack.error());
    });
  }

  /// agent_version -1: none ("assume current"). A pack (stale_*) comes as text/json/type/version,
  /// else json is empty; extra = {freshness, currentVersion}.
  Reply begin_action(double context, double page, std::uintptr_t capture_ptr, double capture_len,
                     double agent_version) {
    HeapInput capture_json(capture_ptr, capture_len);
    return guard("beginAction", [&] {
      auto key = page_key(context, page);
      if (!key) return error_reply(key.error());
      std::optional<std::uint64_t> agent;
      if (agent_version >= 0) {
        if (!(agent_version <= kMaxSafeInteger && std::floor(agent_version) == agent_version))
          return error_reply(ErrorCode::kInvalidArgument,
                             "the agent's version must be a non-negative integer (the version of its last FactPack)");
        agent = static_cast<std::uint64_t>(agent_version);
      } else if (!(agent_version == -1)) {
        return error_reply(ErrorCode::kInvalidArgument,
                           "the agent's version must be a non-negative integer, or absent");
      }
      auto pre = engine_.begin_action(*key, capture_json.view(), agent);
      if (!pre) return error_reply(pre.error());
      Reply r = pre->pack ? pack_reply(*pre->pack, render_options()) : ok_reply("");
      r.extra = std::string("{\"freshness\":\"") + freshness_name(pre->freshness) +
                "\",\"currentVersion\":" + std::to_string(pre->current_version) + "}";
      return r;
    });
  }

  Reply resolve(double context, double page, const std::string& ref) {
    return guard("resolve", [&] {
      auto key = page_key(context, page);
      if (!key) return error_reply(key.error());
      return target_reply(engine_.resolve(*key, ref));
    });
  }

  /// resolve() against a fresh capture, outside any action: no version, pending action untouched.
  Reply resolve_now(double context, double page, std::uintptr_t capture_ptr, double capture_len,
                    const std::string& ref) {
    HeapInput capture_json(capture_ptr, capture_len);
    return guard("resolveNow", [&] {
      auto key = page_key(context, page);
      if (!key) return error_reply(key.error());
      return target_reply(engine_.resolve_fresh(*key, capture_json.view(), ref));
    });
  }

  static Reply target_reply(const Result<Target>& t) {
    if (!t) return error_reply(t.error());
    json j = {{"ref", t->ref},
              {"backendNodeId", t->backend_node_id},
              {"frameId", t->frame_id},
              {"loaderId", t->loader_id},
              {"role", t->role},
              {"name", t->name},
              {"bbox", {{"x", t->bbox.x}, {"y", t->bbox.y}, {"width", t->bbox.width}, {"height", t->bbox.height}}},
              {"disabled", t->disabled}};
    std::string text = j.dump(-1, ' ', false, json::error_handler_t::replace);
    text.pop_back();  // the closing brace: the element goes in last
    return ok_reply(text + ",\"element\":" + render_element_json(t->element) + "}");
  }

  Reply finish_action(double context, double page, std::uintptr_t capture_ptr, double capture_len,
                      const std::string& info_json) {
    HeapInput capture_json(capture_ptr, capture_len);
    return guard("finishAction", [&] {
      auto key = page_key(context, page);
      if (!key) return error_reply(key.error());
      auto info = parse_info(info_json);
      if (!info) return error_reply(info.error());
      auto pack = engine_.finish_action(*key, capture_json.view(), *info);
      return pack ? pack_reply(*pack, render_options()) : error_reply(pack.error());
    });
  }

  Reply abort_action(double context, double page) {
    return guard("abortAction", [&] {
      auto key = page_key(context, page);
      return key ? status_reply(engine_.abort_action(*key)) : error_reply(key.error());
    });
  }

  /// The core's role and name of a node (Engine::describe_node): the one naming the extension uses.
  Reply describe_node(double context, double page, double backend_node_id, const std::string& frame_id) {
    return guard("describeNode", [&] {
      auto key = page_key(context, page);
      if (!key) return error_reply(key.error());
      if (!(std::isfinite(backend_node_id) && std::floor(backend_node_id) == backend_node_id))
        return error_reply(ErrorCode::kInvalidArgument, "describeNode: backendNodeId must be an integer");
      auto d = engine_.describe_node(*key, static_cast<std::int64_t>(backend_node_id), frame_id);
      if (!d) return error_reply(d.error());
      if (!d->found) return ok_reply("null");
      const json j = {{"ref", d->ref}, {"role", d->role}, {"name", d->name}};
      return ok_reply(j.dump(-1, ' ', false, json::error_handler_t::replace));
    });
  }

  Reply find(double context, double page, const std::string& role, const std::string& name, const std::string& region,
             double limit) {
    return guard("find", [&] {
      auto key = page_key(context, page);
      if (!key) return error_reply(key.error());
      if (!(std::isfinite(limit) && limit >= 1 && limit <= static_cast<double>(limits::kMaxFindLimit) &&
            std::floor(limit) == limit))
        return error_reply(ErrorCode::kInvalidArgument,
                           "find: limit must be an integer from 1 to " + std::to_string(limits::kMaxFindLimit));
      FindQuery q;
      q.role = role;
      q.name = name;
      q.region = region;
      q.limit = static_cast<std::size_t>(limit);
      auto found = engine_.find(*key, q);
      if (!found) return error_reply(found.error());
      std::string list = "[";
      for (const Element& e : *found) list += (list.size() > 1 ? "," : "") + render_element_json(e);
      return ok_reply(list + "]");
    });
  }

  /// find with paging, rendered: json = {text, total, shown, next (null when none), version}.
  Reply find_text(double context, double page, const std::string& role, const std::string& name,
                  const std::string& region, const std::string& frame, const std::string& after,
                  const std::string& within, double limit) {
    return guard("findText", [&] {
      auto key = page_key(context, page);
      if (!key) return error_reply(key.error());
      if (!(std::isfinite(limit) && limit >= 1 && limit <= static_cast<double>(limits::kMaxFindLimit) &&
            std::floor(limit) == limit))
        return error_reply(ErrorCode::kInvalidArgument,
                           "findText: limit must be an integer from 1 to " + std::to_string(limits::kMaxFindLimit));
      FindQuery q;
      q.role = role;
      q.name = name;
      q.region = region;
      q.frame = frame;
      q.after = after;
      q.within = within;
      q.limit = static_cast<std::size_t>(limit);
      auto found = engine_.find_paged(*key, q);
      if (!found) return error_reply(found.error());
      json j = {{"text", render_find(*found, q)},
                {"total", found->total},
                {"shown", found->elements.size()},
                {"next", found->next.empty() ? json(nullptr) : json(found->next)},
                {"version", found->version}};
      return ok_reply(j.dump());
    });
  }

  Reply stats(double context, double page) {
    return guard("stats", [&] {
      auto key = page_key(context, page);
      if (!key) return error_reply(key.error());
      auto s = engine_.stats(*key);
      if (!s) return error_reply(s.error());
      json j = {{"version", s->version},
                {"deliveredVersion", s->delivered_version},
                {"liveElements", s->live_elements},
                {"deliveredElements", s->delivered_elements},
                {"registry", s->registry},
                {"tombstones", s->tombstones},
                {"frames", s->frames},
                {"retiredDocuments", s->retired_documents},
                {"recalledPages", s->recalled_pages},
                {"overlayDepth", s->overlay_depth}};
      return ok_reply(j.dump());
    });
  }

 private:
  // Out-of-range values are clamped here only as a last defence: the wrapper refuses them first.
  static Config make_config(double ratio, bool dedup, double token_budget, double first_ref) {
    Config c;
    if (std::isfinite(first_ref) && first_ref >= 1 && first_ref <= static_cast<double>(limits::kMaxFirstRef))
      c.first_ref = static_cast<std::uint64_t>(first_ref);
    if (std::isfinite(token_budget) && token_budget >= 1 &&
        token_budget <= static_cast<double>(limits::kMaxBaselineTokenBudget))
      c.token_budget = static_cast<std::size_t>(token_budget);
    if (std::isfinite(ratio) && ratio > 0 && ratio <= 1) c.max_change_ratio = ratio;
    c.dedup_regions = dedup;
    return c;
  }

  RenderOptions render_options() const {
    RenderOptions o;
    o.token_budget = engine_.config().token_budget;
    return o;
  }

  Engine engine_;
};

std::string core_version() {
  return kVersion;
}

// The bounds the wrapper checks before copying a string into the wasm heap, and the defaults
// it documents; from limits.h so nothing is written twice.
std::string limits_json() {
  return json{{"maxInputBytes", limits::kMaxInputBytes},
              {"defaultMaxChangeRatio", limits::kDefaultMaxChangeRatio},
              {"maxPages", limits::kMaxPages},
              {"defaultFindLimit", limits::kDefaultFindLimit},
              {"defaultTokenBudget", limits::kDefaultBaselineTokenBudget},
              {"maxTokenBudget", limits::kMaxBaselineTokenBudget},
              {"maxFirstRef", limits::kMaxFirstRef},
              {"bytesPerToken", limits::kBytesPerToken},
              {"maxFindLimit", limits::kMaxFindLimit},
              {"maxFindQueryChars", limits::kMaxFindQueryChars}}
      .dump();
}

// Every stable error code, from error.h's enum through error_code_name (kOk excluded), so the
// wrapper and its drift test never keep a second list.
std::string error_codes_json() {
  json codes = json::array();
  for (int c = static_cast<int>(ErrorCode::kOk) + 1; c <= static_cast<int>(ErrorCode::kInternal); ++c)
    codes.push_back(error_code_name(static_cast<ErrorCode>(c)));
  return codes.dump();
}

}  // namespace
}  // namespace athena::wasm

EMSCRIPTEN_BINDINGS(athena_core) {
  using namespace emscripten;
  using athena::wasm::EngineBinding;
  athena::wasm::bind_reply();
  function("version", &athena::wasm::core_version);
  function("limits", &athena::wasm::limits_json);
  function("errorCodes", &athena::wasm::error_codes_json);
  class_<EngineBinding>("Engine")
      .constructor<double, bool, double, double>()
      .function("owner", &EngineBinding::owner)
      .function("nextRef", &EngineBinding::next_ref)
      .function("advanceRefs", &EngineBinding::advance_refs)
      .class_function("validateConfig", &EngineBinding::validate_config)
      .function("openPage", &EngineBinding::open_page)
      .function("closePage", &EngineBinding::close_page)
      .function("onEvent", &EngineBinding::on_event)
      .function("snapshot", &EngineBinding::snapshot)
      .function("beginAction", &EngineBinding::begin_action)
      .function("resolve", &EngineBinding::resolve)
      .function("resolveNow", &EngineBinding::resolve_now)
      .function("finishAction", &EngineBinding::finish_action)
      .function("abortAction", &EngineBinding::abort_action)
      .function("find", &EngineBinding::find)
      .function("describeNode", &EngineBinding::describe_node)
      .function("findText", &EngineBinding::find_text)
      .function("stats", &EngineBinding::stats);
}
