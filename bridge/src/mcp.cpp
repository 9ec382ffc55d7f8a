#include "mcp.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <poll.h>
#include <unistd.h>

#include "athena/version.h"
#include "endpoint.h"
#include "framing.h"
#include "limits.h"
#include "tools.h"

namespace athena::bridge {

namespace {

constexpr int kParseError = -32700, kInvalidRequest = -32600, kMethodNotFound = -32601, kInvalidParams = -32602;

const char* kNotConnected =
    "Chrome with the Athena Delta extension is not connected: %s. Open Chrome with the extension installed (its popup shows "
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
  json fp = msg.contains("factpack") ? msg["factpack"] : json();
  if (fp.is_string()) fp = json::parse(fp.get<std::string>(), nullptr, false);
  if (!fp.is_object()) fp = {{"type", "no_change"}};
  if (!fp.contains("type") || !fp["type"].is_string()) fp["type"] = "no_change";
  if (!fp.contains("version") || !fp["version"].is_number_integer()) {
    const auto v = msg.find("version");
    fp["version"] = v != msg.end() && v->is_number_integer() ? *v : json(0);
  }
  return fp;
}

}  // namespace

const std::vector<std::string>& supported_protocol_versions() {
  static const std::vector<std::string> v = {"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05", "2024-10-07"};
  return v;
}

void McpServer::reply(const json& id, json result) { io_.to_client({{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}}); }

void McpServer::fail(const json& id, int code, const std::string& message) {
  io_.to_client({{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", code}, {"message", message}}}});
}

void McpServer::tool_error(const json& id, const std::string& message) {
  reply(id, {{"content", json::array({{{"type", "text"}, {"text", message}}})}, {"isError", true}});
}

void McpServer::on_line(const std::string& line, Clock::time_point now) {
  if (line.find_first_not_of(" \t\r\n") == std::string::npos) return;
  if (line.size() > limits::kMaxMcpLineBytes) {
    fail(nullptr, kInvalidRequest, "message of " + std::to_string(line.size()) + " bytes exceeds " + std::to_string(limits::kMaxMcpLineBytes));
    return;
  }
  const json msg = json::parse(line, nullptr, false);
  if (msg.is_discarded()) {
    fail(nullptr, kParseError, "parse error: not valid JSON");
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
  if (!msg.is_object() || msg.value("jsonrpc", "") != "2.0" || (msg.contains("method") && !msg["method"].is_string())) {
    fail(msg.is_object() && msg.contains("id") ? msg["id"] : json(nullptr), kInvalidRequest, "invalid request: expected a JSON-RPC 2.0 object");
    return;
  }
  if (!msg.contains("method")) return;  // a response to something we never send: ignore
  const std::string method = msg["method"];
  const bool notification = !msg.contains("id");
  const json id = notification ? json(nullptr) : msg["id"];
  if (!notification && !id.is_string() && !id.is_number_integer()) {
    fail(nullptr, kInvalidRequest, "invalid request: id must be a string or an integer");
    return;
  }
  const json params = msg.contains("params") ? msg["params"] : json::object();
  if (!params.is_object()) {
    if (!notification) fail(id, kInvalidParams, "params must be an object");
    return;
  }
  if (notification) {
    if (method == "notifications/cancelled") {
      const json rid = params.value("requestId", json());
      for (auto it = pending_.begin(); it != pending_.end(); ++it)
        if (it->second.rpc_id == rid) {
          io_.to_host({{"type", "cancel"}, {"id", it->first}});
          pending_.erase(it);  // no response to a cancelled request (MCP spec)
          break;
        }
    }
    return;  // notifications/initialized and others need no answer
  }
  if (method == "initialize") {
    const std::string asked = params.value("protocolVersion", "");
    const auto& v = supported_protocol_versions();
    const std::string version = std::find(v.begin(), v.end(), asked) != v.end() ? asked : v.front();
    if (params.contains("clientInfo") && params["clientInfo"].is_object())
      client_name_ = params["clientInfo"].value("name", client_name_);
    initialized_ = true;
    reply(id, {{"protocolVersion", version},
               {"capabilities", {{"tools", {{"listChanged", false}}}, {"logging", json::object()}}},
               {"serverInfo", {{"name", "athena-delta"}, {"version", kVersion}}},
               {"instructions",
                "Browse with FactPacks: navigate or snapshot gives the page once; every action then returns only what changed. "
                "Refs (c0p1f0e12) stay valid until a FactPack invalidates them; pass the last v as version."}});
    return;
  }
  if (method == "ping") {
    reply(id, json::object());
    return;
  }
  if (method == "logging/setLevel") {
    reply(id, json::object());
    return;
  }
  if (method == "tools/list") {
    reply(id, {{"tools", tool_list(options_.structured)}});
    return;
  }
  if (method == "tools/call") {
    call_tool(id, params, now);
    return;
  }
  if (method == "resources/list" || method == "prompts/list") {
    fail(id, kMethodNotFound, "athena-delta offers tools only (" + method + " is not supported)");
    return;
  }
  fail(id, kMethodNotFound, "method not found: " + method);
}

void McpServer::call_tool(const json& id, const json& params, Clock::time_point now) {
  if (!params.contains("name") || !params["name"].is_string()) {
    fail(id, kInvalidParams, "tools/call needs params.name");
    return;
  }
  const std::string name = params["name"];
  const json* tool = find_tool(name);
  if (!tool) {
    fail(id, kInvalidParams, "unknown tool: " + name + " (tools/list has the tools)");
    return;
  }
  const json args = params.contains("arguments") ? params["arguments"] : json::object();
  if (const std::string bad = check_arguments(*tool, args); !bad.empty()) {
    fail(id, kInvalidParams, bad);
    return;
  }
  if (pending_.size() >= limits::kMaxPendingCalls) {
    tool_error(id, "too many calls in flight (" + std::to_string(limits::kMaxPendingCalls) + "); wait for some to finish");
    return;
  }
  int deadline_ms = limits::kDefaultCallDeadlineMs;
  if (name == "wait_for" && args.contains("ms") && args["ms"].is_number_integer())
    deadline_ms = std::min(limits::kMaxCallDeadlineMs, std::max(deadline_ms, args["ms"].get<int>() + limits::kDeadlineMarginMs * 2));
  const std::string hid = "m" + std::to_string(next_id_++);
  const json call = {{"type", "call"}, {"id", hid}, {"tool", name}, {"args", args}, {"deadline_ms", deadline_ms - limits::kDeadlineMarginMs}};
  bool sent = ext_connected_ && io_.to_host(call);
  if (!sent) {
    std::string why;
    if (!io_.connect_host(why)) {
      tool_error(id, not_connected(why));
      return;
    }
    // Connected: the host answers our hello with its status. If the extension is not there yet
    // the host itself refuses the call with not_connected.
    sent = io_.to_host(call);
    if (!sent) {
      tool_error(id, not_connected("the native host closed the connection"));
      return;
    }
  }
  json token = nullptr;
  if (params.contains("_meta") && params["_meta"].is_object() && params["_meta"].contains("progressToken"))
    token = params["_meta"]["progressToken"];
  pending_[hid] = {id, name, now + std::chrono::milliseconds(deadline_ms), deadline_ms, token, now, now, 0};
}

void McpServer::on_host(const json& msg) {
  const std::string type = msg.value("type", "");
  if (type == "status") {
    ext_connected_ = msg.value("extension", false);
    return;
  }
  if (type == "error") {
    host_error_ = msg.value("message", "");
    return;
  }
  if (type != "result" && type != "progress") return;
  const std::string hid = msg.contains("id") && msg["id"].is_string() ? msg["id"].get<std::string>() : "";
  auto it = pending_.find(hid);
  if (it == pending_.end()) return;  // answer after a timeout or cancel: dropped
  if (type == "progress") {
    if (!it->second.progress_token.is_null()) {
      json p = {{"progressToken", it->second.progress_token}, {"progress", msg.value("progress", 0.0)}};
      if (msg.contains("total")) p["total"] = msg["total"];
      if (msg.contains("message")) p["message"] = msg["message"];
      io_.to_client({{"jsonrpc", "2.0"}, {"method", "notifications/progress"}, {"params", p}});
    }
    return;
  }
  const Pending p = it->second;
  pending_.erase(it);
  if (!msg.value("ok", false)) {
    const json e = msg.value("error", json::object());
    const std::string code = e.is_object() ? e.value("code", "error") : "error";
    std::string text = e.is_object() ? e.value("message", "the extension failed the call") : "the extension failed the call";
    if (code == "not_connected") text = not_connected(text);
    json r = {{"content", json::array({{{"type", "text"}, {"text", "error " + code + ": " + text}}})}, {"isError", true}};
    reply(p.rpc_id, r);
    return;
  }
  json r = {{"content", json::array({{{"type", "text"}, {"text", msg.value("text", "")}}})}};
  if (options_.structured && returns_factpack(p.tool)) r["structuredContent"] = structured_factpack(msg);
  // Screenshots: image {mime, data (base64)} (docs/wire-protocol.md); a bare base64 string is PNG.
  if (msg.contains("image")) {
    const json& img = msg["image"];
    if (img.is_object() && img.contains("data") && img["data"].is_string())
      r["content"].push_back({{"type", "image"}, {"data", img["data"]}, {"mimeType", img.value("mime", "image/png")}});
    else if (img.is_string())
      r["content"].push_back({{"type", "image"}, {"data", img}, {"mimeType", "image/png"}});
  }
  reply(p.rpc_id, r);
}

void McpServer::on_host_lost(const std::string& why) {
  ext_connected_ = false;
  auto pending = std::move(pending_);
  pending_.clear();
  for (auto& [hid, p] : pending) tool_error(p.rpc_id, not_connected(why));
}

void McpServer::tick(Clock::time_point now) {
  // Long calls say they are alive, to clients that asked (params._meta.progressToken); the
  // extension may send its own, finer progress (forwarded in on_host).
  for (auto& [hid, p] : pending_) {
    if (p.progress_token.is_null() || now - p.last_progress < std::chrono::milliseconds(limits::kProgressEveryMs)) continue;
    p.last_progress = now;
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(now - p.started).count();
    io_.to_client({{"jsonrpc", "2.0"},
                   {"method", "notifications/progress"},
                   {"params", {{"progressToken", p.progress_token}, {"progress", ++p.progress_sent},
                               {"message", p.tool + " running for " + std::to_string(ms) + " ms (deadline " + std::to_string(p.deadline_ms) + " ms)"}}}});
  }
  for (auto it = pending_.begin(); it != pending_.end();) {
    if (now >= it->second.deadline) {
      io_.to_host({{"type", "cancel"}, {"id", it->first}});
      tool_error(it->second.rpc_id, it->second.tool + " timed out after " + std::to_string(it->second.deadline_ms) +
                                        " ms; the page may still be busy: take a snapshot to see where it stands");
      it = pending_.erase(it);
    } else {
      ++it;
    }
  }
}

// ------------------------------------------------------------------ the loop

int run_mcp_server(McpOptions options) {
  int host = -1;
  FrameReader reader(limits::kMaxFrameBytes);
  McpServer* self = nullptr;
  McpServer::Io io;
  io.to_client = [](const json& m) {
    const std::string s = m.dump(-1, ' ', false, json::error_handler_t::replace) + "\n";
    write_all(STDOUT_FILENO, s);
  };
  io.to_host = [&](const json& m) {
    if (host < 0) return false;
    if (!write_all(host, encode_frame(m.dump(-1, ' ', false, json::error_handler_t::replace)))) {
      ::close(host);
      host = -1;
      return false;
    }
    return true;
  };
  io.connect_host = [&](std::string& error) {
    if (host >= 0) return true;
    host = connect_endpoint(error);
    if (host < 0) return false;
    reader = FrameReader(limits::kMaxFrameBytes);
    io.to_host({{"type", "hello"}, {"protocol", limits::kProtocol}, {"client", self->client_name()}});
    // Wait briefly for the status so the first call knows whether the extension is there.
    pollfd p{host, POLLIN, 0};
    std::vector<char> b(1 << 16);
    const auto until = Clock::now() + std::chrono::milliseconds(limits::kConnectTimeoutMs);
    while (!self->extension_connected() && Clock::now() < until && ::poll(&p, 1, 100) >= 0) {
      if (!(p.revents & POLLIN)) continue;
      const ssize_t n = ::read(host, b.data(), b.size());
      if (n <= 0) break;
      reader.feed(b.data(), static_cast<std::size_t>(n));
      while (auto payload = reader.next()) {
        const json m = json::parse(*payload, nullptr, false);
        if (m.is_object()) self->on_host(m);
      }
      if (!self->extension_connected()) continue;
    }
    return true;
  };
  McpServer server(io, options);
  self = &server;
  std::string line;
  std::vector<char> buf(1 << 16);
  bool dropping = false;  // inside an oversized line
  for (;;) {
    pollfd fds[2] = {{STDIN_FILENO, POLLIN, 0}, {host, POLLIN, 0}};
    const int n = ::poll(fds, host >= 0 ? 2 : 1, limits::kPollMs);
    if (n < 0 && errno != EINTR) return 1;
    server.tick();
    if (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) {
      const ssize_t r = ::read(STDIN_FILENO, buf.data(), buf.size());
      if (r <= 0) return 0;  // the client went away: calls in flight die with us (the host cancels them)
      for (ssize_t k = 0; k < r; ++k) {
        const char c = buf[static_cast<std::size_t>(k)];
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
    }
    if (host >= 0 && (fds[1].revents & (POLLIN | POLLHUP | POLLERR))) {
      const ssize_t r = ::read(host, buf.data(), buf.size());
      if (r <= 0 || !reader.feed(buf.data(), static_cast<std::size_t>(r))) {
        ::close(host);
        host = -1;
        server.on_host_lost("the native host went away (Chrome closed, or the extension was stopped)");
        continue;
      }
      while (auto payload = reader.next()) {
        const json m = json::parse(*payload, nullptr, false);
        if (m.is_object()) server.on_host(m);
      }
    }
  }
}

}  // namespace athena::bridge
