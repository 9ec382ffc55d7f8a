// Element state (disabled, checked, expanded, value, ...) and the redaction of secrets.
#pragma once

#include <string>
#include <string_view>

#include "athena/snapshot.h"
#include "compiler/dom_view.h"

namespace athena::compiler {

/// The attribute the page watcher (extension/lib/page-scripts.js) sets on a field the page
/// switched from type=password to another type: it stays a secret whatever it is now.
inline constexpr std::string_view kWasPasswordAttr = "data-athena-was-password";

/// The attribute the page watcher sets on a field that is a secret by what only the live page
/// shows: a masking style (-webkit-text-security), a field put where a password field was (a
/// show-password toggle that replaces the input), a box of a one-time-code group, a label.
inline constexpr std::string_view kSecretMarkAttr = "data-athena-secret";

/// The attribute the page watcher sets on a field the browser's own validation refused (a
/// submit's `invalid` event), holding the browser's message, until the field is valid again:
/// the captured DOM has no `:invalid`. The field is `invalid` and, lacking a message of its own,
/// that message is its description.
inline constexpr std::string_view kInvalidMarkAttr = "data-athena-invalid";

/// Secret fields (rules/secret-fields.json): password fields, also switched to text or marked by
/// the page watcher; autocomplete cc-* / one-time-code / *-password; text fields whose labels,
/// aria-label, placeholder or title say password, PIN, one-time code, card number or security
/// code; inputs whose name or id says so; numeric inputs whose pattern takes a card number.
/// Their values never leave the compiler.
bool is_secret_field(const Dom& dom, int i);

/// The value an agent may see: input/textarea text, the selected option(s) of a select, a
/// range's aria-valuetext/valuenow; "" for secrets (check is_secret_field) and buttons.
std::string field_value(const Dom& dom, int i, std::string_view role);

/// An ARIA flag attribute set to "true" (any case, spaces around it).
bool attr_true(const Dom& dom, int i, std::string_view name);

/// How far a progress bar or a meter is, as the agent reads it: the page's own words for it
/// (aria-valuetext), else its value as a share of its range ("70%"): `<progress value=0.7>` and
/// `role=progressbar aria-valuenow=70` say the same. "" for a bar with no value (busy, not at 0).
std::string measure_value(const Dom& dom, int i);

/// The same value without redaction. Only for deciding value_redacted; never store it.
std::string unredacted_value(const Dom& dom, int i, std::string_view role);

/// Disabled natively (incl. an ancestor <fieldset disabled> outside its first <legend>,
/// a disabled <optgroup>) or through aria-disabled on it or an ancestor.
bool is_disabled(const Dom& dom, int i);

/// aria-invalid set to anything but false.
bool aria_invalid(const Dom& dom, int i);
/// Refused: aria-invalid, or the browser's own validation refused it on a submit (the page
/// watcher's mark, kInvalidMarkAttr). NodeState::invalid.
bool refused(const Dom& dom, int i);

/// All of NodeState for element `i` with Chrome role `role`.
NodeState state_of(const Dom& dom, int i, std::string_view role);

}  // namespace athena::compiler
