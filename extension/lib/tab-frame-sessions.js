// The out-of-process iframes of one tab (TabSession's, extension/lib/tab-session.js): each one's
// flattened CDP session, and the session it was attached through, so that when a frame session
// goes every session attached through it goes too. Owned by its TabSession, which routes
// Target.attachedToTarget and detachedFromTarget here.

export class FrameSessions {
  /** Out-of-process iframes, by their flattened CDP session. @type {Map<string, {frameId: string, sessionId: string}>} */
  byId = new Map();
  /** The session each out-of-process frame's session was attached through (absent: the page's). @type {Map<string, string>} */
  #parent = new Map();

  /** An out-of-process iframe's session attached. @param {string} sessionId @param {string} frameId @param {string} [parent] */
  attached(sessionId, frameId, parent = undefined) {
    this.byId.set(sessionId, { frameId, sessionId });
    if (parent) this.#parent.set(sessionId, parent);
  }

  /**
   * A frame session ended, or was found dead by a capture: it goes, and with it every session
   * attached through it (a frame inside an out-of-process frame is attached by that frame's
   * session, and when that one goes Chrome does not always say so of the inner ones: each page of
   * nested cross-site frames left one dead session, and every later capture one more warning).
   * @param {string} sessionId
   */
  gone(sessionId) {
    const gone = [sessionId];
    for (let i = 0; i < gone.length; i++) {
      this.byId.delete(gone[i]);
      this.#parent.delete(gone[i]);
      for (const [child, parent] of this.#parent) if (parent === gone[i]) gone.push(child);
    }
  }

  /** The debugging session ended: none of its frame sessions is kept. */
  clear() {
    this.byId.clear();
    this.#parent.clear();
  }
}
