// One file past 400 lines: its threads, handles and the queue they share are private to it, and platform.h is its only
// face; splitting it would expose them.
//
// The platform layer on Windows (platform.h says what each call promises).
//
// Windows has no poll() on pipes, so the event loop is threads around one queue: stdin is read by
// a blocking thread (Chrome and MCP clients hand us anonymous pipes, which cannot be overlapped),
// the named pipe's listener and each connection have a thread doing overlapped I/O that a wake
// event can interrupt. The main thread only ever waits on the queue; sending appends to the
// connection's queue and wakes its thread, so a peer that stops reading blocks nobody.
#ifndef NOMINMAX
#define NOMINMAX
#endif
#include <windows.h>
// after windows.h:
#include <bcrypt.h>
#include <fcntl.h>
#include <io.h>
#include <sddl.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <deque>
#include <map>
#include <mutex>
#include <thread>

#include "limits.h"
#include "platform.h"

namespace athena::bridge::platform {

namespace {

std::wstring wide(const std::string& s) {
  if (s.empty()) return {};
  const int n = ::MultiByteToWideChar(CP_UTF8, 0, s.data(), static_cast<int>(s.size()), nullptr, 0);
  std::wstring w(static_cast<std::size_t>(n), L'\0');
  ::MultiByteToWideChar(CP_UTF8, 0, s.data(), static_cast<int>(s.size()), w.data(), n);
  return w;
}

std::string utf8(const std::wstring& w) {
  if (w.empty()) return {};
  const int n = ::WideCharToMultiByte(CP_UTF8, 0, w.data(), static_cast<int>(w.size()), nullptr, 0, nullptr, nullptr);
  std::string s(static_cast<std::size_t>(n), '\0');
  ::WideCharToMultiByte(CP_UTF8, 0, w.data(), static_cast<int>(w.size()), s.data(), n, nullptr, nullptr);
  return s;
}

/// The system's words for an error code, for messages.
std::string message_of(DWORD code) {
  wchar_t* buf = nullptr;
  const DWORD n =
      ::FormatMessageW(FORMAT_MESSAGE_ALLOCATE_BUFFER | FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS,
                       nullptr, code, 0, reinterpret_cast<wchar_t*>(&buf), 0, nullptr);
  std::string s = n && buf ? utf8(std::wstring(buf, n)) : "error " + std::to_string(code);
  if (buf) ::LocalFree(buf);
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == '.')) s.pop_back();
  return s + " (" + std::to_string(code) + ")";
}

}  // namespace

Os os() {
  return Os::kWindows;
}

// ------------------------------------------------------------------ the process

void init_process() {
  // Native messaging is a 4-byte length then JSON: the C runtime's text mode would turn a 0x0A
  // byte of a length into 0x0D 0x0A. (The loop reads and writes the handles directly; this keeps
  // any C stdio use byte-exact too.)
  _setmode(_fileno(stdin), _O_BINARY);
  _setmode(_fileno(stdout), _O_BINARY);
}

std::string self_path() {
  std::wstring buf(MAX_PATH, L'\0');
  for (;;) {
    const DWORD n = ::GetModuleFileNameW(nullptr, buf.data(), static_cast<DWORD>(buf.size()));
    if (n == 0) return "athena-bridge";
    if (n < buf.size()) return utf8(buf.substr(0, n));
    buf.resize(buf.size() * 2);  // truncated: a longer path (\\?\ paths reach 32,767)
  }
}

std::string env(const char* name) {
  const std::wstring w = wide(name);
  const DWORD n = ::GetEnvironmentVariableW(w.c_str(), nullptr, 0);
  if (n == 0) return "";
  std::wstring v(n, L'\0');
  const DWORD got = ::GetEnvironmentVariableW(w.c_str(), v.data(), n);
  return utf8(v.substr(0, got));
}

std::string home_dir() {
  return env("USERPROFILE");
}

bool random_bytes(unsigned char* out, std::size_t n) {
  return BCRYPT_SUCCESS(::BCryptGenRandom(nullptr, out, static_cast<ULONG>(n), BCRYPT_USE_SYSTEM_PREFERRED_RNG));
}

unsigned long process_id() {
  return ::GetCurrentProcessId();
}

// ------------------------------------------------------------------ files

bool is_absolute(const std::string& p) {
  if (p.size() >= 3 && std::isalpha(static_cast<unsigned char>(p[0])) && p[1] == ':' && (p[2] == '\\' || p[2] == '/'))
    return true;
  return p.size() >= 2 && (p[0] == '\\' || p[0] == '/') && (p[1] == '\\' || p[1] == '/');
}

char path_separator() {
  return '\\';
}

bool is_dir(const std::string& path) {
  const DWORD a = ::GetFileAttributesW(wide(path).c_str());
  return a != INVALID_FILE_ATTRIBUTES && (a & FILE_ATTRIBUTE_DIRECTORY);
}

bool is_executable(const std::string& path) {
  const DWORD a = ::GetFileAttributesW(wide(path).c_str());
  if (a == INVALID_FILE_ATTRIBUTES || (a & FILE_ATTRIBUTE_DIRECTORY)) return false;
  if (path.size() < 4) return false;
  std::string ext = path.substr(path.size() - 4);
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return ext == ".exe";
}

std::string real_path(const std::string& path) {
  const HANDLE h = ::CreateFileW(wide(path).c_str(), 0, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, nullptr,
                                 OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS, nullptr);
  if (h == INVALID_HANDLE_VALUE) return "";
  std::wstring buf(MAX_PATH, L'\0');
  DWORD n = ::GetFinalPathNameByHandleW(h, buf.data(), static_cast<DWORD>(buf.size()),
                                        FILE_NAME_NORMALIZED | VOLUME_NAME_DOS);
  if (n >= buf.size()) {
    buf.resize(n + 1);
    n = ::GetFinalPathNameByHandleW(h, buf.data(), static_cast<DWORD>(buf.size()),
                                    FILE_NAME_NORMALIZED | VOLUME_NAME_DOS);
  }
  ::CloseHandle(h);
  if (n == 0 || n >= buf.size()) return "";
  std::string out = utf8(buf.substr(0, n));
  // The OS answers in its long-path form: \\?\C:\... or \\?\UNC\server\share\...
  if (out.rfind("\\\\?\\UNC\\", 0) == 0) return "\\\\" + out.substr(8);
  if (out.rfind("\\\\?\\", 0) == 0) return out.substr(4);
  return out;
}

std::string read_file(const std::string& path) {
  std::FILE* f = ::_wfopen(wide(path).c_str(), L"rb");
  if (!f) return "";
  std::string out;
  char buf[1 << 14];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, n);
  std::fclose(f);
  return out;
}

bool make_dirs(const std::string& dir, std::string& error) {
  for (std::size_t at = 0; at != std::string::npos;) {
    at = dir.find_first_of("\\/", at + 1);
    const std::string prefix = dir.substr(0, at);
    if (prefix.empty() || prefix.back() == ':' || is_dir(prefix)) continue;  // a drive, or already there
    if (!::CreateDirectoryW(wide(prefix).c_str(), nullptr) && ::GetLastError() != ERROR_ALREADY_EXISTS &&
        !is_dir(prefix)) {
      error = "cannot create " + prefix + ": " + message_of(::GetLastError());
      return false;
    }
  }
  return true;
}

bool write_file(const std::string& path, const std::string& bytes, std::string& error) {
  std::FILE* f = ::_wfopen(wide(path).c_str(), L"wb");
  if (!f) {
    error = "cannot write " + path + ": " + message_of(::GetLastError());
    return false;
  }
  const bool ok = std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
  if (std::fclose(f) != 0 || !ok) {
    error = "cannot write " + path;
    return false;
  }
  return true;
}

bool remove_file(const std::string& path) {
  return ::DeleteFileW(wide(path).c_str()) != 0;
}

bool remove_empty_dir(const std::string& path) {
  return ::RemoveDirectoryW(wide(path).c_str()) != 0;
}

bool command_exists(const std::string& name) {
  if (name.empty()) return false;
  const bool has_ext = name.size() > 4 && _stricmp(name.c_str() + name.size() - 4, ".exe") == 0;
  if (is_absolute(name)) return is_executable(has_ext ? name : name + ".exe");
  const std::string path = env("PATH");
  std::size_t start = 0;
  while (start <= path.size()) {
    std::size_t end = path.find(';', start);
    if (end == std::string::npos) end = path.size();
    if (end > start && is_executable(path.substr(start, end - start) + "\\" + name + (has_ext ? "" : ".exe")))
      return true;
    start = end + 1;
  }
  return false;
}

// ------------------------------------------------------------------ standard streams

bool write_stdout(const std::string& bytes) {
  const HANDLE h = ::GetStdHandle(STD_OUTPUT_HANDLE);
  std::size_t done = 0;
  while (done < bytes.size()) {
    DWORD n = 0;
    const DWORD chunk = static_cast<DWORD>(std::min<std::size_t>(bytes.size() - done, 1u << 20));
    if (!::WriteFile(h, bytes.data() + done, chunk, &n, nullptr)) return false;
    done += n;
  }
  return true;
}

// ------------------------------------------------------------------ the endpoint

namespace {

/// The user a process runs as: a copy of its token's user SID (empty when it cannot be read). A
/// copy, because TOKEN_USER points into its own buffer and would dangle once that moves.
std::vector<unsigned char> user_sid(HANDLE process) {
  HANDLE token = nullptr;
  if (!::OpenProcessToken(process, TOKEN_QUERY, &token)) return {};
  DWORD n = 0;
  ::GetTokenInformation(token, TokenUser, nullptr, 0, &n);
  std::vector<unsigned char> info(n);
  std::vector<unsigned char> sid;
  if (n && ::GetTokenInformation(token, TokenUser, info.data(), n, &n)) {
    PSID s = reinterpret_cast<TOKEN_USER*>(info.data())->User.Sid;
    sid.resize(::GetLengthSid(s));
    if (!::CopySid(static_cast<DWORD>(sid.size()), sid.data(), s)) sid.clear();
  }
  ::CloseHandle(token);
  return sid;
}

PSID sid_of(std::vector<unsigned char>& sid) {
  return sid.empty() ? nullptr : static_cast<PSID>(sid.data());
}

std::vector<unsigned char>& my_user() {
  static std::vector<unsigned char> me = user_sid(::GetCurrentProcess());
  return me;
}

std::wstring my_sid_string() {
  PSID sid = sid_of(my_user());
  wchar_t* s = nullptr;
  if (!sid || !::ConvertSidToStringSidW(sid, &s)) return L"unknown-user";
  std::wstring out = s;
  ::LocalFree(s);
  return out;
}

/// Whether process `pid` runs as this user (the same-user check of both ends of the pipe).
bool process_is_us(ULONG pid) {
  const HANDLE p = ::OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION, FALSE, pid);
  if (!p) return false;
  std::vector<unsigned char> tu = user_sid(p);
  ::CloseHandle(p);
  PSID theirs = sid_of(tu), mine = sid_of(my_user());
  return theirs && mine && ::EqualSid(theirs, mine);
}

std::wstring pipe_name() {
  std::wstring name = L"\\\\.\\pipe\\athena-delta-" + my_sid_string();
  // Tests and the demo name a runtime folder to keep their hosts apart: a hash of it does that here.
  const std::string dir = env("ATHENA_RUNTIME_DIR");
  if (!dir.empty()) {
    unsigned long long h = 1469598103934665603ull;  // FNV-1a
    for (const unsigned char c : dir) h = (h ^ c) * 1099511628211ull;
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", h);
    name += L"-" + wide(hex);
  }
  return name;
}

/// One instance of the pipe, overlapped, that only this user's SID may open.
HANDLE new_instance(bool first) {
  const std::wstring sddl = L"D:P(A;;GA;;;" + my_sid_string() + L")";
  PSECURITY_DESCRIPTOR sd = nullptr;
  if (!::ConvertStringSecurityDescriptorToSecurityDescriptorW(sddl.c_str(), SDDL_REVISION_1, &sd, nullptr))
    return INVALID_HANDLE_VALUE;
  SECURITY_ATTRIBUTES sa{sizeof sa, sd, FALSE};
  const HANDLE h = ::CreateNamedPipeW(
      pipe_name().c_str(), PIPE_ACCESS_DUPLEX | FILE_FLAG_OVERLAPPED | (first ? FILE_FLAG_FIRST_PIPE_INSTANCE : 0),
      PIPE_TYPE_BYTE | PIPE_READMODE_BYTE | PIPE_WAIT | PIPE_REJECT_REMOTE_CLIENTS, PIPE_UNLIMITED_INSTANCES, 1 << 16,
      1 << 16, 0, &sa);
  const DWORD err = ::GetLastError();
  ::LocalFree(sd);
  ::SetLastError(err);
  return h;
}

HANDLE connect_pipe(std::string& error) {
  const std::wstring name = pipe_name();
  const std::string shown = utf8(name);
  const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(limits::kConnectTimeoutMs);
  for (;;) {
    const HANDLE h = ::CreateFileW(name.c_str(), GENERIC_READ | GENERIC_WRITE, 0, nullptr, OPEN_EXISTING,
                                   FILE_FLAG_OVERLAPPED | SECURITY_SQOS_PRESENT | SECURITY_IDENTIFICATION, nullptr);
    if (h != INVALID_HANDLE_VALUE) {
      ULONG pid = 0;
      if (!::GetNamedPipeServerProcessId(h, &pid) || !process_is_us(pid)) {
        ::CloseHandle(h);
        error = "the process serving " + shown + " belongs to another user: refusing it";
        return INVALID_HANDLE_VALUE;
      }
      return h;
    }
    const DWORD err = ::GetLastError();
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(until - std::chrono::steady_clock::now()).count();
    if (err == ERROR_PIPE_BUSY && left > 0) {  // every instance taken: the host makes the next one
      ::WaitNamedPipeW(name.c_str(), static_cast<DWORD>(left));
      continue;
    }
    if (err == ERROR_PIPE_BUSY)
      error = "the native host on " + shown + " did not accept the connection within " +
              std::to_string(limits::kConnectTimeoutMs) + " ms (is it stuck? restart Chrome or reload the extension)";
    else if (err == ERROR_FILE_NOT_FOUND)
      error = "no native host is listening on " + shown;
    else
      error = "cannot connect to " + shown + ": " + message_of(err);
    return INVALID_HANDLE_VALUE;
  }
}

}  // namespace

std::string endpoint_name() {
  return utf8(pipe_name());
}

// ------------------------------------------------------------------ the event loop

namespace {

/// What the threads hand the loop. Shared, so that the stdin thread (never joined: a blocking
/// read of an anonymous pipe cannot be interrupted) can outlive the loop.
struct Queue {
  std::mutex m;
  std::condition_variable cv;
  std::deque<EventLoop::Event> events;
  void push(EventLoop::Event e) {
    {
      std::lock_guard<std::mutex> lock(m);
      events.push_back(std::move(e));
    }
    cv.notify_all();
  }
};

/// One connection: its handle, what waits to be written, and its I/O thread.
struct Conn {
  HANDLE h = INVALID_HANDLE_VALUE;
  HANDLE wake = nullptr;  // auto-reset: new bytes to write, or stop
  std::mutex m;
  std::string out;  // not yet taken by the peer (what is being written included)
  bool ended = false;
  std::atomic<bool> stop{false};
  std::thread thread;
};

void conn_thread(Conn* c, int id, std::shared_ptr<Queue> q) {
  OVERLAPPED rd{}, wr{};
  rd.hEvent = ::CreateEventW(nullptr, TRUE, FALSE, nullptr);
  wr.hEvent = ::CreateEventW(nullptr, TRUE, FALSE, nullptr);
  std::vector<char> rbuf(1 << 16);
  std::string wbuf;
  bool reading = false, writing = false;
  std::string ended;  // why it ended ("" = still open)
  while (ended.empty() && !c->stop) {
    // An overlapped call may complete at once (data already there, room in the pipe): its result
    // is taken here and the wait below is skipped, so the next call goes out without a round
    // through WaitForMultipleObjects.
    bool done_now = false;
    DWORD n = 0;
    if (!reading) {
      ::ResetEvent(rd.hEvent);
      if (::ReadFile(c->h, rbuf.data(), static_cast<DWORD>(rbuf.size()), nullptr, &rd)) {
        done_now = true;
        if (!::GetOverlappedResult(c->h, &rd, &n, FALSE))
          ended = "it closed the connection";
        else if (n > 0)
          q->push({EventLoop::Event::kData, id, std::string(rbuf.data(), n)});
      } else if (::GetLastError() == ERROR_IO_PENDING) {
        reading = true;
      } else {
        ended = "it closed the connection";
      }
    }
    if (!writing && ended.empty()) {
      {
        std::lock_guard<std::mutex> lock(c->m);
        wbuf = c->out.substr(0, std::min<std::size_t>(c->out.size(), 1 << 16));
      }
      if (!wbuf.empty()) {
        ::ResetEvent(wr.hEvent);
        if (::WriteFile(c->h, wbuf.data(), static_cast<DWORD>(wbuf.size()), nullptr, &wr)) {
          done_now = true;
          if (!::GetOverlappedResult(c->h, &wr, &n, FALSE)) {
            ended = "the connection broke";
          } else {
            std::lock_guard<std::mutex> lock(c->m);
            c->out.erase(0, n);
          }
        } else if (::GetLastError() == ERROR_IO_PENDING) {
          writing = true;
        } else {
          ended = "the connection broke";
        }
      }
    }
    if (!ended.empty()) break;
    HANDLE hs[3] = {c->wake, rd.hEvent, wr.hEvent};
    const DWORD w = ::WaitForMultipleObjects(writing ? 3 : 2, hs, FALSE, done_now ? 0 : INFINITE);
    if (w == WAIT_OBJECT_0 + 1 && reading) {
      reading = false;
      if (!::GetOverlappedResult(c->h, &rd, &n, FALSE))
        ended = "it closed the connection";
      else if (n > 0)
        q->push({EventLoop::Event::kData, id, std::string(rbuf.data(), n)});
    } else if (w == WAIT_OBJECT_0 + 2) {
      writing = false;
      if (!::GetOverlappedResult(c->h, &wr, &n, FALSE)) {
        ended = "the connection broke";
      } else {
        std::lock_guard<std::mutex> lock(c->m);
        c->out.erase(0, n);
      }
    } else if (w == WAIT_FAILED) {
      ended = "waiting failed: " + message_of(::GetLastError());
    }
  }
  if (reading || writing) {  // stop with nothing in flight that could write into freed buffers
    ::CancelIoEx(c->h, nullptr);
    DWORD n = 0;
    if (reading) ::GetOverlappedResult(c->h, &rd, &n, TRUE);
    if (writing) ::GetOverlappedResult(c->h, &wr, &n, TRUE);
  }
  ::CloseHandle(rd.hEvent);
  ::CloseHandle(wr.hEvent);
  if (!ended.empty()) {
    {
      std::lock_guard<std::mutex> lock(c->m);
      c->ended = true;
    }
    q->push({EventLoop::Event::kClosed, id, ended});
  }
}

}  // namespace

struct EventLoop::Impl {
  std::shared_ptr<Queue> q = std::make_shared<Queue>();
  bool stdin_watched = false;
  std::mutex conns_m;
  std::map<int, std::unique_ptr<Conn>> conns;
  std::atomic<int> next_id{1};
  // The listener.
  std::thread listener;
  HANDLE listener_stop = nullptr;
  HANDLE first_instance = INVALID_HANDLE_VALUE;

  int add(HANDLE h) {
    auto c = std::make_unique<Conn>();
    c->h = h;
    c->wake = ::CreateEventW(nullptr, FALSE, FALSE, nullptr);
    const int id = next_id++;
    Conn* raw = c.get();
    {
      std::lock_guard<std::mutex> lock(conns_m);
      conns[id] = std::move(c);
    }
    raw->thread = std::thread(conn_thread, raw, id, q);
    return id;
  }

  Conn* find(int id) {
    std::lock_guard<std::mutex> lock(conns_m);
    auto it = conns.find(id);
    return it == conns.end() ? nullptr : it->second.get();
  }

  void listen_loop(HANDLE inst) {
    OVERLAPPED ov{};
    ov.hEvent = ::CreateEventW(nullptr, TRUE, FALSE, nullptr);
    while (inst != INVALID_HANDLE_VALUE) {
      ::ResetEvent(ov.hEvent);
      bool connected = ::ConnectNamedPipe(inst, &ov) != 0;
      const DWORD err = ::GetLastError();
      if (!connected && err == ERROR_PIPE_CONNECTED)
        connected = true;  // the client came first
      else if (!connected && err == ERROR_IO_PENDING) {
        HANDLE hs[2] = {listener_stop, ov.hEvent};
        if (::WaitForMultipleObjects(2, hs, FALSE, INFINITE) != WAIT_OBJECT_0 + 1) {
          ::CancelIoEx(inst, &ov);
          DWORD n = 0;
          ::GetOverlappedResult(inst, &ov, &n, TRUE);
          ::CloseHandle(inst);
          break;
        }
        DWORD n = 0;
        connected = ::GetOverlappedResult(inst, &ov, &n, FALSE) != 0;
      }
      // The next instance first, so a client arriving now finds one.
      HANDLE next = new_instance(false);
      if (connected) {
        ULONG pid = 0;
        if (::GetNamedPipeClientProcessId(inst, &pid) && process_is_us(pid)) {
          const int id = add(inst);
          q->push({Event::kAccepted, id, ""});
        } else {
          ::DisconnectNamedPipe(inst);
          ::CloseHandle(inst);
          q->push({Event::kRefused, -1, "refused a connection from another user"});
        }
      } else {
        ::CloseHandle(inst);
      }
      while (next == INVALID_HANDLE_VALUE) {  // out of resources: try again, unless told to stop
        if (::WaitForSingleObject(listener_stop, limits::kPollMs) == WAIT_OBJECT_0) break;
        next = new_instance(false);
      }
      inst = next;
    }
    ::CloseHandle(ov.hEvent);
  }
};

EventLoop::EventLoop() : impl_(std::make_unique<Impl>()) {}

EventLoop::~EventLoop() {
  stop_listening();
  std::map<int, std::unique_ptr<Conn>> conns;
  {
    std::lock_guard<std::mutex> lock(impl_->conns_m);
    conns.swap(impl_->conns);
  }
  for (auto& [id, c] : conns) {
    c->stop = true;
    ::SetEvent(c->wake);
    if (c->thread.joinable()) c->thread.join();
    ::CloseHandle(c->h);
    ::CloseHandle(c->wake);
  }
}

void EventLoop::watch_stdin() {
  if (impl_->stdin_watched) return;
  impl_->stdin_watched = true;
  std::thread([q = impl_->q]() {
    const HANDLE h = ::GetStdHandle(STD_INPUT_HANDLE);
    std::vector<char> buf(1 << 16);
    for (;;) {
      DWORD n = 0;
      if (!::ReadFile(h, buf.data(), static_cast<DWORD>(buf.size()), &n, nullptr) || n == 0) {
        const DWORD err = ::GetLastError();
        q->push({Event::kClosed, kStdin, n == 0 && err != ERROR_BROKEN_PIPE ? "end of input" : message_of(err)});
        return;
      }
      q->push({Event::kData, kStdin, std::string(buf.data(), n)});
    }
  }).detach();
}

bool EventLoop::listen(std::string& error) {
  if (impl_->listener.joinable()) return true;
  const std::string name = endpoint_name();
  // The name taken: by another host of ours (a second browser profile), or by someone else.
  auto taken = [&]() {
    std::string why;
    const HANDLE probe = connect_pipe(why);
    if (probe != INVALID_HANDLE_VALUE) {
      ::CloseHandle(probe);
      error = "another athena-bridge native host is already listening on " + name +
              " (a second Chrome profile with the extension?); only one can serve at a time";
    } else {
      error = "the pipe " + name + " is held by another process (" + why + "): close it, or set ATHENA_RUNTIME_DIR";
    }
    return false;
  };
  // FILE_FLAG_FIRST_PIPE_INSTANCE refuses a name that exists; wine ignores that flag, so the name
  // is looked up first too (a pipe with no free instance answers ERROR_PIPE_BUSY: it exists).
  const HANDLE existing = ::CreateFileW(pipe_name().c_str(), GENERIC_READ | GENERIC_WRITE, 0, nullptr, OPEN_EXISTING,
                                        SECURITY_SQOS_PRESENT | SECURITY_IDENTIFICATION, nullptr);
  if (existing != INVALID_HANDLE_VALUE || ::GetLastError() == ERROR_PIPE_BUSY) {
    if (existing != INVALID_HANDLE_VALUE) ::CloseHandle(existing);
    return taken();
  }
  const HANDLE first = new_instance(true);
  if (first == INVALID_HANDLE_VALUE) {
    const DWORD err = ::GetLastError();
    if (err == ERROR_ACCESS_DENIED || err == ERROR_PIPE_BUSY) return taken();
    error = "cannot listen on " + name + ": " + message_of(err);
    return false;
  }
  impl_->listener_stop = ::CreateEventW(nullptr, TRUE, FALSE, nullptr);
  impl_->listener = std::thread([this, first]() { impl_->listen_loop(first); });
  return true;
}

std::string EventLoop::keep_listening() {
  return "";
}  // a pipe cannot be removed by another process

void EventLoop::stop_listening() {
  if (!impl_->listener.joinable()) return;
  ::SetEvent(impl_->listener_stop);
  impl_->listener.join();
  ::CloseHandle(impl_->listener_stop);
  impl_->listener_stop = nullptr;
}

int EventLoop::connect(std::string& error) {
  const HANDLE h = connect_pipe(error);
  return h == INVALID_HANDLE_VALUE ? -1 : impl_->add(h);
}

bool EventLoop::send(int id, const std::string& bytes) {
  Conn* c = impl_->find(id);
  if (!c) return false;
  {
    std::lock_guard<std::mutex> lock(c->m);
    if (c->ended) return false;
    c->out += bytes;
  }
  ::SetEvent(c->wake);
  return true;
}

std::size_t EventLoop::queued(int id) const {
  Conn* c = impl_->find(id);
  if (!c) return 0;
  std::lock_guard<std::mutex> lock(c->m);
  return c->out.size();
}

void EventLoop::close(int id, const std::string& last_words) {
  std::unique_ptr<Conn> c;
  {
    std::lock_guard<std::mutex> lock(impl_->conns_m);
    auto it = impl_->conns.find(id);
    if (it == impl_->conns.end()) return;
    c = std::move(it->second);
    impl_->conns.erase(it);
  }
  c->stop = true;
  ::SetEvent(c->wake);
  if (c->thread.joinable()) c->thread.join();
  if (!last_words.empty()) {
    // Sent if the pipe's buffer takes it now; never waited for.
    OVERLAPPED ov{};
    ov.hEvent = ::CreateEventW(nullptr, TRUE, FALSE, nullptr);
    if (!::WriteFile(c->h, last_words.data(), static_cast<DWORD>(last_words.size()), nullptr, &ov) &&
        ::GetLastError() == ERROR_IO_PENDING) {
      ::CancelIoEx(c->h, &ov);
      DWORD n = 0;
      ::GetOverlappedResult(c->h, &ov, &n, TRUE);
    }
    ::CloseHandle(ov.hEvent);
  }
  ::CloseHandle(c->h);
  ::CloseHandle(c->wake);
  std::lock_guard<std::mutex> lock(impl_->q->m);
  auto& ev = impl_->q->events;
  ev.erase(
      std::remove_if(ev.begin(), ev.end(), [id](const Event& e) { return e.id == id && e.kind != Event::kRefused; }),
      ev.end());
}

std::vector<EventLoop::Event> EventLoop::wait(int timeout_ms, int only) {
  Queue& q = *impl_->q;
  auto matches = [only](const Event& e) { return only < 0 || (e.id == only && e.kind != Event::kRefused); };
  std::unique_lock<std::mutex> lock(q.m);
  q.cv.wait_for(lock, std::chrono::milliseconds(timeout_ms),
                [&] { return std::any_of(q.events.begin(), q.events.end(), matches); });
  std::vector<Event> out;
  for (auto it = q.events.begin(); it != q.events.end();) {
    if (matches(*it)) {
      out.push_back(std::move(*it));
      it = q.events.erase(it);
    } else {
      ++it;
    }
  }
  return out;
}

// ------------------------------------------------------------------ registration

namespace {

/// A custom profile's folder is a folder on every OS; anything else is a registry key.
bool is_folder_place(const std::string& place) {
  return is_absolute(place);
}

std::string manifest_file(const std::string& name) {
  return manifest_store_dir() + "\\" + name + ".json";
}

/// The default value of HKCU\<key>, "" when there is none.
std::string key_default(const std::string& key) {
  DWORD size = 0;
  const std::wstring k = wide(key);
  if (::RegGetValueW(HKEY_CURRENT_USER, k.c_str(), nullptr, RRF_RT_REG_SZ, nullptr, nullptr, &size) != ERROR_SUCCESS ||
      size == 0)
    return "";
  std::wstring v(size / sizeof(wchar_t), L'\0');
  if (::RegGetValueW(HKEY_CURRENT_USER, k.c_str(), nullptr, RRF_RT_REG_SZ, nullptr, v.data(), &size) != ERROR_SUCCESS)
    return "";
  v.resize(std::wcslen(v.c_str()));
  return utf8(v);
}

}  // namespace

bool registry_places() {
  return true;
}

bool registry_key_exists(const std::string& key) {
  HKEY h;
  if (::RegOpenKeyExW(HKEY_CURRENT_USER, wide(key).c_str(), 0, KEY_READ, &h) != ERROR_SUCCESS) return false;
  ::RegCloseKey(h);
  return true;
}

std::string manifest_store_dir() {
  const std::string base = env("LOCALAPPDATA");
  return (base.empty() ? home_dir() + "\\AppData\\Local" : base) + "\\athena-delta";
}

Registration read_registration(const std::string& place, const std::string& name) {
  if (is_folder_place(place)) {
    const std::string file = place + "\\" + name + ".json";
    return {file, read_file(file)};
  }
  const std::string key = place + "\\" + name;
  const std::string file = key_default(key);
  return {"HKCU\\" + key + (file.empty() ? "" : " -> " + file), file.empty() ? "" : read_file(file)};
}

bool write_registration(const std::string& place, const std::string& name, const std::string& manifest,
                        std::string& where, std::string& error) {
  if (is_folder_place(place)) {
    where = place + "\\" + name + ".json";
    return make_dirs(place, error) && write_file(where, manifest, error);
  }
  const std::string file = manifest_file(name);
  const std::string key = place + "\\" + name;
  where = "HKCU\\" + key + " -> " + file;
  if (read_file(file) != manifest && !(make_dirs(manifest_store_dir(), error) && write_file(file, manifest, error)))
    return false;
  HKEY h = nullptr;
  LONG rc = ::RegCreateKeyExW(HKEY_CURRENT_USER, wide(key).c_str(), 0, nullptr, 0, KEY_SET_VALUE, nullptr, &h, nullptr);
  if (rc == ERROR_SUCCESS) {
    const std::wstring v = wide(file);
    rc = ::RegSetValueExW(h, nullptr, 0, REG_SZ, reinterpret_cast<const BYTE*>(v.c_str()),
                          static_cast<DWORD>((v.size() + 1) * sizeof(wchar_t)));
    ::RegCloseKey(h);
  }
  if (rc != ERROR_SUCCESS) {
    error = "cannot write the registry key HKCU\\" + key + ": " + message_of(static_cast<DWORD>(rc));
    return false;
  }
  return true;
}

bool remove_registration(const std::string& place, const std::string& name, std::string& where) {
  if (is_folder_place(place)) {
    where = place + "\\" + name + ".json";
    return remove_file(where);
  }
  const std::string key = place + "\\" + name;
  where = "HKCU\\" + key;
  const bool removed = ::RegDeleteKeyW(HKEY_CURRENT_USER, wide(key).c_str()) == ERROR_SUCCESS;
  // The keys install made on the way (NativeMessagingHosts, and the browser's own key when the
  // browser never ran) go too while they hold nothing, up to HKCU\Software: a key left behind
  // would make the next install take a browser for found (manifest_places looks for its key).
  // Also when our key was already gone, so that an older install's empty keys go as well.
  std::string k = place;
  while (k.find('\\') != std::string::npos && k.rfind("Software", 0) == 0 && k != "Software") {
    HKEY h;
    if (::RegOpenKeyExW(HKEY_CURRENT_USER, wide(k).c_str(), 0, KEY_READ, &h) != ERROR_SUCCESS) break;
    DWORD subkeys = 1, values = 1;
    const LONG rc = ::RegQueryInfoKeyW(h, nullptr, nullptr, nullptr, &subkeys, nullptr, nullptr, &values, nullptr,
                                       nullptr, nullptr, nullptr);
    ::RegCloseKey(h);
    if (rc != ERROR_SUCCESS || subkeys != 0 || values != 0 ||
        ::RegDeleteKeyW(HKEY_CURRENT_USER, wide(k).c_str()) != ERROR_SUCCESS)
      break;
    k = k.substr(0, k.rfind('\\'));
  }
  return removed;
}

void forget_unused_manifest(const std::string& name, const std::vector<std::string>& places) {
  const std::string file = manifest_file(name);
  for (const std::string& place : places)
    if (!is_folder_place(place) && key_default(place + "\\" + name) == file) return;  // still named by a browser
  remove_file(file);
  ::RemoveDirectoryW(wide(manifest_store_dir()).c_str());  // only when empty
}

}  // namespace athena::bridge::platform
