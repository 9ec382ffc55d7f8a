// One controlled tab's state (what the agent's calls on it share) and the error type every
// module reports to the agent with. No chrome APIs: the agent (extension/lib/agent.js) owns the
// tabs; stabilize.js and the tests read and drive this state.

/** @typedef {import('./tabs.js').PageKey} PageKey */

/** An error for the agent: a stable code and a message saying what to do. */
export class ToolError extends Error {
  /** @param {string} code @param {string} message */
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

export class TabState {
  /** @param {number} tabId @param {PageKey} key @param {string} session */
  constructor(tabId, key, session) {
    this.tabId = tabId;
    this.key = key;
    this.session = session;
    this.attached = false;
    this.hasBaseline = false;
    /** @type {Map<string, {frameId: string, sessionId: string}>} sessionId -> OOPIF */
    this.oopifs = new Map();
    /** @type {Map<string, number>} requestId -> start time */
    this.inflight = new Map();
    /** When the current action began (requests started since are the action's). */
    this.watchSince = 0;
    /**
     * The page's change marks (its watcher's, extension/lib/page-scripts.js): when the current
     * action began, when the last stabilization ended, and of `lastCapture` when an action or a
     * navigation took it. Equal marks: the page cannot differ from that capture.
     * @type {string | null}
     */
    this.watchMark = null;
    /** @type {string | null} */
    this.settledMark = null;
    /** @type {string | null} */
    this.captureMark = null;
    this.loading = false;
    /** @type {{type: string, message: string, defaultPrompt?: string, url?: string} | null} */
    this.dialog = null;
    /** Waits in progress for a JS dialog (dropped when each settles). @type {Set<(d: any) => void>} */
    this.dialogWaiters = new Set();
    /** The action a dialog interrupted: finished when the dialog is answered. @type {any} */
    this.held = null;
    /** Why the agent lost this tab (debugger detached, closed, crashed). @type {{code: string, message: string} | null} */
    this.dead = null;
    /** Waits in progress raced against the tab's death (dropped when each settles). @type {Set<(e: ToolError) => void>} */
    this.deathWaiters = new Set();
    this.crashed = false;
    /** An action is running on this tab (what it opens is the agent's). */
    this.acting = false;
    /** Tabs opened by this tab during the current action: what to say, and the tab if adopted. @type {Array<{text: string, tabId?: number}>} */
    this.opened = [];
    /** @type {Promise<any>} */
    this.queue = Promise.resolve();
    /** Why the next FactPack is a full one (e.g. the service worker restarted). @type {string | null} */
    this.fullReason = null;
    this.mainFrameId = '';
    /** The latest capture (frame trees locate out-of-process frames). @type {any} */
    this.lastCapture = null;
    /** wait_for gave up: said in its FactPack. @type {string | null} */
    this.waitNote = null;
    /** Id of the call acting on this tab, and whether the agent cancelled it. @type {any} */
    this.callId = null;
    this.cancelled = false;
    /** Why it was cancelled when not by the agent (the call's deadline). @type {string | null} */
    this.cancelWhy = null;
    /** @type {Set<number>} backendNodeIds of frame owners whose content the policy withheld (last capture) */
    this.withheldOwners = new Set();
    /** @type {Set<string>} ids of the frames the policy withheld (last capture) */
    this.withheldFrames = new Set();
    /** Milliseconds per phase of the current call, and per CDP method of its captures (ActionFlow.timings). @type {Record<string, number>} */
    this.phases = {};
    /** @type {Record<string, number>} */
    this.cdp = {};
    /** Captures the current call took. */
    this.captures = 0;
  }

  /**
   * `p` raced against the tab's death (rejects with why) and, when `o` has `dialog`, a JS dialog
   * opening (resolves to `o.dialog`). Its waiters are dropped as soon as the race settles, so a
   * tab holds only those of the waits in progress, however long the session (issue 18).
   * @template T, D @param {Promise<T>} p @param {{dialog?: D}} [o] @returns {Promise<T | D>}
   */
  async race(p, o = {}) {
    if (this.dead) throw new ToolError(this.dead.code, this.dead.message);
    /** @type {(e: ToolError) => void} */
    let onDeath = () => {};
    /** @type {(d: any) => void} */
    let onDialog = () => {};
    /** @type {Promise<any>[]} */
    const racers = [p, new Promise((_, reject) => { onDeath = reject; this.deathWaiters.add(onDeath); })];
    if ('dialog' in o) {
      racers.push(this.dialog ? Promise.resolve(o.dialog) : new Promise((resolve) => { onDialog = () => resolve(o.dialog); this.dialogWaiters.add(onDialog); }));
    }
    try {
      return await Promise.race(racers);
    } finally {
      this.deathWaiters.delete(onDeath);
      this.dialogWaiters.delete(onDialog);
    }
  }
}
