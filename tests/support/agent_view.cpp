#include "agent_view.h"

#include <algorithm>
#include <set>
#include <tuple>

namespace athena::testing {

std::string canonical_element(const Element& e) {
  const NodeState& s = e.state;
  std::string out;
  out.reserve(96);
  out += e.role + '|' + e.name + (e.cut ? "|cut|" : "|") + e.description + '|' + category_name(e.category) + '|' +
         e.href + '|' + std::to_string(e.level) + '|' + region_name(e.region) + '|' + e.region_label + '|' +
         std::to_string(e.overlay) + '|';
  const int bits[] = {s.disabled,
                      s.focused,
                      s.required,
                      s.invalid,
                      s.selected,
                      s.readonly,
                      s.current,
                      s.value_redacted,
                      static_cast<int>(s.checked),
                      static_cast<int>(s.expanded),
                      static_cast<int>(s.pressed),
                      static_cast<int>(s.sort)};
  for (int b : bits) out += static_cast<char>('0' + b);
  out += '|' + s.value;
  out += '|' + std::to_string(e.depth);  // where it sits in the outline: structure is part of what the agent holds
  return out;
}

namespace {

// A region block. Where one is placed (`after`, first of its block) the frame counts; compared
// against a fresh engine, whose frame numbers differ, blocks of the same region are one list.
std::string block_of(const Element& e, bool with_frame = true) {
  return (with_frame ? "f" + std::to_string(e.frame) + '|' : std::string()) + region_name(e.region) + '|' +
         e.region_label + '|' + std::to_string(e.overlay);
}

}  // namespace

// Each region's lines, frame by frame, in the order given: region -> one string per frame's
// lines (sorted, as frame numbers differ between engines and say nothing of order).
template <typename Each>
std::map<std::string, std::vector<std::string>> order_of(int lo, int hi, Each each) {
  std::map<std::string, std::map<int, std::string>> by_frame;
  each([&](const Element& e) {
    if (e.overlay >= lo && e.overlay < hi && !is_announcement(e))
      by_frame[block_of(e, false)][e.frame] += canonical_element(e) + "\n    ";
  });
  std::map<std::string, std::vector<std::string>> out;
  for (auto& [block, frames] : by_frame) {
    for (auto& [frame, lines] : frames) out[block].push_back(std::move(lines));
    std::sort(out[block].begin(), out[block].end());
  }
  return out;
}

std::map<std::string, std::vector<std::string>> AgentView::order(int lo, int hi) const {
  return order_of(lo, hi, [&](auto&& f) {
    for (const std::string& ref : order_) f(elements_.at(ref));
  });
}

std::map<std::string, std::vector<std::string>> order_full(const FactPack& full, int lo, int hi) {
  return order_of(lo, hi, [&](auto&& f) {
    for (const RegionBlock& b : full.regions)
      for (const Element& e : b.elements) f(e);
  });
}

std::string AgentView::place(const std::vector<std::string>& refs, const std::string& after) {
  if (refs.empty()) return "";
  std::size_t at = order_.size();
  if (!after.empty()) {
    auto it = std::find(order_.begin(), order_.end(), after);
    if (it == order_.end()) return "placed after " + after + ", which the agent does not hold";
    at = static_cast<std::size_t>(it - order_.begin()) + 1;
  } else {
    const std::string block = block_of(elements_.at(refs[0]));
    for (std::size_t i = 0; i < order_.size(); ++i)
      if (block_of(elements_.at(order_[i])) == block) {
        at = i;
        break;
      }
  }
  order_.insert(order_.begin() + static_cast<std::ptrdiff_t>(at), refs.begin(), refs.end());
  return "";
}

std::vector<std::string> AgentView::canonical(int lo, int hi) const {
  std::vector<std::string> out;
  for (const auto& [ref, e] : elements_)
    if (e.overlay >= lo && e.overlay < hi) out.push_back(canonical_element(e));
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::string> canonical_full(const FactPack& full, int lo, int hi) {
  std::vector<std::string> out;
  for (const RegionBlock& b : full.regions)
    for (const Element& e : b.elements)
      if (e.overlay >= lo && e.overlay < hi) out.push_back(canonical_element(e));
  std::sort(out.begin(), out.end());
  return out;
}

std::string AgentView::apply(const FactPack& pack) {
  for (const FactPack& before : pack.before_action) {
    if (before.type == PackType::kFull) return "before_action holds a full snapshot";
    std::string err = apply_one(before);
    if (!err.empty()) return "before_action: " + err;
  }
  return apply_one(pack);
}

std::string AgentView::apply_one(const FactPack& pack) {
  auto insert = [&](std::map<std::string, Element>& into, const Element& e) -> std::string {
    if (!into.emplace(e.ref, e).second) return "ref " + e.ref + " listed twice / already held";
    return "";
  };
  if (pack.type == PackType::kFull) {
    std::map<std::string, Element> next;
    using Key = std::tuple<std::string, int, std::string, int>;
    using Blocks = std::map<Key, std::vector<const Element*>>;
    auto blocks_of = [](const std::map<std::string, Element>& held) {
      Blocks out;
      for (const auto& [ref, e] : held)
        out[Key{"f" + std::to_string(e.frame), static_cast<int>(e.region), e.region_label, e.overlay}].push_back(&e);
      return out;
    };
    const Blocks mine = blocks_of(elements_);
    std::map<std::uint64_t, Blocks> then;  // blocks held at an earlier version, as seen_in asks
    std::vector<std::string> order;
    for (const RegionBlock& b : pack.regions) {
      if (b.unchanged) {
        // The agent reads one line: it keeps what it holds for this region (or held at seen_in).
        if (!initialized_) return "unchanged region in the first full snapshot";
        const Blocks* from = &mine;
        const std::vector<std::string>* held_order = &order_;
        if (b.seen_in) {
          auto h = held_.find(b.seen_in);
          if (h == held_.end())
            return "unchanged region seen_in=" + std::to_string(b.seen_in) + ": the agent held no page at that version";
          if (!then.count(b.seen_in)) then[b.seen_in] = blocks_of(h->second.elements);
          from = &then[b.seen_in];
          held_order = &h->second.order;
        }
        const int overlay = b.elements.empty() ? -1 : b.elements[0].overlay;
        auto it = from->find(Key{b.frame_ref, static_cast<int>(b.region), b.label, overlay});
        const std::size_t held = it == from->end() ? 0 : it->second.size();
        if (held != b.elements.size())
          return std::string("unchanged region ") + region_name(b.region) + " '" + b.label + "' " + b.frame_ref +
                 ": agent holds " + std::to_string(held) + " elements, pack lists " + std::to_string(b.elements.size());
        std::set<std::string> listed;
        for (const Element& e : b.elements) listed.insert(e.ref);
        for (const Element* e : it->second) {
          if (!listed.count(e->ref)) return "unchanged region lists other refs than the agent holds (" + e->ref + ")";
          std::string err = insert(next, *e);
          if (!err.empty()) return err;
        }
        for (const std::string& ref : *held_order)  // in the order the agent holds them
          if (next.count(ref) && listed.count(ref)) order.push_back(ref);
        continue;
      }
      for (const Element& e : b.elements) {
        std::string err = insert(next, e);
        if (!err.empty()) return err;
        order.push_back(e.ref);
      }
    }
    if (initialized_) {
      held_[version_] = Held{std::move(elements_), std::move(order_)};
      while (held_.size() > kHeldKept) held_.erase(held_.begin());
    }
    elements_ = std::move(next);
    order_ = std::move(order);
    version_ = pack.version;
    initialized_ = true;
    return "";
  }
  if (!initialized_) return std::string(pack_type_name(pack.type)) + " before any full snapshot";
  if (pack.version < version_) return "version went down";
  for (const Invalidation& inv : pack.invalidated) {
    if (!elements_.erase(inv.ref)) return "invalidated ref " + inv.ref + " that the agent does not hold";
    order_.erase(std::remove(order_.begin(), order_.end(), inv.ref), order_.end());
  }
  switch (pack.type) {
    case PackType::kNoChange:
      if (!pack.invalidated.empty() || !pack.added.empty() || !pack.modified.empty() || !pack.regions.empty())
        return "no_change with content";
      break;
    case PackType::kDelta:
    case PackType::kOverlayClosed:
      // A replaced region: every line the agent held there goes, the listed lines take its place
      // (where its first held line was).
      for (const RegionBlock& b : pack.regions) {
        if (!b.replaced) return "delta with a region that is not replaced";
        const std::string key = b.frame_ref + '|' + region_name(b.region) + '|' + b.label;
        auto of_block = [&](const std::string& ref) {
          const Element& e = elements_.at(ref);
          return "f" + std::to_string(e.frame) + '|' + region_name(e.region) + '|' + e.region_label == key;
        };
        std::size_t at = order_.size();
        for (std::size_t i = 0; i < order_.size(); ++i)
          if (of_block(order_[i])) {
            at = i;
            break;
          }
        std::vector<std::string> kept;
        std::size_t before_at = 0;
        for (std::size_t i = 0; i < order_.size(); ++i) {
          if (!of_block(order_[i])) {
            kept.push_back(order_[i]);
            if (i < at) ++before_at;
          } else {
            elements_.erase(order_[i]);
          }
        }
        order_ = std::move(kept);
        std::vector<std::string> refs;
        for (const Element& e : b.elements) {
          std::string err = insert(elements_, e);
          if (!err.empty()) return "replaced region: " + err;
          refs.push_back(e.ref);
        }
        order_.insert(order_.begin() + static_cast<std::ptrdiff_t>(before_at), refs.begin(), refs.end());
      }
      // Added lines with the same block and `after` sit together, in the order listed (as the
      // text renders them: one <added> list each).
      {
        std::vector<std::pair<std::string, std::vector<std::string>>> lists;  // block + after, refs
        for (const Element& e : pack.added) {
          std::string err = insert(elements_, e);
          if (!err.empty()) return "added: " + err;
          const std::string key = block_of(e) + '\n' + e.after;
          auto it = std::find_if(lists.begin(), lists.end(), [&](const auto& l) { return l.first == key; });
          if (it == lists.end()) it = lists.insert(lists.end(), {key, {}});
          it->second.push_back(e.ref);
        }
        for (const auto& [key, refs] : lists) {
          std::string err = place(refs, elements_.at(refs[0]).after);
          if (!err.empty()) return "added: " + err;
        }
      }
      for (const Modified& m : pack.modified) {
        auto it = elements_.find(m.ref);
        if (it == elements_.end()) return "modified ref " + m.ref + " that the agent does not hold";
        if (canonical_element(it->second) != canonical_element(m.before))
          return "modified ref " + m.ref + ": 'before' is not what the agent holds";
        if (m.after.ref != m.ref) return "modified ref changed its ref";
        it->second = m.after;
        if (m.moved) {
          order_.erase(std::remove(order_.begin(), order_.end(), m.ref), order_.end());
          std::string err = place({m.ref}, m.moved_after);
          if (!err.empty()) return "moved: " + err;
        }
      }
      if (pack.type == PackType::kDelta && pack.added.empty() && pack.modified.empty() && pack.invalidated.empty() &&
          pack.regions.empty())
        return "empty delta (should be no_change)";
      break;
    case PackType::kOverlayOpened:
      for (const RegionBlock& b : pack.regions)
        for (const Element& e : b.elements) {
          std::string err = insert(elements_, e);
          if (!err.empty()) return "overlay_opened: " + err;
          order_.push_back(e.ref);
        }
      break;
    case PackType::kFull:
      break;
  }
  version_ = pack.version;
  return "";
}

}  // namespace athena::testing
