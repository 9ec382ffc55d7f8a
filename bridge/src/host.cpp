#include "host.h"

#include <cerrno>
#include <chrono>
#include <fcntl.h>
#include <sys/socket.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <poll.h>
#include <unistd.h>

#include "athena/version.h"
#include "endpoint.h"
#include "framing.h"
#include "limits.h"
#include "untrusted_json.h"

namespace athena::bridge {

namespace {

json error_msg(const std::string& code, const std::string& message) {
  return {{"type", "error"}, {"code", code}, {"message", message}};
}

json call_error(const json& id, const std::string& code, const std::string& message) {
  return {{"type", "result"}, {"id", id}, {"ok", false}, {"error", {{"code", code}, {"message", message}}}};
}

}  // namespace

std::string resolve_upload_files(json& call) {
  json* args = call.is_object() && call.contains("args") ? &call["args"] : nullptr;
  if (!args || !args->is_object() || !args->contains("files") || !(*args)["files"].is_array()) return {};
  for (json& f : (*args)["files"]) {
    if (!f.is_string()) continue;  // the extension refuses the shape with its own message
    const std::string given = f.get<std::string>();
    if (given.empty() || given[0] != '/' || given.find('\0') != std::string::npos) continue;
    // A path that does not resolve (missing, unreadable) goes on as given: refusing it here would
    // tell the agent which files exist outside the folders the user allowed (or with uploads off).
    // The extension judges it like any other path (a `..` in it is refused there).
    char* real = ::realpath(given.c_str(), nullptr);
    if (!real) continue;
    f = std::string(real);
    std::free(real);
  }
  return {};
}

json HostRouter::status() const {
  return {{"type", "status"}, {"protocol", limits::kProtocol}, {"bridge", kVersion}, {"extension", ext_ready_},
          {"extension_version", ext_version_}, {"browser", ext_browser_}};
}

std::vector<Outgoing> HostRouter::from_extension(const json& msg) {
  std::vector<Outgoing> out;
  const std::string type = str_field(msg, "type");
  if (type == "hello") {
    const json* p = field(msg, "protocol");
    const long long proto = p && p->is_number_integer() ? p->get<long long>() : -1;
    if (proto != limits::kProtocol) {
      out.push_back({0, error_msg("protocol_mismatch", "the extension speaks protocol " + std::to_string(proto) + ", athena-bridge " +
                                                           std::to_string(limits::kProtocol) + ": update " +
                                                           (proto > limits::kProtocol ? "athena-bridge" : "the extension"))});
      return out;
    }
    ext_ready_ = true;
    ext_version_ = str_field(msg, "extension");
    ext_browser_ = str_field(msg, "browser");  // e.g. "Google Chrome 131": named to a second browser's user
    out.push_back({0, {{"type", "hello"}, {"protocol", limits::kProtocol}, {"bridge", kVersion}}});
    // Sessions opened before the extension said hello.
    for (const auto& [c, cl] : clients_) out.push_back({0, {{"type", "session_open"}, {"session", cl.session}, {"client", cl.name}}});
    for (const auto& [c, cl] : clients_) out.push_back({c, status()});
    return out;
  }
  if (!ext_ready_) {
    out.push_back({0, error_msg("protocol", "the first message must be hello {protocol: " + std::to_string(limits::kProtocol) + "}")});
    return out;
  }
  if (type == "result" || type == "progress") {
    const std::string id = str_field(msg, "id");
    auto it = pending_.find(id);
    if (it == pending_.end()) return out;  // late answer to a cancelled or timed-out call: dropped
    json m = msg;
    m["id"] = it->second.id;
    out.push_back({it->second.client, m});
    if (type == "result") pending_.erase(it);
    return out;
  }
  if (type == "event" || type == "log") {  // broadcast (e.g. the user pressed stop)
    for (const auto& [c, cl] : clients_) {
      const std::string s = str_field(msg, "session");
      if (s.empty() || s == cl.session) out.push_back({c, msg});
    }
    return out;
  }
  if (type == "error") return out;  // the extension reports; nothing to route
  out.push_back({0, error_msg("unknown_type", "athena-bridge does not know the message type '" + type + "'")});
  return out;
}

std::string new_session_id() {
  unsigned char b[16] = {};
  std::FILE* f = std::fopen("/dev/urandom", "rb");
  const bool ok = f && std::fread(b, 1, sizeof b, f) == sizeof b;
  if (f) std::fclose(f);
  if (!ok) {  // no /dev/urandom: still unique within and across runs, if guessable
    static unsigned long long n = 0;
    const auto t = static_cast<unsigned long long>(std::chrono::steady_clock::now().time_since_epoch().count());
    for (int i = 0; i < 8; ++i) b[i] = static_cast<unsigned char>(t >> (8 * i));
    for (int i = 0; i < 8; ++i) b[8 + i] = static_cast<unsigned char>((++n + static_cast<unsigned long long>(::getpid())) >> (8 * i));
  }
  static const char* hex = "0123456789abcdef";
  std::string id = "s";
  for (const unsigned char c : b) {
    id.push_back(hex[c >> 4]);
    id.push_back(hex[c & 15]);
  }
  return id;
}

bool is_session_id(const std::string& id) {
  if (id.size() != 33 || id[0] != 's') return false;
  for (std::size_t i = 1; i < id.size(); ++i)
    if (!((id[i] >= '0' && id[i] <= '9') || (id[i] >= 'a' && id[i] <= 'f'))) return false;
  return true;
}

std::vector<Outgoing> HostRouter::client_connected(int client) {
  Client c;
  c.session = new_session_id();
  clients_[client] = c;
  return {};  // session_open goes out with the client's hello (it names the client)
}

std::vector<Outgoing> HostRouter::from_client(int client, const json& msg) {
  std::vector<Outgoing> out;
  auto cl = clients_.find(client);
  if (cl == clients_.end()) return out;
  const std::string type = str_field(msg, "type");
  if (type == "status") {  // a look without joining: no session is opened (a second browser's host asks)
    out.push_back({client, status()});
    return out;
  }
  if (type == "hello") {
    cl->second.name = str_field(msg, "client");
    // An MCP server that reconnects (after a host restart, say) proposes the session id it had,
    // and gets it back: the extension kept that session's tabs. The id is 128 random bits that
    // only that server knows; an id in use by another connection, or not of that form, is
    // ignored and the client keeps its fresh one.
    const std::string proposed = str_field(msg, "session");
    bool taken = false;
    for (const auto& [n, other] : clients_) taken = taken || (n != client && other.session == proposed);
    if (is_session_id(proposed) && !taken) cl->second.session = proposed;
    if (ext_ready_) out.push_back({0, {{"type", "session_open"}, {"session", cl->second.session}, {"client", cl->second.name}}});
    out.push_back({client, status()});
    return out;
  }
  if (type == "call") {
    const json* id = field(msg, "id");
    if (!id || !is_id(*id) || str_field(msg, "tool").empty()) {
      out.push_back({client, error_msg("bad_message", "call needs id (a string or an integer) and tool (a string)")});
      return out;
    }
    if (!ext_ready_) {
      out.push_back({client, call_error(msg["id"], "not_connected", "the extension has not said hello yet; retry in a moment")});
      return out;
    }
    // A fair share first: one client's flood cannot fill what the others need.
    if (calls_of(client) >= limits::kMaxCallsPerClient) {
      out.push_back({client, call_error(msg["id"], "busy", "this agent already has " + std::to_string(limits::kMaxCallsPerClient) +
                                                            " calls in flight, its share; wait for some to finish")});
      return out;
    }
    if (pending_.size() >= limits::kMaxPendingCalls * limits::kMaxClients) {
      out.push_back({client, call_error(msg["id"], "busy", "too many calls in flight; wait for some to finish")});
      return out;
    }
    json m = msg;
    // Upload paths are resolved here, on the computer whose files they name, so the extension
    // compares the real file (symlinks followed) with the folders the user allowed.
    if (str_field(msg, "tool") == "upload") {
      const std::string why = resolve_upload_files(m);
      if (!why.empty()) {
        out.push_back({client, call_error(msg["id"], "upload_refused", why)});
        return out;
      }
    }
    const std::string hid = "h" + std::to_string(next_call_++);
    pending_[hid] = {client, msg["id"]};
    m["id"] = hid;
    m["session"] = cl->second.session;
    out.push_back({0, m});
    return out;
  }
  if (type == "cancel") {
    for (auto it = pending_.begin(); it != pending_.end(); ++it)
      if (it->second.client == client && field(msg, "id") && it->second.id == *field(msg, "id")) {
        out.push_back({0, {{"type", "cancel"}, {"id", it->first}}});
        pending_.erase(it);
        break;
      }
    return out;
  }
  out.push_back({client, error_msg("unknown_type", "athena-bridge does not know the message type '" + type + "'")});
  return out;
}

std::size_t HostRouter::calls_of(int client) const {
  std::size_t n = 0;
  for (const auto& [hid, p] : pending_) n += p.client == client ? 1 : 0;
  return n;
}

std::vector<Outgoing> HostRouter::client_suspended(int client) {
  auto cl = clients_.find(client);
  if (cl == clients_.end()) return {};
  std::vector<Outgoing> out;
  for (auto it = pending_.begin(); it != pending_.end();) {
    if (it->second.client == client) {
      if (ext_ready_) out.push_back({0, {{"type", "cancel"}, {"id", it->first}}});
      it = pending_.erase(it);
    } else {
      ++it;
    }
  }
  clients_.erase(cl);
  return out;  // no session_close: the session waits for its MCP server
}

std::vector<Outgoing> HostRouter::client_gone(int client) {
  auto cl = clients_.find(client);
  if (cl == clients_.end()) return {};
  const std::string session = cl->second.session;
  std::vector<Outgoing> out = client_suspended(client);  // its calls cancelled, the client forgotten
  if (ext_ready_) out.push_back({0, {{"type", "session_close"}, {"session", session}}});
  return out;
}

// ------------------------------------------------------------------ the loop

namespace {

using Clock = std::chrono::steady_clock;

/// One MCP server on the socket. Its socket is non-blocking and what we send it waits in `out`:
/// a client that stops reading fills its own queue and is disconnected, and nobody else ever
/// waits for it.
struct Conn {
  explicit Conn(int f) : fd(f), connected(Clock::now()), last_active(connected) {}
  int fd;
  FrameReader reader{limits::kMaxFrameBytes};
  std::string out;                  // bytes not yet written, at most limits::kMaxClientQueueBytes
  Clock::time_point connected;
  Clock::time_point last_active;    // its last message (the longest idle gives its slot up first)
  Clock::time_point frame_started{};  // when the partial frame in `reader` began (valid while pending)
  bool said_hello = false;
  std::string drop;                 // why it is to be disconnected ("" = keep)
  bool keep_session = false;        // let go to make room: its session stays open for its return
};

void log(const std::string& s) { std::fprintf(stderr, "athena-bridge native-host: %s\n", s.c_str()); }

long long ms_between(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(b - a).count();
}

/// Writes what the socket takes now; false when the peer is gone.
bool flush(Conn& c) {
  while (!c.out.empty()) {
    const ssize_t n = ::send(c.fd, c.out.data(), c.out.size(), MSG_NOSIGNAL);
    if (n < 0) {
      if (errno == EINTR) continue;
      return errno == EAGAIN || errno == EWOULDBLOCK;
    }
    c.out.erase(0, static_cast<std::size_t>(n));
  }
  return true;
}

void queue(Conn& c, const std::string& frame) {
  if (!c.drop.empty()) return;
  if (c.out.size() + frame.size() > limits::kMaxClientQueueBytes) {
    c.drop = "it stopped reading: " + std::to_string(c.out.size()) + " bytes were waiting for it (limit " +
             std::to_string(limits::kMaxClientQueueBytes) + ")";
    return;
  }
  c.out += frame;
  if (!flush(c)) c.drop = "the connection broke";
}

// The status of the host that holds the socket (asked with a "status" message, which opens no
// session), or null when none answers within limits::kPeerStatusWaitMs.
json peer_status() {
  std::string error;
  const int fd = connect_endpoint(error);
  if (fd < 0) return nullptr;
  json status;
  if (write_all(fd, encode_frame(json{{"type", "status"}}.dump()))) {
    FrameReader r(limits::kMaxFrameBytes);
    const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(limits::kPeerStatusWaitMs);
    std::vector<char> b(1 << 16);
    while (status.is_null()) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(until - std::chrono::steady_clock::now()).count();
      pollfd p{fd, POLLIN, 0};
      if (left <= 0 || ::poll(&p, 1, static_cast<int>(left)) <= 0) break;
      const ssize_t n = ::read(fd, b.data(), b.size());
      if (n <= 0 || !r.feed(b.data(), static_cast<std::size_t>(n))) break;
      while (auto frame = r.next()) {
        std::string why;
        json m = parse_untrusted(*frame, why);
        if (str_field(m, "type") == "status") status = std::move(m);
      }
    }
  }
  ::close(fd);
  return status;
}

// What the extension of a browser this host cannot serve is told: which browser the agents are
// connected to, and how to move them here. Never a bare refusal.
std::string not_serving_message(const std::string& error) {
  const json peer = peer_status();
  if (peer.is_null()) return "athena-bridge is not serving this browser: " + error;
  const std::string browser = str_field(peer, "browser");
  const bool ready = bool_field(peer, "extension");
  return std::string("your agents are connected to Athena Delta in ") +
         (!ready ? "another browser or profile (its extension is starting)"
                 : browser.empty() ? "another browser or profile" : browser + " (another browser, or another profile of this one)") +
         ", and one browser is served at a time. To use this one instead: close that browser, or turn Athena Delta off "
         "there (chrome://extensions), then reload Athena Delta here (chrome://extensions, its reload button).";
}

}  // namespace

int run_native_host(const std::string& caller_origin) {
  std::string error;
  int lfd = listen_endpoint(error);
  if (lfd < 0) {
    // Not serving (e.g. a second browser or profile while the first one's host holds the socket).
    // The extension is told why and which browser is served, on every message it sends, and never
    // gets a hello: its popup must not say "connected" when no agent can reach it. Staying as its
    // port (until Chrome closes it) keeps the extension from reconnecting in a tight loop.
    log(error);
    const std::string m = json{{"type", "error"}, {"code", "endpoint"}, {"message", not_serving_message(error)}}.dump();
    write_all(STDOUT_FILENO, encode_frame(m));
    FrameReader chrome(limits::kMaxFrameBytes);
    std::vector<char> b(1 << 16);
    for (;;) {
      const ssize_t n = ::read(STDIN_FILENO, b.data(), b.size());
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0 || !chrome.feed(b.data(), static_cast<std::size_t>(n))) return 1;
      while (chrome.next()) write_all(STDOUT_FILENO, encode_frame(m));
    }
  }
  ::fcntl(lfd, F_SETFL, ::fcntl(lfd, F_GETFL) | O_NONBLOCK);  // accept until the queue is empty
  log("serving " + caller_origin + " on " + socket_path());
  // The socket file this host made. When Chrome restarts the extension's worker, the host of the
  // old port may still be on its way out as this one starts: it removes the file only when it is
  // still its own, and a host whose file was removed anyway makes it again (checked every
  // limits::kPollMs), so MCP servers can always reach the host Chrome is talking to.
  FileId mine = file_id(socket_path());
  auto last_check = std::chrono::steady_clock::now();
  auto relisten_if_gone = [&]() {
    const auto now = std::chrono::steady_clock::now();
    if (now - last_check < std::chrono::milliseconds(limits::kPollMs)) return;
    last_check = now;
    if (file_id(socket_path()) != FileId{}) return;  // ours, or another host's: leave it
    std::string err;
    const int fd = listen_endpoint(err);
    if (fd < 0) {
      log("the socket file was removed and cannot be made again: " + err);
      return;
    }
    ::close(lfd);
    lfd = fd;
    ::fcntl(lfd, F_SETFL, ::fcntl(lfd, F_GETFL) | O_NONBLOCK);
    mine = file_id(socket_path());
    log("the socket file was removed (by a host that was exiting?): listening on " + socket_path() + " again");
  };
  HostRouter router;
  FrameReader chrome(limits::kMaxFrameBytes);
  ChunkAssembler chunks;
  std::map<int, Conn> clients;  // client number -> connection
  int next_client = 1;
  long chunk_ids = 1;

  auto send = [&](const std::vector<Outgoing>& outs) {
    for (const Outgoing& o : outs) {
      const std::string text = o.message.dump(-1, ' ', false, json::error_handler_t::replace);
      if (o.client == 0) {
        // Chrome reads its port promptly; a blocking write here is what native messaging expects.
        for (const std::string& piece : split_for_chrome(text, "c" + std::to_string(chunk_ids++), limits::kMaxToChromeBytes))
          if (!write_all(STDOUT_FILENO, encode_frame(piece))) return false;
      } else {
        auto it = clients.find(o.client);
        if (it != clients.end()) queue(it->second, encode_frame(text));
      }
    }
    return true;
  };

  // Disconnects the clients marked `drop`, telling each why (best effort) and the router.
  auto reap = [&]() {
    for (auto it = clients.begin(); it != clients.end();) {
      if (it->second.drop.empty()) {
        ++it;
        continue;
      }
      const int n = it->first;
      log("client " + std::to_string(n) + " disconnected: " + it->second.drop);
      Conn& c = it->second;
      c.out = encode_frame(json{{"type", "error"}, {"code", "disconnected"}, {"message", "athena-bridge disconnected this client: " + c.drop}}.dump());
      flush(c);
      ::close(c.fd);
      const bool keep = c.keep_session;
      it = clients.erase(it);
      send(keep ? router.client_suspended(n) : router.client_gone(n));
    }
  };

  std::vector<char> buf(1 << 16);
  for (;;) {
    relisten_if_gone();
    std::vector<pollfd> fds;
    std::vector<int> who;  // -2 stdin, -1 listener, n client
    fds.push_back({STDIN_FILENO, POLLIN, 0});
    who.push_back(-2);
    fds.push_back({lfd, POLLIN, 0});
    who.push_back(-1);
    for (const auto& [n, c] : clients) {
      fds.push_back({c.fd, static_cast<short>(POLLIN | (c.out.empty() ? 0 : POLLOUT)), 0});
      who.push_back(n);
    }
    if (::poll(fds.data(), fds.size(), limits::kPollMs) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    for (std::size_t k = 0; k < fds.size(); ++k) {
      if (!(fds[k].revents & (POLLIN | POLLOUT | POLLHUP | POLLERR))) continue;
      if (who[k] == -2) {
        const ssize_t n = ::read(STDIN_FILENO, buf.data(), buf.size());
        if (n <= 0) {
          if (chrome.pending()) log("Chrome closed the port in the middle of a message (" + std::to_string(chrome.pending()) + " bytes)");
          log("Chrome closed the port: exiting");
          ::close(lfd);
          if (file_id(socket_path()) == mine) ::unlink(socket_path().c_str());  // not a newer host's
          return 0;
        }
        if (!chrome.feed(buf.data(), static_cast<std::size_t>(n))) {
          log("from Chrome: " + chrome.error() + ": exiting");
          return 1;
        }
        while (auto payload = chrome.next()) {
          std::string why = "not a JSON object";
          json m = parse_untrusted(*payload, why);
          if (!m.is_object()) {
            send({{0, {{"type", "error"}, {"code", "bad_json"}, {"message", "a message from the extension was refused: " + why}}}});
            continue;
          }
          if (str_field(m, "type") == "chunk") {
            try {
              auto whole = chunks.add(m);
              if (!whole) continue;
              m = parse_untrusted(*whole, why);
              if (!m.is_object()) {
                send({{0, {{"type", "error"}, {"code", "bad_json"}, {"message", "a chunked message was refused: " + why}}}});
                continue;
              }
            } catch (const std::exception& e) {
              send({{0, {{"type", "error"}, {"code", "bad_chunk"}, {"message", e.what()}}}});
              continue;
            }
          }
          send(router.from_extension(m));
        }
      } else if (who[k] == -1) {
        // Every connection waiting in the listen queue, so that a burst never overflows it.
        for (;;) {
          std::string err;
          const int fd = accept_peer(lfd, err);
          if (fd < 0) {
            if (err.empty()) break;  // the queue is empty (EAGAIN) or accept failed
            log(err);                // another user's connection, refused: look at the next one
            continue;
          }
          ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
          if (clients.size() >= limits::kMaxClients) {
            // Every slot taken: the agent idle the longest (it said hello, has no call in flight)
            // gives its slot up; an MCP server reconnects on its next call. Only when none is
            // idle is the newcomer refused.
            int idlest = 0;
            for (const auto& [m, c] : clients)
              if (c.said_hello && c.drop.empty() && router.calls_of(m) == 0 && (idlest == 0 || c.last_active < clients.at(idlest).last_active))
                idlest = m;
            if (idlest != 0) {
              clients.at(idlest).drop = "idle the longest while a new agent needed its slot (at most " + std::to_string(limits::kMaxClients) +
                                        " agents); it reconnects on its next call";
              clients.at(idlest).keep_session = true;
              reap();
            }
          }
          if (clients.size() >= limits::kMaxClients) {
            const std::string busy = encode_frame(json{{"type", "error"}, {"code", "busy"},
                                                       {"message", "athena-bridge already serves " + std::to_string(limits::kMaxClients) +
                                                                       " agents, its limit: close another agent and retry"}}
                                                      .dump());
            (void)::send(fd, busy.data(), busy.size(), MSG_NOSIGNAL);
            ::close(fd);
            continue;
          }
          const int n = next_client++;
          clients.emplace(n, Conn(fd));
          send(router.client_connected(n));
        }
      } else {
        const int n = who[k];
        auto it = clients.find(n);
        if (it == clients.end() || !it->second.drop.empty()) continue;
        Conn& c = it->second;
        if ((fds[k].revents & POLLOUT) && !flush(c)) c.drop = "the connection broke";
        if (!(fds[k].revents & (POLLIN | POLLHUP | POLLERR))) continue;
        const ssize_t r = ::read(c.fd, buf.data(), buf.size());
        if (r < 0 && (errno == EAGAIN || errno == EINTR)) continue;
        if (r <= 0) {
          c.drop = "it closed the connection";
          continue;
        }
        const bool was_pending = c.reader.pending() > 0;
        if (!c.reader.feed(buf.data(), static_cast<std::size_t>(r))) {
          c.drop = c.reader.error();
          continue;
        }
        while (auto payload = c.reader.next()) {
          std::string why = "not a JSON object";
          const json m = parse_untrusted(*payload, why);
          if (!m.is_object()) {
            send({{n, error_msg("bad_json", "message refused: " + why)}});
            continue;
          }
          if (str_field(m, "type") == "hello") c.said_hello = true;
          c.last_active = Clock::now();
          send(router.from_client(n, m));
        }
        if (c.reader.pending() > 0 && !was_pending) c.frame_started = Clock::now();
      }
    }
    // Connections that hold a slot without speaking: no hello in time, or a frame that never
    // completes (a client announcing 64 MiB and sending less would hold the memory forever).
    const auto now = Clock::now();
    for (auto& [n, c] : clients) {
      if (!c.drop.empty()) continue;
      if (!c.said_hello && ms_between(c.connected, now) > limits::kHelloTimeoutMs)
        c.drop = "no hello within " + std::to_string(limits::kHelloTimeoutMs) + " ms";
      else if (c.reader.pending() > 0 && ms_between(c.frame_started, now) > limits::kPartialFrameTimeoutMs)
        c.drop = "a message of which only " + std::to_string(c.reader.pending()) + " bytes arrived in " +
                 std::to_string(limits::kPartialFrameTimeoutMs) + " ms";
    }
    reap();
  }
  return 1;
}

}  // namespace athena::bridge
