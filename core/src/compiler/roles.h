// Roles as Chrome's accessibility tree names them (Accessibility.getFullAXTree role.value):
// the explicit role attribute's first valid token, else the implicit role of HTML-AAM.
#pragma once

#include <string>
#include <string_view>

#include "compiler/dom_view.h"

namespace athena::compiler {

/// Chrome's role for element `i` ("button", "link", "textbox", "combobox", "heading", "generic",
/// "DisclosureTriangle", ...); "" for non-elements.
std::string role_of(const Dom& dom, int i);

/// The role element `i`'s role attribute gives, as ARIA's token (its first token that is a role;
/// none or presentation on a focusable element gives none), "" when it gives none.
std::string_view attr_role(const Dom& dom, int i);

/// The word an agent reads for one of Chrome's roles: Chrome's own names for what ARIA has no
/// role for become the ARIA role an agent acts on by (a <summary> is a "button", a clickable
/// element Chrome calls "LayoutTable" for its display is "generic", an <iframe> is "iframe");
/// every other role is itself. Element lines, find's `role` and the agreement with Chrome's tree
/// (tests/unit/compiler/agreement.cpp) all go through this.
std::string agent_role(std::string_view chrome_role);

/// Implicit (HTML-AAM) role only, ignoring the role attribute.
std::string implicit_role(const Dom& dom, int i);

/// Roles an agent acts on (buttons, links, fields, options, menu items, tabs, ...).
bool is_interactive_role(std::string_view role);

/// Roles whose accessible name comes from their content (accname 1.2 §4.3.2 step 2F).
bool name_from_content(std::string_view role);

/// Natively focusable: links with href, enabled form controls, summary, tabindex, contenteditable.
bool is_focusable(const Dom& dom, int i);

/// Heading level (rules/headings.json, as Chrome computes it); 0 if not a heading role.
int heading_level(const Dom& dom, int i, std::string_view role);
/// The rule itself, for a heading with tag `tag` and aria-level `aria_level` (when it has one).
int heading_level(std::string_view tag, std::string_view aria_level, bool has_aria_level);

/// "true"/""/"plaintext-only" contenteditable on the element itself.
bool is_contenteditable(const Dom& dom, int i);

}  // namespace athena::compiler
