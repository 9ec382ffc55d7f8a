// What is rendered, what is visible to a user, and what is hidden from names.
#pragma once

#include <vector>

#include "compiler/dom_view.h"

namespace athena::compiler {

class Visibility {
 public:
  /// Precomputes inherited facts (opacity 0 ancestors, aria-hidden subtrees) in one pass.
  explicit Visibility(const Dom& dom);

  /// Excluded from accessible names and from the page: not rendered (display:none, or no box in
  /// its subtree), visibility:hidden/collapse, or the content of a closed <details> (everything
  /// but its first <summary>). Options of a rendered <select> count as rendered.
  bool css_hidden(int i) const;
  /// aria-hidden="true" on the element or an ancestor.
  bool aria_hidden(int i) const { return aria_hidden_[static_cast<std::size_t>(i)] != 0; }
  /// A user can see it: rendered box, visibility visible, no opacity 0 (any number that parses to
  /// 0 or less) on it or an ancestor, except a native input/select/textarea transparent on its
  /// own, not inside (or being) a box of at most 1x1 px that clips what overflows it unless it is
  /// focusable (text kept for screen readers only: sr-only, visually-hidden, AG Grid's aria
  /// descriptions; a control hidden that way still takes focus and its label's press), and a
  /// non-empty box unless it is focusable (a focusable 0x0 element can still be tabbed to). The
  /// page side's copy is extension/lib/visibility.js; rules/visibility.json their cases.
  bool visible(int i, bool focusable) const;

 private:
  const Dom& dom_;
  std::vector<char> transparent_, clipped_, aria_hidden_, in_select_, closed_details_;
};

}  // namespace athena::compiler
