// The native half of bench/wasm.mjs and of tests/wasm/fidelity.test.mjs: the very steps the
// wasm module runs, natively, in the same run, so wasm/native ratios compare like with like.
//
//   bench_wasm_native --steps JOB.json RUNS [--binary]
//     JOB = [{"name": "...", "captures": ["path", ...], "events": [["{cdp event}", ...] per capture]?}]
//     --binary: captures are converted to the binary form (docs/capture-format.md) before timing,
//     as the extension now sends them.
//     per flow: snapshot(capture 0), then per later capture beginAction(previous) and
//     finishAction(this), each with render_text + render_json, exactly as bench/wasm.mjs does
//     through the wasm wrapper. Prints {"flows": [{name, first, begin, finish, textBytes, jsonBytes,
//     digest}]}: per-call medians in ms, and a digest of every rendering (wasm must give the same).
//   bench_wasm_native --replay JOB.json
//     the same calls once, printing every answer (pack text + JSON, or error code + message).
//   bench_wasm_native --fidelity FIRST_SEED COUNT STEPS
//     prints wasm/fidelity_driver.h's run_fidelity_json, the same sessions athena_core_test runs.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "../wasm/fidelity_driver.h"
#include "athena/engine.h"
#include "athena/render.h"
#include "capture_binary.h"
#include "corpus.h"
#include "steady_allocator.h"

using namespace athena;
using Clock = std::chrono::steady_clock;
using nlohmann::json;

namespace {

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

double since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

// FNV-1a over every rendering, in order: a cheap digest both sides compute the same way.
struct Digest {
  std::uint32_t h = 2166136261u;
  void add(const std::string& s) {
    for (unsigned char c : s) h = (h ^ c) * 16777619u;
    h = (h ^ 0xffu) * 16777619u;  // separator
  }
};

[[noreturn]] void die(const std::string& what) {
  std::fprintf(stderr, "bench_wasm_native: %s\n", what.c_str());
  std::exit(1);
}

struct Flow {
  std::string name;
  std::vector<std::string> captures;
  std::vector<std::vector<std::string>> events;  // per capture: CDP events sent before it
  int runs = 0;                                  // 0: the command line's count
};

std::vector<Flow> read_job(const std::string& job_path, bool binary = false) {
  json job = json::parse(corpus::read_file(job_path), nullptr, false);
  if (job.is_discarded() || !job.is_array()) die("job file must be a JSON array of {name, captures, events?}");
  std::vector<Flow> flows;
  for (const json& f : job) {
    Flow flow;
    flow.name = f.at("name").get<std::string>();
    if (f.contains("runs")) flow.runs = f["runs"].get<int>();
    for (const json& p : f.at("captures")) {
      std::string capture = corpus::read_file(p.get<std::string>());
      flow.captures.push_back(binary ? testing::to_binary_capture(capture) : std::move(capture));
    }
    flow.events.resize(flow.captures.size());
    if (f.contains("events"))
      for (std::size_t i = 0; i < flow.captures.size() && i < f["events"].size(); ++i)
        for (const json& ev : f["events"][i]) flow.events[i].push_back(ev.get<std::string>());
    flows.push_back(std::move(flow));
  }
  return flows;
}

// One pass over a flow, as bench/wasm.mjs and tests/wasm/parity.test.mjs drive the wrapper:
// events of capture i go in before it; snapshot(capture 0), then beginAction(capture i-1,
// agent = last version) and finishAction(capture i). `out` sees every call's answer (and renders
// it) before `timer` reads the clock: rendering is part of a step, as inside the wasm calls.
template <typename Out, typename Timer>
void play(const Flow& flow, Out&& out, Timer&& timer) {
  Engine engine;
  const PageKey key{0, 1};
  engine.open_page(key);
  std::uint64_t version = 0;
  bool have_version = false;
  auto feed = [&](std::size_t i) {
    for (const std::string& ev : flow.events[i]) {
      Status st = engine.on_event(key, ev);
      out("onEvent", st ? nullptr : &st.error(), nullptr);
    }
  };
  feed(0);
  auto t0 = Clock::now();
  auto full = engine.snapshot(key, flow.captures[0]);
  out("snapshot", full ? nullptr : &full.error(), full ? &*full : nullptr);
  timer("first", t0);
  if (full) version = full->version, have_version = true;
  for (std::size_t i = 1; i < flow.captures.size(); ++i) {
    feed(i);
    t0 = Clock::now();
    auto pre = engine.begin_action(key, flow.captures[i - 1],
                                   have_version ? std::optional<std::uint64_t>(version) : std::nullopt);
    out("beginAction", pre ? nullptr : &pre.error(), pre && pre->pack ? &*pre->pack : nullptr);
    timer("begin", t0);
    if (!pre) continue;
    if (pre->freshness == Freshness::kStaleNoHistory) {
      version = pre->pack->version;
      continue;
    }
    t0 = Clock::now();
    auto pack = engine.finish_action(key, flow.captures[i], {});
    out("finishAction", pack ? nullptr : &pack.error(), pack ? &*pack : nullptr);
    timer("finish", t0);
    if (pack) version = pack->version;
  }
}

int run_steps(const std::string& job_path, int default_runs, bool binary) {
  json result = json::array();
  for (const Flow& flow : read_job(job_path, binary)) {
    const int runs = flow.runs > 0 ? flow.runs : default_runs;
    std::vector<double> first, begin, finish, finish_total;
    std::size_t text_bytes = 0, json_bytes = 0;
    Digest digest;
    for (int r = 0; r < runs; ++r) {
      auto out = [&](const char*, const Error* error, const FactPack* pack) {
        if (error) die(flow.name + ": " + error->message);
        if (!pack) return;
        std::string text = render_text(*pack), js = render_json(*pack);  // rendering is part of the step
        if (r == 0) {
          digest.add(text);
          digest.add(js);
          text_bytes += text.size();
          json_bytes += js.size();
        }
      };
      double total = 0;
      auto timer = [&](const char* what, Clock::time_point t0) {
        const std::string w = what;
        const double t = since(t0);
        (w == "first" ? first : w == "begin" ? begin : finish).push_back(t);
        if (w == "finish") total += t;
      };
      play(flow, out, timer);
      finish_total.push_back(total);
    }
    char hex[16];
    std::snprintf(hex, sizeof hex, "%08x", digest.h);
    result.push_back({{"name", flow.name},
                      {"first", median(first)},
                      {"begin", median(begin)},
                      {"finish", median(finish)},
                      {"finishTotal", median(finish_total)},
                      {"runs", runs},
                      {"textBytes", text_bytes},
                      {"jsonBytes", json_bytes},
                      {"digest", hex}});
  }
  std::printf("%s\n", json{{"flows", result}}.dump().c_str());
  return 0;
}

// Every answer of every call, for byte-for-byte comparison with the wasm module.
int run_replay(const std::string& job_path) {
  json result = json::array();
  for (const Flow& flow : read_job(job_path)) {
    json outputs = json::array();
    auto out = [&](const char* call, const Error* error, const FactPack* pack) {
      json o = {{"call", call}};
      if (error) o["error"] = {{"code", error_code_name(error->code)}, {"message", error->message}};
      if (pack) {
        o["type"] = pack_type_name(pack->type);
        o["version"] = pack->version;
        o["text"] = render_text(*pack);
        o["json"] = render_json(*pack);
      }
      outputs.push_back(std::move(o));
    };
    play(flow, out, [](const char*, Clock::time_point) {});
    result.push_back({{"name", flow.name}, {"outputs", std::move(outputs)}});
  }
  std::printf("%s\n", json{{"flows", result}}.dump().c_str());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  athena::bench::keep_freed_memory();
  const std::string mode = argc > 1 ? argv[1] : "";
  if (mode == "--steps" && argc >= 3)
    return run_steps(argv[2], argc > 3 ? std::max(1, std::atoi(argv[3])) : 9,
                     argc > 4 && std::string(argv[4]) == "--binary");
  if (mode == "--replay" && argc >= 3) return run_replay(argv[2]);
  if (mode == "--fidelity" && argc >= 5) {
    std::printf("%s\n",
                wasm::run_fidelity_json(std::strtoull(argv[2], nullptr, 10), std::strtoull(argv[3], nullptr, 10),
                                        std::strtoull(argv[4], nullptr, 10))
                    .c_str());
    return 0;
  }
  std::fprintf(stderr,
               "usage: bench_wasm_native --steps JOB.json [RUNS [--binary]] | --replay JOB.json | --fidelity "
               "FIRST_SEED COUNT STEPS\n");
  return 2;
}
