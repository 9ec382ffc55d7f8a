// The one rule for secret fields, as the core has it (core/src/compiler/node_state.cpp
// is_secret_field): both are checked against the same table, rules/secret-fields.json.
// Self-contained on purpose: its source runs inside the page too (extension/page/watcher.js, read.js).

/**
 * The attribute the page watcher (page/watcher.js) sets on a field the page switched from
 * type=password to another type; the core reads the same name (node_state.h kWasPasswordAttr).
 */
export const WAS_PASSWORD_ATTR = 'data-athena-was-password';

/**
 * The attribute the page watcher sets on a field that is a secret by what only the live page shows
 * (a -webkit-text-security mask, a field put where a password field was, a box of a one-time-code
 * group, a label): the core reads the same name (node_state.h kSecretMarkAttr).
 */
export const SECRET_MARK_ATTR = 'data-athena-secret';

/**
 * The attribute the page watcher sets on a field the browser's own validation refused (the
 * `invalid` event of a submit, `required`, `type=email`, `pattern`…), holding the browser's
 * message, and takes off once the field is valid again: `:invalid` is not in the captured DOM.
 * The core reads the same name (node_state.h kInvalidMarkAttr).
 */
export const INVALID_MARK_ATTR = 'data-athena-invalid';

/**
 * Whether an element's value is a secret that must never leave the page: a password input (its
 * type, trimmed, in any case), or one the page watcher marked (data-athena-was-password: switched
 * from password to another type; data-athena-secret: masked, put in a password field's place, a
 * box of a one-time-code group); an autocomplete token cc-*, one-time-code, current-password or
 * new-password (any element); a text field (input, textarea, contenteditable, role=textbox) whose
 * labels, aria-label, placeholder or title say password, PIN, one-time code, card number or
 * security code (as words); an input whose name or id says password, whose name or id says card
 * number or security code, or that is inputmode=numeric with a pattern that takes a card number.
 * @param {string} tag the element's tag name, any case
 * @param {(name: string) => (string | null | undefined)} attr its attribute values
 * @param {string} [labels] the text of its labels (label[for], the label around it, aria-labelledby)
 * @returns {boolean}
 */
export function isSecretField(tag, attr, labels = '') {
  const t = String(tag).toLowerCase();
  const type = String(attr('type') ?? '').trim().toLowerCase();
  if (t === 'input' && type === 'password') return true;
  for (const mark of ['data-athena-was-password', 'data-athena-secret']) {
    const marked = attr(mark);
    if (marked !== null && marked !== undefined) return true;
  }
  const tokens = String(attr('autocomplete') ?? '').toLowerCase().split(/[\t\n\f\r ]+/);
  if (tokens.some((k) => k.startsWith('cc-') || k === 'one-time-code' || k === 'current-password' || k === 'new-password')) return true;
  // Words, each between dashes: split at non-alphanumerics (ASCII) and where lower meets upper case.
  const words = (/** @type {string} */ s) => `-${s.replace(/([a-z])(?=[A-Z])/g, '$1-').replace(/[A-Z]/g, (c) => c.toLowerCase()).replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '')}-`.replace(/^--$/, '-');
  const card = /-(card|cc|creditcard|credit-card)-?(number|num|no|nr)\d*-|-(creditcard|credit-card)\d*-|-(cvc|cvv|csc|cvn|cvd)\d*-|-(security|verification)-?(code|number|value)\d*-/;
  const says = (/** @type {string} */ s) => card.test(words(s)) ||
    /-(password|passwd|passcode|passphrase|pwd|pin|otp)\d*-|-(one-time|onetime)-?(code|password|passcode|pin)\d*-/.test(words(s));
  const editable = String(attr('contenteditable') ?? 'false').trim().toLowerCase();
  const textField = t === 'input' ? !['button', 'submit', 'reset', 'image', 'checkbox', 'radio', 'hidden', 'file', 'range', 'color'].includes(type)
    : t === 'textarea' || ['', 'true', 'plaintext-only'].includes(editable) || String(attr('role') ?? '').trim().toLowerCase() === 'textbox';
  if (textField && (['aria-label', 'placeholder', 'title'].some((a) => says(String(attr(a) ?? ''))) || says(String(labels)))) return true;
  if (t !== 'input') return false;
  if (['name', 'id'].some((a) => /password|passwd|passcode|pwd/.test(String(attr(a) ?? '').toLowerCase()))) return true;
  if (['name', 'id', 'aria-label'].some((a) => card.test(words(String(attr(a) ?? ''))))) return true;
  if (String(attr('inputmode') ?? '').replace(/^[\t\n\f\r ]+|[\t\n\f\r ]+$/g, '').toLowerCase() !== 'numeric') return false;
  // A card-number pattern: a digit class, its {n} / {m,n} quantifiers adding up to 13..23.
  const pattern = String(attr('pattern') ?? '');
  if (!pattern.includes('\\d') && !pattern.includes('0-9')) return false;
  let total = 0;
  for (const m of pattern.matchAll(/\{(\d{1,4})(?:,(\d{0,4}))?\}/g)) total += m[2] === undefined ? Number(m[1]) : m[2] === '' ? 0 : Number(m[2]);
  return total >= 13 && total <= 23;
}
