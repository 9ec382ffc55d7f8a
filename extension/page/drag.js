// Page code of drag (lib/tools/drag.js): whether the page began a native HTML5 drag.

/** Set on the source's window: the object returned records the page's next dragstart. @this {any} */
export function trackDragStart() {
    const seen = { e: null };
    this.ownerDocument.defaultView.addEventListener('dragstart', (/** @type {any} */ e) => { seen.e = e; }, { capture: true, once: true });
    return seen;
}

/** Whether the page began a native drag (a dragstart it did not cancel). @this {any} */
export function dragStarted() { return !!this.e && !this.e.defaultPrevented; }
