// A model of what an agent knows after reading FactPacks: ref -> element. It starts from a full
// FactPack and applies every later one exactly as an agent reading the text would (an
// unchanged region keeps what the agent already holds; the listed elements are not trusted).
// The fidelity property: this view equals a fresh full snapshot of the same state.
// Plain C++17, no filesystem or threads: reused by the wasm tests.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "athena/factpack.h"

namespace athena::testing {

/// Everything an agent sees of an element except its ref and in_viewport, as one string.
std::string canonical_element(const Element& element);

class AgentView {
 public:
  /// Applies one FactPack (its before_action packs first). Returns "" or a description of the
  /// first inconsistency (a ref added twice, a modification of an unknown ref, a "before" that
  /// is not what the agent holds, an unchanged region the agent cannot account for, ...).
  std::string apply(const FactPack& pack);

  const std::map<std::string, Element>& elements() const { return elements_; }
  std::uint64_t version() const { return version_; }
  bool initialized() const { return initialized_; }

  /// Sorted canonical strings of the held elements whose overlay context is in [lo, hi).
  std::vector<std::string> canonical(int lo = -1, int hi = 1 << 30) const;
  /// Each region's lines in the order the agent holds them, one string per frame's lines
  /// (contexts [lo, hi); announcements, which FactPacks place by region alone, left out).
  std::map<std::string, std::vector<std::string>> order(int lo = -1, int hi = 1 << 30) const;

 private:
  std::string apply_one(const FactPack& pack);
  /// Puts `refs` where a FactPack says they sit: after `after`, else first in their block.
  std::string place(const std::vector<std::string>& refs, const std::string& after);
  std::map<std::string, Element> elements_;
  std::vector<std::string> order_;  // held refs, each region block's lines in the page's order
  /// What the agent held when each full replaced it, by the version it held then (the last
  /// kHeldKept): a region `unchanged` with `seen_in` is the one it held at that version.
  struct Held {
    std::map<std::string, Element> elements;
    std::vector<std::string> order;
  };
  static constexpr std::size_t kHeldKept = 16;
  std::map<std::uint64_t, Held> held_;
  std::uint64_t version_ = 0;
  bool initialized_ = false;
};

/// Sorted canonical strings of every element of a full FactPack in contexts [lo, hi).
std::vector<std::string> canonical_full(const FactPack& full, int lo = -1, int hi = 1 << 30);
/// AgentView::order of a full FactPack: each region block's lines in its order.
std::map<std::string, std::vector<std::string>> order_full(const FactPack& full, int lo = -1, int hi = 1 << 30);

}  // namespace athena::testing
