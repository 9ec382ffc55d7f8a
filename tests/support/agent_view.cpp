#include "agent_view.h"

#include <algorithm>
#include <set>
#include <tuple>

namespace athena::testing {

std::string canonical_element(const Element& e) {
  const NodeState& s = e.state;
  std::string out;
  out.reserve(96);
  out += e.role + '|' + e.name + '|' + e.description + '|' + category_name(e.category) + '|' + e.href + '|' +
         std::to_string(e.level) + '|' + region_name(e.region) + '|' + e.region_label + '|' + std::to_string(e.overlay) + '|';
  const int bits[] = {s.disabled, s.focused, s.required, s.invalid, s.selected, s.readonly, s.value_redacted,
                      static_cast<int>(s.checked), static_cast<int>(s.expanded), static_cast<int>(s.pressed), static_cast<int>(s.sort)};
  for (int b : bits) out += static_cast<char>('0' + b);
  out += '|' + s.value;
  out += '|' + std::to_string(e.depth);  // where it sits in the outline: structure is part of what the agent holds
  return out;
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
    std::map<Key, std::vector<const Element*>> mine;
    for (const auto& [ref, e] : elements_)
      mine[Key{"f" + std::to_string(e.frame), static_cast<int>(e.region), e.region_label, e.overlay}].push_back(&e);
    for (const RegionBlock& b : pack.regions) {
      if (b.unchanged) {
        // The agent reads one line: it keeps what it holds for this region.
        if (!initialized_) return "unchanged region in the first full snapshot";
        const int overlay = b.elements.empty() ? -1 : b.elements[0].overlay;
        auto it = mine.find(Key{b.frame_ref, static_cast<int>(b.region), b.label, overlay});
        const std::size_t held = it == mine.end() ? 0 : it->second.size();
        if (held != b.elements.size())
          return std::string("unchanged region ") + region_name(b.region) + " '" + b.label + "' " + b.frame_ref + ": agent holds " +
                 std::to_string(held) + " elements, pack lists " + std::to_string(b.elements.size());
        std::set<std::string> listed;
        for (const Element& e : b.elements) listed.insert(e.ref);
        for (const Element* e : it->second) {
          if (!listed.count(e->ref)) return "unchanged region lists other refs than the agent holds (" + e->ref + ")";
          std::string err = insert(next, *e);
          if (!err.empty()) return err;
        }
        continue;
      }
      for (const Element& e : b.elements) {
        std::string err = insert(next, e);
        if (!err.empty()) return err;
      }
    }
    elements_ = std::move(next);
    version_ = pack.version;
    initialized_ = true;
    return "";
  }
  if (!initialized_) return std::string(pack_type_name(pack.type)) + " before any full snapshot";
  if (pack.version < version_) return "version went down";
  for (const Invalidation& inv : pack.invalidated) {
    if (!elements_.erase(inv.ref)) return "invalidated ref " + inv.ref + " that the agent does not hold";
  }
  switch (pack.type) {
    case PackType::kNoChange:
      if (!pack.invalidated.empty() || !pack.added.empty() || !pack.modified.empty() || !pack.regions.empty())
        return "no_change with content";
      break;
    case PackType::kDelta:
    case PackType::kOverlayClosed:
      if (!pack.regions.empty()) return "delta with regions";
      for (const Element& e : pack.added) {
        std::string err = insert(elements_, e);
        if (!err.empty()) return "added: " + err;
      }
      for (const Modified& m : pack.modified) {
        auto it = elements_.find(m.ref);
        if (it == elements_.end()) return "modified ref " + m.ref + " that the agent does not hold";
        if (canonical_element(it->second) != canonical_element(m.before))
          return "modified ref " + m.ref + ": 'before' is not what the agent holds";
        if (m.after.ref != m.ref) return "modified ref changed its ref";
        it->second = m.after;
      }
      if (pack.type == PackType::kDelta && pack.added.empty() && pack.modified.empty() && pack.invalidated.empty())
        return "empty delta (should be no_change)";
      break;
    case PackType::kOverlayOpened:
      for (const RegionBlock& b : pack.regions)
        for (const Element& e : b.elements) {
          std::string err = insert(elements_, e);
          if (!err.empty()) return "overlay_opened: " + err;
        }
      break;
    case PackType::kFull:
      break;
  }
  version_ = pack.version;
  return "";
}

}  // namespace athena::testing
