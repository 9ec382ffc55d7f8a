// The local endpoint between the native host and MCP servers: a Unix socket only this user can
// reach. Directory 0700, socket 0600, and every peer's uid checked (SO_PEERCRED on Linux,
// getpeereid on macOS).
//
// Where: $ATHENA_RUNTIME_DIR (tests, the demo), else $XDG_RUNTIME_DIR/athena-delta, else
// $TMPDIR (macOS) or /tmp, as athena-delta-<uid>/. File: bridge.sock.
//
// Windows (designed, not built here): a named pipe \\.\pipe\athena-delta-<user SID>, created with
// a DACL granting only the current user's SID (and FILE_FLAG_FIRST_PIPE_INSTANCE so a squatter
// cannot pre-create it); the MCP side checks GetNamedPipeServerProcessId's owner. The framing is
// the same 4-byte length prefix.
#pragma once

#include <string>

namespace athena::bridge {

/// Folder and socket path, created on demand by listen_endpoint().
std::string runtime_dir();
std::string socket_path();

/// Creates the folder (0700) and a listening socket (0600). A stale socket file (nobody
/// listening) is replaced; a live one (another native host) is an error. Returns the fd or -1
/// with `error` set.
int listen_endpoint(std::string& error);

/// Which file a path is now (device and inode); {0, 0} when there is none. A host compares it
/// with its own socket's: another host may have replaced the file, or it may be gone.
struct FileId {
  unsigned long long dev = 0, ino = 0;
  bool operator==(const FileId& o) const { return dev == o.dev && ino == o.ino; }
  bool operator!=(const FileId& o) const { return !(*this == o); }
};
FileId file_id(const std::string& path);

/// Accepts one connection; -1 if none or if the peer is another user (then `error` says so).
int accept_peer(int listen_fd, std::string& error);

/// Connects to the native host's socket (bounded by limits::kConnectTimeoutMs); -1 + error.
int connect_endpoint(std::string& error);

/// Writes all bytes (blocking); false on a closed peer.
bool write_all(int fd, const std::string& bytes);

}  // namespace athena::bridge
