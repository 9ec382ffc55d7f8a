// The visibility rule of the page side, as the core has it (core/src/compiler/visibility.cpp
// Visibility::visible, with roles.cpp is_focusable): one function, whyHidden, that wait_for's
// state (extension/page/wait.js liveState) and the check before pressing
// (extension/page/actionability.js actionableState) both run inside the page, through
// extension/page/visible.js whyHiddenInPage. rules/visibility.json holds the cases;
// extension/test/visibility-rule.test.mjs runs them here and
// tests/unit/compiler/visibility_rule_test.cpp through the core.

/**
 * What the page tells of an element (all computed):
 * @typedef {{tag: string, attr: (name: string) => (string | null | undefined), boxed: boolean, display: string,
 *   visibility: string, opacity: string, overflow: string, width: number, height: number, ancestorOpacities: string[],
 *   ancestorBoxes: Array<{overflow: string, width: number, height: number}>}} VisibilityFacts
 *   boxed: it has a layout box (none inside a display:none subtree); ancestorOpacities and
 *   ancestorBoxes (computed overflow, box size): every ancestor's, across shadow roots and frames
 */

/**
 * Why a user cannot see the element, or null when they can. Hidden: no layout box or display
 * none ('display'); visibility hidden or collapse ('visibility'); opacity 0 (any number that
 * parses to 0 or less: "0", "0.00", "0e0") on an ancestor, or on the element itself unless it is
 * a native input, select or textarea (a custom checkbox, switch or file picker is drawn by a
 * styled stand-in over the transparent control, which still works) ('opacity'); inside, or being,
 * a box of at most 1x1 px whose overflow is not visible (hidden, clip, auto, scroll), unless it is focusable: text kept for
 * screen readers only (sr-only, visually-hidden, AG Grid's aria descriptions), while a control
 * hidden that way still takes focus and its label's press ('clipped'); an empty box unless it is
 * focusable (a 0x0 element that takes focus can still be tabbed to and typed into) ('size').
 * Self-contained: its source runs inside the page.
 * @param {VisibilityFacts} f @returns {'display' | 'visibility' | 'opacity' | 'clipped' | 'size' | null}
 */
export function whyHidden(f) {
  const ws = /^[\t\n\f\r \u00a0]+|[\t\n\f\r \u00a0]+$/g;
  const trim = (/** @type {unknown} */ s) => String(s ?? '').replace(ws, '');
  const lower = (/** @type {string} */ s) => s.replace(/[A-Z]/g, (c) => c.toLowerCase());
  // A CSS number that is 0 or less (a computed opacity is clamped to 0..1).
  const zero = (/** @type {string} */ s) => /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(trim(s)) && Number(trim(s)) <= 0;
  // As roles.cpp is_focusable: a tabindex integer, contenteditable, a link, an enabled control,
  // a summary or an iframe.
  const focusable = () => {
    const tag = lower(String(f.tag));
    const tabindex = trim(f.attr('tabindex'));
    if (tabindex.length <= 18 && /^[+-]?\d+$/.test(tabindex)) return true;
    const ce = f.attr('contenteditable');
    if (ce !== null && ce !== undefined && ['', 'true', 'plaintext-only'].includes(lower(trim(ce)))) return true;
    const has = (/** @type {string} */ a) => f.attr(a) !== null && f.attr(a) !== undefined;
    if (tag === 'a' || tag === 'area') return has('href');
    if (tag === 'input') return lower(trim(f.attr('type'))) !== 'hidden' && !has('disabled');
    if (tag === 'button' || tag === 'select' || tag === 'textarea') return !has('disabled');
    return tag === 'summary' || tag === 'iframe';
  };
  if (!f.boxed || f.display === 'none') return 'display';
  if (f.visibility === 'hidden' || f.visibility === 'collapse') return 'visibility';
  const native = ['input', 'select', 'textarea'].includes(lower(String(f.tag)));
  if ((!native && zero(f.opacity)) || f.ancestorOpacities.some(zero)) return 'opacity';
  // A box of at most a pixel that does not let what overflows it show (an overflow of "x y" that
  // is not "visible" on either axis: hidden, clip, auto, scroll).
  const pixelClip = (/** @type {{overflow: string, width: number, height: number}} */ b) =>
    b.width <= 1 && b.height <= 1 && lower(trim(b.overflow)).split(/[\t\n\f\r ]+/).some((v) => v !== '' && v !== 'visible');
  if ((pixelClip(f) || f.ancestorBoxes.some(pixelClip)) && !focusable()) return 'clipped';
  if (!(f.width > 0 && f.height > 0) && !focusable()) return 'size';
  return null;
}
