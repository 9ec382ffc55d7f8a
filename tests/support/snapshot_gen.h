// A seeded random page and the mutations real pages go through, producing synthetic Snapshots
// for the delta engine (fidelity property, adversarial cases, benches). Deterministic on every
// platform (own PRNG, no <random> distributions): the same seed gives the same pages natively
// and in wasm. Plain C++17, no filesystem or threads.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "athena/snapshot.h"

namespace athena::testing {

/// splitmix64: tiny, portable, good enough for test generation.
class Rng {
 public:
  explicit Rng(std::uint64_t seed) : s_(seed) {}
  std::uint64_t next();
  /// Uniform-ish in [0, n) (n > 0).
  std::size_t below(std::size_t n) { return static_cast<std::size_t>(next() % n); }
  bool chance(int percent) { return below(100) < static_cast<std::size_t>(percent); }

 private:
  std::uint64_t s_;
};

enum class Mutation {
  kInsert,
  kRemove,
  kRerender,
  kReorder,
  kRename,
  kToggle,
  kDuplicateLabel,
  kOpenOverlay,
  kCloseOverlay,
  kNestOverlay,
  kReplaceOverlay,
  kNavigateSubframe,
  kNavigateMain,
  kRevealText,    // a tab switch / accordion: the context's text paragraphs are swapped, shown or hidden
  kNavigateBack,  // back to a document the tab left: its page again (new nodes), now and then changed since
};
const char* mutation_name(Mutation m);

struct GenOptions {
  std::size_t initial_elements = 14;
  std::size_t max_elements = 40;
  std::size_t subframes = 1;  // iframes at start
  std::size_t max_overlays = 3;
};

class SnapshotGen {
 public:
  explicit SnapshotGen(std::uint64_t seed, GenOptions options = {});

  /// The page as the compiler would produce it (semantic keys assigned).
  Snapshot build() const;
  /// Applies one random mutation; returns which.
  Mutation step();
  /// Applies a given mutation (no-op when it does not apply, e.g. close with no overlay).
  void apply(Mutation m);
  std::size_t overlay_depth() const { return overlays_.size(); }
  std::size_t size() const { return els_.size(); }
  Rng& rng() { return rng_; }

  /// Builds a page of exactly n base elements in the main frame (benches).
  static Snapshot big_page(std::size_t n, std::uint64_t seed);

 private:
  struct El {
    std::int64_t backend_node_id = 0;
    std::string role, name, href;
    bool cut = false;  // the name is the start of longer words (ReadableNode::cut)
    Category category = Category::kInteractive;
    Region region = Region::kMain;
    std::string label;
    NodeState state;
    int level = 0;
    std::size_t frame = 0;  // index into frames_
    int overlay = -1;       // index into overlays_
    int depth = 0;          // outline depth (ReadableNode::depth): presentation, kept for life
  };
  struct Fr {
    std::string id, loader, url;
    int parent = -1;
  };
  struct Ov {
    std::int64_t backend_node_id = 0;
    OverlayType type = OverlayType::kModal;
    std::string name;
  };
  El random_element(std::size_t frame, int overlay);
  std::string new_loader();
  void open_overlay();
  void close_overlay();
  std::size_t pick_ctx_element(int overlay);
  El text_element(std::size_t frame, int overlay);
  void reveal_text(int overlay);

  Rng rng_;
  GenOptions options_;
  std::vector<Fr> frames_;
  std::vector<El> els_;  // document order; overlay elements after the page's
  std::vector<Ov> overlays_;
  /// The main frame's page of each document the tab left, newest last (kNavigateBack).
  std::vector<std::vector<El>> left_;
  void leave_document();
  std::int64_t next_node_ = 100;
  int next_frame_ = 1;
  int next_loader_ = 1;
};

}  // namespace athena::testing
