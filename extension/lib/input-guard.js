// The policy holds for the whole input, not an instant (issue 53): before every key event the
// element that will receive it, the focused element followed through shadow roots and frames
// (in-process ones in the page, out-of-process ones through their own sessions), is checked
// against the frames the user's policy withholds; for the time of a press, the <iframe>s that
// hold withheld frames are not drawn, so the browser cannot route the press into them however the
// page toggles their pointer-events (a toggle that the hit test before the press cannot see). A refusal names what holds the focus or would take the pointer.
// CDP is injected through the TabDriver (extension/test/input-guard.test.mjs runs it with a fake).
import { LIMITS } from './limits.js';
import { pageFunction } from './page-code.js';
import { focusChain, hideFrame, unhideFrame } from '../page/input-guard.js';
import { quoteValue } from './quote.js';
import { ToolError } from './tab-state.js';

/** @typedef {import('./tab-session.js').TabSession} TabSession @typedef {import('./tab-driver.js').TabDriver} TabDriver */



/** Page code (extension/page/input-guard.js), as the text CDP runs. */
export const FOCUS_FN = pageFunction(focusChain);
export const HIDE_FN = pageFunction(hideFrame);
export const UNHIDE_FN = pageFunction(unhideFrame);

/** withheldFocus's answer when the focus is nested past the bound: not known to be allowed. */
export const TOO_DEEP = 'too deep';

/** The host of a URL, for messages. @param {string} url */
const hostOf = (url) => { try { return new URL(url).host || ''; } catch { return ''; } };

/**
 * The core's role and name of a node (engine.describeNode), null when it made no line of it.
 * @typedef {(t: TabSession, backendNodeId: number) => {ref: string, role: string, name: string} | null} Describe
 */

export class InputGuard {
  /** @param {TabDriver} driver @param {Describe} [describe] names a frame's owner as the core does */
  constructor(driver, describe) {
    this.driver = driver;
    this.describe = describe;
  }

  /** @param {TabSession} t @param {string} method @param {any} [params] @param {string} [sid] */
  send(t, method, params, sid) { return this.driver.send(t, method, params, sid); }

  /**
   * Where the next key goes: null when it stays in frames the policy allows, TOO_DEEP when it is
   * nested past the bound, else the words that name what took the focus (`iframe "Bank" from bank.test`).
   * @param {TabSession} t @returns {Promise<string | null>}
   */
  async withheldFocus(t) {
    // Nothing withheld in the capture the action began with (taken at its start): nowhere to refuse.
    if (t.withheldFrames.size === 0 && t.withheldOwners.size === 0) return null;
    /** @type {string | undefined} */
    let sid;
    /** A closed shadow root (its object) to go on from, in session `sid`. @type {string | undefined} */
    let root;
    // Each step crosses an out-of-process frame or a closed shadow root. A focus nested deeper
    // than the bound is refused, not let through: where the keys would go is not known.
    for (let depth = 0; depth <= LIMITS.actionFrameDepth; depth++) {
      const r = root
        ? await this.send(t, 'Runtime.callFunctionOn', { objectId: root, functionDeclaration: FOCUS_FN, arguments: [{ value: LIMITS.actionFrameDepth }], returnByValue: false }, sid)
        : await this.send(t, 'Runtime.evaluate', { expression: `(${FOCUS_FN})(${LIMITS.actionFrameDepth})`, returnByValue: false }, sid);
      if (root) this.send(t, 'Runtime.releaseObject', { objectId: root }, sid).catch(() => {});
      root = undefined;
      const arr = r?.result?.objectId;
      if (!arr) return null;
      /** @type {string | undefined} */
      let next;
      try {
        const { result } = await this.send(t, 'Runtime.getProperties', { objectId: arr, ownProperties: true }, sid);
        const els = (result ?? []).filter((/** @type {any} */ p) => /^\d+$/.test(p.name) && p.value?.objectId)
          .sort((/** @type {any} */ a, /** @type {any} */ b) => Number(a.name) - Number(b.name)).map((/** @type {any} */ p) => p.value.objectId);
        for (let i = 0; i < els.length; i++) {
          const { node } = await this.send(t, 'DOM.describeNode', { objectId: els[i] }, sid);
          const frameId = typeof node?.frameId === 'string' ? node.frameId : '';
          if (!frameId) {
            // The focus stopped at the host of a closed shadow root (document.activeElement is
            // the host, and the page cannot open it): CDP names the root, the chain goes on in it.
            const closed = i === els.length - 1 ? (node?.shadowRoots ?? []).find((/** @type {any} */ s) => s.shadowRootType === 'closed') : null;
            if (closed) root = (await this.send(t, 'DOM.resolveNode', { backendNodeId: closed.backendNodeId }, sid))?.object?.objectId;
            continue;  // not a frame owner
          }
          if (t.withheldFrames.has(frameId) || t.withheldOwners.has(node.backendNodeId)) return await this.#name(t, node, frameId);
          // The last of the chain is an out-of-process frame's owner: what is focused is in its session.
          if (i === els.length - 1) next = t.frameSessions().find((o) => o.frameId === frameId)?.sessionId;
        }
      } finally {
        this.send(t, 'Runtime.releaseObject', { objectId: arr }, sid).catch(() => {});
      }
      if (root) continue;
      if (!next) return null;
      sid = next;
    }
    if (root) this.send(t, 'Runtime.releaseObject', { objectId: root }, sid).catch(() => {});
    return TOO_DEEP;
  }

  /**
   * Throws blocked_origin when the focus is in a withheld frame; `done` says what was sent before.
   * @param {TabSession} t @param {string} kind @param {string} done
   */
  async checkFocus(t, kind, done) {
    const owner = await this.withheldFocus(t);
    if (owner === TOO_DEEP) throw new ToolError('blocked_origin', `the focus is nested deeper than ${LIMITS.actionFrameDepth} frames or closed shadow roots, past where it is checked against the user's policy: ${kind} stopped, nothing was sent${done ? `; ${done}` : ''}`);
    if (owner) throw new ToolError('blocked_origin', `the focus is in ${owner}, a frame the user's policy withholds (the page put it there): ${kind} stopped, nothing was sent there${done ? `; ${done}` : ''}`);
  }

  /**
   * Hides every <iframe> holding a withheld frame for the time of `fn` (a press), then gives back
   * what it had. Owners are found by frame id in the session that holds them.
   * @template R @param {TabSession} t @param {() => Promise<R>} fn @returns {Promise<R>}
   */
  async withWithheldHidden(t, fn) {
    /** @type {Array<{objectId: string, sid: string | undefined, was: {value: string, priority: string}}>} */
    const made = [];
    try {
      for (const frameId of t.withheldFrames) {
        for (const sid of [undefined, ...t.frameSessions().map((o) => o.sessionId)]) {
          /** @type {any} */
          let owner;
          try { owner = await this.send(t, 'DOM.getFrameOwner', { frameId }, sid); } catch (e) {
            if (e instanceof ToolError) throw e;
            continue;
          }
          try {
            const { object } = await this.send(t, 'DOM.resolveNode', { backendNodeId: owner.backendNodeId }, sid);
            const r = await this.send(t, 'Runtime.callFunctionOn', { objectId: object.objectId, functionDeclaration: HIDE_FN, arguments: [{ value: LIMITS.actionFrameWaitMs }], returnByValue: true, awaitPromise: true }, sid);
            made.push({ objectId: object.objectId, sid, was: r.result?.value ?? { value: '', priority: '' } });
          } catch (e) {
            if (e instanceof ToolError) throw e;
          }
          break;
        }
      }
      return await fn();
    } finally {
      // Given back before the action's answer is captured, which would otherwise see them hidden.
      await Promise.all(made.map(({ objectId, sid, was }) =>
        this.send(t, 'Runtime.callFunctionOn', { objectId, functionDeclaration: UNHIDE_FN, arguments: [{ value: String(was.value ?? '') }, { value: String(was.priority ?? '') }], returnByValue: true }, sid)
          .catch(() => {}).finally(() => this.send(t, 'Runtime.releaseObject', { objectId }, sid).catch(() => {}))));
    }
  }

  /**
   * `iframe "Bank" from bank.test`: the owner of the withheld frame that holds the focus, named
   * as the core names it (no name computed here).
   * @param {TabSession} t @param {{backendNodeId: number, attributes?: string[]}} owner the DOM.describeNode of the frame's owner @param {string} frameId
   */
  async #name(t, owner, frameId) {
    let what = 'an iframe';
    // The core names the node when it made a line of it; a frame's owner is none (the frame's own
    // lines stand for it), so it is named by its author's label, as HTML-AAM names an iframe
    // (aria-label, else title): read from the node's attributes, nothing computed in the page.
    const known = this.describe?.(t, owner.backendNodeId) ?? null;
    const attrs = Array.isArray(owner.attributes) ? owner.attributes : [];
    const attr = (/** @type {string} */ k) => { const i = attrs.findIndex((a, j) => j % 2 === 0 && a === k); return i >= 0 ? String(attrs[i + 1] ?? '').trim() : ''; };
    const name = known?.name || attr('aria-label') || attr('title');
    if (name) what = `iframe ${quoteValue(name.replace(/\s+/g, ' ').slice(0, LIMITS.frameOwnerLabelMaxChars))}`;
    const host = await this.#oopifHost(t, frameId) || this.#host(t, frameId);
    return `${what}${host ? ` from ${host}` : ''}`;
  }


  /**
   * The host of an out-of-process frame, from its own session (a withheld frame is left out of
   * the capture): only to name it, as the capture's warning does. '' when it has no session.
   * @param {TabSession} t @param {string} frameId
   */
  async #oopifHost(t, frameId) {
    const o = t.frameSessions().find((x) => x.frameId === frameId);
    if (!o) return '';
    try {
      const { frameTree } = await this.send(t, 'Page.getFrameTree', {}, o.sessionId);
      return hostOf(String(frameTree?.frame?.url ?? ''));
    } catch (e) {
      if (e instanceof ToolError) throw e;
      return '';
    }
  }

  /** The host of a frame of the last capture ('' when unknown). @param {TabSession} t @param {string} frameId */
  #host(t, frameId) {
    /** @type {(tree: any) => string} */
    const find = (tree) => {
      if (!tree) return '';
      if (tree.frame?.id === frameId) return hostOf(tree.frame.url ?? '');
      for (const c of tree.childFrames ?? []) { const h = find(c); if (h) return h; }
      return '';
    };
    const cap = t.lastCapture;
    if (!cap) return '';
    return find(cap.frameTree) || (cap.oopifs ?? []).map((/** @type {any} */ o) => find(o.frameTree)).find(Boolean) || '';
  }
}

