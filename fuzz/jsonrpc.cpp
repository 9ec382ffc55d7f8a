// The MCP JSON-RPC handler: every input line gets at most answers, never a crash; host replies
// built from the same bytes are read with their types checked.
#include <cstddef>
#include <cstdint>
#include <string>

#include "mcp.h"
#include "untrusted_json.h"

using namespace athena::bridge;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string line(reinterpret_cast<const char*>(data), size);
  std::size_t answers = 0;
  McpServer server(McpServer::Io{[&](const json& m) { answers += m.dump().size() > 0; },
                                 [](const json&) { return true; }, [](std::string&) { return true; }});
  server.on_host({{"type", "status"}, {"extension", true}});
  server.on_line(line);
  std::string why;
  const json m = parse_untrusted(line, why);
  if (m.is_object()) server.on_host(m);
  server.tick();
  return 0;
}
