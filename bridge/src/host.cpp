// One file past 400 lines: HostRouter (which agent's call goes where, and back) and run_native_host, the event loop
// that is its only caller and feeds it.
#include "host.h"

#include <algorithm>
#include <chrono>
#include <cstdio>

#include "athena/version.h"
#include "framing.h"
#include "limits.h"
#include "platform/platform.h"
#include "tools.h"
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
  // Which argument lists files is the tool's declaration's to say (localFiles), never its name.
  const std::string arg = call.is_object() ? local_files_arg(str_field(call, "tool")) : std::string();
  json* args = call.is_object() && call.contains("args") ? &call["args"] : nullptr;
  if (arg.empty() || !args || !args->is_object() || !args->contains(arg) || !(*args)[arg].is_array()) return {};
  for (json& f : (*args)[arg]) {
    if (!f.is_string()) continue;  // the extension refuses the shape with its own message
    const std::string given = f.get<std::string>();
    if (!platform::is_absolute(given) || given.find('\0') != std::string::npos) continue;
    // A path that does not resolve (missing, unreadable) goes on as given: refusing it here would
    // tell the agent which files exist outside the folders the user allowed (or with uploads off).
    // The extension judges it like any other path (a `..` in it is refused there).
    const std::string real = platform::real_path(given);
    if (!real.empty()) f = real;
  }
  return {};
}

json HostRouter::status() const {
  return {{"type", "status"},        {"protocol", limits::kProtocol},     {"bridge", kVersion},
          {"extension", ext_ready_}, {"extension_version", ext_version_}, {"browser", ext_browser_}};
}

std::vector<Outgoing> HostRouter::from_extension(const json& msg) {
  std::vector<Outgoing> out;
  const std::string type = str_field(msg, "type");
  if (type == "hello") {
    const json* p = field(msg, "protocol");
    const long long proto = p && p->is_number_integer() ? p->get<long long>() : -1;
    if (proto != limits::kProtocol) {
      out.push_back(
          {0, error_msg("protocol_mismatch", "the extension speaks protocol " + std::to_string(proto) +
                                                 ", athena-bridge " + std::to_string(limits::kProtocol) + ": update " +
                                                 (proto > limits::kProtocol ? "athena-bridge" : "the extension"))});
      return out;
    }
    ext_ready_ = true;
    ext_version_ = str_field(msg, "extension");
    ext_browser_ = str_field(msg, "browser");  // e.g. "Google Chrome 131": named to a second browser's user
    out.push_back({0, {{"type", "hello"}, {"protocol", limits::kProtocol}, {"bridge", kVersion}}});
    // Sessions opened before the extension said hello.
    for (const auto& [c, cl] : clients_)
      out.push_back({0, {{"type", "session_open"}, {"session", cl.session}, {"client", cl.name}}});
    for (const auto& [c, cl] : clients_) out.push_back({c, status()});
    return out;
  }
  if (!ext_ready_) {
    out.push_back({0, error_msg("protocol", "the first message must be hello {protocol: " +
                                                std::to_string(limits::kProtocol) + "}")});
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
  if (!platform::random_bytes(b, sizeof b)) {  // no random source: still unique within and across runs, if guessable
    static unsigned long long n = 0;
    const auto t = static_cast<unsigned long long>(std::chrono::steady_clock::now().time_since_epoch().count());
    for (int i = 0; i < 8; ++i) b[i] = static_cast<unsigned char>(t >> (8 * i));
    for (int i = 0; i < 8; ++i) b[8 + i] = static_cast<unsigned char>((++n + platform::process_id()) >> (8 * i));
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
    if (ext_ready_)
      out.push_back({0, {{"type", "session_open"}, {"session", cl->second.session}, {"client", cl->second.name}}});
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
      out.push_back(
          {client, call_error(msg["id"], "not_connected", "the extension has not said hello yet; retry in a moment")});
      return out;
    }
    // A fair share first: one client's flood cannot fill what the others need.
    if (calls_of(client) >= limits::kMaxCallsPerClient) {
      out.push_back({client, call_error(msg["id"], "busy",
                                        "this agent already has " + std::to_string(limits::kMaxCallsPerClient) +
                                            " calls in flight, its share; wait for some to finish")});
      return out;
    }
    if (pending_.size() >= limits::kMaxPendingCalls * limits::kMaxClients) {
      out.push_back({client, call_error(msg["id"], "busy", "too many calls in flight; wait for some to finish")});
      return out;
    }
    json m = msg;
    // Paths of local files (an upload's) are resolved here, on the computer whose files they name,
    // so the extension compares the real file (symlinks followed) with the folders the user allowed.
    {
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

/// One MCP server on the endpoint. What we send it waits in the event loop's queue for it: a
/// client that stops reading fills its own queue and is disconnected, and nobody else ever waits
/// for it.
struct Conn {
  Conn() : connected(Clock::now()), last_active(connected) {}
  FrameReader reader{limits::kMaxFrameBytes};
  Clock::time_point connected;
  Clock::time_point last_active;      // its last message (the longest idle gives its slot up first)
  Clock::time_point frame_started{};  // when the partial frame in `reader` began (valid while pending)
  bool said_hello = false;
  std::string drop;           // why it is to be disconnected ("" = keep)
  bool keep_session = false;  // let go to make room: its session stays open for its return
  // Waiting for a slot (every one of limits::kMaxClients taken): what it sends is held, in order,
  // and handed to the router when it is admitted; the router does not know it until then.
  bool waiting = false;
  std::vector<json> held;
  std::size_t held_bytes = 0;
};

void log(const std::string& s) {
  std::fprintf(stderr, "athena-bridge native-host: %s\n", s.c_str());
}

long long ms_between(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(b - a).count();
}

// The status of the host that holds the endpoint (asked with a "status" message, which opens no
// session), or null when none answers within limits::kPeerStatusWaitMs.
json peer_status() {
  platform::EventLoop loop;
  std::string error;
  const int conn = loop.connect(error);
  if (conn < 0) return nullptr;
  json status;
  if (loop.send(conn, encode_frame(json{{"type", "status"}}.dump()))) {
    FrameReader r(limits::kMaxFrameBytes);
    const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(limits::kPeerStatusWaitMs);
    bool open = true;
    while (open && status.is_null()) {
      const auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(until - std::chrono::steady_clock::now()).count();
      if (left <= 0) break;
      for (const auto& e : loop.wait(static_cast<int>(left), conn)) {
        if (e.kind != platform::EventLoop::Event::kData || !r.feed(e.data.data(), e.data.size())) {
          open = false;
          break;
        }
        while (auto frame = r.next()) {
          std::string why;
          json m = parse_untrusted(*frame, why);
          if (str_field(m, "type") == "status") status = std::move(m);
        }
      }
    }
  }
  loop.close(conn);
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
         (!ready            ? "another browser or profile (its extension is starting)"
          : browser.empty() ? "another browser or profile"
                            : browser + " (another browser, or another profile of this one)") +
         ", and one browser is served at a time. To use this one instead: close that browser, or turn Athena Delta off "
         "there (chrome://extensions), then reload Athena Delta here (chrome://extensions, its reload button).";
}

/// Not serving (e.g. a second browser or profile while the first one's host holds the endpoint).
/// The extension is told why and which browser is served, on every message it sends, and never
/// gets a hello: its popup must not say "connected" when no agent can reach it. Staying as its
/// port (until Chrome closes it) keeps the extension from reconnecting in a tight loop.
int refuse_extension(platform::EventLoop& loop, const std::string& error) {
  log(error);
  const std::string m =
      encode_frame(json{{"type", "error"}, {"code", "endpoint"}, {"message", not_serving_message(error)}}.dump());
  platform::write_stdout(m);
  FrameReader chrome(limits::kMaxFrameBytes);
  for (;;) {
    for (const auto& e : loop.wait(limits::kPollMs)) {
      if (e.kind != platform::EventLoop::Event::kData || !chrome.feed(e.data.data(), e.data.size())) return 1;
      while (chrome.next()) platform::write_stdout(m);
    }
  }
}

}  // namespace

int run_native_host(const std::string& caller_origin) {
  using Event = platform::EventLoop::Event;
  platform::EventLoop loop;
  loop.watch_stdin();
  std::string error;
  if (!loop.listen(error)) return refuse_extension(loop, error);
  log("serving " + caller_origin + " on " + platform::endpoint_name());
  HostRouter router;
  FrameReader chrome(limits::kMaxFrameBytes);
  ChunkAssembler chunks;
  std::map<int, Conn> clients;  // the loop's connection id (>= 1, never reused) is the client number
  long chunk_ids = 1;

  auto queue = [&](int n, Conn& c, const std::string& frame) {
    if (!c.drop.empty()) return;
    const std::size_t waiting = loop.queued(n);
    if (waiting + frame.size() > limits::kMaxClientQueueBytes) {
      c.drop = "it stopped reading: " + std::to_string(waiting) + " bytes were waiting for it (limit " +
               std::to_string(limits::kMaxClientQueueBytes) + ")";
      return;
    }
    if (!loop.send(n, frame)) c.drop = "the connection broke";
  };

  auto send = [&](const std::vector<Outgoing>& outs) {
    for (const Outgoing& o : outs) {
      const std::string text = o.message.dump(-1, ' ', false, json::error_handler_t::replace);
      if (o.client == 0) {
        // Chrome reads its port promptly; a blocking write here is what native messaging expects.
        for (const std::string& piece :
             split_for_chrome(text, "c" + std::to_string(chunk_ids++), limits::kMaxToChromeBytes))
          if (!platform::write_stdout(encode_frame(piece))) return false;
      } else {
        auto it = clients.find(o.client);
        if (it != clients.end()) queue(it->first, it->second, encode_frame(text));
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
      loop.close(n, encode_frame(json{{"type", "error"},
                                      {"code", "disconnected"},
                                      {"message", "athena-bridge disconnected this client: " + it->second.drop}}
                                     .dump()));
      const bool keep = it->second.keep_session;
      it = clients.erase(it);
      send(keep ? router.client_suspended(n) : router.client_gone(n));
    }
  };

  auto served = [&]() {
    std::size_t n = 0;
    for (const auto& [m, c] : clients) n += c.waiting ? 0 : 1;
    return n;
  };

  // A newcomer is served at once while a slot is free, else it waits (make_room below) rather
  // than being turned away: agents that keep a call in flight must not lock new ones out.
  auto accepted = [&](int fd) {
    if (served() < limits::kMaxClients) {
      clients.emplace(fd, Conn());
      send(router.client_connected(fd));
      return;
    }
    if (clients.size() - served() >= limits::kMaxWaitingClients) {
      loop.close(fd,
                 encode_frame(json{
                     {"type", "error"},
                     {"code", "busy"},
                     {"message",
                      "athena-bridge serves " + std::to_string(limits::kMaxClients) + " agents and " +
                          std::to_string(limits::kMaxWaitingClients) +
                          " more wait for a slot, its limit: retry in a moment, or close an agent you no longer need"}}
                                  .dump()));
      return;
    }
    log("client " + std::to_string(fd) + " waits for a slot: all " + std::to_string(limits::kMaxClients) +
        " are taken");
    Conn c;
    c.waiting = true;
    clients.emplace(fd, std::move(c));
  };

  // A waiting client gets its slot: the router learns of it and gets what it sent meanwhile. A
  // call's deadline is what is left of it (the extension must answer before the MCP server's).
  auto admit = [&](int n, Conn& c) {
    c.waiting = false;
    c.last_active = Clock::now();
    send(router.client_connected(n));
    const long long waited = ms_between(c.connected, Clock::now());
    std::vector<json> held = std::move(c.held);
    c.held.clear();
    c.held_bytes = 0;
    for (json& m : held) {
      if (const json* d = field(m, "deadline_ms"); d && d->is_number_integer())
        m["deadline_ms"] = std::max<long long>(0, d->get<long long>() - waited);
      send(router.from_client(n, m));
    }
  };

  // Waiting clients that said hello are admitted in the order they came: into a free slot, else
  // into the slot of the agent idle the longest (it said hello, has no call in flight and nothing
  // left to read), which is let go with its session kept; its MCP server reconnects on its next
  // call. Among agents that each keep a call in flight, the first to finish makes room.
  auto make_room = [&]() {
    for (auto& [n, c] : clients) {
      if (!c.waiting || !c.said_hello || !c.drop.empty()) continue;
      if (served() >= limits::kMaxClients) {
        int idlest = 0;
        for (const auto& [m, o] : clients)
          if (!o.waiting && o.said_hello && o.drop.empty() && router.calls_of(m) == 0 && loop.queued(m) == 0 &&
              (idlest == 0 || o.last_active < clients.at(idlest).last_active))
            idlest = m;
        if (idlest == 0) return;  // every agent has a call in flight: the first to finish makes room
        Conn& out = clients.at(idlest);
        out.drop = "idle the longest while a new agent needed its slot (at most " +
                   std::to_string(limits::kMaxClients) + " agents); it reconnects on its next call";
        out.keep_session = true;
        out.waiting = true;  // no longer counted as served; reap() forgets it
      }
      admit(n, c);
    }
  };

  auto from_chrome = [&](const std::string& bytes) {
    if (!chrome.feed(bytes.data(), bytes.size())) {
      log("from Chrome: " + chrome.error() + ": exiting");
      return false;
    }
    while (auto payload = chrome.next()) {
      std::string why = "not a JSON object";
      json m = parse_untrusted(*payload, why);
      if (!m.is_object()) {
        send({{0,
               {{"type", "error"},
                {"code", "bad_json"},
                {"message", "a message from the extension was refused: " + why}}}});
        continue;
      }
      if (str_field(m, "type") == "chunk") {
        try {
          auto whole = chunks.add(m);
          if (!whole) continue;
          m = parse_untrusted(*whole, why);
          if (!m.is_object()) {
            send(
                {{0, {{"type", "error"}, {"code", "bad_json"}, {"message", "a chunked message was refused: " + why}}}});
            continue;
          }
        } catch (const std::exception& e) {
          send({{0, {{"type", "error"}, {"code", "bad_chunk"}, {"message", e.what()}}}});
          continue;
        }
      }
      send(router.from_extension(m));
    }
    return true;
  };

  auto from_client = [&](int n, const std::string& bytes) {
    auto it = clients.find(n);
    if (it == clients.end() || !it->second.drop.empty()) return;
    Conn& c = it->second;
    const bool was_pending = c.reader.pending() > 0;
    if (!c.reader.feed(bytes.data(), bytes.size())) {
      c.drop = c.reader.error();
      return;
    }
    while (auto payload = c.reader.next()) {
      std::string why = "not a JSON object";
      const json m = parse_untrusted(*payload, why);
      if (!m.is_object()) {
        send({{n, error_msg("bad_json", "message refused: " + why)}});
        continue;
      }
      const std::string type = str_field(m, "type");
      if (type == "hello") c.said_hello = true;
      c.last_active = Clock::now();
      if (!c.waiting) {
        send(router.from_client(n, m));
        continue;
      }
      if (type == "status") {  // a look without joining needs no slot
        send({{n, router.status()}});
        continue;
      }
      // Its MCP server learns at once that the extension is there: its calls come, and are held.
      if (type == "hello") send({{n, router.status()}});
      if (type == "cancel") {
        const json* id = field(m, "id");
        auto it = std::find_if(c.held.begin(), c.held.end(), [&](const json& h) {
          return id && str_field(h, "type") == "call" && h.contains("id") && h["id"] == *id;
        });
        if (it != c.held.end()) {
          c.held_bytes -= it->dump().size();
          c.held.erase(it);
          continue;
        }
      }
      if (c.held.size() >= limits::kMaxCallsPerClient ||
          c.held_bytes + payload->size() > limits::kMaxClientQueueBytes) {
        c.drop = "it sent more than " + std::to_string(limits::kMaxCallsPerClient) + " messages or " +
                 std::to_string(limits::kMaxClientQueueBytes) + " bytes while it waited for a slot";
        return;
      }
      c.held_bytes += m.dump().size();
      c.held.push_back(m);
    }
    if (c.reader.pending() > 0 && !was_pending) c.frame_started = Clock::now();
  };

  for (;;) {
    if (const std::string did = loop.keep_listening(); !did.empty()) log(did);
    for (const Event& e : loop.wait(limits::kPollMs)) {
      if (e.id == platform::EventLoop::kStdin) {
        if (e.kind == Event::kData) {
          if (!from_chrome(e.data)) return 1;
          continue;
        }
        if (chrome.pending())
          log("Chrome closed the port in the middle of a message (" + std::to_string(chrome.pending()) + " bytes)");
        log("Chrome closed the port: exiting");
        loop.stop_listening();
        return 0;
      }
      switch (e.kind) {
        case Event::kAccepted:
          accepted(e.id);
          break;
        case Event::kRefused:
          log(e.data);
          break;  // another user's connection
        case Event::kData:
          from_client(e.id, e.data);
          break;
        case Event::kClosed:
          if (auto it = clients.find(e.id); it != clients.end() && it->second.drop.empty()) it->second.drop = e.data;
          break;
      }
    }
    // Connections that hold a slot without speaking: no hello in time, or a frame that never
    // completes (a client announcing 64 MiB and sending less would hold the memory forever).
    const auto now = Clock::now();
    for (auto& [n, c] : clients) {
      if (!c.drop.empty()) continue;
      if (!c.said_hello && ms_between(c.connected, now) > limits::kHelloTimeoutMs)
        c.drop = "no hello within " + std::to_string(limits::kHelloTimeoutMs) + " ms";
      else if (c.waiting && ms_between(c.connected, now) > limits::kSlotWaitMs)
        c.drop = "it waited " + std::to_string(limits::kSlotWaitMs) + " ms for a slot while all " +
                 std::to_string(limits::kMaxClients) +
                 " agents kept a call in flight: retry (it waits again), or close an agent you no longer need";
      else if (c.reader.pending() > 0 && ms_between(c.frame_started, now) > limits::kPartialFrameTimeoutMs)
        c.drop = "a message of which only " + std::to_string(c.reader.pending()) + " bytes arrived in " +
                 std::to_string(limits::kPartialFrameTimeoutMs) + " ms";
    }
    reap();
    make_room();
    reap();
  }
}

}  // namespace athena::bridge
