// Delta engine: diff time and memory on a 10,000-element page, per recorded flow, and memory
// over a 10,000-step session (registry, tombstones, history stay bounded: limits.h).
// Writes bench/engine-results.md (section of bench/RESULTS.md).
//   bench_engine [runs]        (ATHENA_CASES_DIR overrides the corpus, ATHENA_ROOT the output root)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#if defined(__GLIBC__)
#include <malloc.h>  // mallinfo2
#endif

#include <nlohmann/json.hpp>

#include "athena/compiler.h"
#include "athena/engine.h"
#include "athena/limits.h"
#include "corpus.h"
#include "snapshot_gen.h"
#include "steady_allocator.h"

using namespace athena;
using Clock = std::chrono::steady_clock;

namespace {

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

std::string fmt(double v, const char* f = "%.2f") {
  char b[32];
  std::snprintf(b, sizeof b, f, v);
  return b;
}

// Bytes the allocator has handed out and not had back (glibc): what the program holds, whatever
// the allocator keeps for reuse or returns to the system. RSS depends on that too (glibc's
// adaptive mmap threshold moved a page's RSS by 13 MiB between two builds that held the same).
double heap_in_use_mib() {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
  const struct mallinfo2 mi = mallinfo2();
  return static_cast<double>(mi.uordblks + mi.hblkhd) / (1024.0 * 1024.0);
#else
  return 0;
#endif
}

// Resident set size in MiB (Linux /proc; 0 elsewhere).
double rss_mib() {
  std::ifstream f("/proc/self/statm");
  long pages = 0, resident = 0;
  if (!(f >> pages >> resident)) return 0;
  return static_cast<double>(resident) * 4096.0 / (1024.0 * 1024.0);
}

double time_ms(const std::function<void()>& fn) {
  const auto t0 = Clock::now();
  fn();
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

void must(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "bench_engine: %s failed\n", what);
    std::exit(1);
  }
}

}  // namespace

int main(int argc, char** argv) {
  athena::bench::keep_freed_memory();
  const int runs = argc > 1 ? std::max(1, std::atoi(argv[1])) : 9;
  std::ostringstream md;
  md << "## Delta engine ("
     <<
#ifdef NDEBUG
      "native release"
#else
      "native debug"
#endif
     << ", median of " << runs << " runs)\n\n";

  // --- 10,000-element synthetic page ---------------------------------------------------------
  const std::size_t kN = 10000;
  const Snapshot base = testing::SnapshotGen::big_page(kN, 7);
  auto mutated = [&](const Snapshot& from, int kind) {
    Snapshot s = from;
    if (kind == 1) {  // a typical action: 1 renamed, 1 toggled, 1 removed, 1 inserted
      s.nodes[10].name = "Renamed";
      s.nodes[20].state.disabled = !s.nodes[20].state.disabled;
      s.nodes.erase(s.nodes.begin() + 30);
      ReadableNode n = s.nodes[40];
      n.backend_node_id = 999999;
      n.name = "Inserted";
      s.nodes.insert(s.nodes.begin() + 50, n);
    } else if (kind == 2) {  // identical re-render: every node new
      for (ReadableNode& n : s.nodes) n.backend_node_id += 1000000;
    } else if (kind == 3) {  // navigation to a page with the same chrome
      for (FrameInfo& f : s.frames) f.loader_id += "-next";
      for (ReadableNode& n : s.nodes) {
        n.loader_id += "-next";
        n.backend_node_id += 2000000;
      }
    }
    return s;
  };
  struct Row {
    const char* what;
    std::vector<double> ms;
    std::string pack;
  };
  std::vector<Row> rows = {{"first full snapshot", {}, ""},
                           {"delta after a small change (4 changes)", {}, ""},
                           {"identical re-render (all 10,000 nodes new)", {}, ""},
                           {"navigation, same content (full, regions dedup)", {}, ""},
                           {"no change at all (fast path)", {}, ""}};
  // Each step starts from the previous one: change, then re-render it, then navigate to it.
  const Snapshot s1 = mutated(base, 1), s2 = mutated(s1, 2), s3 = mutated(s2, 3);
  double rss_before = 0, rss_after = 0, heap_before = 0, heap_after = 0;
  PageStats big_stats;
  for (int r = 0; r < runs; ++r) {
    Snapshot first = base;  // copied outside the timing, as the steps' inputs are
    if (r == 0) {
      rss_before = rss_mib();
      heap_before = heap_in_use_mib();
    }
    Engine engine;
    PageKey key{0, 1};
    engine.open_page(key);
    Result<FactPack> p = make_error(ErrorCode::kInternal, "");
    rows[0].ms.push_back(time_ms([&] { p = engine.snapshot_from(key, std::move(first)); }));
    must(p.ok(), "snapshot");
    rows[0].pack = pack_type_name(p->type);
    std::uint64_t v = p->version;
    auto act = [&](const Snapshot& before, const Snapshot& after, Row& row) {
      Snapshot b = before, a = after;  // copies outside the timing
      double t = time_ms([&] {
        must(engine.begin_action_from(key, std::move(b), v).ok(), "begin");
        p = engine.finish_action_from(key, std::move(a), {});
      });
      must(p.ok(), "finish");
      row.ms.push_back(t);
      row.pack = std::string(pack_type_name(p->type)) + (p->reason.empty() ? "" : " (" + p->reason + ")") + ", " +
                 std::to_string(p->added.size()) + " added, " + std::to_string(p->modified.size()) + " modified, " +
                 std::to_string(p->invalidated.size()) + " invalidated";
      v = p->version;
    };
    act(base, s1, rows[1]);
    act(s1, s2, rows[2]);
    act(s2, s3, rows[3]);
    act(s3, s3, rows[4]);
    if (r == 0) {
      rss_after = rss_mib();
      heap_after = heap_in_use_mib();
      big_stats = *engine.stats(key);
    }
  }
  md << "### 10,000-element page (synthetic, `SnapshotGen::big_page`)\n\n"
     << "Time is begin_action + finish_action (both captures ingested and matched), input already compiled.\n\n"
     << "| step | ms | result |\n|---|---:|---|\n";
  for (const Row& r : rows) md << "| " << r.what << " | " << fmt(median(r.ms)) << " | " << r.pack << " |\n";
  md << "\nMemory held for one page of 10,000 elements: " << fmt(heap_after - heap_before, "%.1f")
     << " MiB in use (allocator's bytes in use: live capture + delivered view + registry of " << big_stats.registry
     << " refs; no older versions are kept; bench inputs excluded). "
     << "RSS grew " << fmt(rss_after - rss_before, "%.1f")
     << " MiB over the same steps, which also counts what the allocator keeps for reuse.\n\n";

  // --- 10,000-step session ---------------------------------------------------------------------
  {
    testing::GenOptions o;
    o.initial_elements = 60;
    o.max_elements = 120;
    o.subframes = 2;
    testing::SnapshotGen gen(42, o);
    Engine engine;
    PageKey key{0, 1};
    engine.open_page(key);
    FactPack first = *engine.snapshot_from(key, gen.build());
    std::uint64_t v = first.version;
    md << "### 10,000-step session (each step: 2 random mutations, begin_action + finish_action; ~60-120 elements, 2 "
          "iframes)\n\n"
       << "| step | RSS MiB | registry refs | tombstones | retired docs | pages kept for recall | version | ms/step "
          "(since previous row) |\n"
       << "|---:|---:|---:|---:|---:|---:|---:|---:|\n";
    auto t0 = Clock::now();
    for (int step = 1; step <= 10000; ++step) {
      const Snapshot before = gen.build();
      gen.step();
      gen.step();
      auto pre = engine.begin_action_from(key, before, v);
      must(pre.ok(), "session begin");
      if (pre->freshness == Freshness::kStaleNoHistory) {
        v = pre->pack->version;
        continue;
      }
      auto p = engine.finish_action_from(key, gen.build(), {});
      must(p.ok(), "session finish");
      v = p->version;
      if (step == 100 || step % 2000 == 0) {
        const double per =
            std::chrono::duration<double, std::milli>(Clock::now() - t0).count() / (step == 100 ? 100 : 2000);
        t0 = Clock::now();
        PageStats s = *engine.stats(key);
        md << "| " << step << " | " << fmt(rss_mib(), "%.1f") << " | " << s.registry << " | " << s.tombstones << " | "
           << s.retired_documents << " | " << s.recalled_pages << " | " << s.version << " | " << fmt(per, "%.3f")
           << " |\n";
      }
    }
    md << "\nBounds (limits.h): tombstones <= " << limits::kMaxRemovedTombstones
       << ", retired documents <= " << limits::kMaxRetiredDocuments
       << ", pages kept for recall <= " << limits::kMaxRecalledPages
       << "; the registry holds live refs + tombstones only.\n\n";
  }

  // --- recorded flows --------------------------------------------------------------------------
  std::vector<corpus::Case> cases;
  try {
    cases = corpus::load_cases();
  } catch (const std::exception&) {
  }
  md << "### Recorded flows (tests/cases)\n\n";
  if (cases.empty()) {
    md << "No recorded cases were available when this ran.\n";
  } else {
    md << "Engine time per step (snapshot / begin+finish on compiled captures; compile time is in "
          "compile-times.md).\n\n"
       << "| case | steps | elements (max) | first full ms | median step ms | max step ms | packs "
          "|\n|---|---:|---:|---:|---:|---:|---|\n";
    for (const corpus::Case& c : cases) {
      if (c.steps.empty()) continue;
      std::vector<Snapshot> snaps;
      bool ok = true;
      std::size_t max_el = 0;
      for (const corpus::Step& st : c.steps) {
        auto s = compile_capture(st.capture_json);
        if (!s) {
          ok = false;
          break;
        }
        max_el = std::max(max_el, s->nodes.size());
        snaps.push_back(std::move(*s));
      }
      if (!ok) {
        md << "| " << c.name << " | " << c.steps.size() << " | — | compile error | | | |\n";
        continue;
      }
      std::vector<double> first, step_ms;
      std::string packs;
      for (int r = 0; r < runs; ++r) {
        Engine engine;
        PageKey key{0, 1};
        engine.open_page(key);
        Snapshot s0 = snaps[0];
        Result<FactPack> p = make_error(ErrorCode::kInternal, "");
        first.push_back(time_ms([&] { p = engine.snapshot_from(key, std::move(s0)); }));
        std::uint64_t v = p->version;
        for (std::size_t i = 1; i < snaps.size(); ++i) {
          Snapshot b = snaps[i - 1], a = snaps[i];
          step_ms.push_back(time_ms([&] {
            auto pre = engine.begin_action_from(key, std::move(b), v);
            if (pre && pre->freshness != Freshness::kStaleNoHistory)
              p = engine.finish_action_from(key, std::move(a), {});
            else if (pre)
              p = *pre->pack;
          }));
          if (p) v = p->version;
          if (r == 0 && p) packs += std::string(packs.empty() ? "" : ", ") + pack_type_name(p->type);
        }
      }
      md << "| " << c.name << " | " << c.steps.size() << " | " << max_el << " | " << fmt(median(first)) << " | "
         << fmt(median(step_ms)) << " | "
         << fmt(step_ms.empty() ? 0 : *std::max_element(step_ms.begin(), step_ms.end())) << " | " << packs << " |\n";
    }
  }
  const char* root = std::getenv("ATHENA_ROOT");
  const std::string out =
      (root ? std::string(root) : std::string(ATHENA_CASES_DIR) + "/../..") + "/bench/engine-results.md";
  corpus::write_file(out, md.str());
  std::fputs(md.str().c_str(), stdout);
  return 0;
}
