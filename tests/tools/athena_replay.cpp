// athena_replay: replays recorded cases through the core (tests/support/replay.h).
//
//   athena_replay [--cases DIR] [--case NAME]... --demo           each FactPack as the agent reads it,
//                                                                  with its size next to a full snapshot's
//   athena_replay [--cases DIR] [--case NAME]... --json           one JSON line per step (benchmarks)
//   athena_replay [--cases DIR] --write-goldens DIR               tests/golden/<case>/<step>.{txt,json}
#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "athena/factpack.h"
#include "corpus.h"
#include "replay.h"

using namespace athena;

namespace {

int usage(const char* why) {
  std::fprintf(stderr,
               "athena_replay: %s\nusage: athena_replay [--cases DIR] [--case NAME]... (--demo | --json | "
               "--write-goldens DIR)\n",
               why);
  return 2;
}

std::size_t lines(const std::string& s) {
  std::size_t n = 0;
  for (const char c : s) n += c == '\n';
  return n;
}

}  // namespace

int main(int argc, char** argv) {
  std::string cases_dir = corpus::cases_dir(), goldens;
  std::vector<std::string> only;
  enum { kNone, kDemo, kJson, kGoldens } mode = kNone;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> const char* { return i + 1 < argc ? argv[++i] : nullptr; };
    if (a == "--demo") {
      mode = kDemo;
    } else if (a == "--json") {
      mode = kJson;
    } else if (a == "--write-goldens") {
      const char* d = next();
      if (!d) return usage("--write-goldens needs a folder");
      goldens = d;
      mode = kGoldens;
    } else if (a == "--cases") {
      const char* d = next();
      if (!d) return usage("--cases needs a folder");
      cases_dir = d;
    } else if (a == "--case") {
      const char* d = next();
      if (!d) return usage("--case needs a name");
      only.push_back(d);
    } else if (a[0] != '-') {
      cases_dir = a;  // positional: the corpus folder
    } else {
      return usage(("unknown option " + a).c_str());
    }
  }
  if (mode == kNone) return usage("say what to do: --demo, --json or --write-goldens");
  std::vector<corpus::Case> cases;
  try {
    cases = corpus::load_cases(cases_dir);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "athena_replay: cannot read the corpus: %s (record it with ./athena record)\n", e.what());
    return 1;
  }
  if (cases.empty()) {
    std::fprintf(stderr, "athena_replay: no cases in %s (record them with ./athena record)\n", cases_dir.c_str());
    return 1;
  }
  int failures = 0;
  std::size_t total_ours = 0, total_full = 0;
  for (const corpus::Case& c : cases) {
    if (!only.empty() && std::find(only.begin(), only.end(), c.name) == only.end()) continue;
    const auto steps = testing::replay_case(c);
    if (mode == kDemo) std::printf("\n=== %s (%zu steps) ===\n", c.name.c_str(), steps.size());
    for (const auto& s : steps) {
      if (!s.ok) {
        ++failures;
        std::fprintf(stderr, "%s/%s: %s\n", c.name.c_str(), s.name.c_str(), s.error.c_str());
        continue;
      }
      switch (mode) {
        case kDemo:
          total_ours += s.text.size();
          total_full += s.full_text.size();
          std::printf("\n--- %s/%s (%s): %s, %zu chars / %zu lines; a full snapshot: %zu chars / %zu lines\n%s",
                      c.name.c_str(), s.name.c_str(), s.action.c_str(), pack_type_name(s.pack.type), s.text.size(),
                      lines(s.text), s.full_text.size(), lines(s.full_text), s.text.c_str());
          break;
        case kJson: {
          const nlohmann::json j = {{"case", c.name},
                                    {"step", s.name},
                                    {"action", s.action},
                                    {"type", pack_type_name(s.pack.type)},
                                    {"reason", s.pack.reason},
                                    {"text", s.text},
                                    {"nodedup", s.nodedup_text},
                                    {"full", s.full_text},
                                    {"floor", s.floor_text}};
          std::printf("%s\n", j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace).c_str());
          break;
        }
        case kGoldens: {
          const std::string dir = goldens + "/" + c.name + "/";
          corpus::write_file(dir + s.name + ".txt", s.text);
          corpus::write_file(dir + s.name + ".json", s.json + "\n");
          break;
        }
        case kNone:
          break;
      }
    }
  }
  if (mode == kDemo)
    std::printf("\nall cases: FactPacks %zu chars, a full snapshot every step %zu chars (%.1fx smaller)\n", total_ours,
                total_full, total_ours ? static_cast<double>(total_full) / static_cast<double>(total_ours) : 0.0);
  return failures ? 1 : 0;
}
