// One file past 400 lines: McpServer serves both protocol eras (sessions, and the stateless 2026-07-28), which share
// one call path, its deadlines, progress and the host's link.
#include "mcp.h"

#include <algorithm>
#include <cstdio>

#include "athena/version.h"
#include "framing.h"
#include "host.h"
#include "limits.h"
#include "platform/platform.h"
#include "tools.h"
#include "untrusted_json.h"

namespace athena::bridge {

namespace {

constexpr int kParseError = -32700, kInvalidRequest = -32600, kMethodNotFound = -32601;  // kInvalidParams: mcp_eras.h

const char* kNotConnected =
    "Chrome with the Athena Delta extension is not connected: %s. Open Chrome with the extension installed (its popup "
    "shows "
    "the bridge status), then retry; run `athena-bridge doctor` to check every link.";

std::string not_connected(const std::string& why) {
  char buf[1024];
  std::snprintf(buf, sizeof buf, kNotConnected, why.c_str());
  return buf;
}

/// The structuredContent of a FactPack tool's result in structured mode. The declared
/// outputSchema requires `type` (string) and `version` (integer) on every result, including a
/// JavaScript dialog that interrupted the action, so both are filled in when the extension's
/// JSON lacks them: the version from the reply, else 0 (no FactPack delivered yet).
json structured_factpack(const json& msg) {
  const json* given = field(msg, "factpack");
  json fp = given ? *given : json();
  if (fp.is_string()) {
    std::string ignored;
    fp = parse_untrusted(fp.get<std::string>(), ignored);
  }
  if (!fp.is_object()) fp = {{"type", "no_change"}};
  if (!fp.contains("type") || !fp["type"].is_string()) fp["type"] = "no_change";
  if (!fp.contains("version") || !fp["version"].is_number_integer()) {
    const auto v = msg.find("version");
    fp["version"] = v != msg.end() && v->is_number_integer() ? *v : json(0);
  }
  return fp;
}

}  // namespace

void McpServer::reply(const json& id, json result, bool modern) {
  io_.to_client(
      {{"jsonrpc", "2.0"}, {"id", id}, {"result", modern ? modern_result(std::move(result)) : std::move(result)}});
}

void McpServer::fail(const json& id, int code, const std::string& message, const json& data) {
  json error = {{"code", code}, {"message", message}};
  if (!data.is_null()) error["data"] = data;
  io_.to_client({{"jsonrpc", "2.0"}, {"id", id}, {"error", std::move(error)}});
}

void McpServer::tool_error(const json& id, const std::string& message, bool modern) {
  reply(id, {{"content", json::array({{{"type", "text"}, {"text", message}}})}, {"isError", true}}, modern);
}

long long McpServer::next_progress(Pending& p, Clock::time_point now) {
  const long long ms = std::chrono::duration_cast<std::chrono::milliseconds>(now - p.started).count();
  p.progress_sent = std::max(ms, p.progress_sent + 1);
  return p.progress_sent;
}

void McpServer::progress(const json& token, long long value, const std::string& message) {
  io_.to_client({{"jsonrpc", "2.0"},
                 {"method", "notifications/progress"},
                 {"params", {{"progressToken", token}, {"progress", value}, {"message", message}}}});
}

void McpServer::on_line(const std::string& line, Clock::time_point now) {
  if (line.find_first_not_of(" \t\r\n") == std::string::npos) return;
  if (line.size() > limits::kMaxMcpLineBytes) {
    fail(nullptr, kInvalidRequest,
         "message of " + std::to_string(line.size()) + " bytes exceeds " + std::to_string(limits::kMaxMcpLineBytes));
    return;
  }
  std::string why;
  const json msg = parse_untrusted(line, why, limits::kMaxBatchItems);
  if (msg.is_discarded()) {
    fail(nullptr, why == "not valid JSON" ? kParseError : kInvalidRequest, "refused: " + why);
    return;
  }
  if (msg.is_array()) {  // batches were removed from MCP (2025-06-18); answer each for older clients
    if (msg.empty()) fail(nullptr, kInvalidRequest, "empty batch");
    for (const json& m : msg) handle(m, now);
    return;
  }
  handle(msg, now);
}

void McpServer::handle(const json& msg, Clock::time_point now) {
  // An id is echoed only when it is one MCP allows (string or integer): anything else is never
  // stored or written back.
  const json* raw_id = field(msg, "id");
  const json echo_id = raw_id && is_id(*raw_id) ? *raw_id : json(nullptr);
  const json* m = field(msg, "method");
  if (!msg.is_object() || str_field(msg, "jsonrpc") != "2.0" || (m && !m->is_string())) {
    fail(echo_id, kInvalidRequest,
         "invalid request: expected a JSON-RPC 2.0 object ({\"jsonrpc\": \"2.0\", \"method\": string, ...})");
    return;
  }
  if (!m) return;  // a response to something we never send: ignore
  const std::string method = m->get<std::string>();
  const bool notification = raw_id == nullptr;
  const json& id = echo_id;
  if (!notification && !is_id(*raw_id)) {
    fail(nullptr, kInvalidRequest, "invalid request: id must be a string or an integer");
    return;
  }
  const json* given_params = field(msg, "params");
  const json params = given_params ? *given_params : json::object();
  if (!params.is_object()) {
    if (!notification) fail(id, kInvalidParams, "params must be an object");
    return;
  }
  if (notification) {
    // Both eras cancel the same way: a request of ours is then never answered (MCP), and a
    // call still running is stopped in the extension.
    if (method == "notifications/cancelled") {
      const json* rid_field = field(params, "requestId");
      if (!rid_field || !is_id(*rid_field)) return;
      const json& rid = *rid_field;
      for (auto it = pending_.begin(); it != pending_.end(); ++it)
        if (it->second.rpc_id == rid) {
          to_host({{"type", "cancel"}, {"id", it->first}});
          pending_.erase(it);
          break;
        }
      for (auto it = waiting_.begin(); it != waiting_.end(); ++it)
        if (it->pending.rpc_id == rid) {
          waiting_.erase(it);
          break;
        }
      subscriptions_.erase(std::remove(subscriptions_.begin(), subscriptions_.end(), rid), subscriptions_.end());
    }
    return;  // notifications/initialized and others need no answer
  }
  const RequestEra era = read_era(params);
  if (era.error_code != 0) {
    fail(id, era.error_code, era.error, era.error_data);
    return;
  }
  // Who the agent is, for the native host's session (shown in the extension's popup): a legacy
  // client says it in initialize, a modern one may say it on every request.
  if (!era.client_name.empty()) client_name_ = era.client_name;
  if (era.modern)
    handle_modern(id, method, params, now);
  else
    handle_legacy(id, method, params, now);
}

namespace {

const char* kInstructions =
    "Browse with FactPacks: navigate or snapshot gives the page once; every action then returns only what changed. "
    "Refs (e12) stay valid until a FactPack invalidates them; pass the last v as version.";

/// What athena-delta offers: tools only, and a list that never changes while the process lives.
json capabilities() {
  return {{"tools", {{"listChanged", false}}}};
}

}  // namespace

void McpServer::handle_legacy(const json& id, const std::string& method, const json& params, Clock::time_point now) {
  if (method == "initialize") {
    if (const json* info = field(params, "clientInfo")) client_name_ = str_field(*info, "name", client_name_);
    initialized_ = true;
    reply(id,
          {{"protocolVersion", legacy_version_for(str_field(params, "protocolVersion"))},
           {"capabilities", capabilities()},
           {"serverInfo", server_info()},
           {"instructions", kInstructions}},
          false);
    return;
  }
  if (method == "ping") {
    reply(id, json::object(), false);
    return;
  }
  if (method == "tools/list") {
    reply(id, {{"tools", served_tools(options_.structured, options_.tools)}}, false);
    return;
  }
  if (method == "tools/call") {
    call_tool(id, params, now, false);
    return;
  }
  if (method == "server/discover" || method == "subscriptions/listen") {
    // A modern method without the modern envelope: malformed (2026-07-28 basic/index), and the
    // answer a probing client reads as "not modern" names what was missing.
    fail(id, kInvalidParams,
         method + " is a " + modern_protocol_versions().front() +
             " request: it needs params._meta with io.modelcontextprotocol/protocolVersion and "
             "io.modelcontextprotocol/clientCapabilities");
    return;
  }
  if (method == "resources/list" || method == "prompts/list") {
    fail(id, kMethodNotFound, "athena-delta offers tools only (" + method + " is not supported)");
    return;
  }
  fail(id, kMethodNotFound, "method not found: " + method);
}

void McpServer::handle_modern(const json& id, const std::string& method, const json& params, Clock::time_point now) {
  // The results that may be cached (2026-07-28 server/utilities/caching) change only with a new
  // athena-bridge, never for one user rather than another: public, for limits::kListTtlMs.
  const json cacheable = {{"ttlMs", limits::kListTtlMs}, {"cacheScope", "public"}};
  if (method == "server/discover") {
    json r = {{"supportedVersions", supported_protocol_versions()},
              {"capabilities", capabilities()},
              {"instructions", kInstructions}};
    r.update(cacheable);
    reply(id, r, true);
    return;
  }
  if (method == "tools/list") {
    json r = {{"tools", served_tools(options_.structured, options_.tools)}};
    r.update(cacheable);
    reply(id, r, true);
    return;
  }
  if (method == "tools/call") {
    call_tool(id, params, now, true);
    return;
  }
  if (method == "subscriptions/listen") {
    // Nothing here ever changes (no list changes, no resources): the acknowledgment agrees to none
    // of what was asked, as the specification has a server say so, and the request stays open
    // until the client cancels it.
    if (subscriptions_.size() >= limits::kMaxSubscriptions) {
      fail(id, kInvalidRequest,
           std::to_string(limits::kMaxSubscriptions) +
               " subscriptions are open already, and athena-delta sends no notifications on them: cancel some");
      return;
    }
    subscriptions_.push_back(id);
    io_.to_client(
        {{"jsonrpc", "2.0"},
         {"method", "notifications/subscriptions/acknowledged"},
         {"params", {{"_meta", {{"io.modelcontextprotocol/subscriptionId", id}}}, {"notifications", json::object()}}}});
    return;
  }
  if (method == "initialize" || method == "ping" || method == "logging/setLevel") {
    fail(id, kMethodNotFound,
         method + " is not part of MCP " + modern_protocol_versions().front() +
             " (it has no handshake: every request carries its version in _meta); a client of " +
             legacy_protocol_versions().back() + " … " + legacy_protocol_versions().front() +
             " sends it without the io.modelcontextprotocol/ _meta keys");
    return;
  }
  if (method == "resources/list" || method == "prompts/list" || method == "resources/templates/list") {
    fail(id, kMethodNotFound, "athena-delta offers tools only (" + method + " is not supported)");
    return;
  }
  fail(id, kMethodNotFound, "method not found: " + method);
}

void McpServer::call_tool(const json& id, const json& params, Clock::time_point now, bool modern) {
  const std::string name = str_field(params, "name");
  if (name.empty()) {
    fail(id, kInvalidParams, "tools/call needs params.name (a string)");
    return;
  }
  const json* tool = find_tool(name);
  if (!tool) {
    fail(id, kInvalidParams, "unknown tool: " + name + " (tools/list has the tools)");
    return;
  }
  if (const std::string group = tool_group(name);
      std::find(options_.tools.begin(), options_.tools.end(), group) == options_.tools.end()) {
    std::string served;
    for (const std::string& g : options_.tools) served += (served.empty() ? "" : ",") + g;
    fail(id, kInvalidParams,
         name + " is in the tool group '" + group + "', which this server does not serve (--tools " + served +
             "): the user can add it, e.g. athena-bridge mcp --tools " + served + "," + group);
    return;
  }
  const json* given_args = field(params, "arguments");
  const json args = given_args ? *given_args : json::object();
  if (const std::string bad = check_arguments(*tool, args); !bad.empty()) {
    fail(id, kInvalidParams, bad);
    return;
  }
  if (pending_.size() + waiting_.size() >= limits::kMaxPendingCalls) {
    tool_error(id,
               "too many calls in flight (" + std::to_string(limits::kMaxPendingCalls) + "); wait for some to finish",
               modern);
    return;
  }
  json token = nullptr;
  if (const json* meta = field(params, "_meta")) {
    if (const json* t = field(*meta, "progressToken")) {
      if (!is_id(*t)) {
        fail(id, kInvalidParams, "_meta.progressToken must be a string or an integer");
        return;
      }
      token = *t;
    }
  }
  // Every call, whatever it is, is answered within this, before the client's own timeout
  // (limits.h kCallDeadlineMs; the longest wait a tool declares fits in it, checked there).
  const int deadline_ms = limits::kCallDeadlineMs;
  const std::string hid = "m" + std::to_string(next_id_++);
  json call = {{"type", "call"},
               {"id", hid},
               {"tool", name},
               {"args", args},
               {"deadline_ms", deadline_ms - limits::kDeadlineMarginMs}};
  // The FactPack's JSON crosses the wire only for a server that hands it on (structuredContent):
  // on a large page it is megabytes the text never carries.
  if (options_.structured) call["structured"] = true;
  const Pending pending{id,  name, modern, now + std::chrono::milliseconds(deadline_ms), deadline_ms, token,
                        now, now,  0};
  bool sent = ext_connected_ && to_host(call);
  if (!sent && seen_extension_) {
    // The extension was here and went away (Chrome stops an idle service worker; it wakes again
    // and reconnects by itself): the call waits for it, and tick() sends it when it is back.
    const auto give_up = now + std::chrono::milliseconds(std::min(deadline_ms, limits::kReconnectWaitMs));
    waiting_.push_back({hid, call, pending, give_up});
    return;
  }
  if (!sent) {
    std::string why;
    if (!io_.connect_host(why)) {
      // The host's own refusal (busy) is the answer; anything else means Chrome is not there.
      tool_error(id, host_error_.empty() ? not_connected(why) : "athena-bridge refused the connection: " + why, modern);
      return;
    }
    // Connected: the host answers our hello with its status. If the extension is not there yet
    // the host itself refuses the call with not_connected.
    sent = to_host(call);
    if (!sent) {
      tool_error(id, not_connected("the native host closed the connection"), modern);
      return;
    }
  }
  pending_[hid] = pending;
}

void McpServer::send_waiting(Clock::time_point now) {
  while (!waiting_.empty() && ext_connected_) {
    Waiting w = waiting_.front();
    // The extension gets what is left of the call's deadline, less the margin to answer in time.
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(w.pending.deadline - now).count();
    w.call["deadline_ms"] = std::max<long long>(0, left - limits::kDeadlineMarginMs);
    if (!to_host(w.call)) return;  // lost again: the rest keep waiting
    pending_[w.hid] = w.pending;
    waiting_.erase(waiting_.begin());
  }
}

void McpServer::on_host(const json& msg) {
  const std::string type = str_field(msg, "type");
  if (type == "status") {
    ext_connected_ = bool_field(msg, "extension");
    if (ext_connected_) seen_extension_ = true;
    return;
  }
  if (type == "error") {
    host_error_ = str_field(msg, "message");
    return;
  }
  if (type != "result" && type != "progress") return;
  const std::string hid = str_field(msg, "id");
  auto it = pending_.find(hid);
  if (it == pending_.end()) return;  // answer after a timeout or cancel: dropped
  if (type == "progress") {
    // The extension's word on a long call: its message, on the call's one progress scale (the
    // milliseconds it has run), so the values the client sees keep increasing as MCP requires.
    Pending& p = it->second;
    if (!p.progress_token.is_null()) {
      const auto now = Clock::now();
      p.last_progress = now;
      progress(p.progress_token, next_progress(p, now), str_field(msg, "message", p.tool + " running"));
    }
    return;
  }
  const Pending p = it->second;
  pending_.erase(it);
  if (!bool_field(msg, "ok")) {
    const json* given_e = field(msg, "error");
    const json e = given_e ? *given_e : json::object();
    const std::string code = str_field(e, "code", "error");
    std::string text = str_field(e, "message", "the extension failed the call");
    if (code == "not_connected") text = not_connected(text);
    json r = {{"content", json::array({{{"type", "text"}, {"text", "error " + code + ": " + text}}})},
              {"isError", true}};
    reply(p.rpc_id, r, p.modern);
    return;
  }
  json r = {{"content", json::array({{{"type", "text"}, {"text", str_field(msg, "text")}}})}};
  if (options_.structured && returns_factpack(p.tool)) r["structuredContent"] = structured_factpack(msg);
  // Screenshots: image {mime, data (base64)} (docs/wire-protocol.md); a bare base64 string is PNG.
  if (const json* given_img = field(msg, "image")) {
    const json& img = *given_img;
    if (const json* data = field(img, "data"); data && data->is_string())
      r["content"].push_back({{"type", "image"}, {"data", *data}, {"mimeType", str_field(img, "mime", "image/png")}});
    else if (img.is_string())
      r["content"].push_back({{"type", "image"}, {"data", img}, {"mimeType", "image/png"}});
  }
  reply(p.rpc_id, r, p.modern);
}

void McpServer::on_host_lost(const std::string& why) {
  ext_connected_ = false;
  auto pending = std::move(pending_);
  pending_.clear();
  // The host's own word on why it let us go (a slot it could not give in time, say) is the answer.
  const std::string text = host_error_.empty() ? not_connected(why) : host_error_;
  for (auto& [hid, p] : pending) tool_error(p.rpc_id, text, p.modern);
}

bool McpServer::to_host(const json& m) {
  if (io_.to_host(m)) return true;
  if (ext_connected_) host_gone_ = true;
  ext_connected_ = false;
  return false;
}

void McpServer::tick(Clock::time_point now) {
  if (host_gone_) {
    host_gone_ = false;
    on_host_lost("the native host went away (Chrome closed, or the extension was stopped)");
  }
  // Calls waiting for the extension to come back: reconnect now and then, send them once it is
  // there, answer the ones whose wait is over.
  if (!waiting_.empty()) {
    if (!ext_connected_ && now >= next_connect_) {
      next_connect_ = now + std::chrono::milliseconds(limits::kReconnectEveryMs);
      std::string ignored;
      io_.connect_host(ignored);
    }
    send_waiting(now);
    for (auto it = waiting_.begin(); it != waiting_.end();) {
      if (now < it->give_up) {
        ++it;
        continue;
      }
      const auto waited = std::chrono::duration_cast<std::chrono::milliseconds>(now - it->pending.started).count();
      tool_error(it->pending.rpc_id,
                 not_connected("it went away and did not come back within " + std::to_string(waited) +
                               " ms (a running Chrome wakes the extension's stopped worker on its alarm)"),
                 it->pending.modern);
      it = waiting_.erase(it);
    }
  }
  // Long calls say they are alive, to clients that asked (params._meta.progressToken), also while
  // they wait for the extension; the extension may say more (forwarded in on_host).
  auto alive = [&](Pending& p, const char* doing) {
    if (p.progress_token.is_null() || now - p.last_progress < std::chrono::milliseconds(limits::kProgressEveryMs))
      return;
    p.last_progress = now;
    const long long ms = next_progress(p, now);
    progress(p.progress_token, ms,
             p.tool + " " + doing + " for " + std::to_string(ms) + " ms (answered by " + std::to_string(p.deadline_ms) +
                 " ms)");
  };
  for (auto& w : waiting_) alive(w.pending, "waiting for the extension");
  for (auto& [hid, p] : pending_) alive(p, "running");
  for (auto it = pending_.begin(); it != pending_.end();) {
    if (now >= it->second.deadline) {
      to_host({{"type", "cancel"}, {"id", it->first}});
      tool_error(
          it->second.rpc_id,
          it->second.tool + " timed out after " + std::to_string(it->second.deadline_ms) +
              " ms (athena-delta answers every call before an MCP client's own timeout); the page may still be busy: "
              "take a snapshot to see where it stands",
          it->second.modern);
      it = pending_.erase(it);
    } else {
      ++it;
    }
  }
}

// ------------------------------------------------------------------ the loop

int run_mcp_server(McpOptions options) {
  using Event = platform::EventLoop::Event;
  platform::EventLoop loop;
  loop.watch_stdin();
  int host = -1;  // the loop's id of the connection to the native host, -1 when none
  // This server's session for its whole life: proposed on every (re)connection, so a restarted
  // host hands back the same session and the agent keeps its tabs; no other process knows it.
  const std::string session = new_session_id();
  FrameReader reader(limits::kMaxFrameBytes);
  McpServer* self = nullptr;
  McpServer::Io io;
  io.to_client = [](const json& m) {
    platform::write_stdout(m.dump(-1, ' ', false, json::error_handler_t::replace) + "\n");
  };
  // What goes to the host waits in the loop's queue for that connection and is written as the
  // host takes it (platform::EventLoop::send never blocks: POSIX drains it from wait(), Windows
  // from the connection's own I/O thread): a host that stops reading (stopped, or swamped) never
  // blocks this process, which keeps answering ping, deadlines and cancellations. Bounded
  // (kMaxHostQueueBytes): past it a call is not sent, and waits for the extension as when it is
  // away, until its deadline.
  bool host_failed = false;  // a write failed: the loop below closes the host and says so
  io.to_host = [&](const json& m) {
    if (host < 0 || host_failed) return false;
    const std::string f = encode_frame(m.dump(-1, ' ', false, json::error_handler_t::replace));
    if (loop.queued(host) + f.size() > limits::kMaxHostQueueBytes) return false;
    if (!loop.send(host, f)) {
      host_failed = true;
      return false;
    }
    return true;
  };
  io.connect_host = [&](std::string& error) {
    if (host >= 0) return true;
    const int id = loop.connect(error);
    if (id < 0) return false;
    reader = FrameReader(limits::kMaxFrameBytes);
    host_failed = false;
    self->clear_host_error();
    // The hello may fail to go out when the host already refused us and closed: what it said
    // is still there to read, so the answer comes from reading, not from this write.
    loop.send(
        id,
        encode_frame(json{
            {"type", "hello"}, {"protocol", limits::kProtocol}, {"client", self->client_name()}, {"session", session}}
                         .dump()));
    // Wait briefly for the status so the first call knows whether the extension is there. A host
    // that refuses us (busy: every slot taken) says why and closes: that reason is the answer.
    const auto until = Clock::now() + std::chrono::milliseconds(limits::kConnectTimeoutMs);
    while (!self->extension_connected() && Clock::now() < until) {
      for (const Event& e : loop.wait(limits::kConnectPollMs, id)) {
        if (e.kind == Event::kClosed) {
          loop.close(id);
          error = self->host_error().empty() ? "the native host closed the connection" : self->host_error();
          return false;
        }
        reader.feed(e.data.data(), e.data.size());
        while (auto payload = reader.next()) {
          std::string ignored;
          const json m = parse_untrusted(*payload, ignored);
          if (m.is_object()) self->on_host(m);
        }
      }
    }
    host = id;
    return true;
  };
  McpServer server(io, std::move(options));
  self = &server;
  std::string line;
  bool dropping = false;  // inside an oversized line
  for (;;) {
    const std::vector<Event> events = loop.wait(limits::kPollMs);
    if (host >= 0 && host_failed) {
      loop.close(host);
      host = -1;
      server.on_host_lost("the native host went away (Chrome closed, or the extension was stopped)");
    }
    server.tick();
    for (const Event& e : events) {
      if (e.id == platform::EventLoop::kStdin) {
        if (e.kind != Event::kData)
          return 0;  // the client went away: calls in flight die with us (the host cancels them)
        for (const char c : e.data) {
          if (c == '\n') {
            if (dropping) {
              dropping = false;
              line.clear();
              continue;
            }
            server.on_line(line);
            line.clear();
          } else if (!dropping) {
            line.push_back(c);
            if (line.size() > limits::kMaxMcpLineBytes) {
              server.on_line(line);  // answers "exceeds"
              line.clear();
              dropping = true;
            }
          }
        }
      } else if (e.id == host) {
        if (e.kind == Event::kClosed || !reader.feed(e.data.data(), e.data.size())) {
          loop.close(host);
          host = -1;
          server.on_host_lost("the native host went away (Chrome closed, or the extension was stopped)");
          continue;
        }
        while (auto payload = reader.next()) {
          std::string ignored;
          const json m = parse_untrusted(*payload, ignored);
          if (m.is_object()) server.on_host(m);
        }
      }
    }
  }
}

}  // namespace athena::bridge
