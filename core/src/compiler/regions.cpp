#include "compiler/regions.h"

#include "compiler/text.h"

namespace athena::compiler {

Region landmark_of(const Dom& dom, int i, std::string_view role) {
  const std::string_view t = dom.tag(i);
  if (role == "banner" || (t == "header" && !dom.has_attr(i, "role"))) return Region::kHeader;
  if (role == "navigation") return Region::kNav;
  if (role == "main") return Region::kMain;
  if (role == "complementary") return Region::kAside;
  if (role == "contentinfo" || (t == "footer" && !dom.has_attr(i, "role"))) return Region::kFooter;
  if (role == "dialog" || role == "alertdialog") return Region::kDialog;
  if (role == "search") return Region::kSearch;
  if (role == "form") {
    for (const std::string_view a : {"aria-label", "aria-labelledby", "title"})
      if (!is_blank(dom.attr(i, a))) return Region::kForm;
  }
  return Region::kPage;
}

}  // namespace athena::compiler
