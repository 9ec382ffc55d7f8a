// A heading's level, as Chrome computes it: the one rule of rules/headings.json, which the core
// follows too (core/src/compiler/roles.cpp heading_level). read runs it in the page (the heading
// levels that bound a section's text: extension/page/read.js), so it is self-contained: its
// source goes to the page and uses nothing outside its own body.
// extension/test/heading-rule.test.mjs runs every case of the table through it.

/**
 * The level of a heading (an element whose role is heading) with tag `tag` and aria-level
 * `ariaLevel` (null when absent): h1..h6 their own, else 2; aria-level, read as an HTML integer,
 * wins when it is 1..9, gives 1 when it does not parse or is below 1, and is ignored above 9.
 * @param {string} tag @param {string | null | undefined} ariaLevel @returns {number}
 */
export function headingLevel(tag, ariaLevel) {
  const h = /^h([1-6])$/.exec(String(tag).toLowerCase());
  const own = h ? Number(h[1]) : 2;
  if (ariaLevel === null || ariaLevel === undefined || ariaLevel === '') return own;
  // HTML's rules for parsing integers: leading ASCII whitespace, a sign, digits up to the first
  // other character; a value that does not fit a 32-bit int does not parse.
  const m = /^[\t\n\f\r ]*([+-]?)([0-9]+)/.exec(String(ariaLevel));
  if (!m) return 1;
  const n = (m[1] === '-' ? -1 : 1) * Number(m[2]);
  if (n > 2147483647 || n < -2147483648 || n < 1) return 1;
  return n > 9 ? own : n;
}
