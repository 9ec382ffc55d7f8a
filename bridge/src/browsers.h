// Where each Chromium-family browser reads native-messaging host manifests, on every OS: the one
// table the installer (install.cpp) and the doctor read, and the place to add a browser. The
// Windows column is the HKCU registry key whose default value names the manifest file.
//
// The Linux and macOS folders follow each vendor's documented per-user location (Chrome's
// "Native messaging" page; Edge's; Brave, Vivaldi and Opera keep Chromium's layout under their
// own folder). Snap and Flatpak builds run confined: a host outside the sandbox cannot be
// started there, so those rows carry the reason and are reported, never written.
#pragma once

namespace athena::bridge {

struct BrowserPlaces {
  const char* name;
  const char* linux_config;    // under $XDG_CONFIG_HOME (~/.config), or under HOME when it starts with ~/;
                               //   + /NativeMessagingHosts
  const char* linux_system;    // system-wide folder (--system), or nullptr
  const char* linux_commands;  // space-separated commands on PATH (or absolute paths) that show it is installed
  const char* mac_support;     // under ~/Library/Application Support, + /NativeMessagingHosts
  const char* mac_system;      // system-wide folder (--system), or nullptr
  const char* mac_app;         // the app bundle in /Applications (or ~/Applications)
  const char* windows_key;     // HKCU\<key>\com.athena_delta.bridge (read by the Windows platform layer)
  const char* sandboxed;       // why native messaging cannot reach a host there, or nullptr
};

inline constexpr BrowserPlaces kBrowsers[] = {
    {"Google Chrome", "google-chrome", "/etc/opt/chrome/native-messaging-hosts", "google-chrome google-chrome-stable",
     "Google/Chrome", "/Library/Google/Chrome/NativeMessagingHosts", "Google Chrome.app",
     "Software\\Google\\Chrome\\NativeMessagingHosts", nullptr},
    {"Chrome Beta", "google-chrome-beta", "/etc/opt/chrome/native-messaging-hosts", "google-chrome-beta",
     "Google/Chrome Beta", "/Library/Google/Chrome/NativeMessagingHosts", "Google Chrome Beta.app",
     "Software\\Google\\Chrome\\NativeMessagingHosts", nullptr},
    {"Chrome Dev", "google-chrome-unstable", "/etc/opt/chrome/native-messaging-hosts", "google-chrome-unstable",
     "Google/Chrome Dev", "/Library/Google/Chrome/NativeMessagingHosts", "Google Chrome Dev.app",
     "Software\\Google\\Chrome\\NativeMessagingHosts", nullptr},
    {"Chrome Canary", "google-chrome-canary", "/etc/opt/chrome/native-messaging-hosts", "google-chrome-canary",
     "Google/Chrome Canary", "/Library/Google/Chrome/NativeMessagingHosts", "Google Chrome Canary.app",
     "Software\\Google\\Chrome\\NativeMessagingHosts", nullptr},
    {"Chromium", "chromium", "/etc/chromium/native-messaging-hosts", "chromium chromium-browser", "Chromium",
     "/Library/Application Support/Chromium/NativeMessagingHosts", "Chromium.app",
     "Software\\Chromium\\NativeMessagingHosts", nullptr},
    {"Microsoft Edge", "microsoft-edge", "/etc/opt/edge/native-messaging-hosts", "microsoft-edge microsoft-edge-stable",
     "Microsoft Edge", "/Library/Microsoft/Edge/NativeMessagingHosts", "Microsoft Edge.app",
     "Software\\Microsoft\\Edge\\NativeMessagingHosts", nullptr},
    {"Edge Beta", "microsoft-edge-beta", "/etc/opt/edge/native-messaging-hosts", "microsoft-edge-beta",
     "Microsoft Edge Beta", "/Library/Microsoft/Edge/NativeMessagingHosts", "Microsoft Edge Beta.app",
     "Software\\Microsoft\\Edge\\NativeMessagingHosts", nullptr},
    {"Edge Dev", "microsoft-edge-dev", "/etc/opt/edge/native-messaging-hosts", "microsoft-edge-dev",
     "Microsoft Edge Dev", "/Library/Microsoft/Edge/NativeMessagingHosts", "Microsoft Edge Dev.app",
     "Software\\Microsoft\\Edge\\NativeMessagingHosts", nullptr},
    {"Edge Canary", nullptr, nullptr, nullptr, "Microsoft Edge Canary", "/Library/Microsoft/Edge/NativeMessagingHosts",
     "Microsoft Edge Canary.app", "Software\\Microsoft\\Edge\\NativeMessagingHosts", nullptr},
    {"Brave", "BraveSoftware/Brave-Browser", "/etc/opt/brave.com/brave/native-messaging-hosts", "brave-browser brave",
     "BraveSoftware/Brave-Browser", "/Library/Application Support/BraveSoftware/Brave-Browser/NativeMessagingHosts",
     "Brave Browser.app", "Software\\BraveSoftware\\Brave-Browser\\NativeMessagingHosts", nullptr},
    {"Vivaldi", "vivaldi", nullptr, "vivaldi vivaldi-stable", "Vivaldi", nullptr, "Vivaldi.app",
     "Software\\Vivaldi\\NativeMessagingHosts", nullptr},
    {"Opera", "opera", nullptr, "opera", "com.operasoftware.Opera", nullptr, "Opera.app",
     "Software\\Google\\Chrome\\NativeMessagingHosts", nullptr},  // Opera on Windows reads Chrome's key
    // Confined builds: found (to say so plainly), never written.
    {"Chromium (Snap)", "~/snap/chromium/common/chromium", nullptr, "/snap/bin/chromium", nullptr, nullptr, nullptr,
     nullptr,
     "Snap confinement lets Chromium start only programs inside its snap; install Chromium from your distribution's "
     "packages or use Google Chrome"},
    {"Chromium (Flatpak)", "~/.var/app/org.chromium.Chromium/config/chromium", nullptr, nullptr, nullptr, nullptr,
     nullptr, nullptr,
     "the Flatpak sandbox cannot start a native host outside it; use a non-Flatpak build of the browser"},
    {"Chrome (Flatpak)", "~/.var/app/com.google.Chrome/config/google-chrome", nullptr, nullptr, nullptr, nullptr,
     nullptr, nullptr, "the Flatpak sandbox cannot start a native host outside it; use Google's .deb/.rpm of Chrome"},
    {"Brave (Flatpak)", "~/.var/app/com.brave.Browser/config/BraveSoftware/Brave-Browser", nullptr, nullptr, nullptr,
     nullptr, nullptr, nullptr, "the Flatpak sandbox cannot start a native host outside it; use Brave's .deb/.rpm"},
    {"Edge (Flatpak)", "~/.var/app/com.microsoft.Edge/config/microsoft-edge", nullptr, nullptr, nullptr, nullptr,
     nullptr, nullptr, "the Flatpak sandbox cannot start a native host outside it; use Microsoft's .deb/.rpm of Edge"},
};

}  // namespace athena::bridge
