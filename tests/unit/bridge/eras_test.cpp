// The two eras of MCP in one server (bridge/src/mcp_eras.h): a request with the 2026-07-28 `_meta`
// envelope is served statelessly (server/discover, resultType, -32022 for a version we do not
// speak), one without it as the legacy protocol that opens with initialize. Sections follow the
// specification's pages (2026-07-28 basic/versioning, server/discover, utilities/caching).
#include <catch2/catch.hpp>

#include "athena/version.h"
#include "limits.h"
#include "mcp.h"
#include "tools.h"

using namespace athena::bridge;
using nlohmann::json;

namespace {

struct Server {
  std::vector<json> out, to_host;
  bool connected = true;
  McpServer s{{[this](const json& m) { out.push_back(m); },
               [this](const json& m) {
                 if (!connected) return false;
                 to_host.push_back(m);
                 return true;
               },
               [this](std::string& e) {
                 if (!connected) e = "no native host is listening";
                 return connected;
               }}};
  /// Sends one request and returns the last message written back.
  const json& send(const json& request, Clock::time_point now = Clock::now()) {
    s.on_line(request.dump(), now);
    REQUIRE_FALSE(out.empty());
    return out.back();
  }
};

const json kEnvelope = {{"io.modelcontextprotocol/protocolVersion", "2026-07-28"},
                        {"io.modelcontextprotocol/clientInfo", {{"name", "modern-agent"}, {"version", "2.4.0"}}},
                        {"io.modelcontextprotocol/clientCapabilities", json::object()}};

json modern(json id, const std::string& method, json params = json::object()) {
  params["_meta"] = kEnvelope;
  return {{"jsonrpc", "2.0"}, {"id", std::move(id)}, {"method", method}, {"params", std::move(params)}};
}

json legacy(json id, const std::string& method, json params = json::object()) {
  return {{"jsonrpc", "2.0"}, {"id", std::move(id)}, {"method", method}, {"params", std::move(params)}};
}

const json kServerInfo = {{"name", "athena-delta"}, {"version", athena::kVersion}};

}  // namespace

TEST_CASE("eras: 2026-07-28 server/discover says every version we speak, our capabilities and who we are",
          "[bridge][mcp][eras]") {
  Server t;
  const json& r = t.send(modern("discover-1", "server/discover"))["result"];
  CHECK(r["resultType"] == "complete");
  CHECK(r["supportedVersions"] ==
        json({"2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05", "2024-10-07"}));
  CHECK(r["capabilities"] == json({{"tools", {{"listChanged", false}}}}));  // no logging: nothing sends log messages
  CHECK(r["_meta"]["io.modelcontextprotocol/serverInfo"] == kServerInfo);
  CHECK(r["ttlMs"] == limits::kListTtlMs);
  CHECK(r["cacheScope"] == "public");
  CHECK(r["instructions"].is_string());
  CHECK(t.s.client_name() == "modern-agent");  // what the native host shows for this agent
  CHECK_FALSE(t.s.initialized());              // no handshake in this era
}

TEST_CASE("eras: every 2026-07-28 result says its resultType and who answered", "[bridge][mcp][eras]") {
  Server t;
  SECTION("tools/list is cacheable") {
    const json& r = t.send(modern(1, "tools/list"))["result"];
    CHECK(r["resultType"] == "complete");
    CHECK(r["ttlMs"] == limits::kListTtlMs);
    CHECK(r["cacheScope"] == "public");
    CHECK(r["_meta"]["io.modelcontextprotocol/serverInfo"] == kServerInfo);
    CHECK(r["tools"] == served_tools(false, {"core"}));  // the default group (--tools core)
  }
  SECTION("a tool call answered at once (not connected)") {
    t.connected = false;
    const json& r = t.send(modern(2, "tools/call", {{"name", "snapshot"}, {"arguments", json::object()}}))["result"];
    CHECK(r["resultType"] == "complete");
    CHECK(r["isError"] == true);
    CHECK(r["_meta"]["io.modelcontextprotocol/serverInfo"] == kServerInfo);
  }
  SECTION("a tool call answered later by the extension, and a timeout") {
    t.s.on_host({{"type", "status"}, {"extension", true}});
    const auto t0 = Clock::now();
    t.s.on_line(modern(3, "tools/call", {{"name", "click"}, {"arguments", {{"ref", "e3"}}}}).dump(), t0);
    t.s.on_line(legacy(4, "tools/call", {{"name", "click"}, {"arguments", {{"ref", "e4"}}}}).dump(), t0);
    REQUIRE(t.to_host.size() == 2);
    t.s.on_host({{"type", "result"}, {"id", t.to_host[0]["id"]}, {"ok", true}, {"text", "<no_change v=\"2\"/>"}});
    CHECK(t.out.back()["id"] == 3);
    CHECK(t.out.back()["result"]["resultType"] == "complete");
    CHECK(t.out.back()["result"]["content"][0]["text"] == "<no_change v=\"2\"/>");
    // Each request is answered in its own era, on the same process.
    t.s.tick(t0 + std::chrono::milliseconds(limits::kCallDeadlineMs));
    CHECK(t.out.back()["id"] == 4);
    CHECK(t.out.back()["result"]["isError"] == true);
    CHECK_FALSE(t.out.back()["result"].contains("resultType"));
  }
}

TEST_CASE("eras: a version we do not speak is -32022 with the versions we do", "[bridge][mcp][eras]") {
  Server t;
  json req = modern(7, "tools/list");
  SECTION("an unknown revision") {
    req["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"] = "1900-01-01";
    const json& e = t.send(req)["error"];
    CHECK(e["code"] == -32022);
    CHECK(e["data"]["supported"] == json(supported_protocol_versions()));
    CHECK(e["data"]["requested"] == "1900-01-01");
    CHECK(e["message"] ==
          "Unsupported protocol version \"1900-01-01\": athena-delta serves 2026-07-28 per request, and 2025-11-25, "
          "2025-06-18, "
          "2025-03-26, 2024-11-05, 2024-10-07 after initialize");
  }
  SECTION("a legacy revision in the per-request envelope (legacy revisions are spoken after initialize)") {
    req["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"] = "2025-11-25";
    CHECK(t.send(req)["error"]["code"] == -32022);
  }
  SECTION("server/discover itself") {
    json d = modern("d", "server/discover");
    d["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"] = "2099-01-01";
    const json& a = t.send(d);
    CHECK(a["id"] == "d");
    CHECK(a["error"]["code"] == -32022);
  }
}

TEST_CASE("eras: a malformed 2026-07-28 envelope is -32602 naming what is wrong", "[bridge][mcp][eras]") {
  Server t;
  json req = modern(1, "tools/list");
  SECTION("no clientCapabilities") {
    req["params"]["_meta"].erase("io.modelcontextprotocol/clientCapabilities");
    const json& e = t.send(req)["error"];
    CHECK(e["code"] == -32602);
    CHECK(e["message"] ==
          "a 2026-07-28 request must carry _meta[\"io.modelcontextprotocol/clientCapabilities\"], an object ({} for a "
          "client "
          "that declares none)");
  }
  SECTION("a version that is not a string") {
    req["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"] = 20260728;
    const json& e = t.send(req)["error"];
    CHECK(e["code"] == -32602);
    CHECK(e["message"] ==
          "_meta[\"io.modelcontextprotocol/protocolVersion\"] must be a string, the protocol version of this request "
          "(e.g. \"2026-07-28\")");
  }
  SECTION("a _meta that is not an object") {
    req["params"]["_meta"] = "2026-07-28";
    CHECK(t.send(req)["error"]["message"] == "params._meta must be an object");
  }
  SECTION("a clientInfo of the wrong type is not a name") {
    req["params"]["_meta"]["io.modelcontextprotocol/clientInfo"] = {{"name", 5}};
    CHECK(t.send(req)["result"]["resultType"] == "complete");
    CHECK(t.s.client_name() == "mcp-client");
  }
}

TEST_CASE("eras: what each era has and the other has not", "[bridge][mcp][eras]") {
  Server t;
  SECTION("2026-07-28 has no handshake, ping or logging") {
    for (const char* m : {"initialize", "ping", "logging/setLevel"}) {
      INFO(m);
      const json& e = t.send(modern(1, m))["error"];
      CHECK(e["code"] == -32601);
      CHECK(e["message"].get<std::string>().find(std::string(m) + " is not part of MCP 2026-07-28") == 0);
    }
  }
  SECTION("server/discover without the envelope: not modern, and the answer names what is missing") {
    // A probing dual-era client reads any error but -32022 as "legacy": it then sends initialize.
    const json& e = t.send(legacy("p", "server/discover"))["error"];
    CHECK(e["code"] == -32602);
    CHECK(e["message"] ==
          "server/discover is a 2026-07-28 request: it needs params._meta with io.modelcontextprotocol/protocolVersion "
          "and "
          "io.modelcontextprotocol/clientCapabilities");
    CHECK(t.send(legacy(2, "initialize", {{"protocolVersion", "2025-06-18"}}))["result"]["protocolVersion"] ==
          "2025-06-18");
  }
  SECTION("legacy: logging/setLevel is gone with the logging capability") {
    CHECK(t.send(legacy(3, "logging/setLevel", {{"level", "info"}}))["error"]["code"] == -32601);
  }
  SECTION("legacy: initialize asking for 2026-07-28 gets our newest legacy revision (2026-07-28 has no initialize)") {
    CHECK(t.send(legacy(4, "initialize", {{"protocolVersion", "2026-07-28"}}))["result"]["protocolVersion"] ==
          "2025-11-25");
  }
}

TEST_CASE("eras: subscriptions/listen is acknowledged with nothing to listen to, and held until cancelled",
          "[bridge][mcp][eras]") {
  Server t;
  const json& ack = t.send(modern(11, "subscriptions/listen", {{"notifications", {{"toolsListChanged", true}}}}));
  CHECK(ack["method"] == "notifications/subscriptions/acknowledged");
  CHECK(ack["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"] == 11);
  CHECK(ack["params"]["notifications"] == json::object());  // the tool list never changes
  const std::size_t n = t.out.size();
  t.s.on_line(R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":11}})");
  CHECK(t.out.size() == n);  // a cancelled request is never answered
  for (std::size_t i = 0; i < limits::kMaxSubscriptions; ++i)
    CHECK(t.send(modern(100 + static_cast<int>(i), "subscriptions/listen",
                        {{"notifications", json::object()}}))["method"] == "notifications/subscriptions/acknowledged");
  const json& e = t.send(modern(999, "subscriptions/listen", {{"notifications", json::object()}}));
  CHECK(e["error"]["code"] == -32600);
}

TEST_CASE("eras: progress keeps increasing, from our heartbeat and from the extension alike", "[bridge][mcp][eras]") {
  Server t;
  t.s.on_host({{"type", "status"}, {"extension", true}});
  const auto t0 = Clock::now();
  t.s.on_line(modern(5, "tools/call", {{"name", "snapshot"}, {"arguments", json::object()}}).dump(), t0);
  // The envelope and the progress token share _meta.
  json req = modern(6, "tools/call", {{"name", "navigate"}, {"arguments", {{"url", "http://x/"}}}});
  req["params"]["_meta"]["progressToken"] = "nav";
  t.s.on_line(req.dump(), t0);
  REQUIRE(t.to_host.size() == 2);
  t.s.tick(t0 + std::chrono::milliseconds(limits::kProgressEveryMs));
  REQUIRE(t.out.back()["method"] == "notifications/progress");
  CHECK(t.out.back()["params"]["progressToken"] == "nav");
  const double first = t.out.back()["params"]["progress"];
  t.s.on_host({{"type", "progress"}, {"id", t.to_host[1]["id"]}, {"progress", 1}, {"message", "loading"}});
  CHECK(t.out.back()["params"]["message"] == "loading");
  CHECK(t.out.back()["params"]["progress"].get<double>() > first);
}

TEST_CASE("eras: a call waiting for the extension reports progress, and a cancelled one is dropped",
          "[bridge][mcp][eras]") {
  Server t;
  t.s.on_host({{"type", "status"}, {"extension", true}});
  t.s.on_host_lost("the native host went away");
  t.connected = false;
  const auto t0 = Clock::now();
  json req = modern(8, "tools/call", {{"name", "snapshot"}, {"arguments", json::object()}});
  req["params"]["_meta"]["progressToken"] = 8;
  t.s.on_line(req.dump(), t0);
  REQUIRE(t.s.waiting() == 1);
  t.s.tick(t0 + std::chrono::milliseconds(limits::kProgressEveryMs));
  CHECK(t.out.back()["method"] == "notifications/progress");
  CHECK(t.out.back()["params"]["message"].get<std::string>().find("snapshot waiting for the extension for") == 0);
  const std::size_t n = t.out.size();
  t.s.on_line(R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":8}})");
  CHECK(t.s.waiting() == 0);
  t.s.tick(t0 + std::chrono::milliseconds(limits::kReconnectWaitMs));
  CHECK(t.out.size() == n);  // never answered
}
