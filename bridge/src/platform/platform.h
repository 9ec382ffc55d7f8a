// Everything in athena-bridge that differs by operating system, behind one narrow interface. The
// rest of the bridge (host.cpp, mcp.cpp, install.cpp, ...) calls only this header for the process,
// files, the local endpoint, the event loop and native-host registration; no other file includes
// an OS header. Two implementations:
//
//   posix.cpp    Linux and macOS: a Unix socket, poll(), the browsers' manifest folders.
//   windows.cpp  Windows: a named pipe, one I/O thread per connection, the HKCU registry.
//
// Strings are UTF-8 everywhere; windows.cpp converts at the edge (paths, environment, registry).
//
// The local endpoint is how MCP servers (`athena-bridge mcp`) reach the native host Chrome
// started. Only this user may reach it, checked by the OS on both sides:
//   POSIX    $ATHENA_RUNTIME_DIR (tests, the demo), else $XDG_RUNTIME_DIR/athena-delta, else
//            $TMPDIR or /tmp as athena-delta-<uid>/; folder 0700, socket bridge.sock 0600, every
//            peer's uid checked (SO_PEERCRED on Linux, getpeereid on macOS).
//   Windows  \\.\pipe\athena-delta-<user SID> (with a hash of $ATHENA_RUNTIME_DIR appended when it
//            is set, so tests stay apart), created with a DACL that grants only this user's SID,
//            FILE_FLAG_FIRST_PIPE_INSTANCE (nobody can squat the name first) and
//            PIPE_REJECT_REMOTE_CLIENTS; each side checks the other process's token user.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace athena::bridge::platform {

enum class Os { kLinux, kMacos, kWindows, kOtherPosix };

/// The OS this binary was built for (chooses the column of the browser table, the wording of help).
Os os();

// ------------------------------------------------------------------ the process

/// Once, first thing in main(): a write to a closed peer is an error code, never a dead process
/// (POSIX: SIGPIPE ignored), and stdin/stdout carry bytes unchanged (Windows: _O_BINARY; native
/// messaging is length-prefixed binary, a CRLF translation would corrupt every frame).
void init_process();

/// Absolute path of the running executable (/proc/self/exe, _NSGetExecutablePath,
/// GetModuleFileNameW); "athena-bridge" when the OS does not say.
std::string self_path();

/// An environment variable (UTF-8), "" when unset.
std::string env(const char* name);

/// The user's home folder (HOME; on Windows USERPROFILE), "" when unknown.
std::string home_dir();

/// Fills `out` from the OS's cryptographic random source; false when there is none.
bool random_bytes(unsigned char* out, std::size_t n);

/// This process's id (only to vary a fallback; never a secret).
unsigned long process_id();

// ------------------------------------------------------------------ files (UTF-8 paths)

/// '/'-rooted on POSIX; a drive ("C:\", "C:/") or UNC ("\\server\") path on Windows.
bool is_absolute(const std::string& path);
/// The separator between folders in a path this OS builds ('/' or '\\').
char path_separator();
bool is_dir(const std::string& path);
/// A regular file this user may run (POSIX: the x bit for us; Windows: a file ending in .exe).
bool is_executable(const std::string& path);
/// The file as it really is (symlinks and `..` resolved); "" when it cannot be resolved.
std::string real_path(const std::string& path);
/// The whole file, "" when it cannot be read.
std::string read_file(const std::string& path);
/// Creates `dir` and its missing parents (mode 0755 on POSIX); false + error.
bool make_dirs(const std::string& dir, std::string& error);
/// Replaces the file's content; false + error.
bool write_file(const std::string& path, const std::string& bytes, std::string& error);
/// Removes a file; false when there was none (or it could not be removed).
bool remove_file(const std::string& path);
/// Removes a folder when it is empty; false when it holds anything (or is not there).
bool remove_empty_dir(const std::string& path);
/// Whether `name` is a program here: an absolute path as given, else a name in a folder of PATH
/// (split as the OS does: ':' on POSIX, ';' on Windows, where ".exe" is tried too).
bool command_exists(const std::string& name);

// ------------------------------------------------------------------ standard streams

/// Writes all bytes to stdout, blocking; false when the reader is gone.
bool write_stdout(const std::string& bytes);

// ------------------------------------------------------------------ the local endpoint + event loop

/// What users see as the endpoint's address: the socket's path, or the pipe's name.
std::string endpoint_name();

/// One thread's view of stdin, the endpoint's listener and its connections, as events: bytes that
/// arrived, a connection accepted or refused, a stream that ended. Sending never blocks: bytes
/// wait in a per-connection queue the loop drains as the peer reads (POSIX: while the owner is in
/// wait(); Windows: by the connection's own thread), so one peer that stops reading delays nobody
/// (the caller bounds the queue with queued()).
///
/// Ids: EventLoop::kStdin for stdin, a number >= 1 for each connection, never reused.
class EventLoop {
 public:
  static constexpr int kStdin = 0;

  struct Event {
    enum Kind {
      kData,      // `data` arrived on `id`
      kClosed,    // `id` ended (`data` says how); no more events for it, close(id) forgets it
      kAccepted,  // a new connection `id` from this user
      kRefused,   // a connection was refused (`data` says why: another user)
    };
    Kind kind;
    int id;
    std::string data;
  };

  EventLoop();
  ~EventLoop();
  EventLoop(const EventLoop&) = delete;
  EventLoop& operator=(const EventLoop&) = delete;

  /// Delivers stdin's bytes as kData of kStdin and its end as kClosed.
  void watch_stdin();

  /// Starts serving the endpoint. An endpoint left by a host that is gone is taken over; a live
  /// one (another native host) is an error. false + error naming what to do.
  bool listen(std::string& error);
  /// Called now and then while listening: POSIX makes the socket file again when someone removed
  /// it (a host that was exiting as this one started). Returns what it did, for the log ("" when
  /// nothing was needed).
  std::string keep_listening();
  /// Stops listening; the socket file goes only when it is still this loop's.
  void stop_listening();

  /// Connects to the native host's endpoint, bounded by limits::kConnectTimeoutMs, and checks
  /// that its process is this user's. The connection's id, or -1 with `error` set.
  int connect(std::string& error);

  /// Queues bytes for connection `id` and starts sending them; false when it is broken or gone.
  bool send(int id, const std::string& bytes);
  /// Bytes queued for `id` that its peer has not taken yet.
  std::size_t queued(int id) const;
  /// Closes `id`: what is still queued is dropped, `last_words` are sent if the peer takes them
  /// at once (never waited for), and the id is forgotten.
  void close(int id, const std::string& last_words = "");

  /// Waits at most `timeout_ms` for events and returns every one that is ready (none on timeout).
  /// With `only` >= 0, only that source's events are returned; the others wait for a later call.
  std::vector<Event> wait(int timeout_ms, int only = -1);

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

// ------------------------------------------------------------------ native-host registration

/// How this OS tells a browser where a native-messaging host's manifest is.
///   Linux, macOS  the manifest file <place>/<name>.json, `place` being the browser's
///                 NativeMessagingHosts folder.
///   Windows       the registry key HKCU\<place>\<name> (`place` e.g.
///                 Software\Google\Chrome\NativeMessagingHosts) whose default value is the path of
///                 the manifest file; the file itself is kept once for every browser, in
///                 manifest_store_dir().
/// A `place` that is an absolute folder (a custom --user-data-dir profile) is a folder on every OS.
bool registry_places();
/// Windows: whether the key HKCU\<key> exists (how a browser is found: it keeps its own key there);
/// false on POSIX.
bool registry_key_exists(const std::string& key);
/// Windows: %LOCALAPPDATA%\athena-delta, where the one manifest file lives; "" on POSIX.
std::string manifest_store_dir();

struct Registration {
  std::string where;  // what to show the user: the file, or HKCU\...\<name> -> file
  std::string text;   // the manifest text the browser would read there ("" = none)
};
/// What is registered at `place` for `name` now.
Registration read_registration(const std::string& place, const std::string& name);
/// Registers `manifest` there (idempotent); false + error.
bool write_registration(const std::string& place, const std::string& name, const std::string& manifest,
                        std::string& where, std::string& error);
/// Removes it; false when there was nothing. `where` says what was (or would have been) removed.
bool remove_registration(const std::string& place, const std::string& name, std::string& where);
/// After the last remove: the shared manifest file (Windows) goes when no key names it any more.
void forget_unused_manifest(const std::string& name, const std::vector<std::string>& places);

}  // namespace athena::bridge::platform
