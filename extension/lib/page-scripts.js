// Code the extension runs inside the page (Runtime.evaluate / callFunctionOn): kept as source
// strings, one place, so what reaches the page is easy to review. Password and payment values
// are redacted here, before anything leaves the page.

import { isSecretField } from './secrets.js';

/**
 * Expression run in the page: resolves when the DOM was quiet for quietMs, or at capMs.
 * @param {number} quietMs
 * @param {number} capMs
 */
export const DOM_QUIET_JS = (quietMs, capMs) => `new Promise((resolve) => {
  let last = performance.now(), count = 0;
  const start = last;
  // What happens inside an aria-hidden subtree (a decorative spinner, an icon animation) is not in
  // the FactPack (the core drops those subtrees, as Chrome's accessibility tree does): it does not
  // keep the page from settling. Turning aria-hidden on or off does.
  const hidden = (n) => {
    for (let e = n instanceof Element ? n : n.parentElement; e; e = e.parentElement) {
      const v = e.getAttribute('aria-hidden');
      if (v && v.trim().toLowerCase() === 'true') return true;
    }
    return false;
  };
  const mo = new MutationObserver((records) => {
    for (const r of records) {
      if (!(r.type === 'attributes' && r.attributeName === 'aria-hidden') && hidden(r.target)) continue;
      count++;
      last = performance.now();
    }
  });
  mo.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  const tick = () => {
    const t = performance.now();
    if (t - last >= ${quietMs}) { mo.disconnect(); resolve({ quiet: true, ms: Math.round(t - start), mutations: count }); }
    else if (t - start >= ${capMs}) { mo.disconnect(); resolve({ quiet: false, ms: Math.round(t - start), mutations: count }); }
    else setTimeout(tick, 25);
  };
  setTimeout(tick, 25);
})`;

/** Region name -> selector of its landmark (read {region}). @type {Readonly<Record<string, string>>} */
export const REGION_SELECTORS = Object.freeze({
  page: 'body', main: 'main,[role=main]', header: 'header,[role=banner]', nav: 'nav,[role=navigation]',
  aside: 'aside,[role=complementary]', footer: 'footer,[role=contentinfo]',
  dialog: 'dialog[open],[role=dialog],[role=alertdialog]', search: 'search,[role=search]', form: 'form,[role=form]',
});

/** Text of an element; password and payment values never leave the page. */
export const READ_FN = `function (max) {
  const isSecretField = ${isSecretField.toString()};
  const secret = (el) => el instanceof Element && isSecretField(el.localName, (n) => el.getAttribute(n));
  let t;
  if (secret(this)) t = '[redacted: a password, payment or one-time-code field]';
  else if ('value' in this && (this instanceof HTMLInputElement || this instanceof HTMLTextAreaElement || this instanceof HTMLSelectElement)) t = String(this.value);
  else t = this.innerText ?? this.textContent ?? '';
  return { text: t.slice(0, max), length: t.length };
}`;

/** Empties an input, textarea or contenteditable (through the native value setter, so frameworks see it). */
export const CLEAR_FN = `function () {
    if (this.isContentEditable) { this.textContent = ''; }
    else if ('value' in this) {
      const d = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(this), 'value');
      if (d && d.set) d.set.call(this, ''); else this.value = '';
    }
    this.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
}`;

/** Selects the options of a <select> matching values or labels; says how many matched. */
export const SELECT_FN = `function (values) {
    if (!(this instanceof HTMLSelectElement)) return { error: 'not a <select>' };
    const want = new Set(values); let n = 0;
    for (const o of this.options) { const hit = want.has(o.value) || want.has(o.label) || want.has(o.text.trim()); o.selected = hit && (this.multiple || n === 0); if (hit) n++; }
    this.dispatchEvent(new Event('input', { bubbles: true })); this.dispatchEvent(new Event('change', { bubbles: true }));
    return { matched: n, options: [...this.options].map((o) => o.label).slice(0, 20) };
}`;

/** Scrolls an element (this) or the page (this null): into view, or by amount / a share of the viewport. */
export const SCROLL_FN = `function (dir, amount, share) {
    const el = this === window || this === undefined ? null : this;
    const h = (el ? el.clientHeight : innerHeight) * share, w = (el ? el.clientWidth : innerWidth) * share;
    if (!dir) { el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' }); return; }
    const dy = dir === 'down' ? (amount ?? h) : dir === 'up' ? -(amount ?? h) : 0;
    const dx = dir === 'right' ? (amount ?? w) : dir === 'left' ? -(amount ?? w) : 0;
    (el ?? window).scrollBy({ top: dy, left: dx, behavior: 'instant' });
}`;

/** Live state of a node for wait_for {ref, state}. */
export const STATE_FN = `function () {
    const r = this.getBoundingClientRect(), s = getComputedStyle(this);
    return { attached: this.isConnected, visible: this.isConnected && r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && s.display !== 'none',
             disabled: !!this.disabled || this.getAttribute('aria-disabled') === 'true', checked: !!this.checked || this.getAttribute('aria-checked') === 'true' };
}`;
