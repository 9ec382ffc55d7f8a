// The bridge's platform layer (bridge/src/platform/platform.h), the same cases on every OS it is
// built for: natively on Linux, under qemu-user for arm64, under wine64 for Windows (the cross
// suite). What differs by OS is only what the header says differs (the endpoint's name, paths).
#include "platform/platform.h"

#include <catch2/catch.hpp>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>

#include "limits.h"

using namespace athena::bridge;
using Event = platform::EventLoop::Event;
namespace fs = std::filesystem;

namespace {

/// A fresh folder under the system's temporary folder, removed at the end of the test case.
struct TempDir {
  fs::path path;
  TempDir() {
    unsigned char r[8];
    REQUIRE(platform::random_bytes(r, sizeof r));
    std::string name = "athena-platform-";
    for (const unsigned char c : r) name += "0123456789abcdef"[c & 15];
    path = fs::temp_directory_path() / name;
    fs::create_directories(path);
  }
  ~TempDir() {
    std::error_code ignored;
    fs::remove_all(path, ignored);
  }
  std::string str() const { return path.u8string(); }
};

/// ATHENA_RUNTIME_DIR for this test case: its own endpoint, apart from any real native host.
struct OwnEndpoint {
  TempDir dir;
  OwnEndpoint() { set(dir.str()); }
  ~OwnEndpoint() { set(""); }
  static void set(const std::string& v) {
#if defined(_WIN32)
    _putenv_s("ATHENA_RUNTIME_DIR", v.c_str());  // (the test's own setup; the bridge only reads it)
#else
    if (v.empty())
      unsetenv("ATHENA_RUNTIME_DIR");
    else
      setenv("ATHENA_RUNTIME_DIR", v.c_str(), 1);
#endif
  }
};

/// The next event of `kind` on `loop` (the others before it are kept in `seen`), within the
/// connect bound. Only where one event is due: a wait may return several.
Event next_event(platform::EventLoop& loop, Event::Kind kind, std::vector<Event>& seen) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(limits::kConnectTimeoutMs);
  while (std::chrono::steady_clock::now() < until) {
    for (Event& e : loop.wait(limits::kPollMs)) {
      if (e.kind == kind) return e;
      seen.push_back(e);
    }
  }
  FAIL("no event of kind " << kind << " within " << limits::kConnectTimeoutMs << " ms");
  return {kind, -1, ""};
}

/// `n` bytes of data from `id` on `loop`, however the OS splits them (one wait may return several
/// pieces), while `peer` sends them.
std::string read_bytes(platform::EventLoop& loop, int id, std::size_t n, platform::EventLoop& peer) {
  std::string got;
  const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(limits::kConnectTimeoutMs);
  while (got.size() < n && std::chrono::steady_clock::now() < until) {
    peer.wait(0);
    for (const Event& e : loop.wait(10)) {
      REQUIRE(e.kind == Event::kData);
      REQUIRE(e.id == id);
      got += e.data;
    }
  }
  return got;
}

}  // namespace

TEST_CASE("platform: the endpoint carries bytes both ways between this user's processes, and says when a side goes",
          "[bridge][platform]") {
  OwnEndpoint own;
  platform::EventLoop host, agent;
  std::string err;
  REQUIRE(host.listen(err));
  const int c = agent.connect(err);
  INFO(err);
  REQUIRE(c >= 1);
  std::vector<Event> other;
  const Event accepted = next_event(host, Event::kAccepted, other);
  CHECK(other.empty());
  const int s = accepted.id;
  REQUIRE(s >= 1);

  REQUIRE(agent.send(c, "hello host"));
  CHECK(read_bytes(host, s, 10, agent) == "hello host");
  // More than any pipe or socket buffer: queued, then drained as it is read (a loop sends what it
  // queued while it waits, as the bridge's own loops always do: read_bytes waits on both).
  const std::string big(3u << 20, 'x');
  REQUIRE(host.send(s, big));
  CHECK(read_bytes(agent, c, big.size(), host) == big);
  const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(limits::kConnectTimeoutMs);
  while (host.queued(s) > 0 && std::chrono::steady_clock::now() < until) host.wait(limits::kPollMs);
  CHECK(host.queued(s) == 0);

  agent.close(c);
  const Event gone = next_event(host, Event::kClosed, other);
  CHECK(gone.id == s);
  CHECK_FALSE(agent.send(c, "after close"));
}

TEST_CASE(
    "platform: a second listener on the same endpoint is refused, naming it, and once the host is gone connecting says "
    "so",
    "[bridge][platform]") {
  OwnEndpoint own;
  auto first = std::make_unique<platform::EventLoop>();
  platform::EventLoop second, agent;
  std::string err;
  REQUIRE(first->listen(err));
  CHECK_FALSE(second.listen(err));
  CHECK(err == "another athena-bridge native host is already listening on " + platform::endpoint_name() +
                   " (a second Chrome profile with the extension?); only one can serve at a time");
  first.reset();  // the host exits: its endpoint goes with it
  err.clear();
  CHECK(agent.connect(err) == -1);
  INFO(err);
  CHECK(err.rfind("no native host is listening on " + platform::endpoint_name(), 0) == 0);
}

TEST_CASE("platform: a folder place holds the manifest file: written, read back, removed once",
          "[bridge][platform][install]") {
  TempDir dir;
  const std::string place = dir.str() + platform::path_separator() + "NativeMessagingHosts";
  CHECK(platform::read_registration(place, "com.test.host").text.empty());
  std::string where, err;
  REQUIRE(platform::write_registration(place, "com.test.host", "{\"a\":1}\n", where, err));
  CHECK(fs::exists(fs::u8path(where)));
  CHECK(platform::read_registration(place, "com.test.host").text == "{\"a\":1}\n");
  CHECK(platform::remove_registration(place, "com.test.host", where));
  CHECK_FALSE(fs::exists(fs::u8path(where)));
  CHECK_FALSE(platform::remove_registration(place, "com.test.host", where));
}

TEST_CASE("platform: paths, the executable's own path, the random source", "[bridge][platform]") {
  TempDir dir;
  const std::string sep(1, platform::path_separator());
  CHECK(platform::is_absolute(dir.str()));
  CHECK_FALSE(platform::is_absolute("relative" + sep + "x"));
  CHECK_FALSE(platform::is_absolute(""));
  const std::string file = dir.str() + sep + "f.txt";
  std::string err;
  REQUIRE(platform::write_file(file, "x", err));
  const std::string real = platform::real_path(file);
  CHECK_FALSE(real.empty());
  CHECK(platform::real_path(dir.str() + sep + "." + sep + "f.txt") == real);
  CHECK(platform::real_path(dir.str() + sep + "missing") == "");
  CHECK(platform::is_dir(dir.str()));
  CHECK_FALSE(platform::is_dir(file));
  CHECK_FALSE(platform::is_executable(file));
  const std::string me = platform::self_path();
  CHECK(platform::is_absolute(me));
  CHECK(platform::is_executable(me));
  CHECK(fs::path(fs::u8path(me)).stem() == "test_bridge");
  unsigned char a[16] = {}, b[16] = {};
  REQUIRE(platform::random_bytes(a, sizeof a));
  REQUIRE(platform::random_bytes(b, sizeof b));
  CHECK(std::string(a, a + 16) != std::string(b, b + 16));
}
