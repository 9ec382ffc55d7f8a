// Page code of the input guard (lib/input-guard.js): where the focus is, and hiding a withheld
// frame's <iframe> for the time of a press.

/**
 * The focused element of this document and, through its frames, of theirs: the chain of
 * elements from the top down (each <iframe> crossed, then what is focused inside), each through
 * open shadow roots. An <iframe> whose document is out of process ends the chain: its own
 * session says what is focused inside. A closed shadow root ends it at its host too (the page's
 * script cannot see into it): the guard resolves that root through CDP and calls this again
 * with it as `this`, to go on from what is focused inside it.
 * @this {any} @param {number} maxDepth
 */
export function focusChain(maxDepth) {
    const chain = [];
    let doc = this && this.nodeType === 11 ? this : document;
    for (let depth = 0; doc && depth <= maxDepth; depth++) {
      let el = /** @type {any} */ (doc.activeElement);
      if (!el) break;
      while (el.shadowRoot && el.shadowRoot.activeElement) el = el.shadowRoot.activeElement;
      chain.push(el);
      if (el.localName !== 'iframe' && el.localName !== 'frame') break;
      let inner = null;
      try { inner = el.contentDocument; } catch (e) { inner = null; }
      doc = inner;
    }
    return chain;
}

/**
 * Hides the <iframe> (visibility hidden, important: no style sheet or CSS animation of the page
 * overrides it) and answers what its inline visibility was, to be given back by UNHIDE_FN. It
 * resolves after two animation frames (or `maxMs` in a tab that runs none): the browser routes
 * a press by the hit-test regions of the last frame drawn, which must be one without the frame.
 * Neither inert nor pointer-events none stop that routing (measured on Chromium 156: a press over
 * a transparent out-of-process frame made inert, or given pointer-events none important, still
 * reached it 20 times in 20); a frame that is not drawn has no region.
 * @this {any} @param {number} maxMs
 */
export function hideFrame(maxMs) {
    if (this.localName !== 'iframe' && this.localName !== 'frame') return null;
    const was = { value: this.style.getPropertyValue('visibility'), priority: this.style.getPropertyPriority('visibility') };
    this.style.setProperty('visibility', 'hidden', 'important');
    const view = this.ownerDocument.defaultView || window;
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(was), maxMs);
      view.requestAnimationFrame(() => view.requestAnimationFrame(() => { clearTimeout(timer); resolve(was); }));
    });
}

/** Gives the <iframe> back the inline visibility HIDE_FN found. @this {any} @param {string} value @param {string} priority */
export function unhideFrame(value, priority) {
    if (value) this.style.setProperty('visibility', value, priority); else this.style.removeProperty('visibility');
}
