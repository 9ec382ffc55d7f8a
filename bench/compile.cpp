// Compile time per recorded page: athena::compile_capture() on every step of tests/cases
// (median of N runs), next to what the recorder measured for the same step in step.json
// (the CDP capture itself, and a JS traversal in the page + DOM.describeNode per element).
// Writes bench/compile-times.md (section of bench/RESULTS.md).
//   bench_compile [runs]        (ATHENA_CASES_DIR overrides the corpus, ATHENA_ROOT the output root)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "athena/compiler.h"
#include "corpus.h"
#include "steady_allocator.h"

namespace {

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

std::string ms(double v) {
  char b[32];
  std::snprintf(b, sizeof b, v < 10 ? "%.2f" : "%.1f", v);
  return b;
}

// Timings the recorder wrote in step.json, by the first key that contains `needle`
// (the recorder names them after the CDP call: "captureSnapshot", "describeNode", ...).
double timing(const nlohmann::json& step, std::initializer_list<const char*> needles) {
  const nlohmann::json* t = nullptr;
  if (step.is_object() && step.contains("timings") && step["timings"].is_object()) t = &step["timings"];
  if (!t) return -1;
  for (const char* needle : needles)
    for (auto it = t->begin(); it != t->end(); ++it) {
      if (it.key().find(needle) == std::string::npos) continue;
      if (it.value().is_number()) return it.value().get<double>();
      if (it.value().is_object() && it.value().contains("ms") && it.value()["ms"].is_number())
        return it.value()["ms"].get<double>();
    }
  return -1;
}

std::string opt(double v) {
  return v < 0 ? "—" : ms(v);
}

}  // namespace

int main(int argc, char** argv) {
  athena::bench::keep_freed_memory();
  const int runs = argc > 1 ? std::max(1, std::atoi(argv[1])) : 15;
  const auto cases = athena::corpus::load_cases();
  std::ostringstream md;
  md << "## Snapshot compiler: time per recorded page\n\n"
     << "`athena::compile_capture()` (native, "
     <<
#ifdef NDEBUG
      "release"
#else
      "DEBUG — not representative"
#endif
     << " build), median of " << runs
     << " runs per step, on the recorded corpus (tests/cases). CDP columns are what the recorder measured for the same "
        "step\n"
        "(step.json `timings`): the capture the compiler eats, and a JS traversal in the page + `DOM.describeNode` per "
        "element.\n\n"
        "| case / step | capture KB | DOM nodes | emitted | compile ms | CDP capture ms | in-page walk ms |\n"
        "|---|---|---|---|---|---|---|\n";
  std::vector<double> all_compile;
  int steps = 0, failed = 0;
  for (const auto& c : cases) {
    for (const auto& s : c.steps) {
      std::vector<double> t;
      std::size_t emitted = 0;
      bool ok = true;
      for (int r = 0; r < runs; ++r) {
        const auto t0 = std::chrono::steady_clock::now();
        auto snap = athena::compile_capture(s.capture_json);
        const auto t1 = std::chrono::steady_clock::now();
        if (!snap.ok()) {
          std::fprintf(stderr, "%s/%s: %s\n", c.name.c_str(), s.name.c_str(), snap.error().message.c_str());
          ok = false;
          break;
        }
        emitted = snap->nodes.size();
        t.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
      }
      ++steps;
      if (!ok) {
        ++failed;
        continue;
      }
      std::size_t dom_nodes = 0;
      const auto cap = nlohmann::json::parse(s.capture_json, nullptr, false);
      auto count = [&](const nlohmann::json& snap) {
        if (!snap.is_object() || !snap.contains("documents") || !snap["documents"].is_array()) return;
        for (const auto& d : snap["documents"])
          if (d.is_object() && d.contains("nodes") && d["nodes"].contains("parentIndex"))
            dom_nodes += d["nodes"]["parentIndex"].size();
      };
      if (cap.is_object()) {
        if (cap.contains("snapshot")) count(cap["snapshot"]);
        if (cap.contains("oopifs") && cap["oopifs"].is_array())
          for (const auto& o : cap["oopifs"])
            if (o.is_object() && o.contains("snapshot")) count(o["snapshot"]);
      }
      const auto step = nlohmann::json::parse(s.step_json, nullptr, false);
      const double m = median(t);
      all_compile.push_back(m);
      md << "| " << c.name << " / " << s.name << " | " << s.capture_json.size() / 1024 << " | " << dom_nodes << " | "
         << emitted << " | " << ms(m) << " | " << opt(timing(step, {"captureSnapshot", "capture"})) << " | "
         << opt(timing(step, {"describeNode", "traversal"})) << " |\n";
    }
  }
  md << "\n"
     << steps << " steps, " << failed
     << " failed to compile; median of the per-step medians: " << ms(median(all_compile)) << " ms.\n";
  std::fputs(md.str().c_str(), stdout);
  const char* root = std::getenv("ATHENA_ROOT");
  const std::string out =
      (root ? std::string(root) : std::string(ATHENA_CASES_DIR) + "/../..") + "/bench/compile-times.md";
  athena::corpus::write_file(out, md.str());
  std::printf("wrote %s\n", out.c_str());
  return failed ? 1 : 0;
}
