#include "compiler/overlays.h"

#include <algorithm>
#include <string>
#include <vector>

#include "athena/limits.h"
#include "compiler/accname.h"
#include "compiler/compile_state.h"
#include "compiler/roles.h"
#include "compiler/text.h"

namespace athena::compiler {
namespace {

bool word_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

bool has_backdrop_sibling(const Dom& dom, int i) {
  const int p = dom.nodes[static_cast<std::size_t>(i)].parent;
  if (p < 0) return false;
  for (int s = dom.nodes[static_cast<std::size_t>(p)].first_child; s >= 0;
       s = dom.nodes[static_cast<std::size_t>(s)].next) {
    if (s == i || !dom.is_element(s) || !dom.nodes[static_cast<std::size_t>(s)].rendered) continue;
    if (lower(dom.attr(s, "class")).find("backdrop") != std::string::npos) return true;
  }
  return false;
}

bool floats(const Dom& dom, int i) {
  int n = i;
  for (int k = 0; k <= kMenuFloatDepth && n >= 0 && dom.is_element(n);
       ++k, n = dom.nodes[static_cast<std::size_t>(n)].parent) {
    const std::string_view pos = dom.style(n, kPosition);
    if (pos == "absolute" || pos == "fixed") return true;
  }
  return false;
}

bool expanded(const Dom& dom, int n) {
  return dom.is_element(n) && lower(collapse_ws(dom.attr(n, "aria-expanded"))) == "true";
}

// Rules 4 (dropdown) and 5: a popup counts only while a control says it opened it
// (aria-expanded="true"): one naming it in aria-controls/aria-owns, or one in the component
// around it (the subtree of its ancestor kPopupTriggerDepth levels up, its own subtree left out:
// its submenu triggers do not open it). An always-open menu is part of the page.
bool opened_by_control(const Dom& dom, int i) {
  const std::string_view id = dom.attr(i, "id");
  if (!id.empty()) {
    for (int n : dom.order) {
      if (!expanded(dom, n)) continue;
      for (const std::string_view a : {"aria-controls", "aria-owns"}) {
        const std::string ids = " " + collapse_ws(dom.attr(n, a)) + " ";
        if (ids.find(" " + std::string(id) + " ") != std::string::npos) return true;
      }
    }
  }
  int top = i;
  for (int k = 0; k < kPopupTriggerDepth; ++k) {
    const int p = dom.nodes[static_cast<std::size_t>(top)].parent;
    if (p < 0 || !dom.is_element(p)) break;
    top = p;
  }
  std::vector<int> stack{top};
  while (!stack.empty()) {
    const int n = stack.back();
    stack.pop_back();
    if (n == i) continue;
    if (expanded(dom, n)) return true;
    for (int c = dom.nodes[static_cast<std::size_t>(n)].first_child; c >= 0;
         c = dom.nodes[static_cast<std::size_t>(c)].next)
      if (dom.is_element(c)) stack.push_back(c);
  }
  return false;
}

}  // namespace

bool class_has_word(std::string_view cls, std::string_view word) {
  const std::string c = lower(cls);
  for (std::size_t at = c.find(word); at != std::string::npos; at = c.find(word, at + 1)) {
    const bool left = at == 0 || !word_char(c[at - 1]);
    const bool right = at + word.size() == c.size() || !word_char(c[at + word.size()]);
    if (left && right) return true;
  }
  return false;
}

int own_z_index(const Dom& dom, int i, int fallback) {
  long long z = 0;
  if (parse_int(dom.style(i, kZIndex), z)) {
    if (z > 2147483647LL) z = 2147483647LL;
    if (z < -2147483647LL) z = -2147483647LL;
    return static_cast<int>(z);
  }
  return fallback;
}

OverlayMatch classify_overlay(const Dom& dom, int i, std::string_view role) {
  const bool dialog = role == "dialog" || role == "alertdialog";
  if (dialog && lower(collapse_ws(dom.attr(i, "aria-modal"))) == "true") return {OverlayType::kModal, 1, 1.0};
  // A dialog without aria-modal is an overlay only when it behaves as a modal: a <dialog> opened
  // with showModal() (the top layer's UA style makes it position: fixed; an open non-modal one is
  // absolute) or a backdrop beside it. Cookie banners and chat widgets are page regions.
  if (dialog && ((dom.tag(i) == "dialog" && dom.style(i, kPosition) == "fixed") || has_backdrop_sibling(dom, i)))
    return {OverlayType::kDialog, 2, 0.9};
  if (dom.has_attr(i, "data-overlay") || dom.has_attr(i, "data-modal") || dom.has_attr(i, "data-dialog"))
    return {OverlayType::kModal, 3, 0.85};
  if (dialog) return {};  // rule 4's z-index alone does not make a non-modal dialog an overlay
  const std::string_view cls = dom.attr(i, "class");
  // A backdrop ("modal-backdrop") dims the page behind an overlay; it is not one itself.
  if (!cls.empty() && lower(cls).find("backdrop") == std::string::npos) {
    bool pattern = false;
    for (const std::string_view w : {"modal", "dialog", "overlay", "popup", "dropdown-menu"})
      pattern = pattern || class_has_word(cls, w);
    if (pattern && (own_z_index(dom, i, 0) >= kOverlayZIndex || has_backdrop_sibling(dom, i))) {
      const bool dropdown = lower(cls).find("dropdown") != std::string::npos;
      if (!dropdown) return {OverlayType::kModal, 4, 0.7};
      if (opened_by_control(dom, i)) return {OverlayType::kDropdown, 4, 0.7};
      return {};
    }
  }
  if ((role == "menu" || role == "listbox") && dom.has_attr(i, "role") && floats(dom, i) && opened_by_control(dom, i))
    return {OverlayType::kDropdown, 5, 0.7};
  return {};
}

int popup_box(const Dom& dom, int list) {
  int best = -1;
  int n = list;
  for (int k = 0; k < kMenuFloatDepth; ++k) {
    n = dom.nodes[static_cast<std::size_t>(n)].parent;
    if (n < 0 || !dom.is_element(n) || dom.tag(n) == "body" || dom.tag(n) == "html") break;
    const std::string_view pos = dom.style(n, kPosition);
    if (pos != "absolute" && pos != "fixed") continue;
    // What it holds: no opened control outside the list (that would be the opener, or another
    // widget: the box is the page's, not the popup's), and not more than a popup does.
    std::size_t seen = 0;
    bool holds_opener = false;
    std::vector<int> stack{n};
    while (!stack.empty() && !holds_opener && seen <= limits::kMaxPopupNodes) {
      const int c = stack.back();
      stack.pop_back();
      ++seen;
      if (c == list) continue;
      if (expanded(dom, c)) holds_opener = true;
      for (int d = dom.nodes[static_cast<std::size_t>(c)].first_child; d >= 0;
           d = dom.nodes[static_cast<std::size_t>(d)].next)
        if (dom.is_element(d)) stack.push_back(d);
    }
    if (holds_opener || seen > limits::kMaxPopupNodes) break;
    best = n;
  }
  return best;
}

// Visible menus and lists are classified here, once. A dropdown's list in a floating box with
// its search field (Select2, Tom Select) hands its match to the box: the box is the overlay, so
// the field the agent types into to filter the list opens with it.
void match_lists(CompileState& st) {
  const Dom& dom = st.dom;
  const auto& role = st.role;
  auto& match_of = st.match_of;
  for (const int i : dom.order) {
    const auto u = static_cast<std::size_t>(i);
    if (!dom.is_element(i) || (role[u] != "menu" && role[u] != "listbox") || !st.vis.visible(i, is_focusable(dom, i)))
      continue;
    const OverlayMatch m = classify_overlay(dom, i, role[u]);
    match_of.emplace(i, m);
    const int box = m.rule == 5 ? popup_box(dom, i) : -1;
    if (box < 0 || match_of.count(box)) continue;
    const OverlayMatch own = classify_overlay(dom, box, role[static_cast<std::size_t>(box)]);
    match_of[box] = own.rule ? own : m;
    match_of[i] = OverlayMatch{};
  }
}

// An element that matches a rule opens an overlay: what is below it is in that overlay.
void add_overlay_candidate(CompileState& st, int i, bool visible) {
  const auto u = static_cast<std::size_t>(i);
  if (const auto found = st.match_of.find(i); visible || found != st.match_of.end()) {
    const OverlayMatch m = found != st.match_of.end() ? found->second : classify_overlay(st.dom, i, st.role[u]);
    if (m.rule) {
      st.cands.push_back(Candidate{i, st.ov[u], m, st.z[u]});
      st.ov[u] = static_cast<int>(st.cands.size()) - 1;
    }
  }
}

// Overlays in stacking order (z-index, then document order = candidate order).
void place_overlays(CompileState& st) {
  const Dom& dom = st.dom;
  Snapshot& snap = st.snap;
  const auto& cands = st.cands;
  std::vector<int> sorted(cands.size());
  for (std::size_t k = 0; k < sorted.size(); ++k) sorted[k] = static_cast<int>(k);
  std::stable_sort(sorted.begin(), sorted.end(), [&](int a, int b) {
    return cands[static_cast<std::size_t>(a)].z < cands[static_cast<std::size_t>(b)].z;
  });
  std::vector<int> new_index(cands.size(), -1);
  for (const int k : sorted) {
    const Candidate& c = cands[static_cast<std::size_t>(k)];
    const Node& rootn = dom.nodes[static_cast<std::size_t>(c.node)];
    if (rootn.frame < 0) {
      snap.has_unknown_frames = true;
      continue;
    }
    Overlay o;
    o.backend_node_id = dom.backend(c.node);
    o.frame_id = std::string(st.raw.frames[static_cast<std::size_t>(rootn.frame)].id);
    o.loader_id = std::string(st.raw.frames[static_cast<std::size_t>(rootn.frame)].loader_id);
    o.type = c.match.type;
    o.rule = c.match.rule;
    o.confidence = c.match.confidence;
    o.z_index = c.z;
    o.name =
        cut(accessible_name(dom, st.vis, c.node, st.role[static_cast<std::size_t>(c.node)]), limits::kMaxNameChars);
    new_index[static_cast<std::size_t>(k)] = static_cast<int>(snap.overlays.size());
    snap.overlays.push_back(std::move(o));
  }
  // A dropped overlay (unknown frame) hands its contents to the one around it.
  auto resolve = [&](int k) {
    while (k >= 0 && new_index[static_cast<std::size_t>(k)] < 0) k = cands[static_cast<std::size_t>(k)].parent;
    return k < 0 ? -1 : new_index[static_cast<std::size_t>(k)];
  };
  for (std::size_t k = 0; k < cands.size(); ++k)
    if (new_index[k] >= 0) snap.overlays[static_cast<std::size_t>(new_index[k])].parent = resolve(cands[k].parent);
  for (std::size_t k = 0; k < snap.nodes.size(); ++k) snap.nodes[k].overlay = resolve(st.node_ov[k]);
}

}  // namespace athena::compiler
