// athena-bridge: one executable, what Chrome launches for the extension (native-host) and what
// MCP clients launch (mcp), plus install/uninstall/doctor.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>

#include "athena/version.h"
#include "host.h"
#include "install.h"
#include "mcp.h"
#include "platform/platform.h"
#include "tools.h"

using namespace athena::bridge;

namespace {

int usage(int code) {
  std::fprintf(
      code ? stderr : stdout,
      "athena-bridge %s\n"
      "usage:\n"
      "  athena-bridge mcp [--structured] [--tools GROUPS]\n"
      "                                             MCP server on stdio (what your agent launches);\n"
      "                                             --structured adds outputSchema + structuredContent (the\n"
      "                                             untrimmed FactPack JSON) for programs, not for agents;\n"
      "                                             --tools core,input,debug (or all) chooses the tool groups\n"
      "                                             served (default core: every tool costs context tokens)\n"
      "  athena-bridge native-host                  native messaging host (Chrome launches it)\n"
      "  athena-bridge install [--all] [--system] [--user-data-dir DIR] [--binary PATH] [--extension-id ID]...\n"
      "                                             registers the native host for the browsers found here\n"
      "                                             (--all: every one it knows); each --extension-id is allowed\n"
      "  athena-bridge uninstall [--system] [--user-data-dir DIR]\n"
      "  athena-bridge doctor [--user-data-dir DIR]\n"
      "  athena-bridge --version\n",
      athena::kVersion);
  return code;
}

/// --tools: a comma-separated list of the contract's groups, or "all". False (said on stderr)
/// for an unknown group or an empty list.
bool parse_tool_groups(const std::string& list, std::vector<std::string>& out) {
  const std::vector<std::string>& known = tool_groups();
  out.clear();
  if (list == "all") {
    out = known;
    return true;
  }
  std::string names;
  for (const std::string& g : known) names += (names.empty() ? "" : ", ") + g;
  std::size_t start = 0;
  while (start <= list.size()) {
    const std::size_t end = std::min(list.find(',', start), list.size());
    const std::string g = list.substr(start, end - start);
    if (std::find(known.begin(), known.end(), g) == known.end()) {
      std::fprintf(stderr, "athena-bridge mcp: --tools: '%s' is not a tool group (groups: %s, or all)\n", g.c_str(),
                   names.c_str());
      return false;
    }
    if (std::find(out.begin(), out.end(), g) == out.end()) out.push_back(g);
    start = end + 1;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  platform::init_process();  // a closed peer is an error code, never a dead process; stdio carries bytes unchanged
  if (argc < 2) return usage(2);
  const std::string mode = argv[1];
  // Chrome starts the host as `<path> chrome-extension://<id>/ [--parent-window=N]`.
  if (mode.rfind("chrome-extension://", 0) == 0) return run_native_host(mode);
  if (mode == "native-host") return run_native_host(argc > 2 ? argv[2] : "");
  if (mode == "mcp") {
    McpOptions o;
    for (int i = 2; i < argc; ++i) {
      if (std::strcmp(argv[i], "--structured") == 0) {
        o.structured = true;
      } else if (std::strcmp(argv[i], "--tools") == 0 && i + 1 < argc) {
        if (!parse_tool_groups(argv[++i], o.tools)) return usage(2);
      } else {
        std::fprintf(stderr, "athena-bridge mcp: unknown option %s\n", argv[i]);
        return usage(2);
      }
    }
    return run_mcp_server(o);
  }
  if (mode == "--version" || mode == "version") {
    std::printf("athena-bridge %s\n", athena::kVersion);
    return 0;
  }
  if (mode == "--help" || mode == "help" || mode == "-h") return usage(0);
  if (mode == "install" || mode == "uninstall" || mode == "doctor") {
    InstallOptions o;
    for (int i = 2; i < argc; ++i) {
      const std::string a = argv[i];
      if (a == "--system")
        o.system = true;
      else if (a == "--user-data-dir" && i + 1 < argc)
        o.user_data_dir = argv[++i];
      else if (a == "--extension-id" && i + 1 < argc)
        o.extension_ids.emplace_back(argv[++i]);  // repeatable
      else if (a == "--all" && mode == "install")
        o.all = true;
      else if (a == "--no-guide" && mode == "install")
        o.guide = false;
      else if (a == "--binary" && i + 1 < argc)
        o.binary = argv[++i];
      else {
        std::fprintf(stderr, "athena-bridge %s: unknown option %s\n", mode.c_str(), a.c_str());
        return usage(2);
      }
    }
    if (const std::string bad = check_install_options(o); !bad.empty()) {
      std::fprintf(stderr, "athena-bridge %s: %s\n", mode.c_str(), bad.c_str());
      return 2;
    }
    if (mode == "install") return cmd_install(o);
    if (mode == "uninstall") return cmd_uninstall(o);
    return cmd_doctor(o);
  }
  std::fprintf(stderr, "athena-bridge: unknown mode '%s'\n", mode.c_str());
  return usage(2);
}
