#include "install.h"

#include <chrono>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "framing.h"
#include "limits.h"
#include "platform/platform.h"
#include "untrusted_json.h"

#ifndef ATHENA_EXTENSION_ID
#error "ATHENA_EXTENSION_ID must be defined (bridge/CMakeLists.txt reads extension/EXTENSION_ID)"
#endif

namespace athena::bridge {

using nlohmann::json;

std::string self_path() { return platform::self_path(); }

std::vector<std::pair<std::string, std::string>> manifest_dirs(const InstallOptions& o) {
  if (!o.user_data_dir.empty()) return {{"custom profile", o.user_data_dir + "/NativeMessagingHosts"}};
  const std::string home = platform::home_dir();
  switch (platform::os()) {
    case platform::Os::kWindows:
      // Registry keys under HKCU (the platform layer writes them and the manifest file they name).
      return {{"Google Chrome", "Software\\Google\\Chrome\\NativeMessagingHosts"},
              {"Chromium", "Software\\Chromium\\NativeMessagingHosts"},
              {"Brave", "Software\\BraveSoftware\\Brave-Browser\\NativeMessagingHosts"},
              {"Microsoft Edge", "Software\\Microsoft\\Edge\\NativeMessagingHosts"}};
    case platform::Os::kMacos: {
      if (o.system)
        return {{"Google Chrome", "/Library/Google/Chrome/NativeMessagingHosts"},
                {"Chromium", "/Library/Application Support/Chromium/NativeMessagingHosts"},
                {"Brave", "/Library/Application Support/BraveSoftware/Brave-Browser/NativeMessagingHosts"},
                {"Microsoft Edge", "/Library/Microsoft/Edge/NativeMessagingHosts"}};
      const std::string as = home + "/Library/Application Support";
      return {{"Google Chrome", as + "/Google/Chrome/NativeMessagingHosts"},
              {"Chromium", as + "/Chromium/NativeMessagingHosts"},
              {"Brave", as + "/BraveSoftware/Brave-Browser/NativeMessagingHosts"},
              {"Microsoft Edge", as + "/Microsoft Edge/NativeMessagingHosts"}};
    }
    default: {
      if (o.system)
        return {{"Google Chrome", "/etc/opt/chrome/native-messaging-hosts"},
                {"Chromium", "/etc/chromium/native-messaging-hosts"},
                {"Brave", "/etc/opt/brave.com/brave/native-messaging-hosts"},
                {"Microsoft Edge", "/etc/opt/edge/native-messaging-hosts"}};
      const std::string xdg = platform::env("XDG_CONFIG_HOME");
      const std::string cfg = !xdg.empty() ? xdg : home + "/.config";
      return {{"Google Chrome", cfg + "/google-chrome/NativeMessagingHosts"},
              {"Chromium", cfg + "/chromium/NativeMessagingHosts"},
              {"Brave", cfg + "/BraveSoftware/Brave-Browser/NativeMessagingHosts"},
              {"Microsoft Edge", cfg + "/microsoft-edge/NativeMessagingHosts"}};
    }
  }
  return {};
}

std::string check_install_options(const InstallOptions& o) {
  if (!o.extension_id.empty()) {
    bool ok = o.extension_id.size() == 32;
    for (const char c : o.extension_id) ok = ok && c >= 'a' && c <= 'p';
    if (!ok) return "--extension-id '" + o.extension_id + "' is not an extension id (32 letters a-p, see chrome://extensions)";
  }
  if (!o.binary.empty()) {
    if (!platform::is_absolute(o.binary)) return "--binary '" + o.binary + "' must be an absolute path";
    if (!platform::is_executable(o.binary)) return "--binary '" + o.binary + "' is not an executable file";
  }
  if (!o.user_data_dir.empty() && !platform::is_absolute(o.user_data_dir))
    return "--user-data-dir '" + o.user_data_dir + "' must be an absolute path";
  if (!o.user_data_dir.empty() && platform::registry_places())
    return "--user-data-dir is not read on this OS: Chrome finds native hosts in the registry (HKCU) for every profile; "
           "run install without it";
  if (o.system && platform::registry_places())
    return "--system is not supported on this OS: install registers for the current user (HKCU), which every profile reads";
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
  for (const auto& [browser, place] : manifest_dirs(o)) {
    const platform::Registration now = platform::read_registration(place, kHostName);
    if (now.text == text) {
      std::printf("  %-15s %s (already up to date)\n", browser.c_str(), now.where.c_str());
      continue;
    }
    std::string where, error;
    if (!platform::write_registration(place, kHostName, text, where, error)) {
      std::printf("  %-15s %s%s\n", browser.c_str(), error.c_str(), o.system ? " (run with sudo for --system)" : "");
      ++failures;
      continue;
    }
    std::printf("  %-15s %s (written)\n", browser.c_str(), where.c_str());
  }
  const std::string bin = o.binary.empty() ? self_path() : o.binary;
  std::printf(
      "\nNative host %s registered for extension %s.\n\n"
      "Connect your agent:\n"
      "  Claude Desktop (claude_desktop_config.json) and Cursor (~/.cursor/mcp.json):\n"
      "    {\"mcpServers\": {\"athena-delta\": {\"command\": %s, \"args\": [\"mcp\"]}}}\n"
      "  Claude Code:\n"
      "    claude mcp add athena-delta -- %s mcp\n\n"
      "Then load the extension (chrome://extensions, Developer mode, Load unpacked: the extension/ folder) and run\n"
      "  %s doctor\n",
      kHostName, o.extension_id.empty() ? ATHENA_EXTENSION_ID : o.extension_id.c_str(), json(bin).dump().c_str(), bin.c_str(),
      bin.c_str());  // the JSON snippet's path JSON-escaped (a Windows path's backslashes)
  return failures ? 1 : 0;
}

int cmd_uninstall(const InstallOptions& o) {
  std::vector<std::string> places;
  for (const auto& [browser, place] : manifest_dirs(o)) {
    places.push_back(place);
    std::string where;
    if (platform::remove_registration(place, kHostName, where)) std::printf("  %-15s removed %s\n", browser.c_str(), where.c_str());
    else std::printf("  %-15s nothing at %s\n", browser.c_str(), where.c_str());
  }
  platform::forget_unused_manifest(kHostName, places);
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
  for (const auto& [browser, place] : manifest_dirs(o)) {
    const platform::Registration reg = platform::read_registration(place, kHostName);
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
    if (path != me) bad(browser + ": manifest points at " + path + ", not at this binary " + me, "run `" + me + " install`");
    else if (!platform::is_executable(path)) bad(browser + ": " + path + " is not executable", "rebuild, then `athena-bridge install`");
    else ok(browser + ": " + file);
    bool allowed = false;
    if (const json* origins = field(m, "allowed_origins"); origins && origins->is_array())
      for (const auto& a : *origins) allowed = allowed || a == "chrome-extension://" + id + "/";
    if (!allowed) bad(browser + ": the extension " + id + " is not in allowed_origins", "run `athena-bridge install`");
  }
  if (!found) bad("no native host manifest for any browser", "run `" + me + " install` (or `--user-data-dir DIR` for a custom profile)");

  std::printf("\n2. extension connection (%s)\n", platform::endpoint_name().c_str());
  std::string error;
  platform::EventLoop loop;
  const int conn = loop.connect(error);
  if (conn < 0) {
    bad("no native host running: " + error,
        "open Chrome with the Athena Delta extension installed and enabled; it starts the host itself (check its popup)");
  } else {
    ok("native host reachable");
    loop.send(conn, encode_frame(json{{"type", "hello"}, {"protocol", limits::kProtocol}, {"client", "athena-bridge doctor"}}.dump()));
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
      else ok("protocol " + std::to_string(limits::kProtocol));
      if (bool_field(status, "extension")) ok("extension connected (version " + str_field(status, "extension_version", "?") + ")");
      else bad("the host runs but the extension has not said hello", "reload the extension");
    }
  }
  std::printf("\n%s\n", problems ? "Some links are broken: fix them in order, then run doctor again." : "Every link works.");
  return problems ? 1 : 0;
}

}  // namespace athena::bridge
