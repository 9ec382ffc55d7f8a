// Page code of actionability (lib/actionability.js): what it asks of an element in the page
// before a press. Each function runs in the element's frame, `this` the element (or a node of it);
// lib/page-code.js turns it into the text CDP runs.
import { whyHiddenInPage } from './visible.js';

/**
 * The element's state, in its own frame: attached, visible (by visibility.js whyHidden, and a box
 * of at least one pixel: `why` says what hides it), disabled, read-only, whether its box stayed
 * the same over `frames` animation frames (a hidden tab runs no frames: then over `maxMs`,
 * whichever comes first), and whether the pointer is over it (`hovered`: lib/actionability.js
 * confirm tells a box the pointer's arrival changed, a :hover style, from one that moves).
 * @this {any} @param {number} maxMs @param {number} frames
 */
export function actionableState(maxMs, frames) {
    if (!this.isConnected) return { state: 'detached' };
    const el = this.nodeType === 1 ? this : this.parentElement;
    if (!el) return { state: 'detached' };
    const disabled = (typeof el.matches === 'function' && el.matches(':disabled')) || !!el.closest('[aria-disabled="true"]');
    const readonly = ('readOnly' in el && el.readOnly === true) || el.getAttribute('aria-readonly') === 'true';
    const r1 = el.getBoundingClientRect();
    // Visible by the one rule (visibility.js), and a box of at least a pixel to press.
    const why = whyHiddenInPage(el) ?? (r1.width < 1 || r1.height < 1 ? 'size' : null);
    if (why) return { state: 'hidden', why, disabled, readonly };
    return new Promise((resolve) => {
      let done = false;
      let timer = 0;
      const finish = () => {
        if (done) return;
        done = true;
        clearTimeout(timer);  // the stabilization watcher would wait for it as the action's timer
        const r2 = el.getBoundingClientRect();
        const stable = r1.x === r2.x && r1.y === r2.y && r1.width === r2.width && r1.height === r2.height;
        resolve({ state: 'ok', disabled, readonly, stable, hovered: el.matches(':hover') });
      };
      let left = frames > 0 ? frames : 1;
      const tick = () => { if (--left <= 0) finish(); else requestAnimationFrame(tick); };
      requestAnimationFrame(tick);
      timer = setTimeout(finish, maxMs);
    });
}

/** Is the pointer over the element (or a node inside it)? @this {any} */
export function hovered() {
    const el = this.nodeType === 1 ? this : this.parentElement;
    return !!el && el.matches(':hover');
}

/**
 * Does a press on `hit` reach this element? Yes when the hit is the element or inside it
 * (across shadow roots), unless it is inside another control nested in it that is only a part of
 * it (the centre of an open tree item is its first child item; a row's centre can be its Edit
 * button): that control would take the press. A nested control that is the element's whole
 * content (no text and no other control of the element lies outside it: jQuery UI's tab <li>
 * around its own <a>) is the element as a person sees it, and takes the press for it. Parts of
 * the element's own shadow tree are the element. Yes too when both lie in the same button, link
 * or label, or when the hit is in a label that controls it (a custom checkbox drawn over its
 * hidden input). A hit on a ::before or ::after (an icon font's glyph, AG Grid's sort arrow) comes
 * as a CSSPseudoElement: it is its element's, reached through `element`. `maxNodes` bounds the
 * look at the element's content (LIMITS.actionContentNodes); past it, a nested control is a part.
 * @this {any} @param {any} hit @param {number} maxNodes
 */
export function receivesPress(hit, maxNodes) {
    const up = (/** @type {any} */ n) => n.parentNode || n.host || n.element || null;
    const control = 'a[href], button, input, select, textarea, summary, [role=button], [role=link], [role=checkbox], [role=radio], [role=switch], [role=tab], [role=option], [role=treeitem], [role=menuitem], [role=menuitemcheckbox], [role=menuitemradio]';
    // Is the nested control c all there is of this element? Text that is not rendered (a closed
    // tooltip's) is not content a person sees beside it.
    const whole = (/** @type {any} */ c) => {
      let left = maxNodes;
      const outside = (/** @type {any} */ n) => {
        if (n === c) return false;
        if (--left < 0) return true;
        if (n.nodeType === 3) return /\S/.test(n.data);
        if (n.nodeType !== 1) return false;
        if (n !== this) {
          // No box and not a display:contents wrapper: nothing of it is drawn.
          if (n.getClientRects().length === 0 && getComputedStyle(n).display !== 'contents') return false;
          if (n.matches(control)) return true;
        }
        for (let k = n.firstChild; k; k = k.nextSibling) if (outside(k)) return true;
        return false;
      };
      return !outside(this);
    };
    const path = [];
    for (let n = hit; n; n = up(n)) {
      // Through its own shadow root, the hit is one of the element's parts (Shoelace's inner <button>).
      if (n === this) return (!!this.shadowRoot && path.includes(this.shadowRoot)) || path.every((e) => e.nodeType !== 1 || !e.matches(control) || whole(e));
      path.push(n);
    }
    const closest = (/** @type {any} */ n, /** @type {any} */ sel) => { for (let e = n && n.nodeType === 1 ? n : n && up(n); e; e = up(e)) if (e.nodeType === 1 && e.matches(sel)) return e; return null; };
    const unit = 'a[href], button, [role=button], [role=link], label';
    const mine = closest(this, unit);
    if (mine && mine === closest(hit, unit)) return true;
    const label = closest(hit, 'label');
    return !!(label && label.control === this);
}

/**
 * Guards the press about to be made on this element, from the moment it is set until `done()`:
 * a trusted pointerdown or mousedown whose target does not receive a press for this element (by
 * receivesPress, as the hit test judged the point) is cancelled, with every pointerup, mouseup
 * and click of that press, at the window before the capture phase reaches the page's elements. So
 * an element the page puts under the pointer between the last look and the press (a timer, a busy
 * task that delays the press) does not take it. The listeners go by themselves once the press is
 * over: at its click, or, when no click came, at the next press's pointerdown, which they leave
 * alone (no timer: the action's settle would wait for it). So a guard whose `done()` never came
 * (the page was busy, the call gave up) leaves nothing behind that cancels later presses; `done()` takes them away too and answers the element that was refused the
 * press, or null. Limit: a listener the page set on the window before
 * this one runs first (it could stop the event before we see it); such a page acts as it likes
 * with its own script anyway.
 * @this {any} @param {number} maxNodes
 */
export function guardPress(maxNodes) {
    const self = this;
    /** @type {any} */
    let wrong = null;
    const stop = (/** @type {Event} */ e) => { e.preventDefault(); e.stopImmediatePropagation(); };
    /** The press's pointerup was seen: a pointerdown after it is another press. */
    let over = false;
    const down = (/** @type {Event} */ e) => {
      if (!e.isTrusted) return;
      if (over) { remove(); return; }
      const hit = e.composedPath()[0] || e.target;
      if (wrong === null && receivesPress.call(self, hit, maxNodes)) return;
      if (wrong === null) wrong = hit;
      stop(e);
    };
    const downs = ['pointerdown', 'mousedown'];
    const rests = ['pointerup', 'mouseup', 'click', 'auxclick', 'dblclick', 'contextmenu'];
    const remove = () => {
      for (const t of downs) window.removeEventListener(t, down, true);
      for (const t of rests) window.removeEventListener(t, rest, true);
    };
    const rest = (/** @type {Event} */ e) => {
      if (!e.isTrusted) return;
      if (wrong !== null) stop(e);
      // pointerup comes even when a cancelled pointerdown suppressed the mouse events; the click last.
      if (e.type === 'pointerup') over = true;
      if (e.type === 'click') remove();
    };
    for (const t of downs) window.addEventListener(t, down, true);
    for (const t of rests) window.addEventListener(t, rest, true);
    return {
      done() {
        remove();
        return wrong;
      },
    };
}

/** The end of guardPress: its listeners taken away, the element refused the press (or null). @this {any} */
export function guardDone() {
    return this.done();
}

/**
 * What covers a point, as an agent would name it: the nearest element from the hit up (across
 * shadow roots, and from a ::before or ::after to its element) that has a role, a name of its own
 * or is a control; else the hit element.
 * @this {any}
 */
export function coverOf() {
    const up = (/** @type {any} */ n) => n.parentNode || n.host || n.element || null;
    const meaningful = 'a[href], button, input, select, textarea, summary, iframe, dialog, label, [role], [aria-label], [aria-labelledby], [onclick], [tabindex]';
    let first = null;
    for (let e = this.nodeType === 1 ? this : up(this); e; e = up(e)) {
      if (e.nodeType !== 1) continue;
      first = first || e;
      if (e.matches(meaningful)) return e;
      if (e === document.body || e === document.documentElement) break;
    }
    return first;
}

/**
 * The boxes of the element's labels (at most `max`, each at least a pixel), and its own box, in
 * its frame's viewport: a press on a <label> is a press on its control, and a control a library
 * hides the screen-reader way is pressed by its label (jQuery UI's checkboxradio, most custom
 * check boxes).
 * @this {any} @param {number} max
 */
export function labelBoxes(max) {
    const el = this.nodeType === 1 ? this : this.parentElement;
    const own = el.getBoundingClientRect();
    const labels = [];
    for (const l of el.labels || []) {
      if (labels.length >= max) break;
      const r = l.getBoundingClientRect();
      if (r.width >= 1 && r.height >= 1) labels.push({ x: r.x, y: r.y, width: r.width, height: r.height });
    }
    return { x: own.x, y: own.y, labels };
}

/** Scrolls the element to another place of the viewport (`block`: center, start, end). @this {any} @param {ScrollLogicalPosition} block */
export function scrollToPlace(block) {
    const el = this.nodeType === 1 ? this : this.parentElement;
    el.scrollIntoView({ block, inline: 'center', behavior: 'instant' });
}
