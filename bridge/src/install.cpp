#include "install.h"

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <poll.h>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

#include "endpoint.h"
#include "framing.h"
#include "limits.h"
#include "untrusted_json.h"

#ifndef ATHENA_EXTENSION_ID
#error "ATHENA_EXTENSION_ID must be defined (bridge/CMakeLists.txt reads extension/EXTENSION_ID)"
#endif

namespace athena::bridge {

using nlohmann::json;

namespace {

std::string home() {
  const char* h = std::getenv("HOME");
  return h ? h : "";
}

bool mkdirs(const std::string& path) {
  std::string cur;
  std::stringstream ss(path);
  std::string part;
  if (!path.empty() && path[0] == '/') cur = "/";
  while (std::getline(ss, part, '/')) {
    if (part.empty()) continue;
    cur += part + "/";
    if (::mkdir(cur.c_str(), 0755) != 0 && errno != EEXIST) return false;
  }
  return true;
}

std::string read_all(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return "";
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

bool is_macos() {
#if defined(__APPLE__)
  return true;
#else
  return false;
#endif
}

}  // namespace

std::string self_path() {
  char buf[4096];
  const ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n > 0) {
    buf[n] = 0;
    return buf;
  }
  return "athena-bridge";
}

std::vector<std::pair<std::string, std::string>> manifest_dirs(const InstallOptions& o) {
  if (!o.user_data_dir.empty()) return {{"custom profile", o.user_data_dir + "/NativeMessagingHosts"}};
  if (is_macos()) {
    if (o.system)
      return {{"Google Chrome", "/Library/Google/Chrome/NativeMessagingHosts"},
              {"Chromium", "/Library/Application Support/Chromium/NativeMessagingHosts"},
              {"Brave", "/Library/Application Support/BraveSoftware/Brave-Browser/NativeMessagingHosts"},
              {"Microsoft Edge", "/Library/Microsoft/Edge/NativeMessagingHosts"}};
    const std::string as = home() + "/Library/Application Support";
    return {{"Google Chrome", as + "/Google/Chrome/NativeMessagingHosts"},
            {"Chromium", as + "/Chromium/NativeMessagingHosts"},
            {"Brave", as + "/BraveSoftware/Brave-Browser/NativeMessagingHosts"},
            {"Microsoft Edge", as + "/Microsoft Edge/NativeMessagingHosts"}};
  }
  if (o.system)
    return {{"Google Chrome", "/etc/opt/chrome/native-messaging-hosts"},
            {"Chromium", "/etc/chromium/native-messaging-hosts"},
            {"Brave", "/etc/opt/brave.com/brave/native-messaging-hosts"},
            {"Microsoft Edge", "/etc/opt/edge/native-messaging-hosts"}};
  const char* xdg = std::getenv("XDG_CONFIG_HOME");
  const std::string cfg = xdg && *xdg ? std::string(xdg) : home() + "/.config";
  return {{"Google Chrome", cfg + "/google-chrome/NativeMessagingHosts"},
          {"Chromium", cfg + "/chromium/NativeMessagingHosts"},
          {"Brave", cfg + "/BraveSoftware/Brave-Browser/NativeMessagingHosts"},
          {"Microsoft Edge", cfg + "/microsoft-edge/NativeMessagingHosts"}};
}

std::string check_install_options(const InstallOptions& o) {
  if (!o.extension_id.empty()) {
    bool ok = o.extension_id.size() == 32;
    for (const char c : o.extension_id) ok = ok && c >= 'a' && c <= 'p';
    if (!ok) return "--extension-id '" + o.extension_id + "' is not an extension id (32 letters a-p, see chrome://extensions)";
  }
  if (!o.binary.empty()) {
    struct stat st {};
    if (o.binary[0] != '/') return "--binary '" + o.binary + "' must be an absolute path";
    if (::stat(o.binary.c_str(), &st) != 0 || !S_ISREG(st.st_mode) || ::access(o.binary.c_str(), X_OK) != 0)
      return "--binary '" + o.binary + "' is not an executable file";
  }
  if (!o.user_data_dir.empty() && o.user_data_dir[0] != '/')
    return "--user-data-dir '" + o.user_data_dir + "' must be an absolute path";
  if (!o.system && o.user_data_dir.empty()) {
    const char* xdg = std::getenv("XDG_CONFIG_HOME");
    const bool have_xdg = xdg && xdg[0] == '/';
    const std::string h = home();
#if defined(__APPLE__)
    const bool need_home = true;  // ~/Library/Application Support
#else
    const bool need_home = !have_xdg;
#endif
    if (need_home && (h.empty() || h[0] != '/'))
      return "HOME is not set to an absolute folder, so the browsers' folders cannot be found: set HOME, or use "
             "--user-data-dir DIR (one profile) or --system";
  }
  return "";
}

std::string manifest_json(const InstallOptions& o) {
  const std::string id = o.extension_id.empty() ? ATHENA_EXTENSION_ID : o.extension_id;
  const json m = {{"name", kHostName},
                  {"description", "Athena Delta bridge: hands FactPacks from the extension to MCP agents"},
                  {"path", o.binary.empty() ? self_path() : o.binary},
                  {"type", "stdio"},
                  {"allowed_origins", {"chrome-extension://" + id + "/"}}};
  return m.dump(2) + "\n";
}

int cmd_install(const InstallOptions& o) {
  const std::string text = manifest_json(o);
  int failures = 0;
  for (const auto& [browser, dir] : manifest_dirs(o)) {
    const std::string file = dir + "/" + kHostName + ".json";
    if (read_all(file) == text) {
      std::printf("  %-15s %s (already up to date)\n", browser.c_str(), file.c_str());
      continue;
    }
    if (!mkdirs(dir)) {
      std::printf("  %-15s cannot create %s: %s%s\n", browser.c_str(), dir.c_str(), std::strerror(errno),
                  o.system ? " (run with sudo for --system)" : "");
      ++failures;
      continue;
    }
    std::ofstream f(file, std::ios::binary | std::ios::trunc);
    f << text;
    if (!f) {
      std::printf("  %-15s cannot write %s\n", browser.c_str(), file.c_str());
      ++failures;
      continue;
    }
    std::printf("  %-15s %s (written)\n", browser.c_str(), file.c_str());
  }
  const std::string bin = o.binary.empty() ? self_path() : o.binary;
  std::printf(
      "\nNative host %s registered for extension %s.\n\n"
      "Connect your agent:\n"
      "  Claude Desktop (claude_desktop_config.json) and Cursor (~/.cursor/mcp.json):\n"
      "    {\"mcpServers\": {\"athena-delta\": {\"command\": \"%s\", \"args\": [\"mcp\"]}}}\n"
      "  Claude Code:\n"
      "    claude mcp add athena-delta -- %s mcp\n\n"
      "Then load the extension (chrome://extensions, Developer mode, Load unpacked: the extension/ folder) and run\n"
      "  %s doctor\n",
      kHostName, o.extension_id.empty() ? ATHENA_EXTENSION_ID : o.extension_id.c_str(), bin.c_str(), bin.c_str(), bin.c_str());
  return failures ? 1 : 0;
}

int cmd_uninstall(const InstallOptions& o) {
  for (const auto& [browser, dir] : manifest_dirs(o)) {
    const std::string file = dir + "/" + kHostName + ".json";
    if (::unlink(file.c_str()) == 0) std::printf("  %-15s removed %s\n", browser.c_str(), file.c_str());
    else std::printf("  %-15s nothing at %s\n", browser.c_str(), file.c_str());
  }
  return 0;
}

int cmd_doctor(const InstallOptions& o) {
  int problems = 0;
  auto ok = [](const std::string& s) { std::printf("  ok    %s\n", s.c_str()); };
  auto bad = [&](const std::string& s, const std::string& fix) {
    ++problems;
    std::printf("  FAIL  %s\n        fix: %s\n", s.c_str(), fix.c_str());
  };
  const std::string me = o.binary.empty() ? self_path() : o.binary;
  const std::string id = o.extension_id.empty() ? ATHENA_EXTENSION_ID : o.extension_id;
  std::printf("athena-bridge doctor\n\n1. native host manifest\n");
  int found = 0;
  for (const auto& [browser, dir] : manifest_dirs(o)) {
    const std::string file = dir + "/" + kHostName + ".json";
    const std::string text = read_all(file);
    if (text.empty()) continue;
    ++found;
    std::string why;
    const json m = parse_untrusted(text, why);
    if (!m.is_object()) {
      bad(browser + ": " + file + " is not valid JSON", "run `athena-bridge install`");
      continue;
    }
    const std::string path = str_field(m, "path");
    if (path != me) bad(browser + ": manifest points at " + path + ", not at this binary " + me, "run `" + me + " install`");
    else if (::access(path.c_str(), X_OK) != 0) bad(browser + ": " + path + " is not executable", "rebuild, then `athena-bridge install`");
    else ok(browser + ": " + file);
    bool allowed = false;
    if (const json* origins = field(m, "allowed_origins"); origins && origins->is_array())
      for (const auto& a : *origins) allowed = allowed || a == "chrome-extension://" + id + "/";
    if (!allowed) bad(browser + ": the extension " + id + " is not in allowed_origins", "run `athena-bridge install`");
  }
  if (!found) bad("no native host manifest for any browser", "run `" + me + " install` (or `--user-data-dir DIR` for a custom profile)");

  std::printf("\n2. extension connection (socket %s)\n", socket_path().c_str());
  std::string error;
  const int fd = connect_endpoint(error);
  if (fd < 0) {
    bad("no native host running: " + error,
        "open Chrome with the Athena Delta extension installed and enabled; it starts the host itself (check its popup)");
  } else {
    ok("native host reachable");
    write_all(fd, encode_frame(json{{"type", "hello"}, {"protocol", limits::kProtocol}, {"client", "athena-bridge doctor"}}.dump()));
    FrameReader r(limits::kMaxFrameBytes);
    pollfd p{fd, POLLIN, 0};
    json status;
    char buf[4096];
    for (int k = 0; k < 20 && status.is_null() && ::poll(&p, 1, 100) >= 0; ++k) {
      if (!(p.revents & POLLIN)) continue;
      const ssize_t n = ::read(fd, buf, sizeof buf);
      if (n <= 0) break;
      r.feed(buf, static_cast<std::size_t>(n));
      while (auto s = r.next()) {
        std::string why;
        const json m = parse_untrusted(*s, why);
        if (str_field(m, "type") == "status") status = m;
      }
    }
    ::close(fd);
    if (status.is_null()) {
      bad("the native host did not answer", "reload the extension (chrome://extensions) to restart its host");
    } else {
      const double proto = number_field(status, "protocol");
      if (proto != limits::kProtocol)
        bad("protocol " + json(proto).dump() + " vs ours " + std::to_string(limits::kProtocol),
            "install the same version of athena-bridge and the extension");
      else ok("protocol " + std::to_string(limits::kProtocol));
      if (bool_field(status, "extension")) ok("extension connected (version " + str_field(status, "extension_version", "?") + ")");
      else bad("the host runs but the extension has not said hello", "reload the extension");
    }
  }
  std::printf("\n%s\n", problems ? "Some links are broken: fix them in order, then run doctor again." : "Every link works.");
  return problems ? 1 : 0;
}

}  // namespace athena::bridge
