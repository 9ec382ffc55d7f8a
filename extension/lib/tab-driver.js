// A controlled tab over CDP: which flattened session (the page's, or an out-of-process iframe's,
// as Target.setAutoAttach attached them) holds a frame, where an element really is in the main
// viewport (scrolled into view, nested iframe offsets added), and calls on a live node.
// CDP is injected (`send`), so Node tests run it with a fake (extension/test/tab-driver.test.mjs).
import { quoteValue } from './quote.js';
import { ToolError } from './tab-state.js';

/** @typedef {import('./tab-session.js').TabSession} TabSession */
/** @typedef {(t: TabSession, method: string, params?: any, sessionId?: string) => Promise<any>} Send */

export class TabDriver {
  /** @param {Send} send */
  constructor(send) {
    this.send = send;
    /** Look before every press (extension/lib/actionability.js); off only in bench/actionability.mjs's measurement of what looking costs. */
    this.actionability = true;
  }

  /** OOPIF session holding a frame (undefined: the page's own session). @param {TabSession} t @param {string} frameId */
  sessionOf(t, frameId) {
    const cap = t.lastCapture;
    if (!cap) return undefined;
    /** @type {(tree: import('./capture.js').FrameTree | undefined, id: string) => boolean} */
    const has = (tree, id) => !!tree && (tree.frame?.id === id || (tree.childFrames ?? []).some((c) => has(c, id)));
    for (const o of cap.oopifs ?? []) {
      if (has(o.frameTree, frameId)) {
        const s = t.frameSessions().find((x) => x.frameId === o.frameId);
        if (s) return s.sessionId;
      }
    }
    return undefined;
  }

  /**
   * Offset of a session's frame in the main viewport (nested out-of-process iframes add up).
   * @param {TabSession} t @param {string | undefined} sid @param {number} [depth] @returns {Promise<{x: number, y: number}>}
   */
  async offsetOf(t, sid, depth = 0) {
    if (!sid || depth > 8) return { x: 0, y: 0 };
    const o = t.frameSession(sid);
    if (!o) return { x: 0, y: 0 };
    for (const parent of [undefined, ...t.frameSessions().map((x) => x.sessionId).filter((k) => k !== sid)]) {
      try {
        const owner = await this.send(t, 'DOM.getFrameOwner', { frameId: o.frameId }, parent);
        const box = await this.send(t, 'DOM.getBoxModel', { backendNodeId: owner.backendNodeId }, parent);
        const base = await this.offsetOf(t, parent, depth + 1);
        return { x: base.x + box.model.content[0], y: base.y + box.model.content[1] };
      } catch (e) {
        if (e instanceof ToolError) throw e;
      }
    }
    throw new ToolError('frame_gone', `the frame ${o.frameId} is no longer in the page`);
  }

  /**
   * The element's real viewport position (scrolled into view first, unless `o.scroll` is false),
   * in main-frame CSS px: its centre and its box.
   * @param {TabSession} t @param {any} target @param {{scroll?: boolean}} [o]
   */
  async point(t, target, o = {}) {
    const sid = this.sessionOf(t, target.frameId);
    if (o.scroll !== false) await this.send(t, 'DOM.scrollIntoViewIfNeeded', { backendNodeId: target.backendNodeId }, sid).catch((e) => { if (e instanceof ToolError) throw e; });
    const [model, off] = await Promise.all([
      this.send(t, 'DOM.getBoxModel', { backendNodeId: target.backendNodeId }, sid).then((r) => r.model, (e) => {
        if (e instanceof ToolError) throw e;
        throw new ToolError('not_visible', `${target.ref} (${target.role} ${quoteValue(target.name)}) has no box on screen (hidden or detached): nothing was done`);
      }),
      this.offsetOf(t, sid),
    ]);
    const q = model.border;
    const xs = [q[0], q[2], q[4], q[6]], ys = [q[1], q[3], q[5], q[7]];
    const box = { x: Math.min(...xs) + off.x, y: Math.min(...ys) + off.y, width: Math.max(...xs) - Math.min(...xs), height: Math.max(...ys) - Math.min(...ys) };
    if (box.width < 1 || box.height < 1) throw new ToolError('not_visible', `${target.ref} (${target.role} ${quoteValue(target.name)}) has an empty box: nothing was done`);
    return { x: box.x + box.width / 2, y: box.y + box.height / 2, box };
  }

  /** Runtime.callFunctionOn on the live node. @param {TabSession} t @param {any} target @param {string} fn @param {any[]} [args] */
  async callOn(t, target, fn, args = []) {
    const sid = this.sessionOf(t, target.frameId);
    const { object } = await this.send(t, 'DOM.resolveNode', { backendNodeId: target.backendNodeId }, sid);
    try {
      const r = await this.send(t, 'Runtime.callFunctionOn', { objectId: object.objectId, functionDeclaration: fn, arguments: args.map((value) => ({ value })), returnByValue: true, awaitPromise: true }, sid);
      if (r.exceptionDetails) throw new ToolError('page_error', `the page threw: ${quoteValue(r.exceptionDetails.exception?.description ?? r.exceptionDetails.text)}`);
      return r.result?.value;
    } finally {
      this.send(t, 'Runtime.releaseObject', { objectId: object.objectId }, sid).catch(() => {});
    }
  }
}
