#include "compiler/regions.h"

#include <algorithm>

#include "compiler/roles.h"
#include "compiler/text.h"
#include "landmarks.inc"  // generated from extension/lib/landmarks.js by core/gen-landmarks.mjs

namespace athena::compiler {
namespace {

template <typename Array>
bool listed(const Array& list, std::size_t count, std::string_view s) {
  return std::find(list.begin(), list.begin() + static_cast<std::ptrdiff_t>(count), s) != list.begin() + static_cast<std::ptrdiff_t>(count);
}

}  // namespace

Region landmark_of(const Dom& dom, int i, std::string_view role) {
  const std::string_view t = dom.tag(i);
  for (const auto& l : generated::kLandmarks) {
    // The tag opens it when no role attribute gives the element another role than its tag's own
    // (a <header> inside a <section> has role sectionheader, and still opens the header region).
    const bool by_tag = listed(l.tags, l.tag_count, t) && role == implicit_role(dom, i);
    if (!by_tag && !listed(l.roles, l.role_count, role)) continue;
    if (l.named && std::all_of(generated::kLandmarkNameAttrs.begin(), generated::kLandmarkNameAttrs.end(),
                               [&](std::string_view a) { return is_blank(dom.attr(i, a)); }))
      return Region::kPage;
    return l.region;
  }
  return Region::kPage;
}

bool part_of_dialog(Region r) {
  for (const auto& l : generated::kLandmarks)
    if (l.region == r) return l.part_of_dialog;
  return false;
}

}  // namespace athena::compiler
