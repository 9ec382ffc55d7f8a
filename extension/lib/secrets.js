// The one rule for secret fields, as the core has it (core/src/compiler/node_state.cpp
// is_secret_field): both are checked against the same table, tests/support/secret-fields.json.
// Self-contained on purpose: page-scripts.js embeds its source in functions run inside the page.

/**
 * Whether an element's value is a secret that must never leave the page: a password input (its
 * type, trimmed, in any case), an autocomplete token cc-*, one-time-code, current-password or
 * new-password, or an input whose name or id says password (a show-password button switched it
 * to type=text).
 * @param {string} tag the element's tag name, any case
 * @param {(name: string) => (string | null | undefined)} attr its attribute values
 * @returns {boolean}
 */
export function isSecretField(tag, attr) {
  const t = String(tag).toLowerCase();
  const type = String(attr('type') ?? '').trim().toLowerCase();
  if (t === 'input' && type === 'password') return true;
  const tokens = String(attr('autocomplete') ?? '').toLowerCase().split(/[\t\n\f\r ]+/);
  if (tokens.some((k) => k.startsWith('cc-') || k === 'one-time-code' || k === 'current-password' || k === 'new-password')) return true;
  if (t !== 'input') return false;
  return ['name', 'id'].some((a) => /password|passwd|passcode|pwd/.test(String(attr(a) ?? '').toLowerCase()));
}
