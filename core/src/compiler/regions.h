// Landmark regions (docs/design.md, "Trimming and dedup across baselines"): which region an element lives in, innermost landmark wins.
#pragma once

#include <string_view>

#include "athena/snapshot.h"
#include "compiler/dom_view.h"

namespace athena::compiler {

/// The landmark element `i` (whose role is `role`) opens, or Region::kPage if none, by the one
/// landmark table (extension/lib/landmarks.js, generated into this build; the rule is spelled out
/// there and its cases are rules/landmarks.json). <header>/<footer> count wherever they are
/// (agents read them as page furniture even inside a <section>); a form is a landmark only with
/// an author-given name (aria-label, aria-labelledby or title), as in ARIA.
Region landmark_of(const Dom& dom, int i, std::string_view role);

/// A region that opens nothing inside a dialog: a dialog's own header and footer are part of it.
bool part_of_dialog(Region r);

}  // namespace athena::compiler
