// One file past 400 lines: Linux and macOS share all but the three calls marked below, and the event loop, sockets and
// processes share its private state; platform.h is its only face.
//
// The platform layer on Linux and macOS (platform.h says what each call promises).
//
// macOS differs from Linux in three places, each marked __APPLE__: the executable's path
// (_NSGetExecutablePath, no /proc), the peer's uid (getpeereid, no SO_PEERCRED) and sockets
// (no accept4/SOCK_CLOEXEC/MSG_NOSIGNAL: FD_CLOEXEC and SO_NOSIGPIPE are set after the fact).
#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>

#include "platform.h"

#if defined(__APPLE__)
#include <mach-o/dyld.h>
#endif

#include "limits.h"

namespace athena::bridge::platform {

Os os() {
#if defined(__APPLE__)
  return Os::kMacos;
#elif defined(__linux__)
  return Os::kLinux;
#else
  return Os::kOtherPosix;
#endif
}

// ------------------------------------------------------------------ the process

void init_process() {
  std::signal(SIGPIPE, SIG_IGN);
}

std::string self_path() {
#if defined(__APPLE__)
  uint32_t size = 0;
  _NSGetExecutablePath(nullptr, &size);  // asks for the size
  std::string buf(size, '\0');
  if (size == 0 || _NSGetExecutablePath(buf.data(), &size) != 0) return "athena-bridge";
  buf.resize(std::strlen(buf.c_str()));
  // The path may go through symlinks or `..` (how it was started): the manifest gets the real file.
  const std::string real = real_path(buf);
  return real.empty() ? buf : real;
#else
  char buf[4096];  // (PATH_MAX: <limits.h> is shadowed by the bridge's own limits.h)
  const ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) return "athena-bridge";
  buf[n] = 0;
  return buf;
#endif
}

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

std::string home_dir() {
  return env("HOME");
}

bool random_bytes(unsigned char* out, std::size_t n) {
  std::FILE* f = std::fopen("/dev/urandom", "rb");
  const bool ok = f && std::fread(out, 1, n, f) == n;
  if (f) std::fclose(f);
  return ok;
}

unsigned long process_id() {
  return static_cast<unsigned long>(::getpid());
}

// ------------------------------------------------------------------ files

bool is_absolute(const std::string& path) {
  return !path.empty() && path[0] == '/';
}

char path_separator() {
  return '/';
}

bool is_dir(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

bool is_executable(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(path.c_str(), X_OK) == 0;
}

std::string real_path(const std::string& path) {
  char* real = ::realpath(path.c_str(), nullptr);
  if (!real) return "";
  std::string out = real;
  std::free(real);
  return out;
}

std::string read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return "";
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

bool make_dirs(const std::string& dir, std::string& error) {
  std::string cur;
  std::stringstream ss(dir);
  std::string part;
  if (!dir.empty() && dir[0] == '/') cur = "/";
  while (std::getline(ss, part, '/')) {
    if (part.empty()) continue;
    cur += part + "/";
    if (::mkdir(cur.c_str(), 0755) != 0 && errno != EEXIST) {
      error = "cannot create " + cur + ": " + std::strerror(errno);
      return false;
    }
  }
  return true;
}

bool write_file(const std::string& path, const std::string& bytes, std::string& error) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f << bytes;
  f.flush();
  if (!f) {
    error = "cannot write " + path + ": " + std::strerror(errno);
    return false;
  }
  return true;
}

bool remove_file(const std::string& path) {
  return ::unlink(path.c_str()) == 0;
}

bool remove_empty_dir(const std::string& path) {
  return ::rmdir(path.c_str()) == 0;
}

bool command_exists(const std::string& name) {
  if (name.empty()) return false;
  if (name[0] == '/') return is_executable(name);
  const std::string path = env("PATH").empty() ? "/usr/local/bin:/usr/bin:/bin" : env("PATH");
  std::size_t start = 0;
  while (start <= path.size()) {
    std::size_t end = path.find(':', start);
    if (end == std::string::npos) end = path.size();
    if (end > start && is_executable(path.substr(start, end - start) + "/" + name)) return true;
    start = end + 1;
  }
  return false;
}

// ------------------------------------------------------------------ standard streams

namespace {

/// Writes every byte to a blocking or non-blocking fd; false on a closed peer.
bool write_all(int fd, const char* data, std::size_t size) {
  std::size_t done = 0;
  while (done < size) {
    const ssize_t n = ::write(fd, data + done, size - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      if (errno == EAGAIN || errno == EWOULDBLOCK) {
        pollfd p{fd, POLLOUT, 0};
        ::poll(&p, 1, limits::kPollMs);
        continue;
      }
      return false;
    }
    done += static_cast<std::size_t>(n);
  }
  return true;
}

}  // namespace

bool write_stdout(const std::string& bytes) {
  return write_all(STDOUT_FILENO, bytes.data(), bytes.size());
}

// ------------------------------------------------------------------ the endpoint

// Named, not anonymous: EventLoop::Impl holds one, and a unity build (the asan preset) compiles
// this file as if it were a header.
namespace posix_detail {

/// Which file a path is now (device and inode); {0, 0} when there is none. A host compares it
/// with its own socket's: another host may have replaced the file, or it may be gone.
struct FileId {
  unsigned long long dev = 0, ino = 0;
  bool operator==(const FileId& o) const { return dev == o.dev && ino == o.ino; }
  bool operator!=(const FileId& o) const { return !(*this == o); }
};

FileId file_id(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return {};
  return {static_cast<unsigned long long>(st.st_dev), static_cast<unsigned long long>(st.st_ino)};
}

}  // namespace posix_detail

using posix_detail::file_id;
using posix_detail::FileId;

namespace {

/// A folder that only this user can enter: ours, and no group/other permission bits.
bool is_private_dir(const std::string& dir) {
  struct stat st {};
  return ::lstat(dir.c_str(), &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == ::getuid() && (st.st_mode & 077) == 0;
}

std::string runtime_dir() {
  const std::string mine = "athena-delta-" + std::to_string(::getuid());
  // A folder the user named is used as it is only when it is already private; anything else (a
  // shared /tmp-like folder, one of another user) gets a private subfolder of ours instead. It is
  // never chmodded: that would change a folder others may rely on.
  if (const char* d = std::getenv("ATHENA_RUNTIME_DIR"); d && *d)
    return is_private_dir(d) ? std::string(d) : std::string(d) + "/" + mine;
  if (const char* x = std::getenv("XDG_RUNTIME_DIR"); x && *x) return std::string(x) + "/athena-delta";
  const char* t = std::getenv("TMPDIR");
  std::string base = (t && *t) ? t : "/tmp";
  while (base.size() > 1 && base.back() == '/') base.pop_back();
  return base + "/" + mine;
}

std::string socket_path() {
  return runtime_dir() + "/bridge.sock";
}

void set_cloexec_nosigpipe(int fd) {
  ::fcntl(fd, F_SETFD, ::fcntl(fd, F_GETFD) | FD_CLOEXEC);
#if defined(SO_NOSIGPIPE)
  const int one = 1;
  ::setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, sizeof one);
#endif
}

void set_nonblocking(int fd, bool on) {
  const int flags = ::fcntl(fd, F_GETFL);
  ::fcntl(fd, F_SETFL, on ? (flags | O_NONBLOCK) : (flags & ~O_NONBLOCK));
}

bool fill_addr(sockaddr_un& a, const std::string& path, std::string& error) {
  std::memset(&a, 0, sizeof a);
  a.sun_family = AF_UNIX;
  if (path.size() >= sizeof a.sun_path) {
    error = "socket path " + path + " is too long for a Unix socket; set ATHENA_RUNTIME_DIR to a shorter folder";
    return false;
  }
  std::memcpy(a.sun_path, path.c_str(), path.size() + 1);
  return true;
}

/// The address `path` in `a` and a new Unix socket for it; -1 with `error` set if not.
int open_socket(sockaddr_un& a, const std::string& path, std::string& error) {
  if (!fill_addr(a, path, error)) return -1;
  const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
  if (fd < 0) {
    error = std::string("socket(): ") + std::strerror(errno);
    return -1;
  }
  set_cloexec_nosigpipe(fd);
  return fd;
}

bool peer_is_us(int fd) {
#if defined(__linux__)
  ucred cred{};
  socklen_t len = sizeof cred;
  if (::getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0) return false;
  return cred.uid == ::getuid();
#else
  uid_t uid = 0;
  gid_t gid = 0;
  if (::getpeereid(fd, &uid, &gid) != 0) return false;
  return uid == ::getuid();
#endif
}

int connect_socket(std::string& error);

int listen_socket(std::string& error) {
  const std::string dir = runtime_dir();
  if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST) {
    error = "cannot create " + dir + ": " + std::strerror(errno);
    return -1;
  }
  if (!is_private_dir(dir)) {
    error = dir + " is not a private folder of this user (owned by us, mode 0700): remove it or set ATHENA_RUNTIME_DIR";
    return -1;
  }
  const std::string path = socket_path();
  sockaddr_un a{};
  const int fd = open_socket(a, path, error);
  if (fd < 0) return -1;
  const mode_t old = ::umask(0177);
  int rc = ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
  if (rc != 0 && errno == EADDRINUSE) {
    std::string ignored;
    const int probe = connect_socket(ignored);
    if (probe >= 0) {
      ::close(probe);
      ::umask(old);
      ::close(fd);
      error = "another athena-bridge native host is already listening on " + path +
              " (a second Chrome profile with the extension?); only one can serve at a time";
      return -1;
    }
    ::unlink(path.c_str());  // stale: its host is gone
    rc = ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
  }
  ::umask(old);
  if (rc != 0 || ::chmod(path.c_str(), 0600) != 0 || ::listen(fd, static_cast<int>(limits::kMaxClients * 2)) != 0) {
    error = "cannot listen on " + path + ": " + std::strerror(errno);
    ::close(fd);
    return -1;
  }
  set_nonblocking(fd, true);  // accept until the queue is empty
  return fd;
}

int connect_socket(std::string& error) {
  const std::string path = socket_path();
  sockaddr_un a{};
  const int fd = open_socket(a, path, error);
  if (fd < 0) return -1;
  // Non-blocking, so that a host that is stuck (its listen queue full, nobody accepting) costs at
  // most limits::kConnectTimeoutMs instead of blocking doctor or an MCP call forever. A Unix
  // socket answers EAGAIN at once when the queue is full: retry until the deadline.
  set_nonblocking(fd, true);
  const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(limits::kConnectTimeoutMs);
  const std::string stuck = "the native host on " + path + " did not accept the connection within " +
                            std::to_string(limits::kConnectTimeoutMs) +
                            " ms (is it stuck? restart Chrome or reload the extension)";
  for (;;) {
    if (::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0) break;
    const int e = errno;
    if (e == EINTR) continue;
    if (e == EINPROGRESS) {
      pollfd p{fd, POLLOUT, 0};
      const auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(until - std::chrono::steady_clock::now()).count();
      int so = 0;
      socklen_t len = sizeof so;
      if (left > 0 && ::poll(&p, 1, static_cast<int>(left)) == 1 &&
          ::getsockopt(fd, SOL_SOCKET, SO_ERROR, &so, &len) == 0 && so == 0)
        break;
      error = stuck;
      ::close(fd);
      return -1;
    }
    if (e == EAGAIN && std::chrono::steady_clock::now() < until) {
      ::usleep(20'000);
      continue;
    }
    error = e == EAGAIN ? stuck : "no native host is listening on " + path + " (" + std::strerror(e) + ")";
    ::close(fd);
    return -1;
  }
  if (!peer_is_us(fd)) {
    ::close(fd);
    error = "the process listening on " + path + " belongs to another user: refusing it";
    return -1;
  }
  return fd;  // stays non-blocking: the event loop never waits on one peer
}

/// Sends without blocking; -1 on a broken peer, else the bytes taken.
ssize_t send_some(int fd, const char* data, std::size_t n) {
#if defined(MSG_NOSIGNAL)
  const int flags = MSG_NOSIGNAL;
#else
  const int flags = 0;  // SO_NOSIGPIPE on the socket (macOS)
#endif
  for (;;) {
    const ssize_t r = ::send(fd, data, n, flags);
    if (r >= 0) return r;
    if (errno == EINTR) continue;
    return errno == EAGAIN || errno == EWOULDBLOCK ? 0 : -1;
  }
}

}  // namespace

std::string endpoint_name() {
  return socket_path();
}

// ------------------------------------------------------------------ the event loop

struct EventLoop::Impl {
  struct Conn {
    int fd = -1;
    std::string out;     // bytes not yet taken by the peer
    bool ended = false;  // kClosed was reported: not polled any more
  };
  bool stdin_watched = false;
  bool stdin_ended = false;
  int listen_fd = -1;
  FileId listen_id;  // the socket file this loop made
  std::chrono::steady_clock::time_point last_check{};
  std::map<int, Conn> conns;
  int next_id = 1;

  /// Writes what the peer takes now; false when it is gone.
  bool flush(Conn& c) {
    while (!c.out.empty()) {
      const ssize_t n = send_some(c.fd, c.out.data(), c.out.size());
      if (n < 0) return false;
      if (n == 0) return true;
      c.out.erase(0, static_cast<std::size_t>(n));
    }
    return true;
  }
};

EventLoop::EventLoop() : impl_(std::make_unique<Impl>()) {}

EventLoop::~EventLoop() {
  for (auto& [id, c] : impl_->conns) ::close(c.fd);
  if (impl_->listen_fd >= 0) ::close(impl_->listen_fd);
}

void EventLoop::watch_stdin() {
  impl_->stdin_watched = true;
}

bool EventLoop::listen(std::string& error) {
  const int fd = listen_socket(error);
  if (fd < 0) return false;
  if (impl_->listen_fd >= 0) ::close(impl_->listen_fd);
  impl_->listen_fd = fd;
  impl_->listen_id = file_id(socket_path());
  impl_->last_check = std::chrono::steady_clock::now();
  return true;
}

std::string EventLoop::keep_listening() {
  // When Chrome restarts the extension's worker, the host of the old port may still be on its way
  // out as this one starts: it removes the file only when it is still its own, and a host whose
  // file was removed anyway makes it again (checked every limits::kPollMs), so MCP servers can
  // always reach the host Chrome is talking to.
  Impl& d = *impl_;
  if (d.listen_fd < 0) return "";
  const auto now = std::chrono::steady_clock::now();
  if (now - d.last_check < std::chrono::milliseconds(limits::kPollMs)) return "";
  d.last_check = now;
  if (file_id(socket_path()) != FileId{}) return "";  // ours, or another host's: leave it
  std::string err;
  const int fd = listen_socket(err);
  if (fd < 0) return "the socket file was removed and cannot be made again: " + err;
  ::close(d.listen_fd);
  d.listen_fd = fd;
  d.listen_id = file_id(socket_path());
  return "the socket file was removed (by a host that was exiting?): listening on " + socket_path() + " again";
}

void EventLoop::stop_listening() {
  Impl& d = *impl_;
  if (d.listen_fd < 0) return;
  ::close(d.listen_fd);
  d.listen_fd = -1;
  if (file_id(socket_path()) == d.listen_id) ::unlink(socket_path().c_str());  // not a newer host's
}

int EventLoop::connect(std::string& error) {
  const int fd = connect_socket(error);
  if (fd < 0) return -1;
  const int id = impl_->next_id++;
  impl_->conns[id].fd = fd;
  return id;
}

bool EventLoop::send(int id, const std::string& bytes) {
  auto it = impl_->conns.find(id);
  if (it == impl_->conns.end() || it->second.ended) return false;
  it->second.out += bytes;
  return impl_->flush(it->second);
}

std::size_t EventLoop::queued(int id) const {
  auto it = impl_->conns.find(id);
  return it == impl_->conns.end() ? 0 : it->second.out.size();
}

void EventLoop::close(int id, const std::string& last_words) {
  auto it = impl_->conns.find(id);
  if (it == impl_->conns.end()) return;
  if (!last_words.empty()) (void)send_some(it->second.fd, last_words.data(), last_words.size());
  ::close(it->second.fd);
  impl_->conns.erase(it);
}

std::vector<EventLoop::Event> EventLoop::wait(int timeout_ms, int only) {
  Impl& d = *impl_;
  std::vector<Event> out;
  // With `only`, only that source is polled: the others' bytes stay in the kernel for later.
  std::vector<pollfd> fds;
  std::vector<int> who;  // kStdin, -1 the listener, n a connection
  if (d.stdin_watched && !d.stdin_ended && (only < 0 || only == kStdin)) {
    fds.push_back({STDIN_FILENO, POLLIN, 0});
    who.push_back(kStdin);
  }
  if (d.listen_fd >= 0 && only < 0) {
    fds.push_back({d.listen_fd, POLLIN, 0});
    who.push_back(-1);
  }
  for (const auto& [id, c] : d.conns) {
    if (c.ended || (only >= 0 && only != id)) continue;
    fds.push_back({c.fd, static_cast<short>(POLLIN | (c.out.empty() ? 0 : POLLOUT)), 0});
    who.push_back(id);
  }
  if (::poll(fds.data(), fds.size(), timeout_ms) < 0) return out;  // EINTR: the caller waits again
  std::vector<char> buf(1 << 16);
  for (std::size_t k = 0; k < fds.size(); ++k) {
    if (!(fds[k].revents & (POLLIN | POLLOUT | POLLHUP | POLLERR))) continue;
    if (who[k] == kStdin) {
      const ssize_t n = ::read(STDIN_FILENO, buf.data(), buf.size());
      if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
      if (n <= 0) {
        d.stdin_ended = true;
        out.push_back({Event::kClosed, kStdin, n == 0 ? "end of input" : std::strerror(errno)});
      } else {
        out.push_back({Event::kData, kStdin, std::string(buf.data(), static_cast<std::size_t>(n))});
      }
    } else if (who[k] == -1) {
      // Every connection waiting in the listen queue, so that a burst never overflows it.
      for (;;) {
        const int fd = ::accept(d.listen_fd, nullptr, nullptr);
        if (fd < 0) {
          if (errno == EINTR || errno == ECONNABORTED) continue;
          break;  // the queue is empty (EAGAIN) or accept failed
        }
        set_cloexec_nosigpipe(fd);
        if (!peer_is_us(fd)) {
          ::close(fd);
          out.push_back({Event::kRefused, -1, "refused a connection from another user"});
          continue;
        }
        set_nonblocking(fd, true);
        const int id = d.next_id++;
        d.conns[id].fd = fd;
        out.push_back({Event::kAccepted, id, ""});
      }
    } else {
      Impl::Conn& c = d.conns[who[k]];
      if ((fds[k].revents & POLLOUT) && !d.flush(c)) {
        c.ended = true;
        out.push_back({Event::kClosed, who[k], "the connection broke"});
        continue;
      }
      if (!(fds[k].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      const ssize_t r = ::read(c.fd, buf.data(), buf.size());
      if (r < 0 && (errno == EAGAIN || errno == EINTR)) continue;
      if (r <= 0) {
        c.ended = true;
        out.push_back({Event::kClosed, who[k], "it closed the connection"});
        continue;
      }
      out.push_back({Event::kData, who[k], std::string(buf.data(), static_cast<std::size_t>(r))});
    }
  }
  return out;
}

// ------------------------------------------------------------------ registration

bool registry_places() {
  return false;
}

bool registry_key_exists(const std::string&) {
  return false;
}

std::string manifest_store_dir() {
  return "";
}

Registration read_registration(const std::string& place, const std::string& name) {
  const std::string file = place + "/" + name + ".json";
  return {file, read_file(file)};
}

bool write_registration(const std::string& place, const std::string& name, const std::string& manifest,
                        std::string& where, std::string& error) {
  where = place + "/" + name + ".json";
  return make_dirs(place, error) && write_file(where, manifest, error);
}

bool remove_registration(const std::string& place, const std::string& name, std::string& where) {
  where = place + "/" + name + ".json";
  return remove_file(where);
}

void forget_unused_manifest(const std::string&, const std::vector<std::string>&) {}  // each folder held its own file

}  // namespace athena::bridge::platform
