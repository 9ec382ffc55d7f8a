// athena-bridge's logic without processes: framing, chunking, host routing, the MCP state machine.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>

#include "framing.h"
#include "host.h"
#include "limits.h"
#include "mcp.h"
#include "tools.h"

using namespace athena::bridge;

TEST_CASE("frames: length prefix little-endian, split anywhere, oversize refused", "[bridge][framing]") {
  const std::string a = encode_frame("{\"a\":1}"), b = encode_frame(std::string(300, 'x'));
  CHECK(a.substr(0, 4) == std::string("\x07\x00\x00\x00", 4));
  FrameReader r(1000);
  const std::string both = a + b;
  for (std::size_t i = 0; i < both.size(); ++i) REQUIRE(r.feed(&both[i], 1));  // byte by byte
  CHECK(r.next() == std::string("{\"a\":1}"));
  CHECK(r.next() == std::string(300, 'x'));
  CHECK_FALSE(r.next());
  CHECK(r.pending() == 0);
  SECTION("a truncated message stays pending (EOF then says so)") {
    const std::string t = encode_frame("abcdef").substr(0, 7);
    r.feed(t.data(), t.size());
    CHECK_FALSE(r.next());
    CHECK(r.pending() == 7);
  }
  SECTION("an announced length over the limit fails the stream") {
    FrameReader small(10);
    const std::string big = encode_frame(std::string(11, 'y'));
    CHECK_FALSE(small.feed(big.data(), 4));
    CHECK(small.failed());
    CHECK(small.error() == "a message of 11 bytes exceeds the limit of 10 bytes");
  }
}

TEST_CASE("chunks: split under Chrome's limit, reassembled exactly, bad pieces refused", "[bridge][framing]") {
  std::string text;
  for (int i = 0; i < 300'000; ++i) text += i % 3 ? "ab" : "\xC3\xA9";  // é: never split inside it
  const auto pieces = split_for_chrome(text, "c1", 100'000);
  REQUIRE(pieces.size() > 1);
  ChunkAssembler as;
  std::optional<std::string> whole;
  for (const auto& p : pieces) {
    CHECK(p.size() <= 100'000);
    whole = as.add(nlohmann::json::parse(p));
  }
  REQUIRE(whole);
  CHECK(*whole == text);
  CHECK(as.open() == 0);
  CHECK(split_for_chrome("small", "c2", 100).size() == 1);
  CHECK_THROWS_WITH(as.add({{"id", "x"}, {"seq", 1u}, {"total", 2u}, {"data", "d"}}),
                    "chunk x: piece 1 of 2 out of order (expected 0)");
  CHECK_THROWS_WITH(as.add({{"id", "x"}, {"seq", 0u}, {"total", 0u}, {"data", "d"}}), Catch::Contains("outside 1.."));
  CHECK_THROWS(as.add({{"id", 3}}));
}

TEST_CASE("host routing: calls before the extension's hello are refused with not_connected", "[bridge][host]") {
  HostRouter r;
  r.client_connected(1);
  auto out = r.from_client(1, {{"type", "call"}, {"id", 7}, {"tool", "snapshot"}, {"args", nlohmann::json::object()}});
  REQUIRE(out.size() == 1);
  CHECK(out[0].client == 1);
  CHECK(out[0].message["error"]["code"] == "not_connected");
  // Its session opens when the extension arrives.
  auto hello = r.from_extension({{"type", "hello"}, {"protocol", limits::kProtocol}});
  REQUIRE(hello.size() == 3);
  CHECK(hello[1].message["type"] == "session_open");
  CHECK(hello[2].message["extension"] == true);
}

TEST_CASE("host routing: one client's flood of calls stops at its share, and another client's call goes through",
          "[bridge][host][fair]") {
  HostRouter r;
  r.from_extension({{"type", "hello"}, {"protocol", limits::kProtocol}});
  r.client_connected(1);
  r.client_connected(2);
  r.from_client(1, {{"type", "hello"}, {"client", "flood"}});
  r.from_client(2, {{"type", "hello"}, {"client", "other"}});
  for (std::size_t i = 0; i < limits::kMaxCallsPerClient; ++i) {
    auto out = r.from_client(1, {{"type", "call"}, {"id", static_cast<int>(i)}, {"tool", "snapshot"}});
    REQUIRE(out.size() == 1);
    REQUIRE(out[0].client == 0);  // to the extension
  }
  CHECK(r.calls_of(1) == limits::kMaxCallsPerClient);
  auto over = r.from_client(1, {{"type", "call"}, {"id", -1}, {"tool", "snapshot"}});
  REQUIRE(over.size() == 1);
  CHECK(over[0].client == 1);
  CHECK(over[0].message["error"]["code"] == "busy");
  CHECK(over[0].message["error"]["message"] == "this agent already has " + std::to_string(limits::kMaxCallsPerClient) +
                                                   " calls in flight, its share; wait for some to finish");
  auto other = r.from_client(2, {{"type", "call"}, {"id", 1}, {"tool", "snapshot"}});
  REQUIRE(other.size() == 1);
  CHECK(other[0].client == 0);
  CHECK(r.calls_of(2) == 1);
}

TEST_CASE(
    "host routing: a client let go to make room keeps its session, and gets it back when it reconnects with its id",
    "[bridge][host][fair]") {
  HostRouter r;
  r.from_extension({{"type", "hello"}, {"protocol", limits::kProtocol}});
  r.client_connected(1);
  const auto opened = r.from_client(1, {{"type", "hello"}, {"client", "agent"}});
  const std::string session = opened[0].message["session"];
  CHECK(r.client_suspended(1).empty());  // no session_close for the extension
  r.client_connected(2);
  const auto back = r.from_client(2, {{"type", "hello"}, {"client", "agent"}, {"session", session}});
  REQUIRE(back.size() == 2);
  CHECK(back[0].message["type"] == "session_open");
  CHECK(back[0].message["session"] == session);
  const auto gone = r.client_gone(2);  // a client that leaves for good closes it
  REQUIRE(gone.size() == 1);
  CHECK(gone[0].message["type"] == "session_close");
}

TEST_CASE("host routing: hello first, sessions per client, ids rewritten and restored", "[bridge][host]") {
  HostRouter r;
  auto hello = r.from_extension({{"type", "hello"}, {"protocol", limits::kProtocol}, {"extension", "1.0"}});
  REQUIRE(hello.size() == 1);
  CHECK(hello[0].message["type"] == "hello");
  r.client_connected(1);
  r.client_connected(2);
  auto h1 = r.from_client(1, {{"type", "hello"}, {"client", "claude"}});
  auto h2 = r.from_client(2, {{"type", "hello"}, {"client", "cursor"}});
  CHECK(h1[0].message["type"] == "session_open");
  CHECK(h2[0].message["session"] != h1[0].message["session"]);
  auto c1 = r.from_client(1, {{"type", "call"}, {"id", 1}, {"tool", "click"}});
  auto c2 = r.from_client(2, {{"type", "call"}, {"id", 1}, {"tool", "click"}});  // same id, other client
  const std::string hid1 = c1[0].message["id"], hid2 = c2[0].message["id"];
  CHECK(hid1 != hid2);
  auto res = r.from_extension({{"type", "result"}, {"id", hid2}, {"ok", true}});
  REQUIRE(res.size() == 1);
  CHECK(res[0].client == 2);
  CHECK(res[0].message["id"] == 1);
  CHECK(r.from_extension({{"type", "result"}, {"id", hid2}, {"ok", true}}).empty());  // answered once only
  SECTION("a client leaving cancels its calls and closes its session") {
    auto gone = r.client_gone(1);
    REQUIRE(gone.size() == 2);
    CHECK(gone[0].message == nlohmann::json({{"type", "cancel"}, {"id", hid1}}));
    CHECK(gone[1].message["type"] == "session_close");
    CHECK(r.pending() == 0);
  }
  SECTION("a wrong protocol is named with what to update") {
    HostRouter r2;
    auto e = r2.from_extension({{"type", "hello"}, {"protocol", 0}});
    CHECK(e[0].message["code"] == "protocol_mismatch");
    CHECK(e[0].message["message"] == "the extension speaks protocol 0, athena-bridge 1: update the extension");
    CHECK_FALSE(r2.extension_ready());
  }
}

// POSIX only: making a symlink needs a privilege on Windows (there resolve_upload_files is
// platform::real_path, checked by platform_test.cpp).
#if !defined(_WIN32)
TEST_CASE(
    "host routing: upload paths reach the extension resolved, a missing file goes on as given (its absence is not "
    "told)",
    "[bridge][host]") {
  char tmpl[] = "/tmp/athena-upload-XXXXXX";
  REQUIRE(::mkdtemp(tmpl) != nullptr);
  const std::string dir = tmpl;
  const std::string real = dir + "/allowed.txt", link = dir + "/link.txt", secret = dir + "/secret.txt";
  for (const std::string& p : {real, secret}) {
    std::FILE* f = std::fopen(p.c_str(), "w");
    REQUIRE(f != nullptr);
    std::fclose(f);
  }
  REQUIRE(::symlink(secret.c_str(), link.c_str()) == 0);
  HostRouter r;
  r.from_extension({{"type", "hello"}, {"protocol", limits::kProtocol}});
  r.client_connected(1);
  r.from_client(1, {{"type", "hello"}, {"client", "a"}});
  auto sent = r.from_client(1, {{"type", "call"},
                                {"id", 1},
                                {"tool", "upload"},
                                {"args", {{"ref", "e2"}, {"files", {dir + "/./allowed.txt", link, 7}}}}});
  REQUIRE(sent.size() == 1);
  CHECK(sent[0].client == 0);
  // The symlink becomes the file it points at: the extension compares that with the user's folders.
  CHECK(sent[0].message["args"]["files"] == nlohmann::json({real, secret, 7}));
  // Whether a file exists is never told here: a missing one reaches the extension as given, which
  // refuses it with the same words as an existing one when uploads are off (extension/lib/policy.js).
  auto missing = r.from_client(
      1, {{"type", "call"}, {"id", 2}, {"tool", "upload"}, {"args", {{"files", {dir + "/nope", dir + "/x/../nope"}}}}});
  REQUIRE(missing.size() == 1);
  CHECK(missing[0].client == 0);
  CHECK(missing[0].message["args"]["files"] == nlohmann::json({dir + "/nope", dir + "/x/../nope"}));
  CHECK(r.pending() == 2);
  for (const std::string& p : {link, real, secret}) ::unlink(p.c_str());
  ::rmdir(dir.c_str());
}
#endif

namespace {

struct FakeIo {
  std::vector<nlohmann::json> to_client, to_host;
  bool connected = true;
  int connects = 0;  // connect_host calls
  McpServer::Io io() {
    return {[this](const nlohmann::json& m) { to_client.push_back(m); },
            [this](const nlohmann::json& m) {
              if (!connected) return false;
              to_host.push_back(m);
              return true;
            },
            [this](std::string& e) {
              ++connects;
              if (!connected) e = "no native host is listening";
              return connected;
            }};
  }
};

}  // namespace

TEST_CASE("MCP: initialize negotiates, errors are JSON-RPC errors", "[bridge][mcp]") {
  FakeIo f;
  McpServer s(f.io());
  s.on_line(
      R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26","clientInfo":{"name":"x","version":"1"}}})");
  CHECK(f.to_client.back()["result"]["protocolVersion"] == "2025-03-26");
  s.on_line(R"({"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocolVersion":"1999-01-01"}})");
  CHECK(f.to_client.back()["result"]["protocolVersion"] == legacy_protocol_versions().front());
  CHECK_FALSE(f.to_client.back()["result"]["capabilities"].contains("logging"));  // nothing sends log messages
  CHECK_FALSE(f.to_client.back()["result"].contains("resultType"));  // a 2026-07-28 field: not for a legacy client
  s.on_line("{not json");
  CHECK(f.to_client.back()["error"]["code"] == -32700);
  s.on_line(R"({"jsonrpc":"2.0","id":3,"method":"nope"})");
  CHECK(f.to_client.back()["error"]["code"] == -32601);
  s.on_line(R"({"jsonrpc":"1.0","id":4,"method":"ping"})");
  CHECK(f.to_client.back()["error"]["code"] == -32600);
  s.on_line(
      R"({"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"click","arguments":{"ref":"e1","extra":1}}})");
  CHECK(f.to_client.back()["error"]["message"] == "click: unknown argument 'extra' (known: ref, tab, version)");
  const std::size_t before = f.to_client.size();
  s.on_line(R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
  CHECK(f.to_client.size() == before);  // notifications get no answer
}

TEST_CASE("MCP: calls have deadlines: cancellation and lost hosts never leave a call hanging", "[bridge][mcp]") {
  FakeIo f;
  McpServer s(f.io());
  s.on_host({{"type", "status"}, {"extension", true}});
  const auto t0 = Clock::now();
  s.on_line(R"({"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"snapshot","arguments":{}}})", t0);
  REQUIRE(f.to_host.size() == 1);
  CHECK(s.in_flight() == 1);
  SECTION("deadline") {
    s.tick(t0 + std::chrono::milliseconds(limits::kCallDeadlineMs - 1));
    CHECK(s.in_flight() == 1);
    s.tick(t0 + std::chrono::milliseconds(limits::kCallDeadlineMs));
    CHECK(s.in_flight() == 0);
    CHECK(f.to_client.back()["result"]["isError"] == true);
    // Our own answer, before the client's own timeout, saying what to do.
    const std::string t = f.to_client.back()["result"]["content"][0]["text"];
    CHECK(t.find("snapshot timed out after " + std::to_string(limits::kCallDeadlineMs) + " ms") == 0);
    CHECK(t.find("take a snapshot") != std::string::npos);
    CHECK(f.to_host.back()["type"] == "cancel");
  }
  SECTION("cancelled by the client: no answer, the extension is told") {
    s.on_line(R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":9}})");
    CHECK(s.in_flight() == 0);
    CHECK(f.to_host.back()["type"] == "cancel");
  }
  SECTION("host lost") {
    s.on_host_lost("Chrome closed");
    CHECK(s.in_flight() == 0);
    CHECK(f.to_client.back()["result"]["isError"] == true);
  }
  SECTION("progress is forwarded only to clients that asked") {
    const std::string hid = f.to_host.back()["id"];
    const std::size_t n = f.to_client.size();
    s.on_host({{"type", "progress"}, {"id", hid}, {"progress", 1}});
    CHECK(f.to_client.size() == n);
  }
}

TEST_CASE("MCP: not connected gives an actionable tool error", "[bridge][mcp]") {
  FakeIo f;
  f.connected = false;
  McpServer s(f.io());
  s.on_line(
      R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"navigate","arguments":{"url":"http://x/"}}})");
  const auto& r = f.to_client.back()["result"];
  CHECK(r["isError"] == true);
  const std::string t = r["content"][0]["text"];
  CHECK(t.find("Chrome with the Athena Delta extension is not connected: no native host is listening") == 0);
  CHECK(t.find("athena-bridge doctor") != std::string::npos);
}

TEST_CASE(
    "MCP: a call whose write finds the host gone before its hang-up is read waits, and the server reconnects for it",
    "[bridge][mcp][reconnect]") {
  FakeIo f;
  McpServer s(f.io());
  s.on_host({{"type", "status"}, {"extension", true}});
  const auto t0 = Clock::now();
  s.on_line(
      R"({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"navigate","arguments":{"url":"http://x/"}}})",
      t0);
  REQUIRE(s.in_flight() == 1);
  f.connected = false;  // Chrome stopped the worker: the host exits; its hang-up is not read yet
  const std::size_t answered = f.to_client.size();
  s.on_line(R"({"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"snapshot","arguments":{}}})", t0);
  CHECK(s.waiting() == 1);
  CHECK_FALSE(s.extension_connected());
  CHECK(f.to_client.size() == answered);
  f.connected = true;  // the worker is back with a new host
  const int connects = f.connects;
  s.tick(t0 + std::chrono::milliseconds(limits::kReconnectEveryMs));
  CHECK(f.connects == connects + 1);  // it reconnects for the waiting call
  CHECK(s.in_flight() == 0);          // the call sent to the host that went is answered: it is lost with it
  REQUIRE(f.to_client.size() == answered + 1);
  CHECK(f.to_client.back()["id"] == 3);
  CHECK(f.to_client.back()["result"]["isError"] == true);
  s.on_host({{"type", "status"}, {"extension", true}});  // the new host's status
  s.tick(t0 + std::chrono::milliseconds(limits::kReconnectEveryMs * 2));
  CHECK(s.waiting() == 0);
  CHECK(s.in_flight() == 1);
  CHECK(f.to_host.back()["tool"] == "snapshot");
}

TEST_CASE("MCP: an extension that went away (Chrome stopped its worker) is waited for, within a bound",
          "[bridge][mcp][reconnect]") {
  FakeIo f;
  McpServer s(f.io());
  s.on_host({{"type", "status"}, {"extension", true}});
  s.on_host_lost("the native host went away");
  f.connected = false;
  const auto t0 = Clock::now();
  const std::size_t answered = f.to_client.size();
  s.on_line(R"({"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"snapshot","arguments":{}}})", t0);
  CHECK(f.to_client.size() == answered);  // no "not connected" at once
  CHECK(s.waiting() == 1);
  s.tick(t0 + std::chrono::milliseconds(limits::kReconnectEveryMs));
  CHECK(s.waiting() == 1);
  SECTION("back: the call goes out with what is left of its deadline") {
    f.connected = true;
    s.on_host({{"type", "status"}, {"extension", true}});  // the host's hello broadcast
    s.tick(t0 + std::chrono::milliseconds(10'000));
    CHECK(s.waiting() == 0);
    CHECK(s.in_flight() == 1);
    REQUIRE(f.to_host.size() == 1);
    CHECK(f.to_host.back()["tool"] == "snapshot");
    CHECK(f.to_host.back()["deadline_ms"] == limits::kCallDeadlineMs - 10'000 - limits::kDeadlineMarginMs);
    CHECK(f.to_client.size() == answered);
  }
  SECTION("not back within the bound: answered not connected, saying so") {
    s.tick(t0 + std::chrono::milliseconds(limits::kReconnectWaitMs - 1));
    CHECK(s.waiting() == 1);
    s.tick(t0 + std::chrono::milliseconds(limits::kReconnectWaitMs));
    CHECK(s.waiting() == 0);
    REQUIRE(f.to_client.size() == answered + 1);
    CHECK(f.to_client.back()["id"] == 7);
    CHECK(f.to_client.back()["result"]["isError"] == true);
    const std::string t = f.to_client.back()["result"]["content"][0]["text"];
    CHECK(t.find("Chrome with the Athena Delta extension is not connected: it went away and did not come back within " +
                 std::to_string(limits::kReconnectWaitMs) + " ms") == 0);
  }
}

TEST_CASE("tool list: every tool has a schema: outputSchema only in structured mode", "[bridge][tools]") {
  for (const auto& t : tool_list()) {
    INFO(t["name"]);
    CHECK(t["inputSchema"]["type"] == "object");
    CHECK(t["description"].get<std::string>().size() < 80);
    CHECK_FALSE(t.contains("outputSchema"));
  }
  for (const auto& t : tool_list(true)) {
    INFO(t["name"]);
    CHECK(t.contains("outputSchema") == returns_factpack(t["name"]));
  }
  // Arguments the extension takes are accepted: tab ids are strings ("c0p1", "shared-12").
  CHECK(check_arguments(*find_tool("tabs"), {{"action", "select"}, {"tab", "c0p2"}}) == "");
  CHECK(check_arguments(*find_tool("click"), {{"ref", "e3"}, {"tab", "c0p1"}}) == "");
  CHECK(check_arguments(*find_tool("tabs"), {{"action", "close"}, {"tab", 3}}) ==
        "tabs: argument 'tab' must be string");
  CHECK(check_arguments(*find_tool("wait_for"), {{"ref", "e3"}, {"state", "hidden"}}) == "");
  CHECK(check_arguments(*find_tool("wait_for"), {{"gone", "Loading"}}) == "");
  CHECK(check_arguments(*find_tool("find"),
                        {{"region", "Primary"}, {"after", "e20"}, {"limit", 20}, {"frame", "f2"}}) == "");
  CHECK(check_arguments(*find_tool("read"), {{"region", "main"}, {"frame", "f1"}}) == "");
  CHECK(check_arguments(*find_tool("type"), {{"ref", "a"}, {"text", "b"}, {"submit", true}}) == "");
  CHECK(check_arguments(*find_tool("select"), {{"ref", "a"}, {"values", {1}}}) ==
        "select: every item of 'values' must be string");
}

TEST_CASE("MCP: by default a FactPack reaches the client as text only", "[bridge][mcp]") {
  FakeIo f;
  McpServer s(f.io());
  s.on_host({{"type", "status"}, {"extension", true}});
  s.on_line(R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})");
  for (const auto& t : f.to_client.back()["result"]["tools"]) CHECK_FALSE(t.contains("outputSchema"));
  s.on_line(R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"click","arguments":{"ref":"e3"}}})");
  const std::string hid = f.to_host.back()["id"];
  s.on_host({{"type", "result"},
             {"id", hid},
             {"ok", true},
             {"text", "<no_change v=\"6\"/>\n"},
             {"factpack", {{"type", "no_change"}, {"version", 6}}},
             {"version", 6}});
  const auto& r = f.to_client.back()["result"];
  CHECK(r["content"] == nlohmann::json::array({{{"type", "text"}, {"text", "<no_change v=\"6\"/>\n"}}}));
  CHECK_FALSE(r.contains("structuredContent"));
}

TEST_CASE("MCP: structured mode honours the outputSchema on every FactPack result", "[bridge][mcp]") {
  FakeIo f;
  McpServer s(f.io(), McpOptions{true});
  s.on_host({{"type", "status"}, {"extension", true}});
  s.on_line(R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})");
  std::size_t with_schema = 0;
  for (const auto& t : f.to_client.back()["result"]["tools"]) with_schema += t.contains("outputSchema");
  CHECK(with_schema == 14);
  auto call = [&](const nlohmann::json& result) {
    s.on_line(R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"click","arguments":{"ref":"e3"}}})");
    nlohmann::json m = result;
    m["type"] = "result";
    m["id"] = f.to_host.back()["id"];
    m["ok"] = true;
    s.on_host(m);
    return f.to_client.back()["result"]["structuredContent"];
  };
  SECTION("a FactPack passes through") {
    const nlohmann::json fp = {{"type", "delta"}, {"version", 5}, {"added", nlohmann::json::array()}};
    CHECK(call({{"text", "<delta v=\"5\">"}, {"factpack", fp}, {"version", 5}}) == fp);
  }
  SECTION("a dialog that interrupted the action gets the reply's version") {
    const auto sc = call({{"text", "<dialog …>"},
                          {"factpack", {{"type", "dialog"}, {"dialog", {{"type", "confirm"}}}}},
                          {"version", 7}});
    CHECK(sc["type"] == "dialog");
    CHECK(sc["version"] == 7);
  }
  SECTION("no FactPack and no version still satisfies the schema") {
    const auto sc = call({{"text", "done"}});
    CHECK(sc["type"] == "no_change");
    CHECK(sc["version"] == 0);
  }
}

TEST_CASE("MCP: a screenshot result reaches the agent as an MCP image", "[bridge][mcp]") {
  FakeIo f;
  McpServer s(f.io());
  s.on_host({{"type", "status"}, {"extension", true}});
  s.on_line(R"({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"screenshot","arguments":{}}})");
  const std::string hid = f.to_host.back()["id"];
  s.on_host({{"type", "result"},
             {"id", hid},
             {"ok", true},
             {"text", "screenshot of c0p1"},
             {"image", {{"mime", "image/png"}, {"data", "iVBORw0KGgo="}}}});
  const auto& content = f.to_client.back()["result"]["content"];
  REQUIRE(content.size() == 2);
  CHECK(content[1] == nlohmann::json({{"type", "image"}, {"data", "iVBORw0KGgo="}, {"mimeType", "image/png"}}));
  CHECK_FALSE(f.to_client.back()["result"].contains("structuredContent"));
}

TEST_CASE("MCP: a long call reports progress to a client that asked, and only then", "[bridge][mcp]") {
  FakeIo f;
  McpServer s(f.io());
  s.on_host({{"type", "status"}, {"extension", true}});
  const auto t0 = Clock::now();
  s.on_line(
      R"({"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"wait_for","arguments":{"text":"Done","ms":5000},"_meta":{"progressToken":"p1"}}})",
      t0);
  s.on_line(R"({"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"snapshot","arguments":{}}})", t0);
  const std::size_t n = f.to_client.size();
  s.tick(t0 + std::chrono::milliseconds(limits::kProgressEveryMs - 1));
  CHECK(f.to_client.size() == n);
  s.tick(t0 + std::chrono::milliseconds(limits::kProgressEveryMs));
  REQUIRE(f.to_client.size() == n + 1);  // one, for the call with a token
  CHECK(f.to_client.back()["method"] == "notifications/progress");
  CHECK(f.to_client.back()["params"]["progressToken"] == "p1");
  CHECK(f.to_client.back()["params"]["progress"] == limits::kProgressEveryMs);  // the milliseconds it has run
  s.tick(t0 + std::chrono::milliseconds(2 * limits::kProgressEveryMs));
  CHECK(f.to_client.back()["params"]["progress"] == 2 * limits::kProgressEveryMs);  // increasing, as MCP requires
}
