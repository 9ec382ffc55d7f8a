// Descriptions: what a field's line says beside its name (desc=…), as Chrome's accessible
// description (aria-errormessage of an invalid field, aria-describedby), or the page's own message
// beside a field it refused; and which elements give their words to one (no lines of their own).
#pragma once

#include <string>
#include <vector>

#include "compiler/dom_view.h"
#include "compiler/visibility.h"

namespace athena::compiler {

/// Per node: named by aria-errormessage or aria-describedby of an aria-invalid field.
std::vector<char> validation_targets(const Dom& dom);
/// The page's own message beside a field it refused where no attribute ties them, -1 if none.
int feedback_of(const Dom& dom, const Visibility& vis, int field, const std::vector<char>& control);
/// Per node: its words are a control's description (`feedback` gets, per refused field, its
/// feedback_of message, else -1).
std::vector<char> description_targets(const Dom& dom, const Visibility& vis, const std::vector<char>& control,
                                      std::vector<int>& feedback);
/// The accessible description from aria-errormessage (of an invalid field) and aria-describedby.
std::string described_by(const Dom& dom, const Visibility& vis, int i, bool invalid);

}  // namespace athena::compiler
