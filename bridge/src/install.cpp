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

#include "browsers.h"
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

namespace {

std::string config_home() {
  const char* xdg = std::getenv("XDG_CONFIG_HOME");
  return xdg && xdg[0] == '/' ? std::string(xdg) : home() + "/.config";
}

bool is_dir(const std::string& p) {
  struct stat st {};
  return ::stat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

bool is_executable(const std::string& p) {
  struct stat st {};
  return ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(p.c_str(), X_OK) == 0;
}

// Whether one of the space-separated commands is an executable: an absolute path as given, a name
// in a folder of PATH.
bool any_command(const char* commands) {
  if (!commands) return false;
  const char* path_env = std::getenv("PATH");
  std::stringstream names(commands);
  std::string name;
  while (names >> name) {
    if (name[0] == '/') {
      if (is_executable(name)) return true;
      continue;
    }
    std::stringstream dirs(path_env ? path_env : "/usr/local/bin:/usr/bin:/bin");
    std::string d;
    while (std::getline(dirs, d, ':'))
      if (!d.empty() && is_executable(d + "/" + name)) return true;
  }
  return false;
}

void add_place(std::vector<ManifestPlace>& out, ManifestPlace p) {
  for (auto& q : out)
    if (q.dir == p.dir) {  // channels sharing one folder: one entry, found when any is
      q.found = q.found || p.found;
      if (p.found && q.browser.find(p.browser) == std::string::npos) q.browser += ", " + p.browser;
      return;
    }
  out.push_back(std::move(p));
}

}  // namespace

std::vector<ManifestPlace> manifest_places(const InstallOptions& o) {
  std::vector<ManifestPlace> out;
  if (!o.user_data_dir.empty()) return {{"custom profile", o.user_data_dir + "/NativeMessagingHosts", true, ""}};
  for (const BrowserPlaces& b : kBrowsers) {
    ManifestPlace p;
    p.browser = b.name;
    p.sandboxed = b.sandboxed ? b.sandboxed : "";
    if (is_macos()) {
      const std::string support = home() + "/Library/Application Support/";
      if (o.system) {
        if (!b.mac_system) continue;
        p.dir = b.mac_system;
      } else {
        if (!b.mac_support) continue;
        p.dir = support + b.mac_support + "/NativeMessagingHosts";
      }
      p.found = (b.mac_support && is_dir(support + b.mac_support)) ||
                (b.mac_app && (is_dir(std::string("/Applications/") + b.mac_app) || is_dir(home() + "/Applications/" + b.mac_app)));
    } else {
      if (!b.linux_config) continue;
      const std::string rel = b.linux_config;
      const std::string base = rel.rfind("~/", 0) == 0 ? home() + rel.substr(1) : config_home() + "/" + rel;
      if (o.system) {
        if (!b.linux_system) continue;
        p.dir = b.linux_system;
      } else {
        p.dir = base + "/NativeMessagingHosts";
      }
      p.found = is_dir(base) || any_command(b.linux_commands);
    }
    add_place(out, std::move(p));
  }
  return out;
}

std::string check_install_options(const InstallOptions& o) {
  for (const std::string& id : o.extension_ids) {
    bool ok = id.size() == 32;
    for (const char c : id) ok = ok && c >= 'a' && c <= 'p';
    if (!ok) return "--extension-id '" + id + "' is not an extension id (32 letters a-p, see chrome://extensions)";
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

namespace {
std::vector<std::string> allowed_ids(const InstallOptions& o) {
  if (o.extension_ids.empty()) return {ATHENA_EXTENSION_ID};
  return o.extension_ids;
}

std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
}

// Removes `dir` and then each parent while it is empty, stopping at HOME (never removed) or at
// the first folder that holds anything: what install made for one manifest goes with it.
void remove_empty_dirs(std::string dir) {
  const std::string h = home();
  while (!dir.empty() && dir != "/" && dir != h && dir.size() > h.size() && dir.rfind(h + "/", 0) == 0) {
    if (::rmdir(dir.c_str()) != 0) return;
    dir = dir.substr(0, dir.rfind('/'));
  }
}
}  // namespace

std::string manifest_json(const InstallOptions& o) {
  json origins = json::array();
  for (const std::string& id : allowed_ids(o)) origins.push_back("chrome-extension://" + id + "/");
  const json m = {{"name", kHostName},
                  {"description", "Athena Delta bridge: hands FactPacks from the extension to MCP agents"},
                  {"path", o.binary.empty() ? self_path() : o.binary},
                  {"type", "stdio"},
                  {"allowed_origins", origins}};
  return m.dump(2) + "\n";
}

int cmd_install(const InstallOptions& o) {
  const std::string text = manifest_json(o);
  int failures = 0, written = 0;
  for (const ManifestPlace& place : manifest_places(o)) {
    const std::string& browser = place.browser;
    const std::string& dir = place.dir;
    const std::string file = dir + "/" + kHostName + ".json";
    if (!place.sandboxed.empty()) {
      if (place.found) std::printf("  %-15s found, but not registered: %s\n", browser.c_str(), place.sandboxed.c_str());
      continue;
    }
    if (!place.found && !o.all) continue;
    ++written;
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
  if (written == 0) {
    std::printf("  No Chromium-family browser found here (looked for:");
    for (const BrowserPlaces& b : kBrowsers)
      if (!b.sandboxed) std::printf(" %s,", b.name);
    std::printf(" in their folders and on PATH).\n  Install one and run install again, or pass --all to register for every one.\n");
    return 1;
  }
  if (!o.guide) return failures ? 1 : 0;
  const std::string bin = o.binary.empty() ? self_path() : o.binary;
  std::printf(
      "\nNative host %s registered for extension(s) %s.\n\n"
      "Connect your agent:\n"
      "  Claude Desktop (claude_desktop_config.json) and Cursor (~/.cursor/mcp.json):\n"
      "    {\"mcpServers\": {\"athena-delta\": {\"command\": \"%s\", \"args\": [\"mcp\"]}}}\n"
      "  Claude Code:\n"
      "    claude mcp add athena-delta -- %s mcp\n\n"
      "Then load the extension (chrome://extensions, Developer mode, Load unpacked: the extension/ folder) and run\n"
      "  %s doctor\n",
      kHostName, joined(allowed_ids(o)).c_str(), bin.c_str(), bin.c_str(), bin.c_str());
  return failures ? 1 : 0;
}

int cmd_uninstall(const InstallOptions& o) {
  int removed = 0;
  for (const ManifestPlace& place : manifest_places(o)) {  // found or not: a browser removed since install too
    const std::string file = place.dir + "/" + kHostName + ".json";
    if (::unlink(file.c_str()) != 0) continue;
    ++removed;
    std::printf("  %-15s removed %s\n", place.browser.c_str(), file.c_str());
    if (o.user_data_dir.empty() && !o.system) remove_empty_dirs(place.dir);
  }
  if (!removed) std::printf("  no native host manifest of %s was registered\n", kHostName);
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
  std::printf("athena-bridge doctor\n\n1. native host manifest\n");
  int found = 0;
  for (const ManifestPlace& place : manifest_places(o)) {
    const std::string& browser = place.browser;
    const std::string file = place.dir + "/" + kHostName + ".json";
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
    for (const std::string& id : allowed_ids(o)) {
      bool allowed = false;
      if (const json* origins = field(m, "allowed_origins"); origins && origins->is_array())
        for (const auto& a : *origins) allowed = allowed || a == "chrome-extension://" + id + "/";
      if (!allowed) bad(browser + ": the extension " + id + " is not in allowed_origins", "run `athena-bridge install`");
    }
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
      if (bool_field(status, "extension"))
        ok("extension connected (version " + str_field(status, "extension_version", "?") +
           (str_field(status, "browser").empty() ? "" : ", in " + str_field(status, "browser")) + ")");
      else bad("the host runs but the extension has not said hello", "reload the extension");
    }
  }
  std::printf("\n%s\n", problems ? "Some links are broken: fix them in order, then run doctor again." : "Every link works.");
  return problems ? 1 : 0;
}

}  // namespace athena::bridge
