// Page code of read (lib/tools/read.js): the text of an element, of a heading's section, of a
// landmark. Password and payment values never leave the page.
import { LIMITS } from '../lib/limits.js';
import { headingLevel } from '../lib/headings.js';
import { isSecretField } from '../lib/secrets.js';
import { landmarkSelector, opens, regionIn, sectionEdges } from './landmarks.js';

/**
 * Text of an element; password and payment values never leave the page. A heading's text is its
 * section's: the heading, then what follows it up to the next heading of its level or higher,
 * within the landmark that holds it (Sphinx wraps each section in a <section>; Node.js's and
 * MkDocs' headings are flat siblings of their text: both read the same).
 * @this {any} @param {number} max @param {number} from
 */
export function readText(max, from) {
  const labelsOf = (/** @type {any} */ el) => {
    let text = '';
    try {
      for (const l of el.labels ?? []) text += ' ' + l.textContent;
      for (const id of String(el.getAttribute('aria-labelledby') ?? '').split(/\s+/)) if (id) text += ' ' + (el.getRootNode().getElementById?.(id)?.textContent ?? '');
    } catch { /* a detached or exotic node: its attributes still speak */ }
    return text.slice(0, LIMITS.secretLabelMaxChars);
  };
  const secret = (/** @type {any} */ el) => el instanceof Element && isSecretField(el.localName, (/** @type {any} */ n) => el.getAttribute(n), labelsOf(el));
  const level = (/** @type {any} */ el) => {
    if (!(el instanceof Element)) return 0;
    if (el.getAttribute('role') !== 'heading' && !/^h[1-6]$/.test(el.localName)) return 0;
    return headingLevel(el.localName, el.getAttribute('aria-level'));
  };
  const section = (/** @type {any} */ h) => {
    const own = level(h);
    const doc = h.ownerDocument;
    const after = (/** @type {any} */ n) => !!(h.compareDocumentPosition(n) & Node.DOCUMENT_POSITION_FOLLOWING) && !h.contains(n);
    const heads = (/** @type {any} */ n) => n instanceof Element && [n, ...n.querySelectorAll('h1,h2,h3,h4,h5,h6,[role=heading]')].find((/** @type {any} */ x) => after(x) && level(x) && level(x) <= own);
    // A landmark bounds a section; a <header> need not be one (an article's, around its title).
    const edge = (/** @type {any} */ n) => n === doc.body || n === doc.documentElement || sectionEdges.tags.includes(n.localName) ||
      sectionEdges.roles.includes(n.getAttribute('role') || '');
    const parts = [h.innerText ?? h.textContent ?? ''];
    const take = (/** @type {any} */ n) => {  // the text of n, or of its part before the next heading of the level; false there
      if (n instanceof Element && (/^(script|style|template|noscript)$/.test(n.localName) || getComputedStyle(n).display === 'none')) return true;
      const stop = heads(n);
      if (!stop) { const t = n instanceof HTMLElement ? n.innerText : (n.textContent || '').trim(); if (t) parts.push(t); return true; }
      if (stop === n) return false;
      for (let c = n.firstChild; c; c = c.nextSibling) if (!take(c)) return false;
      return false;
    };
    for (let n = h; n && !edge(n); n = n.parentElement) {
      for (let s = n.nextSibling; s; s = s.nextSibling) if (!take(s)) return parts.join('\n');
      if (n.parentElement && edge(n.parentElement)) break;
    }
    return parts.join('\n');
  };
  let t;
  if (secret(this)) t = '[redacted: a password, payment or one-time-code field]';
  else if ('value' in this && (this instanceof HTMLInputElement || this instanceof HTMLTextAreaElement || this instanceof HTMLSelectElement)) t = String(this.value);
  else if (level(this)) t = section(this);
  else t = this.innerText ?? this.textContent ?? '';
  const f = Math.max(0, Math.min(Number(from) || 0, t.length));
  return { text: t.slice(f, f + max), length: t.length, from: f };
}

/**
 * Text of the landmark of region `want` around this node (its nearest ancestor-or-self opening
 * that region, crossing shadow roots), or of its document's body (want 'page', or none found).
 * @this {any} @param {string} want @param {number} max @param {number} from
 */
export function readLandmark(want, max, from) {
  let n = this, lm = null;
  while (n && want !== 'page') {
    if (n.nodeType === 1 && opens(n) === want) { lm = n; break; }
    n = n.parentNode || (n instanceof ShadowRoot ? n.host : null);
  }
  const el = lm || (this.ownerDocument || document).body;
  const t = el.innerText ?? el.textContent ?? '';
  const f = Math.max(0, Math.min(Number(from) || 0, t.length));
  return { text: t.slice(f, f + max), length: t.length, from: f };
}

/**
 * The text of the main document's body (region 'page') or of its first rendered landmark of
 * `want` that is that region's (a <header> inside a dialog is the dialog's), with the document's
 * URL; null when there is none. `max` characters at most, from `from`.
 * @param {string} want @param {number} max @param {number} from
 */
export function readRegion(want, max, from) {
  let el = /** @type {Element | null} */ (want === 'page' ? document.body : null);
  if (!el) for (const c of document.querySelectorAll(landmarkSelector)) {
    if (c.getClientRects().length && opens(c) === want && regionIn(c) === want) { el = c; break; }
  }
  if (!el) return null;
  return { ...readText.call(el, max, from), url: document.URL };
}
