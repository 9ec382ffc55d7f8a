// One file past 400 lines: the look before a press; its checks share the walk through frames and sessions to the point pressed, each check its own function.
//
// Actionability (docs/design.md, "Before pressing"): before a pointer or keyboard action on a
// ref, look as a careful person would. The element must be attached, visible, enabled (editable
// for type), keep the same box over two animation frames (for click and hover the second is the
// frame the pointer's move arrives in: see confirm), and be what receives the pointer at
// the point we press: a hit test in main-viewport coordinates (DOM.getNodeForLocation, which
// walks into in-process frames and shadow roots; out-of-process frames are followed through
// their own sessions). When something else is on top, other points inside the element are
// tried, then the element is scrolled to other places in the viewport; when nothing works within
// the bounds of extension/lib/limits.js, nothing is pressed and the error names what covers it.
// A point whose hit lies in a frame the user's policy withholds is never pressed (a transparent
// iframe from a blocked site laid over a button cannot take the agent's click).
// CDP is injected through the TabDriver, so Node tests run this with a fake
// (extension/test/actionability.test.mjs).
import { LIMITS } from './limits.js';
import { quoteValue } from './quote.js';
import { pageFunction } from './page-code.js';
import { whyHidden } from './visibility.js';
import { actionableState, coverOf, guardDone, guardPress, hovered, labelBoxes, receivesPress, scrollToPlace } from '../page/actionability.js';
import { whyHiddenInPage } from '../page/visible.js';
import { ToolError } from './tab-state.js';

/** @typedef {import('./tab-session.js').TabSession} TabSession */
/** @typedef {import('./tab-driver.js').TabDriver} TabDriver */
/**
 * The core's role and name of a node (engine.describeNode): with the ref the agent holds for it,
 * else ref '' (a line it was not shown); null when the compiler made no line of it. The one
 * naming of a node: nothing here computes a role or a name in the page
 * (extension/test/one-naming.test.mjs keeps it so).
 * @typedef {(backendNodeId: number, frameId: string) => {ref: string, role: string, name: string} | null} RefOf
 */
/**
 * What a check needs besides the driver: which checks apply, and how to name a ref'd node.
 *   enabled: refuse a disabled element; editable: refuse a read-only one; visible false: only
 *   attached and enabled (upload sets files without a pointer, and file inputs are usually hidden
 *   behind a styled label); hit false: no hit test; moves: the pointer's move to the point follows
 *   and `confirm` looks again once it arrived, so the move's own animation frame is the last of
 *   the LIMITS.actionStableFrames (the check waits one frame fewer).
 * @typedef {{kind: string, enabled?: boolean, editable?: boolean, visible?: boolean, hit?: boolean, moves?: boolean, refOf?: RefOf}} CheckOptions
 */

/** Milliseconds since an arbitrary origin. */
const now = () => (globalThis.performance ? globalThis.performance.now() : Date.now());

/** Page code (extension/page/actionability.js), as the text CDP runs. */
export const ACTIONABLE_STATE_FN = pageFunction(actionableState, { whyHidden, whyHiddenInPage });
export const RECEIVES_FN = pageFunction(receivesPress);
export const HOVERED_FN = pageFunction(hovered);
export const GUARD_FN = pageFunction(guardPress, { receivesPress });
export const GUARD_DONE_FN = pageFunction(guardDone);
export const COVER_FN = pageFunction(coverOf);
export const LABELS_FN = pageFunction(labelBoxes);
export const SCROLL_TO_FN = pageFunction(scrollToPlace);

/** What hides an element (ACTIONABLE_STATE_FN's `why`), in the agent's words. @type {Record<string, string>} */
const HIDDEN_WHY = { display: 'not rendered: display none or no box', visibility: 'visibility hidden', opacity: 'opacity 0, on it or an ancestor', clipped: 'clipped to a pixel, kept for screen readers only', size: 'empty box' };

/** A role or tag from the page, only if it is a plain word (page text never forges structure). @param {unknown} s */
const word = (s) => (typeof s === 'string' && /^[a-z][a-z0-9-]{0,40}$/.test(s) ? s : '');

/** `e4 button "Place order"`: the element the agent named. @param {any} target */
export const who = (target) => `${target.ref} ${word(target.role) || 'element'} ${quoteValue(target.name ?? '')}`;

/** The host of a URL, for messages. @param {string} url */
const hostOf = (url) => { try { return new URL(url).host || ''; } catch { return ''; } };

/** Points to press inside a box, centre first, then the centres of its quarters. @param {{x: number, y: number, width: number, height: number}} b */
export function pointsIn(b) {
  const at = [[0.5, 0.5], [0.25, 0.25], [0.75, 0.25], [0.25, 0.75], [0.75, 0.75]].slice(0, LIMITS.actionHitPoints);
  /** @type {Array<{x: number, y: number}>} */
  const out = [];
  for (const [fx, fy] of at) {
    const p = { x: Math.round(b.x + b.width * fx), y: Math.round(b.y + b.height * fy) };
    if (!out.some((q) => q.x === p.x && q.y === p.y)) out.push(p);
  }
  return out;
}

/**
 * @typedef {{none: true} | {none?: false, backendNodeId: number, frameId: string, sid: string | undefined, withheld: string | null}} Hit
 *   none: nothing there (outside the viewport); withheld: the host of a frame the policy withholds that the point lies in
 */

/** @param {{x: number, y: number, width: number, height: number}} a @param {{x: number, y: number, width: number, height: number}} b */
const sameBox = (a, b) => a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height;

/** The layout viewport of Page.getLayoutMetrics (unbounded when the browser gives none). @param {any} m */
const viewportOf = (m) => m?.cssLayoutViewport ?? { pageX: 0, pageY: 0, clientWidth: Infinity, clientHeight: Infinity };

export class Actionability {
  /** @param {TabDriver} driver */
  constructor(driver) {
    this.driver = driver;
    /** The main frame's layout viewport as last asked (hitAt's guess). @type {{pageX: number, pageY: number, clientWidth: number, clientHeight: number} | null} */
    this.viewport = null;
    /**
     * The box (main-viewport CSS px, from the box model) the point was found in, and whether the
     * pointer was over the element then: what confirm compares with once the pointer arrived.
     * @type {{box: {x: number, y: number, width: number, height: number}, hovered: boolean} | null}
     */
    this.seen = null;
  }

  /** @param {TabSession} t @param {string} method @param {any} [params] @param {string} [sid] */
  send(t, method, params, sid) { return this.driver.send(t, method, params, sid); }

  /**
   * Checks `target` and answers the point to press, in main-viewport CSS px; throws a ToolError
   * naming what is wrong (and presses nothing) otherwise. Its time is the call's `actionable`
   * phase (ActionFlow.timings; bench/actionability.mjs reads it).
   * @param {TabSession} t @param {any} target @param {CheckOptions} o
   * @returns {Promise<{x: number, y: number} | null>} null when `o.visible` is false
   */
  async check(t, target, o) {
    const t0 = now();
    try { return await this.#check(t, target, o); } finally {
      t.addPhase('actionable', now() - t0);
    }
  }

  /** @param {TabSession} t @param {any} target @param {CheckOptions} o */
  async #check(t, target, o) {
    const sid = this.driver.sessionOf(t, target.frameId);
    this.seen = null;
    // With the pointer's move to follow, its frame is the last one the box is watched over (confirm).
    const frames = o.moves ? LIMITS.actionStableFrames - 1 : LIMITS.actionStableFrames;
    // Sent without waiting for its answer: a session runs its commands in order, so the look
    // below (resolveNode, then the state) runs on the scrolled page, one round trip sooner.
    const scrolled = o.visible !== false ? this.send(t, 'DOM.scrollIntoViewIfNeeded', { backendNodeId: target.backendNodeId }, sid).catch((e) => { if (e instanceof ToolError) throw e; }) : null;
    /** Whether the pointer was over it when it was last seen standing still. */
    let wasHovered = false;
    for (let attempt = 1; ; attempt++) {
      /** @type {any} */
      let st;
      try { [st] = await Promise.all([this.driver.callOn(t, target, ACTIONABLE_STATE_FN, [LIMITS.actionFrameWaitMs, frames]), attempt === 1 ? scrolled : null]); } catch (e) {
        if (e instanceof ToolError && e.code !== 'page_error') throw e;
        throw new ToolError('not_attached', `${who(target)} is no longer in the page: nothing was done; take a snapshot`);
      }
      if (!st || st.state === 'detached') throw new ToolError('not_attached', `${who(target)} is no longer in the page: nothing was done; take a snapshot`);
      if (o.visible === false) {
        if (o.enabled && st.disabled) throw new ToolError('element_disabled', `${who(target)} is disabled: ${o.kind} refused, nothing was done`);
        return null;
      }
      if (st.state === 'hidden') throw new ToolError('not_visible', `${who(target)} is not visible (${HIDDEN_WHY[st.why] ?? 'hidden'}): ${o.kind} refused, nothing was done`);
      if (o.enabled && st.disabled) throw new ToolError('element_disabled', `${who(target)} is disabled: ${o.kind} refused, nothing was done`);
      if (o.editable && st.readonly) throw new ToolError('not_editable', `${who(target)} is read-only: ${o.kind} refused, nothing was done`);
      wasHovered = st.hovered === true;
      if (st.stable) break;
      if (attempt >= LIMITS.actionStableAttempts) {
        throw new ToolError('not_stable', `${who(target)} kept moving (its box changed over ${LIMITS.actionStableAttempts} checks of ${frames === 1 ? 'an animation frame' : `${frames} animation frames`}): ${o.kind} refused, nothing was done; wait_for it to settle, then retry`);
      }
    }
    if (o.hit === false) {
      const p = await this.driver.point(t, target, { scroll: false });
      return { x: p.x, y: p.y };
    }
    /** What covered the points tried (set from inside `press`). @type {{cover: {text: string, blocked: boolean} | null}} */
    const seen = { cover: null };
    let tried = 0;
    for (const block of [null, ...LIMITS.actionScrollBlocks]) {
      if (block) await this.driver.callOn(t, target, SCROLL_TO_FN, [block]).catch((e) => { if (e instanceof ToolError && e.code !== 'page_error') throw e; });
      // The viewport is asked beside the box (nothing scrolls between): the hit test then takes
      // one round trip (hitAt checks the viewport it assumed).
      const [{ box }, metrics] = await Promise.all([this.driver.point(t, target, { scroll: false }), this.send(t, 'Page.getLayoutMetrics', {})]);
      this.viewport = viewportOf(metrics);
      /** @param {Array<{x: number, y: number}>} points */
      const press = async (points) => {
        for (const p of points) {
          tried++;
          const hit = await this.hitAt(t, p.x, p.y, target);
          if (!hit.none && !hit.withheld && await this.#receives(t, target, hit)) return p;
          const c = await this.#cover(t, hit, o);
          // A withheld frame is named first: the policy is the reason, not the layout.
          if (c && (!seen.cover || (c.blocked && !seen.cover.blocked))) seen.cover = c;
        }
        return null;
      };
      const found = (/** @type {{x: number, y: number}} */ p) => { this.seen = { box, hovered: wasHovered }; return p; };
      const p = await press(pointsIn(box));
      if (p) return found(p);
      // The control itself cannot be hit (hidden the screen-reader way, drawn by its label): its
      // labels, as a person would press them.
      for (const label of await this.#labelBoxes(t, target, box)) {
        const q = await press(pointsIn(label));
        if (q) return found(q);
      }
    }
    const cover = seen.cover;
    const how = `tried ${tried} points inside it, scrolled to ${LIMITS.actionScrollBlocks.length} other places`;
    if (cover?.blocked) {
      throw new ToolError('blocked_origin', `${cover.text} is over ${who(target)}: a press there would land in a frame the user's policy withholds, so nothing was pressed (${how})`);
    }
    if (!cover) throw new ToolError('not_visible', `${who(target)} is outside the visible page at every point tried (${how}): nothing was pressed; scroll it into view`);
    throw new ToolError('covered', `${cover.text} is over ${who(target)}: nothing was pressed (${how}); close it or scroll`);
  }

  /**
   * Looks again once the pointer came over the point (`p`, from check with `moves`), before
   * anything is pressed. Two things, asked at once:
   * - The box, against the one check found the point in: the frame the move was delivered in is
   *   the last of the LIMITS.actionStableFrames the box must hold still over. A change the
   *   pointer's own arrival made (the element came under the pointer with this move, and a :hover
   *   style lifts or grows it) is the page answering the pointer, as it would for a person's hand,
   *   and is left to the hit test; any other change is motion: not_stable (pointerAt looks again
   *   from the start).
   * - Unless `o.hit` is false (hover presses nothing): the point itself, since a page can answer
   *   pointerover by putting another element there (or a frame the policy withholds).
   * Throws, pressing nothing, when either fails (what is at the point named first). Its time is part of the `actionable` phase.
   * @param {TabSession} t @param {any} target @param {{x: number, y: number}} p @param {CheckOptions} o
   */
  async confirm(t, target, p, o) {
    const t0 = now();
    try { await this.#confirm(t, target, p, o); } finally {
      t.addPhase('actionable', now() - t0);
    }
  }

  /** @param {TabSession} t @param {any} target @param {{x: number, y: number}} p @param {CheckOptions} o */
  async #confirm(t, target, p, o) {
    const [moved, hit] = await Promise.all([this.#moved(t, target), o.hit === false ? null : this.hitAt(t, p.x, p.y, target)]);
    // What is at the point is said first: what would have taken the press (a frame the policy
    // withholds, a button swapped in) is the more useful refusal than that the target moved.
    if (hit && !(!hit.none && !hit.withheld && await this.#receives(t, target, hit))) {
      const c = await this.#cover(t, hit, o);
      if (c?.blocked) throw new ToolError('blocked_origin', `${c.text} came over ${who(target)} as the pointer reached it: a press there would land in a frame the user's policy withholds, so nothing was pressed`);
      throw new ToolError('covered', `${c?.text ?? 'something'} came over ${who(target)} as the pointer reached it (the page moved it there): nothing was pressed; take a snapshot and look again`);
    }
    if (moved) throw new ToolError('not_stable', `${who(target)} moved as the pointer reached it (its box changed in the animation frame the pointer arrived in): nothing was pressed; wait_for it to settle, then retry`);
  }

  /**
   * Sets the page's guard over the press about to be made (extension/page/actionability.js
   * guardPress): a press whose pointerdown lands on anything but the target (the page put it under
   * the pointer after the last look) is cancelled in the page. Answers the function that takes the
   * guard away after the press, which throws `covered`, naming what was refused the press, when it
   * cancelled one. Its time is part of the `actionable` phase.
   * @param {TabSession} t @param {any} target @param {CheckOptions} o
   * @returns {Promise<() => Promise<void>>}
   */
  async guardPress(t, target, o) {
    const t0 = now();
    const sid = this.driver.sessionOf(t, target.frameId);
    /** @type {string | undefined} */
    let handle;
    try {
      handle = await this.#withObjects(t, sid, [target.backendNodeId], async ([self]) => {
        const r = await this.send(t, 'Runtime.callFunctionOn', { objectId: self, functionDeclaration: GUARD_FN, arguments: [{ value: LIMITS.actionContentNodes }], returnByValue: false }, sid);
        return r.exceptionDetails ? undefined : r.result?.objectId;
      });
    } catch (e) {
      if (e instanceof ToolError) throw e;
    } finally {
      t.addPhase('actionable', now() - t0);
    }
    // Unguarded, the press is not made: the element went between the look and now.
    if (!handle) throw new ToolError('not_attached', `${who(target)} is no longer in the page: nothing was pressed; take a snapshot`);
    const guard = handle;
    return async () => {
      const t1 = now();
      try {
        /** @type {any} */
        let r;
        try { r = await this.send(t, 'Runtime.callFunctionOn', { objectId: guard, functionDeclaration: GUARD_DONE_FN, returnByValue: false }, sid); } catch (e) {
          // The guard's document is gone (the press navigated): a cancelled press navigates
          // nowhere, so the press was the target's; its listeners went with the document.
          if (e instanceof ToolError) throw e;
          return;
        }
        const wrong = r.result?.objectId;
        if (!wrong) return;
        /** @type {number} */
        let backendNodeId = 0;
        try { ({ node: { backendNodeId } } = await this.send(t, 'DOM.describeNode', { objectId: wrong }, sid)); } catch (e) {
          if (e instanceof ToolError) throw e;
        } finally {
          this.send(t, 'Runtime.releaseObject', { objectId: wrong }, sid).catch(() => {});
        }
        const c = backendNodeId ? await this.#cover(t, { backendNodeId, frameId: target.frameId, sid, withheld: null }, o) : null;
        throw new ToolError('covered', `${c?.text ?? 'something'} was under the pointer at the moment of the press on ${who(target)} (the page put it there after the last look): the press was cancelled in the page, nothing was pressed; take a snapshot and look again`);
      } finally {
        this.send(t, 'Runtime.releaseObject', { objectId: guard }, sid).catch(() => {});
        t.addPhase('actionable', now() - t1);
      }
    };
  }

  /**
   * Did the target's box change since check found its point, other than by the pointer's arrival?
   * False when check saw no box (it was not asked for one with a hit test).
   * @param {TabSession} t @param {any} target
   */
  async #moved(t, target) {
    const seen = this.seen;
    if (!seen) return false;
    /** @type {{x: number, y: number, width: number, height: number} | null} */
    let box = null;
    try { ({ box } = await this.driver.point(t, target, { scroll: false })); } catch (e) {
      // Without a box now (gone, hidden, its frame gone) it is not where the pointer went.
      if (!(e instanceof ToolError) || !['not_visible', 'frame_gone'].includes(e.code)) throw e;
    }
    if (box && sameBox(box, seen.box)) return false;
    if (!box || seen.hovered) return true;
    try { return (await this.driver.callOn(t, target, HOVERED_FN)) !== true; } catch (e) {
      if (e instanceof ToolError && e.code !== 'page_error') throw e;
      return true;
    }
  }

  /**
   * The boxes of the target's labels in main-viewport CSS px (`box` is the target's, from the
   * box model: the difference to its box in its own frame is where that frame lies).
   * @param {TabSession} t @param {any} target @param {{x: number, y: number}} box
   * @returns {Promise<Array<{x: number, y: number, width: number, height: number}>>}
   */
  async #labelBoxes(t, target, box) {
    /** @type {any} */
    let r;
    try { r = await this.driver.callOn(t, target, LABELS_FN, [LIMITS.actionLabelsTried]); } catch (e) {
      if (e instanceof ToolError && e.code !== 'page_error') throw e;
      return [];
    }
    if (!r || !Array.isArray(r.labels)) return [];
    const dx = box.x - r.x, dy = box.y - r.y;
    return r.labels.map((/** @type {any} */ l) => ({ x: l.x + dx, y: l.y + dy, width: l.width, height: l.height }));
  }

  /**
   * What receives the pointer at (x, y), main-viewport CSS px: the node and its frame, following
   * out-of-process frames into their own sessions; `withheld` names the host when the point
   * lies in a frame the policy withholds (not followed). A hit on `target` itself answers at once.
   * @param {TabSession} t @param {number} x @param {number} y @param {any} [target] @returns {Promise<Hit>}
   */
  async hitAt(t, x, y, target) {
    /** @type {string | undefined} */
    let sid;
    let lx = x, ly = y;
    for (let depth = 0; depth <= LIMITS.actionFrameDepth; depth++) {
      /** @param {{pageX: number, pageY: number}} vp */
      const locate = (vp) => this.send(t, 'DOM.getNodeForLocation', { x: Math.floor(lx + vp.pageX), y: Math.floor(ly + vp.pageY), includeUserAgentShadowDOM: false }, sid)
        .catch((e) => { if (e instanceof ToolError) throw e; return null; });
      // In the main frame, the viewport last seen (this.viewport) is assumed and asked again in
      // the same breath: the session runs both in order, so when it is unchanged the hit was
      // taken at the right scroll; when it changed, the hit is taken again with the new one.
      const guess = depth === 0 ? this.viewport : null;
      const [m, first] = await Promise.all([this.send(t, 'Page.getLayoutMetrics', {}, sid), guess ? locate(guess) : null]);
      const vp = viewportOf(m);
      if (depth === 0) this.viewport = vp;
      if (lx < 0 || ly < 0 || lx >= vp.clientWidth || ly >= vp.clientHeight) return { none: true };
      // Document coordinates of the session's top frame: the viewport point plus its scroll.
      const r = guess && guess.pageX === vp.pageX && guess.pageY === vp.pageY ? first : await locate(vp);
      if (!r) return { none: true };
      if (target && r.backendNodeId === target.backendNodeId && r.frameId === target.frameId) return { backendNodeId: r.backendNodeId, frameId: r.frameId, sid, withheld: null };
      if (t.withheldFrames.has(r.frameId)) return { backendNodeId: r.backendNodeId, frameId: r.frameId, sid, withheld: this.#frameHost(t, r.frameId) };
      const child = await this.#oopifOwnedBy(t, r.backendNodeId, sid);
      if (t.withheldOwners.has(r.backendNodeId) || (child && t.withheldFrames.has(child.frameId))) {
        return { backendNodeId: r.backendNodeId, frameId: r.frameId, sid, withheld: child ? await this.#oopifHost(t, child) : '' };
      }
      if (!child) return { backendNodeId: r.backendNodeId, frameId: r.frameId, sid, withheld: null };
      // An out-of-process frame: the same point in its own document.
      const { model } = await this.send(t, 'DOM.getBoxModel', { backendNodeId: r.backendNodeId }, sid);
      lx -= model.content[0];
      ly -= model.content[1];
      sid = child.sessionId;
    }
    return { none: true };
  }

  /**
   * The out-of-process frame whose owner element is `backendNodeId` in session `sid`, if any.
   * Asked only when the hit is not the target itself.
   * @param {TabSession} t @param {number} backendNodeId @param {string | undefined} sid
   */
  async #oopifOwnedBy(t, backendNodeId, sid) {
    for (const o of t.frameSessions()) {
      if (o.sessionId === sid) continue;
      try {
        const owner = await this.send(t, 'DOM.getFrameOwner', { frameId: o.frameId }, sid);
        if (owner.backendNodeId === backendNodeId) return o;
      } catch (e) {
        if (e instanceof ToolError) throw e;
      }
    }
    return null;
  }

  /**
   * The host of an out-of-process frame, from its own session (a withheld frame is left out of
   * the capture): only to name it in the error, as the capture's warning already does.
   * @param {TabSession} t @param {{frameId: string, sessionId: string}} o
   */
  async #oopifHost(t, o) {
    try {
      const { frameTree } = await this.send(t, 'Page.getFrameTree', {}, o.sessionId);
      return hostOf(String(frameTree?.frame?.url ?? ''));
    } catch (e) {
      if (e instanceof ToolError) throw e;
      return this.#frameHost(t, o.frameId);
    }
  }

  /** The host of a frame of the last capture (for messages; '' when unknown). @param {TabSession} t @param {string} frameId */
  #frameHost(t, frameId) {
    const cap = t.lastCapture;
    /** @type {(tree: any) => string} */
    const find = (tree) => {
      if (!tree) return '';
      if (tree.frame?.id === frameId) return hostOf(tree.frame.url ?? '');
      for (const c of tree.childFrames ?? []) { const h = find(c); if (h) return h; }
      return '';
    };
    if (!cap) return '';
    return find(cap.frameTree) || (cap.oopifs ?? []).map((/** @type {any} */ o) => find(o.frameTree)).find(Boolean) || '';
  }

  /**
   * Does the press on `hit` reach the target? Only a hit in the target's own frame can.
   * @param {TabSession} t @param {any} target @param {any} hit
   */
  async #receives(t, target, hit) {
    if (hit.backendNodeId === target.backendNodeId && hit.frameId === target.frameId) return true;
    if (hit.frameId !== target.frameId) return false;
    const sid = this.driver.sessionOf(t, target.frameId);
    try {
      return await this.#withObjects(t, sid, [target.backendNodeId, hit.backendNodeId], async ([self, other]) => {
        const r = await this.send(t, 'Runtime.callFunctionOn', { objectId: self, functionDeclaration: RECEIVES_FN, arguments: [{ objectId: other }, { value: LIMITS.actionContentNodes }], returnByValue: true }, sid);
        return r.result?.value === true;
      });
    } catch (e) {
      if (e instanceof ToolError) throw e;
      return false;  // a node gone between the hit test and now: not the target
    }
  }

  /**
   * What covers the point, worded for the agent: `button "Accept all cookies" (e9)` (the
   * ref and the engine's role and name when the agent holds a ref for it), `a frame from
   * bank.test` for a withheld frame, null when nothing is there.
   * @param {TabSession} t @param {Hit} hit @param {CheckOptions} o @returns {Promise<{text: string, blocked: boolean} | null>}
   */
  async #cover(t, hit, o) {
    if (hit.none) return null;
    if (hit.withheld !== null) return { text: `a frame${hit.withheld ? ` from ${hit.withheld}` : ''} that the user's policy withholds`, blocked: true };
    try {
      return await this.#withObjects(t, hit.sid, [hit.backendNodeId], async ([node]) => {
        const r = await this.send(t, 'Runtime.callFunctionOn', { objectId: node, functionDeclaration: COVER_FN, returnByValue: false }, hit.sid);
        const el = r.result?.objectId;
        if (!el) return { text: 'something', blocked: false };
        try {
          const { node: d } = await this.send(t, 'DOM.describeNode', { objectId: el }, hit.sid);
          const known = o.refOf?.(d.backendNodeId, hit.frameId) ?? null;
          if (known?.ref) return { text: `${word(known.role) || 'element'} ${quoteValue(known.name)} (${known.ref})`, blocked: false };
          if (known) return { text: `${word(known.role) || 'element'} ${quoteValue(known.name)} (no ref: not in your FactPack)`, blocked: false };
          // No line of the compiler's: only what the node is, never a role or name made up here.
          const tag = word(String(d.localName ?? '')) || 'element';
          return { text: `a <${tag}> that is no line of your FactPack`, blocked: false };
        } finally {
          this.send(t, 'Runtime.releaseObject', { objectId: el }, hit.sid).catch(() => {});
        }
      });
    } catch (e) {
      if (e instanceof ToolError) throw e;
      return { text: 'something', blocked: false };
    }
  }

  /**
   * Runs fn with remote objects for the nodes, released after.
   * @template R @param {TabSession} t @param {string | undefined} sid @param {number[]} nodes
   * @param {(ids: string[]) => Promise<R>} fn @returns {Promise<R>}
   */
  async #withObjects(t, sid, nodes, fn) {
    /** @type {string[]} */
    const ids = [];
    try {
      for (const backendNodeId of nodes) ids.push((await this.send(t, 'DOM.resolveNode', { backendNodeId }, sid)).object.objectId);
      return await fn(ids);
    } finally {
      for (const objectId of ids) this.send(t, 'Runtime.releaseObject', { objectId }, sid).catch(() => {});
    }
  }
}
