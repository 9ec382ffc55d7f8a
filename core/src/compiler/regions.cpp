#include "compiler/regions.h"

#include <algorithm>
#include <string>
#include <string_view>

#include "athena/limits.h"
#include "compiler/accname.h"
#include "compiler/compile_state.h"
#include "compiler/roles.h"
#include "compiler/text.h"
#include "landmarks.inc"  // generated from extension/lib/landmarks.js by core/gen-landmarks.mjs

namespace athena::compiler {
namespace {

template <typename Array>
bool listed(const Array& list, std::size_t count, std::string_view s) {
  return std::find(list.begin(), list.begin() + static_cast<std::ptrdiff_t>(count), s) !=
         list.begin() + static_cast<std::ptrdiff_t>(count);
}

// The role an ancestor scopes by: its role attribute's, else its tag's as sectioning content.
std::string_view scope_role(const Dom& dom, int p) {
  const std::string_view given = attr_role(dom, p);
  if (!given.empty()) return given;
  const std::string_view t = dom.tag(p);
  for (const auto& s : generated::kSectioning)
    if (s[0] == t) return s[1];
  return {};
}

// Whether landmark `l`, opened by element i's tag, is scoped away by an ancestor (the walk is one
// per <header>, <footer> or <aside>, as long as the element's depth).
bool scoped_by(const Dom& dom, int i, const generated::Landmark& l) {
  if (l.scoped_by_count == 0 || (l.scoped_needs_name && named(dom, i))) return false;
  for (int p = dom.nodes[static_cast<std::size_t>(i)].parent; p >= 0 && dom.is_element(p);
       p = dom.nodes[static_cast<std::size_t>(p)].parent) {
    const std::string_view r = scope_role(dom, p);
    if (!r.empty() && listed(l.scoped_by, l.scoped_by_count, r)) return true;
  }
  return false;
}

}  // namespace

bool named(const Dom& dom, int i) {
  return std::any_of(generated::kLandmarkNameAttrs.begin(), generated::kLandmarkNameAttrs.end(),
                     [&](std::string_view a) { return !is_blank(dom.attr(i, a)); });
}

bool scoped_away(const Dom& dom, int i) {
  const std::string_view t = dom.tag(i);
  for (const auto& l : generated::kLandmarks)
    if (listed(l.tags, l.tag_count, t)) return scoped_by(dom, i, l);
  return false;
}

Region landmark_of(const Dom& dom, int i, std::string_view role) {
  const std::string_view t = dom.tag(i);
  for (const auto& l : generated::kLandmarks) {
    // The tag opens it when no role attribute gives the element a role, and sectioning content
    // does not scope it away (a <header> inside an <article> is sectionheader: the article's).
    const bool by_tag = listed(l.tags, l.tag_count, t) && attr_role(dom, i).empty();
    if (!by_tag && !listed(l.roles, l.role_count, role)) continue;
    if (l.named && !named(dom, i)) return Region::kPage;
    if (by_tag && scoped_by(dom, i, l)) return Region::kPage;
    return l.region;
  }
  return Region::kPage;
}

bool part_of_dialog(Region r) {
  for (const auto& l : generated::kLandmarks)
    if (l.region == r) return l.part_of_dialog;
  return false;
}

// An element that is a landmark opens its region for what it holds.
void enter_landmark(CompileState& st, int i) {
  const auto u = static_cast<std::size_t>(i);
  const Region lm = landmark_of(st.dom, i, st.role[u]);
  // A dialog's own header and footer are part of the dialog, not page landmarks.
  const bool in_dialog_part = st.region[u] == Region::kDialog && part_of_dialog(lm);
  if (lm != Region::kPage && !in_dialog_part) {
    st.region[u] = lm;
    st.landmark[u] = i;
  }
}

// A line's region and the label of its landmark, read once per landmark.
void label_region(CompileState& st, int i, ReadableNode& rn) {
  const auto u = static_cast<std::size_t>(i);
  const auto& landmark = st.landmark;
  rn.region = st.region[u];
  if (landmark[u] >= 0) {
    auto it = st.landmark_label.find(landmark[u]);
    if (it == st.landmark_label.end()) {
      std::string label;
      // Only an author-given label names a landmark (its content would repeat the page). A region
      // is one only through its name, and a title gives it one too: it labels the block.
      for (const std::string_view a : {"aria-label", "aria-labelledby", "title"})
        if (st.dom.has_attr(landmark[u], a) && (a != "title" || rn.region == Region::kRegion))
          label = cut(accessible_name(st.dom, st.vis, landmark[u], st.role[static_cast<std::size_t>(landmark[u])]),
                      limits::kMaxNameChars);
      it = st.landmark_label.emplace(landmark[u], std::move(label)).first;
    }
    rn.region_label = it->second;
  }
}

}  // namespace athena::compiler
