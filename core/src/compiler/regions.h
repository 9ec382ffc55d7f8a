// Landmark regions (docs/design.md, "Trimming and dedup across baselines"): which region an element lives in, innermost
// landmark wins.
#pragma once

#include <string_view>

#include "athena/snapshot.h"
#include "compiler/dom_view.h"

namespace athena::compiler {

/// The landmark element `i` (whose role is `role`) opens, or Region::kPage if none, by the one
/// landmark table (extension/lib/landmarks.js, generated into this build; the rule is spelled out
/// there and its cases are rules/landmarks.json). A <header>/<footer> inside sectioning content
/// (article, aside, main, nav, section, or their roles) is its section's, not the page's; an
/// <aside> there is a landmark only with a name; a form is a landmark only with an author-given
/// name (aria-label, aria-labelledby or title), as in ARIA.
Region landmark_of(const Dom& dom, int i, std::string_view role);

/// Whether element `i`'s tag would open a landmark (a <header>, <footer>, <aside>) that the
/// sectioning content around it scopes away: then its role is sectionheader, sectionfooter or
/// generic, as Chrome computes it (compiler/roles.cpp implicit_role).
bool scoped_away(const Dom& dom, int i);

/// Whether element `i` has an author-given name (a non-blank one of the table's name attributes:
/// aria-label, aria-labelledby, title): a form or a <section> needs one to be a form or region.
bool named(const Dom& dom, int i);

/// A region that opens nothing inside a dialog: a dialog's own header and footer are part of it.
bool part_of_dialog(Region r);

}  // namespace athena::compiler
