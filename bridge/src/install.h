// `athena-bridge install | uninstall | doctor`: the native-messaging host manifest for every
// Chromium-family browser, the MCP client snippets, and a check of every link of the chain.
#pragma once

#include <string>
#include <vector>

namespace athena::bridge {

inline constexpr const char* kHostName = "com.athena_delta.bridge";

struct InstallOptions {
  bool system = false;          // /etc (Linux) or /Library (macOS) instead of the user's folders
  std::string user_data_dir;    // only <dir>/NativeMessagingHosts (a custom Chromium profile)
  std::string binary;           // absolute path written into the manifest (default: this executable)
  std::string extension_id;     // default: the pinned id (extension/EXTENSION_ID)
};

/// "" when the options can be acted on, else what is wrong and what to do: the user folders need
/// an absolute HOME (or XDG_CONFIG_HOME), --user-data-dir and --binary must be absolute (the
/// binary an executable file), and an extension id is 32 letters a-p, as Chrome makes them.
std::string check_install_options(const InstallOptions& o);

/// Where Chrome, Chromium, Brave and Edge look for host manifests on this OS, per the options:
/// (browser, place), a place being a folder (Linux, macOS, a custom profile) or an HKCU registry
/// key (Windows), as platform::write_registration takes it.
std::vector<std::pair<std::string, std::string>> manifest_dirs(const InstallOptions& o);

/// The manifest's JSON text.
std::string manifest_json(const InstallOptions& o);

/// The commands. Print what they do; return the exit code.
int cmd_install(const InstallOptions& o);
int cmd_uninstall(const InstallOptions& o);
int cmd_doctor(const InstallOptions& o);

/// Absolute path of the running executable.
std::string self_path();

}  // namespace athena::bridge
