#include "host.h"

#include <cerrno>
#include <cstdio>
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

std::string str(const json& m, const char* k) { return str_field(m, k); }

}  // namespace

json HostRouter::status() const {
  return {{"type", "status"}, {"protocol", limits::kProtocol}, {"bridge", kVersion}, {"extension", ext_ready_},
          {"extension_version", ext_version_}};
}

std::vector<Outgoing> HostRouter::from_extension(const json& msg) {
  std::vector<Outgoing> out;
  const std::string type = str(msg, "type");
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
    ext_version_ = str(msg, "extension");
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
    const std::string id = str(msg, "id");
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
      const std::string s = str(msg, "session");
      if (s.empty() || s == cl.session) out.push_back({c, msg});
    }
    return out;
  }
  if (type == "error") return out;  // the extension reports; nothing to route
  out.push_back({0, error_msg("unknown_type", "athena-bridge does not know the message type '" + type + "'")});
  return out;
}

std::vector<Outgoing> HostRouter::client_connected(int client) {
  Client c;
  c.session = "s" + std::to_string(next_session_++);
  clients_[client] = c;
  return {};  // session_open goes out with the client's hello (it names the client)
}

std::vector<Outgoing> HostRouter::from_client(int client, const json& msg) {
  std::vector<Outgoing> out;
  auto cl = clients_.find(client);
  if (cl == clients_.end()) return out;
  const std::string type = str(msg, "type");
  if (type == "hello") {
    cl->second.name = str(msg, "client");
    if (ext_ready_) out.push_back({0, {{"type", "session_open"}, {"session", cl->second.session}, {"client", cl->second.name}}});
    out.push_back({client, status()});
    return out;
  }
  if (type == "call") {
    const json* id = field(msg, "id");
    if (!id || !is_id(*id) || str(msg, "tool").empty()) {
      out.push_back({client, error_msg("bad_message", "call needs id (a string or an integer) and tool (a string)")});
      return out;
    }
    if (!ext_ready_) {
      out.push_back({client, call_error(msg["id"], "not_connected", "the extension has not said hello yet; retry in a moment")});
      return out;
    }
    if (pending_.size() >= limits::kMaxPendingCalls * limits::kMaxClients) {
      out.push_back({client, call_error(msg["id"], "busy", "too many calls in flight; wait for some to finish")});
      return out;
    }
    const std::string hid = "h" + std::to_string(next_call_++);
    pending_[hid] = {client, msg["id"]};
    json m = msg;
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

std::vector<Outgoing> HostRouter::client_gone(int client) {
  std::vector<Outgoing> out;
  auto cl = clients_.find(client);
  if (cl == clients_.end()) return out;
  for (auto it = pending_.begin(); it != pending_.end();) {
    if (it->second.client == client) {
      if (ext_ready_) out.push_back({0, {{"type", "cancel"}, {"id", it->first}}});
      it = pending_.erase(it);
    } else {
      ++it;
    }
  }
  if (ext_ready_) out.push_back({0, {{"type", "session_close"}, {"session", cl->second.session}}});
  clients_.erase(cl);
  return out;
}

// ------------------------------------------------------------------ the loop

namespace {

struct Conn {
  int fd;
  FrameReader reader{limits::kMaxFrameBytes};
};

void log(const std::string& s) { std::fprintf(stderr, "athena-bridge native-host: %s\n", s.c_str()); }

}  // namespace

int run_native_host(const std::string& caller_origin) {
  std::string error;
  const int lfd = listen_endpoint(error);
  if (lfd < 0) {
    log(error);
    // Tell the extension why (it shows it in its popup), then stay as its port until Chrome
    // closes it, so the extension does not reconnect in a tight loop.
    const std::string m = json{{"type", "error"}, {"code", "endpoint"}, {"message", error}}.dump();
    write_all(STDOUT_FILENO, encode_frame(m));
  }
  log("serving " + caller_origin + " on " + socket_path());
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
        for (const std::string& piece : split_for_chrome(text, "c" + std::to_string(chunk_ids++), limits::kMaxToChromeBytes))
          if (!write_all(STDOUT_FILENO, encode_frame(piece))) return false;
      } else {
        auto it = clients.find(o.client);
        if (it != clients.end()) write_all(it->second.fd, encode_frame(text));
      }
    }
    return true;
  };

  std::vector<char> buf(1 << 16);
  for (;;) {
    std::vector<pollfd> fds;
    std::vector<int> who;  // -2 stdin, -1 listener, n client
    fds.push_back({STDIN_FILENO, POLLIN, 0});
    who.push_back(-2);
    if (lfd >= 0) {
      fds.push_back({lfd, POLLIN, 0});
      who.push_back(-1);
    }
    for (const auto& [n, c] : clients) {
      fds.push_back({c.fd, POLLIN, 0});
      who.push_back(n);
    }
    if (::poll(fds.data(), fds.size(), limits::kPollMs) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    for (std::size_t k = 0; k < fds.size(); ++k) {
      if (!(fds[k].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      if (who[k] == -2) {
        const ssize_t n = ::read(STDIN_FILENO, buf.data(), buf.size());
        if (n <= 0) {
          if (chrome.pending()) log("Chrome closed the port in the middle of a message (" + std::to_string(chrome.pending()) + " bytes)");
          log("Chrome closed the port: exiting");
          if (lfd >= 0) {
            ::close(lfd);
            ::unlink(socket_path().c_str());
          }
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
        std::string err;
        const int fd = accept_peer(lfd, err);
        if (fd < 0) {
          if (!err.empty()) log(err);
          continue;
        }
        if (clients.size() >= limits::kMaxClients) {
          write_all(fd, encode_frame(json{{"type", "error"}, {"code", "busy"},
                                          {"message", "athena-bridge serves at most " + std::to_string(limits::kMaxClients) + " agents at once"}}
                                         .dump()));
          ::close(fd);
          continue;
        }
        const int n = next_client++;
        clients.emplace(n, Conn{fd});
        send(router.client_connected(n));
      } else {
        const int n = who[k];
        auto it = clients.find(n);
        if (it == clients.end()) continue;
        const ssize_t r = ::read(it->second.fd, buf.data(), buf.size());
        bool drop = r <= 0;
        if (!drop && !it->second.reader.feed(buf.data(), static_cast<std::size_t>(r))) {
          log("client " + std::to_string(n) + ": " + it->second.reader.error() + ": dropped");
          drop = true;
        }
        if (!drop) {
          while (auto payload = it->second.reader.next()) {
            std::string why = "not a JSON object";
            const json m = parse_untrusted(*payload, why);
            if (!m.is_object()) {
              send({{n, error_msg("bad_json", "message refused: " + why)}});
              continue;
            }
            send(router.from_client(n, m));
          }
        }
        if (drop) {
          ::close(it->second.fd);
          clients.erase(it);
          send(router.client_gone(n));
        }
      }
    }
  }
  return 1;
}

}  // namespace athena::bridge
