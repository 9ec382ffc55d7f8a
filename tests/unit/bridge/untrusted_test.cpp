// Hostile JSON on every reader of the bridge: bounded before parsing, typed on access. The same
// attacks through the built binary are in bridge/test/hostile.test.mjs.
#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <cstdio>

#include "host.h"
#include "install.h"
#include "limits.h"
#include "mcp.h"
#include "tools.h"
#include "untrusted_json.h"

using namespace athena::bridge;

namespace {

std::string deep(std::size_t depth) {
  return std::string(depth, '[') + "1" + std::string(depth, ']');
}

struct Lines {
  std::vector<json> out;
  McpServer server{McpServer::Io{[this](const json& m) { out.push_back(m); }, [](const json&) { return true; },
                                 [](std::string&) { return true; }}};
  const json& send(const std::string& line) {
    out.clear();
    server.on_line(line);
    REQUIRE_FALSE(out.empty());
    return out.back();
  }
};

}  // namespace

TEST_CASE("scan_json: depth and batch size without parsing, strings skipped", "[bridge][untrusted]") {
  CHECK(scan_json("1").depth == 0);
  CHECK(scan_json(R"({"a":[1,{"b":2}]})").depth == 3);
  CHECK(scan_json(R"({"a":"[[[[{{{{"})").depth == 1);  // brackets in a string do not count
  CHECK(scan_json(R"({"a":"\"[[[[\\"})").depth == 1);  // nor after escaped quotes and backslashes
  CHECK(scan_json(deep(100000)).depth == 100000);
  CHECK(scan_json("[]").top_items == 0);
  CHECK(scan_json("[1]").top_items == 1);
  CHECK(scan_json(R"([{"a":[1,2,3]},"x,y",3])").top_items == 3);  // commas inside items and strings do not count
  CHECK(scan_json(R"({"a":1,"b":2})").top_items == 0);            // only a top-level array is a batch
}

TEST_CASE("parse_untrusted: at the depth limit parses, one deeper is refused with the numbers", "[bridge][untrusted]") {
  std::string why;
  CHECK(parse_untrusted(deep(limits::kMaxJsonDepth), why).is_array());
  const json refused = parse_untrusted(deep(limits::kMaxJsonDepth + 1), why);
  CHECK(refused.is_discarded());
  CHECK(why == "nested 65 levels deep; at most 64");
  CHECK(parse_untrusted("[1,2,3]", why, 3).is_array());
  CHECK(parse_untrusted("[1,2,3,4]", why, 3).is_discarded());
  CHECK(why == "a batch of 4 messages; at most 3");
  CHECK(parse_untrusted("{oops", why).is_discarded());
  CHECK(why == "not valid JSON");
}

TEST_CASE("typed field access never throws", "[bridge][untrusted]") {
  const json m = {{"type", 5}, {"ok", "yes"}, {"n", "7"}, {"s", "x"}};
  CHECK(str_field(m, "type") == "");
  CHECK(str_field(m, "s") == "x");
  CHECK(str_field(json::array(), "s", "fb") == "fb");
  CHECK_FALSE(bool_field(m, "ok"));
  CHECK(number_field(m, "n", 3) == 3);
  CHECK(field(m, "missing") == nullptr);
  CHECK(is_id(json("a")));
  CHECK(is_id(json(12)));
  CHECK_FALSE(is_id(json(1.5)));
  CHECK_FALSE(is_id(json::object()));
  CHECK_FALSE(is_id(json(nullptr)));
}

TEST_CASE("MCP: wrongly typed JSON-RPC is an error, never an abort", "[bridge][mcp][untrusted]") {
  Lines l;
  CHECK(l.send(R"({"jsonrpc":2,"id":1,"method":"ping"})")["error"]["code"] == -32600);
  CHECK(l.send(R"({"jsonrpc":null,"id":1,"method":"ping"})")["error"]["code"] == -32600);
  CHECK(l.send(R"({"jsonrpc":"2.0","id":1,"method":7})")["error"]["code"] == -32600);
  // A non-echoable id is answered with id null.
  const json& bad_id = l.send(R"({"jsonrpc":"2.0","id":{"a":[1]},"method":"ping"})");
  CHECK(bad_id["id"].is_null());
  CHECK(bad_id["error"]["message"] == "invalid request: id must be a string or an integer");
  const json& bad_id2 = l.send(R"({"jsonrpc":2,"id":[1,2],"method":"ping"})");
  CHECK(bad_id2["id"].is_null());
  // initialize with wrong types still initializes, with our newest version and a default name.
  const json& init = l.send(
      R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":5,"clientInfo":{"name":{"x":1}}}})");
  CHECK(init["result"]["protocolVersion"] == legacy_protocol_versions().front());
  CHECK(l.server.client_name() == "mcp-client");
  CHECK(l.send(R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":7}})")["error"]["code"] == -32602);
  CHECK(
      l.send(
          R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"snapshot","_meta":{"progressToken":[1]}}})")
          ["error"]["message"] == "_meta.progressToken must be a string or an integer");
  // A cancellation whose requestId is an object is ignored (no answer, no abort).
  l.out.clear();
  l.server.on_line(R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":{"a":1}}})");
  CHECK(l.out.empty());
}

TEST_CASE("MCP: deep values and big batches are refused before they are parsed", "[bridge][mcp][untrusted]") {
  Lines l;
  const json& deep_id = l.send(R"({"jsonrpc":"2.0","method":"ping","id":)" + deep(80000) + "}");
  CHECK(deep_id["id"].is_null());
  CHECK(deep_id["error"]["message"] == "refused: nested 80001 levels deep; at most 64");
  std::string batch = "[";
  for (std::size_t i = 0; i <= limits::kMaxBatchItems; ++i)
    batch += std::string(i ? "," : "") + R"({"jsonrpc":"2.0","id":1,"method":"ping"})";
  batch += "]";
  CHECK(l.send(batch)["error"]["message"] == "refused: a batch of 33 messages; at most 32");
  CHECK(l.send(R"({"jsonrpc":"2.0","id":9,"method":"ping"})")["result"] == json::object());
}

TEST_CASE("MCP: wrongly typed messages from the host are ignored or read as absent", "[bridge][mcp][untrusted]") {
  Lines l;
  l.server.on_host({{"type", 5}});
  l.server.on_host({{"type", "status"}, {"extension", "yes"}});
  CHECK_FALSE(l.server.extension_connected());
  l.server.on_host({{"type", "status"}, {"extension", true}});
  l.out.clear();
  l.server.on_line(R"({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"snapshot","arguments":{}}})");
  CHECK(l.server.in_flight() == 1);
  // The host's reply with every field of the wrong type: the agent gets an error, no abort.
  l.server.on_host({{"type", "result"}, {"id", "m1"}, {"ok", "true"}, {"error", {{"code", 5}, {"message", {1}}}}});
  REQUIRE(l.out.size() == 1);
  CHECK(l.out.back()["result"]["isError"] == true);
  CHECK(l.out.back()["result"]["content"][0]["text"] == "error error: the extension failed the call");
}

TEST_CASE("host: wrongly typed messages from the extension and from clients get errors", "[bridge][host][untrusted]") {
  HostRouter r;
  auto out = r.from_extension({{"type", 5}});
  REQUIRE(out.size() == 1);
  CHECK(out[0].message["code"] == "protocol");
  out = r.from_extension({{"type", "hello"}, {"protocol", "1"}});
  CHECK(out[0].message["code"] == "protocol_mismatch");
  out = r.from_extension({{"type", "hello"}, {"protocol", 1}, {"extension", 3}});
  CHECK(r.extension_ready());
  out = r.from_extension({{"type", {{"x", 1}}}});
  CHECK(out[0].message["code"] == "unknown_type");
  r.client_connected(1);
  out = r.from_client(1, {{"type", "call"}, {"tool", "snapshot"}, {"id", {{"a", 1}}}});
  CHECK(out[0].message["code"] == "bad_message");
  out = r.from_client(1, {{"type", "call"}, {"tool", 5}, {"id", "x"}});
  CHECK(out[0].message["code"] == "bad_message");
  out = r.from_client(1, {{"type", "cancel"}});
  CHECK(out.empty());
  CHECK(r.pending() == 0);
}

TEST_CASE("sessions: random ids, and a reconnecting client gets back only its own", "[bridge][host][sessions]") {
  const std::string a = new_session_id(), b = new_session_id();
  CHECK(is_session_id(a));
  CHECK(a != b);
  CHECK_FALSE(is_session_id("s1"));
  CHECK_FALSE(is_session_id("S0123456789abcdef0123456789abcdef"));
  CHECK_FALSE(is_session_id("s0123456789abcdef0123456789abcdeg"));
  HostRouter r;
  r.from_extension({{"type", "hello"}, {"protocol", 1}});
  r.client_connected(1);
  auto out = r.from_client(1, {{"type", "hello"}, {"client", "one"}, {"session", a}});
  REQUIRE(out.size() == 2);
  CHECK(out[0].message["type"] == "session_open");
  CHECK(out[0].message["session"] == a);  // proposed and free: resumed
  r.client_connected(2);
  out = r.from_client(2, {{"type", "hello"}, {"client", "two"}, {"session", a}});
  CHECK(out[0].message["session"] != a);  // taken by another connection: a fresh one
  CHECK(is_session_id(out[0].message["session"]));
  r.client_connected(3);
  out = r.from_client(3, {{"type", "hello"}, {"client", "three"}, {"session", "s1"}});
  CHECK(out[0].message["session"] != "s1");  // not of the form: a fresh one
}

// POSIX paths and POSIX answers (tests/cross/windows.test.mjs checks what Windows refuses).
#if !defined(_WIN32)
TEST_CASE("install: options are checked before anything is written", "[bridge][install]") {
  InstallOptions o;
  o.extension_ids = {"moghbgobfpekbghiggmlgdfdfbebnaek"};
  o.user_data_dir = "/tmp/profile";
  CHECK(check_install_options(o) == "");
  o.extension_ids = {"moghbgobfpekbghiggmlgdfdfbebnaek", "moghbgobfpekbghiggmlgdfdfbebnaez"};
  CHECK(check_install_options(o).find("is not an extension id (32 letters a-p") != std::string::npos);
  o.extension_ids = {};
  o.binary = "athena-bridge";
  CHECK(check_install_options(o) == "--binary 'athena-bridge' must be an absolute path");
  const std::string plain = "/tmp/athena-install-test-not-executable";
  {
    std::FILE* f = std::fopen(plain.c_str(), "w");
    REQUIRE(f);
    std::fclose(f);
  }
  ::chmod(plain.c_str(), 0644);
  o.binary = plain;
  CHECK(check_install_options(o) == "--binary '" + plain + "' is not an executable file");
  std::remove(plain.c_str());
  o.binary = "";
  o.user_data_dir = "profile";
  CHECK(check_install_options(o) == "--user-data-dir 'profile' must be an absolute path");
}
#endif

TEST_CASE("tool arguments: an integer argument given as a float beyond 64 bits is refused, not cast",
          "[bridge][tools][untrusted]") {
  // Found by fuzz/jsonrpc.cpp: casting 9.2e19 to long long was undefined behaviour.
  const json* wait = find_tool("wait_for");
  REQUIRE(wait);
  CHECK(check_arguments(*wait, json::parse(R"({"ms": 92233720360854775807})")) ==
        "wait_for: argument 'ms' must be integer");
  CHECK(check_arguments(*wait, json::parse(R"({"ms": 1e300})")) == "wait_for: argument 'ms' must be integer");
  CHECK(check_arguments(*wait, json::parse(R"({"ms": 5000.0})")) == "");
  CHECK(check_arguments(*wait, json::parse(R"({"ms": 1.5})")) == "wait_for: argument 'ms' must be integer");
}
