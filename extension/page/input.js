// Page code of the input tools (lib/tools/input.js): before type, select, scroll.

/**
 * Before type, on the focused field (the ref, or what focusing it focused inside its shadow
 * root): replace selects what it holds, as Playwright's fill does, so the typed text replaces it;
 * append puts the caret at its end. Date, time, colour and range inputs take a whole value: it is
 * set (input and change fire) and {done: true} says nothing is left to type. {error} when the
 * focused element takes no text.
 * @this {any} @param {boolean} append @param {string} text
 */
export function prepareFill(append, text) {
    let el = this.ownerDocument.activeElement;
    while (el && el.shadowRoot && el.shadowRoot.activeElement) el = el.shadowRoot.activeElement;
    if (!el || el === this.ownerDocument.body) el = this;
    const whole = ['color', 'date', 'time', 'datetime-local', 'month', 'range', 'week'];
    if (el instanceof HTMLInputElement && whole.includes(el.type)) {
      if (append) return { error: 'a ' + el.type + ' input, which takes a whole value (append does not apply)' };
      const v = text.trim();
      /** @type {any} */ (Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')).set.call(el, v);
      if (el.value !== v) return { error: 'a ' + el.type + ' input that does not take this value' };
      el.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
      el.dispatchEvent(new Event('change', { bubbles: true }));
      return { done: true };
    }
    if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) {
      if (!append) el.select();
      else { try { el.setSelectionRange(el.value.length, el.value.length); } catch { /* email, number: no caret to move */ } }
      return { done: false };
    }
    if (el.isContentEditable) {
      const r = el.ownerDocument.createRange();
      r.selectNodeContents(el);
      if (append) r.collapse(false);
      const sel = el.ownerDocument.getSelection();
      sel.removeAllRanges();
      sel.addRange(r);
      return { done: false };
    }
    return { error: 'not a text field' };
}

/** Selects the options of a <select> matching values or labels; says how many matched. @this {any} @param {string[]} values */
export function selectOptions(values) {
    if (!(this instanceof HTMLSelectElement)) return { error: 'not a <select>' };
    const want = new Set(values); let n = 0;
    for (const o of this.options) { const hit = want.has(o.value) || want.has(o.label) || want.has(o.text.trim()); o.selected = hit && (this.multiple || n === 0); if (hit) n++; }
    this.dispatchEvent(new Event('input', { bubbles: true })); this.dispatchEvent(new Event('change', { bubbles: true }));
    return { matched: n, options: [...this.options].map((o) => o.label).slice(0, 20) };
}

/**
 * Scrolls for an element (this) or the page (this null): the element into view (no direction), or
 * by amount / a share of the viewport the box that a mouse wheel over the element would scroll.
 * @this {any} @param {string} dir @param {number | null} amount @param {number} share
 */
export function scrollFor(dir, amount, share) {
    const el = this === window || this === undefined ? null : this;
    if (!dir) { el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' }); return; }
    // As a mouse wheel over the element: the nearest box that holds it and can scroll that way (a
    // data grid's rows scroll in its viewport, not in a row; a dialog's slotted body in the
    // dialog's shadow tree), else the page.
    const vertical = dir === 'up' || dir === 'down';
    const scrolls = (/** @type {any} */ n) => {
        const o = getComputedStyle(n)[vertical ? 'overflowY' : 'overflowX'];
        return (o === 'auto' || o === 'scroll' || o === 'overlay') && (vertical ? n.scrollHeight > n.clientHeight : n.scrollWidth > n.clientWidth);
    };
    let box = el;
    while (box && !(box !== document.documentElement && box !== document.body && scrolls(box))) {
        const root = box.getRootNode();
        box = box.assignedSlot ?? box.parentElement ?? (root instanceof ShadowRoot ? root.host : null);
    }
    const h = (box ? box.clientHeight : innerHeight) * share, w = (box ? box.clientWidth : innerWidth) * share;
    const dy = dir === 'down' ? (amount ?? h) : dir === 'up' ? -(amount ?? h) : 0;
    const dx = dir === 'right' ? (amount ?? w) : dir === 'left' ? -(amount ?? w) : 0;
    (box ?? window).scrollBy({ top: dy, left: dx, behavior: 'instant' });
}
