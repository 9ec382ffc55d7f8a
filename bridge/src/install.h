// `athena-bridge install | uninstall | doctor`: the native-messaging host manifest for every
// Chromium-family browser, the MCP client snippets, and a check of every link of the chain.
#pragma once

#include <string>
#include <vector>

namespace athena::bridge {

inline constexpr const char* kHostName = "com.athena_delta.bridge";

struct InstallOptions {
  bool system = false;        // /etc (Linux) or /Library (macOS) instead of the user's folders
  bool all = false;           // every browser of the table, not only those found on this machine
  bool guide = true;          // after the manifests, how to connect an agent (npx athena-delta prints its own)
  std::string user_data_dir;  // only <dir>/NativeMessagingHosts (a custom Chromium profile)
  std::string binary;         // absolute path written into the manifest (default: this executable)
  std::vector<std::string> extension_ids;  // allowed_origins; default: the pinned id (extension/EXTENSION_ID)
};

/// One place a manifest can go: the browser (a row of browsers.h), its folder, whether the browser
/// was found here, and why a confined build cannot use it ("" when it can).
struct ManifestPlace {
  std::string browser;
  std::string dir;  // a folder, or on Windows an HKCU key (platform::write_registration's place)
  bool found = false;
  std::string sandboxed;
};

/// "" when the options can be acted on, else what is wrong and what to do: the user folders need
/// an absolute HOME (or XDG_CONFIG_HOME), --user-data-dir and --binary must be absolute (the
/// binary an executable file), and an extension id is 32 letters a-p, as Chrome makes them.
std::string check_install_options(const InstallOptions& o);

/// Where the browsers of browsers.h read host manifests on this OS, per the options (one entry per
/// place: channels that share a folder or key appear once, found when any of them is). A place
/// (ManifestPlace::dir) is a folder (Linux, macOS, a custom profile) or an HKCU registry key
/// (Windows, browsers.h's windows_key), as platform::write_registration takes it.
std::vector<ManifestPlace> manifest_places(const InstallOptions& o);

/// The manifest's JSON text.
std::string manifest_json(const InstallOptions& o);

/// The commands. Print what they do; return the exit code.
int cmd_install(const InstallOptions& o);
int cmd_uninstall(const InstallOptions& o);
int cmd_doctor(const InstallOptions& o);

/// Absolute path of the running executable.
std::string self_path();

}  // namespace athena::bridge
