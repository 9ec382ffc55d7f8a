// `athena-bridge mcp`: the MCP server (JSON-RPC 2.0 over stdio, newline-delimited, as the MCP
// specification's stdio transport says), for clients of both eras (mcp_eras.h): those that open
// with `initialize` (2024-10-07 … 2025-11-25) and those that send every request with its own
// version in `_meta` (2026-07-28). Tool calls travel to the native host's socket and on to
// the extension; the answer's FactPack comes back as text, the one thing every client hands its
// model. Only with Options::structured (`athena-bridge mcp --structured`, for programs) do
// FactPack tools declare an outputSchema and carry the FactPack JSON as structuredContent.
//
// No call outlives the official SDKs' default request timeout (limits::kClientTimeoutMs): each
// is answered by its deadline, below it, with what was done or a timeout that says what to do;
// a client that sent a progressToken hears how long it has run every limits::kProgressEveryMs.
//
// McpServer is the protocol as a state machine (unit-tested with lambdas for I/O);
// run_mcp_server() is the poll loop around it.
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "mcp_eras.h"

namespace athena::bridge {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

struct McpOptions {
  /// Declare outputSchema and send structuredContent (the untrimmed FactPack JSON). Off by
  /// default: clients that forward structuredContent to the model would undo the savings.
  bool structured = false;
  /// The tool groups served (`--tools core,input`): tools/list lists only theirs, and a call of
  /// another tool is refused naming its group. Core alone by default: it fits the token budget.
  std::vector<std::string> tools = {"core"};
};

class McpServer {
 public:
  struct Io {
    std::function<void(const json&)> to_client;            // one JSON-RPC message to stdout
    std::function<bool(const json&)> to_host;              // false: not connected
    std::function<bool(std::string& error)> connect_host;  // (re)connect; false + why
  };
  explicit McpServer(Io io, McpOptions options = McpOptions()) : io_(std::move(io)), options_(std::move(options)) {}

  /// One line from stdin.
  void on_line(const std::string& line, Clock::time_point now = Clock::now());
  /// One message from the native host.
  void on_host(const json& msg);
  /// The host connection dropped: fail what was in flight.
  void on_host_lost(const std::string& why);
  /// Times out calls past their deadline.
  void tick(Clock::time_point now = Clock::now());

  /// A legacy client said initialize (a modern one never does).
  bool initialized() const { return initialized_; }
  std::size_t in_flight() const { return pending_.size(); }
  /// Calls held until the extension comes back (it was connected once, then went away).
  std::size_t waiting() const { return waiting_.size(); }
  bool extension_connected() const { return ext_connected_; }
  const std::string& client_name() const { return client_name_; }
  /// The last error the host sent (e.g. "busy"), "" if none since clear_host_error().
  const std::string& host_error() const { return host_error_; }
  void clear_host_error() { host_error_.clear(); }

 private:
  void handle(const json& msg, Clock::time_point now);
  /// The methods of each era, for a request that was read and may be served.
  void handle_legacy(const json& id, const std::string& method, const json& params, Clock::time_point now);
  void handle_modern(const json& id, const std::string& method, const json& params, Clock::time_point now);
  /// A result, in the era of the request it answers (a modern one says its resultType).
  void reply(const json& id, json result, bool modern);
  void fail(const json& id, int code, const std::string& message, const json& data = nullptr);
  void tool_error(const json& id, const std::string& message, bool modern);
  void call_tool(const json& id, const json& params, Clock::time_point now, bool modern);
  void progress(const json& token, long long progress, const std::string& message);

  struct Pending {
    json rpc_id;
    std::string tool;
    bool modern;  // the era of the request, for its answer
    Clock::time_point deadline;
    int deadline_ms;
    json progress_token;  // null when the client asked for none
    Clock::time_point started;
    Clock::time_point last_progress;
    long long progress_sent = 0;  // the last progress value sent: each must be greater (MCP)
  };
  /// A call's progress is the milliseconds it has run: the next value to send, above the last.
  static long long next_progress(Pending& p, Clock::time_point now);
  /// A call made while the extension was away: sent when it is back, or answered not_connected
  /// at give_up (limits::kReconnectWaitMs, within the call's own deadline).
  struct Waiting {
    std::string hid;
    json call;
    Pending pending;
    Clock::time_point give_up;
  };
  void send_waiting(Clock::time_point now);
  /// io_.to_host, noting a host that did not take the write as gone (see host_gone_).
  bool to_host(const json& m);

  Io io_;
  McpOptions options_;
  bool initialized_ = false;
  bool ext_connected_ = false;
  /// The extension was connected at least once: when it goes (Chrome stopped its service worker,
  /// which wakes again by itself), calls wait for it instead of failing at once.
  bool seen_extension_ = false;
  /// A write to the host failed before its hang-up was read (the extension's worker stopped as a
  /// call went out): the extension is not connected from then on, and the next tick() fails what
  /// was in flight with it (on_host_lost) and reconnects for the calls that wait. Without this the
  /// waiting calls believed the extension there and never reconnected.
  bool host_gone_ = false;
  std::vector<Waiting> waiting_;
  Clock::time_point next_connect_{};
  std::string client_name_ = "mcp-client";
  std::string host_error_;
  std::map<std::string, Pending> pending_;  // call id sent to the host -> request
  /// Open subscriptions/listen requests (modern): acknowledged with nothing to listen to (the tool
  /// list never changes, there are no resources), held until the client cancels them.
  std::vector<json> subscriptions_;
  long next_id_ = 1;
};

/// Runs the MCP server on stdin/stdout until stdin closes. Returns the exit code.
int run_mcp_server(McpOptions options = McpOptions());

}  // namespace athena::bridge
