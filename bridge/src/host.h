// `athena-bridge native-host`: started by Chrome for the extension (native messaging on
// stdin/stdout), it serves MCP servers on the local socket and routes between them.
//
// HostRouter is the routing as a pure state machine (unit-tested); run_native_host() is the
// poll loop around it.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace athena::bridge {

using nlohmann::json;

/// A new session id: "s" + 32 hex digits from the system's random source. Ids never collide
/// across host restarts, and knowing one is what lets a reconnecting MCP server resume it.
std::string new_session_id();
/// Whether `id` has that form (what a client may propose in its hello).
bool is_session_id(const std::string& id);
/// Replaces each absolute path in the call's argument that lists local files (the tool's
/// declaration's localFiles: an upload's files) by its real path (symlinks and `..` resolved), so
/// the extension checks the real file against the user's upload folders.
/// Returns why a path cannot be resolved (it does not exist, ...), else "".
std::string resolve_upload_files(json& call);

/// Where an outgoing message goes: the extension (client 0) or an MCP client (its number).
struct Outgoing {
  int client = 0;  // 0 = extension
  json message;
};

class HostRouter {
 public:
  /// The extension's side.
  std::vector<Outgoing> from_extension(const json& msg);
  /// An MCP server connected (client >= 1) / sent a message / went away.
  std::vector<Outgoing> client_connected(int client);
  std::vector<Outgoing> from_client(int client, const json& msg);
  std::vector<Outgoing> client_gone(int client);
  /// A client let go to make room (the one idle the longest): as gone, but its session stays open
  /// in the extension, so the MCP server reconnecting with its session id finds its tabs.
  std::vector<Outgoing> client_suspended(int client);

  /// What a client's hello is answered with (protocol, versions, whether the extension is there).
  json status() const;
  bool extension_ready() const { return ext_ready_; }
  std::size_t pending() const { return pending_.size(); }
  /// Calls of one client in flight (its share is limits::kMaxCallsPerClient).
  std::size_t calls_of(int client) const;

 private:
  struct Client {
    std::string session;
    std::string name;
  };
  std::map<int, Client> clients_;
  struct Pending {
    int client;
    json id;
  };
  std::map<std::string, Pending> pending_;  // host call id -> caller
  bool ext_ready_ = false;
  std::string ext_version_;
  std::string ext_browser_;  // what the extension said it runs in (its hello's "browser")
  long next_call_ = 1;
};

/// Runs the native host until Chrome closes stdin. Returns the process exit code.
int run_native_host(const std::string& caller_origin);

}  // namespace athena::bridge
