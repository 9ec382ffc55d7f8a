// Accessible names as Chrome computes them (accname 1.2 + HTML-AAM), over the flat tree:
// aria-labelledby, aria-label, native labels (label[for], wrapping label, alt, value of input
// buttons, legend, caption), name from content through shadow and slotted content, title,
// placeholder. Hidden content (display:none, visibility:hidden, aria-hidden) is skipped unless
// aria-labelledby points at it directly. Secret field values never contribute.
#pragma once

#include <string>
#include <string_view>

#include "compiler/dom_view.h"
#include "compiler/visibility.h"

namespace athena::compiler {

/// Name of element `i` with Chrome role `role`: whitespace collapsed and trimmed, not cut.
std::string accessible_name(const Dom& dom, const Visibility& vis, int i, std::string_view role);

/// Rendered text of the subtree (for alerts, status and validation messages): collapsed, trimmed.
std::string subtree_text(const Dom& dom, const Visibility& vis, int i);

}  // namespace athena::compiler
