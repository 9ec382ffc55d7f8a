#include "install.h"

#include <chrono>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "browsers.h"
#include "framing.h"
#include "limits.h"
#include "platform/platform.h"
#include "untrusted_json.h"

#ifndef ATHENA_EXTENSION_ID
#error "ATHENA_EXTENSION_ID must be defined (bridge/CMakeLists.txt reads extension/EXTENSION_ID)"
#endif

namespace athena::bridge {

using nlohmann::json;

std::string self_path() {
  return platform::self_path();
}

namespace {

// Whether one of the space-separated commands is installed: an absolute path as given, a name in
// a folder of PATH (the platform layer splits PATH as the OS does).
bool any_command(const char* commands) {
  if (!commands) return false;
  std::string names = commands;
  std::size_t start = 0;
  while (start < names.size()) {
    std::size_t end = names.find(' ', start);
    if (end == std::string::npos) end = names.size();
    if (end > start && platform::command_exists(names.substr(start, end - start))) return true;
    start = end + 1;
  }
  return false;
}

void add_place(std::vector<ManifestPlace>& out, ManifestPlace p) {
  for (auto& q : out)
    if (q.dir == p.dir) {  // channels sharing one folder (or key): one entry, found when any is
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
  const std::string home = platform::home_dir();
  for (const BrowserPlaces& b : kBrowsers) {
    ManifestPlace p;
    p.browser = b.name;
    p.sandboxed = b.sandboxed ? b.sandboxed : "";
    switch (platform::os()) {
      case platform::Os::kWindows: {
        // The place is the HKCU key (platform::write_registration writes it and the one manifest
        // file it names). A Chromium-family browser keeps its own key under HKCU (the parent of
        // NativeMessagingHosts, e.g. BLBeacon is written there on every start): that is how it
        // is found.
        if (!b.windows_key) continue;
        p.dir = b.windows_key;
        const std::string parent = p.dir.substr(0, p.dir.rfind('\\'));
        p.found = platform::registry_key_exists(parent);
        break;
      }
      case platform::Os::kMacos: {
        const std::string support = home + "/Library/Application Support/";
        if (o.system) {
          if (!b.mac_system) continue;
          p.dir = b.mac_system;
        } else {
          if (!b.mac_support) continue;
          p.dir = support + b.mac_support + "/NativeMessagingHosts";
        }
        p.found = (b.mac_support && platform::is_dir(support + b.mac_support)) ||
                  (b.mac_app && (platform::is_dir(std::string("/Applications/") + b.mac_app) ||
                                 platform::is_dir(home + "/Applications/" + b.mac_app)));
        break;
      }
      default: {
        if (!b.linux_config) continue;
        const std::string rel = b.linux_config;
        const std::string xdg = platform::env("XDG_CONFIG_HOME");
        const std::string config_home = platform::is_absolute(xdg) ? xdg : home + "/.config";
        const std::string base = rel.rfind("~/", 0) == 0 ? home + rel.substr(1) : config_home + "/" + rel;
        if (o.system) {
          if (!b.linux_system) continue;
          p.dir = b.linux_system;
        } else {
          p.dir = base + "/NativeMessagingHosts";
        }
        p.found = platform::is_dir(base) || any_command(b.linux_commands);
      }
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
    if (!platform::is_absolute(o.binary)) return "--binary '" + o.binary + "' must be an absolute path";
    if (!platform::is_executable(o.binary)) return "--binary '" + o.binary + "' is not an executable file";
  }
  if (!o.user_data_dir.empty() && !platform::is_absolute(o.user_data_dir))
    return "--user-data-dir '" + o.user_data_dir + "' must be an absolute path";
  if (!o.user_data_dir.empty() && platform::registry_places())
    return "--user-data-dir is not read on this OS: Chrome finds native hosts in the registry (HKCU) for every "
           "profile; "
           "run install without it";
  if (o.system && platform::registry_places())
    return "--system is not supported on this OS: install registers for the current user (HKCU), which every profile "
           "reads";
  if (!o.system && o.user_data_dir.empty() && !platform::registry_places()) {
    const bool have_xdg = platform::is_absolute(platform::env("XDG_CONFIG_HOME"));
    const std::string h = platform::home_dir();
    // macOS always needs HOME (~/Library/Application Support); Linux only without XDG_CONFIG_HOME.
    const bool need_home = platform::os() == platform::Os::kMacos || !have_xdg;
    if (need_home && !platform::is_absolute(h))
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

std::string comma_list(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
}

// Removes `dir` and then each parent while it is empty, stopping at HOME (never removed) or at
// the first folder that holds anything: what install made for one manifest goes with it.
void remove_empty_dirs(std::string dir) {
  const std::string h = platform::home_dir();
  while (!dir.empty() && dir != "/" && dir != h && dir.size() > h.size() && dir.rfind(h + "/", 0) == 0) {
    if (!platform::remove_empty_dir(dir)) return;
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
    if (!place.sandboxed.empty()) {
      if (place.found) std::printf("  %-15s found, but not registered: %s\n", browser.c_str(), place.sandboxed.c_str());
      continue;
    }
    if (!place.found && !o.all) continue;
    ++written;
    const platform::Registration now = platform::read_registration(place.dir, kHostName);
    if (now.text == text) {
      std::printf("  %-15s %s (already up to date)\n", browser.c_str(), now.where.c_str());
      continue;
    }
    std::string where, error;
    if (!platform::write_registration(place.dir, kHostName, text, where, error)) {
      std::printf("  %-15s %s%s\n", browser.c_str(), error.c_str(), o.system ? " (run with sudo for --system)" : "");
      ++failures;
      continue;
    }
    std::printf("  %-15s %s (written)\n", browser.c_str(), where.c_str());
  }
  if (written == 0) {
    std::printf("  No Chromium-family browser found here (looked for:");
    for (const BrowserPlaces& b : kBrowsers)
      if (!b.sandboxed) std::printf(" %s,", b.name);
    std::printf(platform::registry_places() ? " by their keys under HKCU\\Software).\n"
                                            : " in their folders and on PATH).\n");
    std::printf("  Install one and run install again, or pass --all to register for every one.\n");
    return 1;
  }
  if (!o.guide) return failures ? 1 : 0;
  const std::string bin = o.binary.empty() ? self_path() : o.binary;
  std::printf(
      "\nNative host %s registered for extension(s) %s.\n\n"
      "Connect your agent:\n"
      "  Claude Desktop (claude_desktop_config.json) and Cursor (~/.cursor/mcp.json):\n"
      "    {\"mcpServers\": {\"athena-delta\": {\"command\": %s, \"args\": [\"mcp\"]}}}\n"
      "  Claude Code:\n"
      "    claude mcp add athena-delta -- %s mcp\n\n"
      "Then load the extension (chrome://extensions, Developer mode, Load unpacked: the extension/ folder) and run\n"
      "  %s doctor\n",
      kHostName, comma_list(allowed_ids(o)).c_str(), json(bin).dump().c_str(), bin.c_str(),
      bin.c_str());  // the JSON snippet's path JSON-escaped (a Windows path's backslashes)
  return failures ? 1 : 0;
}

int cmd_uninstall(const InstallOptions& o) {
  int removed = 0;
  std::vector<std::string> places;
  for (const ManifestPlace& place : manifest_places(o)) {  // found or not: a browser removed since install too
    places.push_back(place.dir);
    std::string where;
    if (!platform::remove_registration(place.dir, kHostName, where)) continue;
    ++removed;
    std::printf("  %-15s removed %s\n", place.browser.c_str(), where.c_str());
    if (o.user_data_dir.empty() && !o.system && !platform::registry_places()) remove_empty_dirs(place.dir);
  }
  platform::forget_unused_manifest(kHostName, places);
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
    const platform::Registration reg = platform::read_registration(place.dir, kHostName);
    const std::string& file = reg.where;
    const std::string& text = reg.text;
    if (text.empty()) continue;
    ++found;
    std::string why;
    const json m = parse_untrusted(text, why);
    if (!m.is_object()) {
      bad(browser + ": " + file + " is not valid JSON", "run `athena-bridge install`");
      continue;
    }
    const std::string path = str_field(m, "path");
    if (path != me)
      bad(browser + ": manifest points at " + path + ", not at this binary " + me, "run `" + me + " install`");
    else if (!platform::is_executable(path))
      bad(browser + ": " + path + " is not executable", "rebuild, then `athena-bridge install`");
    else
      ok(browser + ": " + file);
    for (const std::string& id : allowed_ids(o)) {
      bool allowed = false;
      if (const json* origins = field(m, "allowed_origins"); origins && origins->is_array())
        for (const auto& a : *origins) allowed = allowed || a == "chrome-extension://" + id + "/";
      if (!allowed)
        bad(browser + ": the extension " + id + " is not in allowed_origins", "run `athena-bridge install`");
    }
  }
  if (!found)
    bad("no native host manifest for any browser",
        "run `" + me + " install` (or `--user-data-dir DIR` for a custom profile)");

  std::printf("\n2. extension connection (%s)\n", platform::endpoint_name().c_str());
  std::string error;
  platform::EventLoop loop;
  const int conn = loop.connect(error);
  if (conn < 0) {
    bad("no native host running: " + error,
        "open Chrome with the Athena Delta extension installed and enabled; it starts the host itself (check its "
        "popup)");
  } else {
    ok("native host reachable");
    loop.send(conn,
              encode_frame(
                  json{{"type", "hello"}, {"protocol", limits::kProtocol}, {"client", "athena-bridge doctor"}}.dump()));
    FrameReader r(limits::kMaxFrameBytes);
    json status;
    bool open = true;
    const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(limits::kConnectTimeoutMs);
    while (open && status.is_null() && std::chrono::steady_clock::now() < until) {
      for (const auto& e : loop.wait(limits::kPollMs, conn)) {
        if (e.kind != platform::EventLoop::Event::kData) {
          open = false;
          break;
        }
        r.feed(e.data.data(), e.data.size());
        while (auto s = r.next()) {
          std::string why;
          const json m = parse_untrusted(*s, why);
          if (str_field(m, "type") == "status") status = m;
        }
      }
    }
    loop.close(conn);
    if (status.is_null()) {
      bad("the native host did not answer", "reload the extension (chrome://extensions) to restart its host");
    } else {
      const double proto = number_field(status, "protocol");
      if (proto != limits::kProtocol)
        bad("protocol " + json(proto).dump() + " vs ours " + std::to_string(limits::kProtocol),
            "install the same version of athena-bridge and the extension");
      else
        ok("protocol " + std::to_string(limits::kProtocol));
      if (bool_field(status, "extension"))
        ok("extension connected (version " + str_field(status, "extension_version", "?") +
           (str_field(status, "browser").empty() ? "" : ", in " + str_field(status, "browser")) + ")");
      else
        bad("the host runs but the extension has not said hello", "reload the extension");
    }
  }
  std::printf("\n%s\n",
              problems ? "Some links are broken: fix them in order, then run doctor again." : "Every link works.");
  return problems ? 1 : 0;
}

}  // namespace athena::bridge
