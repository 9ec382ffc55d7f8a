#include "endpoint.h"

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/un.h>
#include <unistd.h>

#include "limits.h"

namespace athena::bridge {

namespace {

/// A folder that only this user can enter: ours, and no group/other permission bits.
bool is_private_dir(const std::string& dir) {
  struct stat st {};
  return ::lstat(dir.c_str(), &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == ::getuid() && (st.st_mode & 077) == 0;
}

}  // namespace

std::string runtime_dir() {
  const std::string mine = "athena-delta-" + std::to_string(::getuid());
  // A folder the user named is used as it is only when it is already private; anything else (a
  // shared /tmp-like folder, one of another user) gets a private subfolder of ours instead. It is
  // never chmodded: that would change a folder others may rely on.
  if (const char* d = std::getenv("ATHENA_RUNTIME_DIR"); d && *d) return is_private_dir(d) ? std::string(d) : std::string(d) + "/" + mine;
  if (const char* x = std::getenv("XDG_RUNTIME_DIR"); x && *x) return std::string(x) + "/athena-delta";
  const char* t = std::getenv("TMPDIR");
  std::string base = (t && *t) ? t : "/tmp";
  while (base.size() > 1 && base.back() == '/') base.pop_back();
  return base + "/" + mine;
}

std::string socket_path() { return runtime_dir() + "/bridge.sock"; }

namespace {

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
  const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) error = std::string("socket(): ") + std::strerror(errno);
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

}  // namespace

int listen_endpoint(std::string& error) {
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
    const int probe = connect_endpoint(ignored);
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
  return fd;
}

FileId file_id(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return {};
  return {static_cast<unsigned long long>(st.st_dev), static_cast<unsigned long long>(st.st_ino)};
}

int accept_peer(int listen_fd, std::string& error) {
  const int fd = ::accept4(listen_fd, nullptr, nullptr, SOCK_CLOEXEC);
  if (fd < 0) return -1;
  if (!peer_is_us(fd)) {
    ::close(fd);
    error = "refused a connection from another user";
    return -1;
  }
  return fd;
}

int connect_endpoint(std::string& error) {
  const std::string path = socket_path();
  sockaddr_un a{};
  const int fd = open_socket(a, path, error);
  if (fd < 0) return -1;
  // Non-blocking, so that a host that is stuck (its listen queue full, nobody accepting) costs at
  // most limits::kConnectTimeoutMs instead of blocking doctor or an MCP call forever. A Unix
  // socket answers EAGAIN at once when the queue is full: retry until the deadline.
  const int flags = ::fcntl(fd, F_GETFL);
  ::fcntl(fd, F_SETFL, flags | O_NONBLOCK);
  const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(limits::kConnectTimeoutMs);
  for (;;) {
    if (::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0) break;
    const int e = errno;
    if (e == EINTR) continue;
    if (e == EINPROGRESS) {
      pollfd p{fd, POLLOUT, 0};
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(until - std::chrono::steady_clock::now()).count();
      int so = 0;
      socklen_t len = sizeof so;
      if (left > 0 && ::poll(&p, 1, static_cast<int>(left)) == 1 && ::getsockopt(fd, SOL_SOCKET, SO_ERROR, &so, &len) == 0 && so == 0) break;
      error = "the native host on " + path + " did not accept the connection within " + std::to_string(limits::kConnectTimeoutMs) +
              " ms (is it stuck? restart Chrome or reload the extension)";
      ::close(fd);
      return -1;
    }
    if (e == EAGAIN && std::chrono::steady_clock::now() < until) {
      ::usleep(20'000);
      continue;
    }
    error = e == EAGAIN ? "the native host on " + path + " did not accept the connection within " + std::to_string(limits::kConnectTimeoutMs) +
                              " ms (is it stuck? restart Chrome or reload the extension)"
                        : "no native host is listening on " + path + " (" + std::strerror(e) + ")";
    ::close(fd);
    return -1;
  }
  ::fcntl(fd, F_SETFL, flags);
  if (!peer_is_us(fd)) {
    ::close(fd);
    error = "the process listening on " + path + " belongs to another user: refusing it";
    return -1;
  }
  return fd;
}

bool write_all(int fd, const std::string& bytes) {
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      if (errno == EAGAIN) {
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

}  // namespace athena::bridge
