// Landmark regions (docs/design.md, "Trimming and dedup across baselines"): which region an element lives in, innermost landmark wins.
#pragma once

#include <string_view>

#include "athena/snapshot.h"
#include "compiler/dom_view.h"

namespace athena::compiler {

/// The landmark element `i` opens, or Region::kPage if none. <header>/<footer> count wherever
/// they are (agents read them as page furniture even inside a <section>); a form is a landmark
/// only with an author-given name (aria-label, aria-labelledby or title), as in ARIA.
Region landmark_of(const Dom& dom, int i, std::string_view role);

}  // namespace athena::compiler
