// The CDP transport of one tab (TabSession's, extension/lib/tab-session.js): attaching the
// debugger (again, after Chrome took it away) with the tab's setup (events, the page watcher,
// the policy's request interception), that setup for each out-of-process frame's session, and
// every command: bounded, raced against the tab's death, and held back while the page's main
// thread does not answer (a busy page). Owned by its TabSession, which it asks for the tab's
// name, death and notes.
import { LIMITS } from './limits.js';
import { ToolError } from './tab-state.js';

/** @typedef {import('./tab-session.js').TabSession} TabSession @typedef {import('./tab-session.js').SessionIO} SessionIO */

const msg = (/** @type {unknown} */ e) => (e instanceof Error ? e.message : String(e));
/** What chrome.debugger answers once the debugger is no longer attached to the tab. */
const DETACHED = /not attached to the tab|Detached while handling command/i;
/**
 * Commands the browser answers without the page's main thread, and which leave the page: sent
 * even while the page is busy (a navigation to another site goes to another renderer).
 */
const PAST_A_BUSY_PAGE = new Set(['Page.navigate', 'Page.reload', 'Page.navigateToHistoryEntry', 'Page.getNavigationHistory', 'Page.handleJavaScriptDialog']);

export class TabCdp {
  /** @type {TabSession} */
  #tab;
  /** @type {SessionIO | null} */
  #io;
  /** The debugger is attached (by this worker, or found attached after a restart). */
  attached = false;
  /** Chrome took the debugger away and the tab is still the agent's: what happened, until the next call attaches again. @type {{code: string, message: string, reason: string} | null} */
  lost = null;
  /**
   * The page's main thread left a command unanswered past LIMITS.cdpCommandMs (a script of the
   * page still running): since when, and which command; null once the page answers anything again.
   * @type {{since: number, method: string} | null}
   */
  busy = null;
  /** Calls waiting for a busy page to answer again. @type {Set<() => void>} */
  #answerWaiters = new Set();

  /** @param {TabSession} tab @param {SessionIO | null} io */
  constructor(tab, io) {
    this.#tab = tab;
    this.#io = io;
  }

  /** @returns {SessionIO} */
  #browser() {
    if (!this.#io) throw new ToolError('internal', `tab ${this.#tab.name} has no browser`);
    return this.#io;
  }

  /** The page answered again (a command it had left unanswered settled, or a new document committed). */
  answering() {
    this.busy = null;
    for (const w of [...this.#answerWaiters]) w();
    this.#answerWaiters.clear();
  }

  /**
   * What the agent is told when the page's main thread does not answer. @param {string} method
   * @param {boolean} still the page was already busy before this call
   */
  #busyError(method, still) {
    const what = still && this.busy
      ? `is still busy: its main thread has answered nothing for ${Math.round((Date.now() - this.busy.since) / 1000)} s (since ${this.busy.method}; waited ${LIMITS.pageBusyWaitMs} ms more for ${method})`
      : `is busy: its main thread did not answer ${method} within ${LIMITS.cdpCommandMs} ms`;
    return new ToolError('page_busy', `the page in tab ${this.#tab.name} ${what}, so a script of the page is still running; wait, then call snapshot to see the page once it answers; or navigate (it leaves the page through about:blank, a renderer of its own), or open what you need in a new tab with tabs {action: "new", url}`);
  }

  /**
   * One CDP command on the tab (or one of its frames' sessions), bounded and raced against its
   * death, and against `signal` (its caller gave up on it: a capture a dialog interrupted).
   * @param {string} method @param {any} [params] @param {string} [sessionId] @param {AbortSignal} [signal]
   */
  async send(method, params = {}, sessionId = undefined, signal = undefined) {
    const tab = this.#tab;
    const dead = tab.dead;
    if (dead) throw new ToolError(dead.code, dead.message);
    // A crashed page never answers: said at once (navigate and reload recover it before they send).
    if (tab.crashed) throw new ToolError('renderer_crashed', `the page in tab ${tab.name} crashed (its renderer is gone): call navigate or reload to continue`);
    // A busy page gets nothing more to queue behind its script: the call waits a bounded while for
    // it to answer what it was sent before, then says it is busy. What leaves the page goes on.
    if (this.busy && !sessionId && !PAST_A_BUSY_PAGE.has(method)) {
      /** @type {() => void} */
      let wake = () => {};
      /** @type {ReturnType<typeof setTimeout> | undefined} */
      let waitTimer;
      await tab.race(new Promise((resolve) => {
        wake = () => resolve(undefined);
        this.#answerWaiters.add(wake);
        waitTimer = setTimeout(wake, LIMITS.pageBusyWaitMs);
      })).finally(() => { clearTimeout(waitTimer); this.#answerWaiters.delete(wake); });
      if (this.busy) throw this.#busyError(method, true);
    }
    const target = sessionId ? { tabId: tab.tabId, sessionId } : { tabId: tab.tabId };
    let timer;
    /** @type {() => void} */
    let onAbort = () => {};
    const timeout = new Promise((_, reject) => {
      timer = setTimeout(() => {
        // The page's main thread did not answer: busy until this (or any) command it left
        // unanswered settles. A page with a frame session (out-of-process iframe) is judged by the page's.
        if (!sessionId && !this.busy) this.busy = { since: Date.now(), method };
        if (!sessionId) sent.then(() => this.answering(), () => this.answering());
        reject(this.#busyError(method, false));
      }, LIMITS.cdpCommandMs);
      onAbort = () => reject(new ToolError('capture_abandoned', `${method} was given up (a JavaScript dialog opened)`));
      if (signal?.aborted) onAbort(); else signal?.addEventListener('abort', onAbort, { once: true });
    });
    // Chrome took the debugger away (the user closed the "is debugging this browser" bar, or the
    // page went where an extension may not debug): said at once, never mistaken for a document
    // replaced mid-wait (which stabilization waits out) or retried as a racing capture.
    const sent = this.#browser().debugger.sendCommand(target, method, params).catch((e) => {
      if (!DETACHED.test(msg(e))) throw e;
      const why = { code: 'debugger_detached', message: `the debugger was detached from tab ${tab.name} during ${method} (the user closed the "is debugging this browser" bar, or Chrome took it): nothing more was done; call again to attach again, or ask the user to share the tab` };
      if (!this.lost) tab.debuggerLost(why, 'Chrome answered that it was no longer attached');
      throw new ToolError(why.code, why.message);
    });
    try {
      return await tab.race(Promise.race([sent, timeout]));
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }

  /**
   * Attach on demand; "already attached" after a worker restart means it is still ours. After
   * Chrome took the debugger away (TabSession.debuggerLost) this is the attaching again: the tab
   * keeps its name, and its next FactPack says what happened; a refusal says why and what to do.
   */
  async attach() {
    if (this.attached) return;
    const tab = this.#tab;
    let reattached = false;
    const lost = this.lost;
    try {
      await this.#browser().debugger.attach({ tabId: tab.tabId }, '1.3');
    } catch (e) {
      if (lost && !/already attached/i.test(msg(e))) throw new ToolError('debugger_detached', `the debugger was detached from tab ${tab.name} (${lost.reason}) and Chrome refused to attach it again (${msg(e)}): ask the user to share the tab again from the extension popup, or use tabs new to go on in a new tab`);
      if (!/already attached/i.test(msg(e))) throw new ToolError('attach_failed', `cannot control tab ${tab.name}: ${msg(e)}`);
      reattached = true;
    }
    this.attached = true;
    if (lost) {
      this.lost = null;
      tab.note(`the debugger was detached from tab ${tab.name} (${lost.reason}) and is attached again: events meanwhile were missed, so this FactPack compares the page as it is now with what you were shown; your refs of ${tab.name} hold where the page did not change`);
    }
    await this.send('Page.enable');
    await this.send('Network.enable');
    tab.consoleLog.begin(Date.now());
    await Promise.all([this.send('Runtime.enable'), this.send('Log.enable')]);
    const fetch = this.#fetchSetup();
    if (fetch) await this.send(...fetch);
    await this.send(...this.#watcher());
    if (reattached) await this.send('Target.setAutoAttach', { autoAttach: false, waitForDebuggerOnStart: false, flatten: true }).catch(() => {});
    await this.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: true });
  }

  /** Lets the debugger go (unless Chrome already took it). @param {{detach?: boolean}} o */
  async detach(o) {
    const was = this.attached;
    this.attached = false;
    if (o.detach && was && this.#io) await this.#io.debugger.detach({ tabId: this.#tab.tabId }).catch(() => {});
  }

  /** An out-of-process iframe attached: its session gets the same setup as the page's. @param {string} sessionId */
  async setupChild(sessionId) {
    if (!this.#io) return;
    const fetch = this.#fetchSetup();
    /** @type {Array<[string, any]>} */
    const setup = [['Page.enable', {}], ['Network.enable', {}], ['Runtime.enable', {}], ['Log.enable', {}], ...(fetch ? [fetch] : []), this.#watcher(), ['Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: true }], ['Runtime.runIfWaitingForDebugger', {}]];
    // Sent together, not each after the last one's answer: a frame's target can hold an answer
    // until it runs, and it runs only on runIfWaitingForDebugger, so one after another left a frame
    // inside an out-of-process frame (shop -> cdn -> bank) never loading in the user's tab.
    await Promise.all(setup.map(([m, p]) => this.send(m, p, sessionId).catch(() => {})));
  }

  /**
   * The page-side watcher of stabilization, in every document of the tab from its start (and in
   * the one already there).
   * @returns {[string, any]}
   */
  #watcher() {
    return ['Page.addScriptToEvaluateOnNewDocument', { source: this.#browser().watcherSource(), runImmediately: true }];
  }

  /**
   * Request interception (CDP Fetch) for the policy: with a block- or allow-list, every document
   * request of the tab is paused until the tab has judged it (TabRequests.stops), so one that goes
   * to a site the agent may not go to never leaves the browser (its cookies with it). Documents
   * only: they are the navigations, a handful per page; subresources of an allowed page stay
   * unpaused (a paused request costs a round trip through chrome.debugger). No list: no
   * interception at all (null).
   * @returns {[string, any] | null}
   */
  #fetchSetup() {
    const policy = this.#io?.policy();
    const listed = !!policy && (policy.block.length > 0 || policy.allow.length > 0);
    return listed ? ['Fetch.enable', { patterns: [{ urlPattern: '*', resourceType: 'Document', requestStage: 'Request' }] }] : null;
  }

  /** The user changed the policy: the interception follows it, in the page and the frame sessions `sids`. @param {Iterable<string>} sids */
  async policyChanged(sids) {
    if (!this.attached) return;
    const [method, params] = this.#fetchSetup() ?? ['Fetch.disable', {}];
    for (const sid of [undefined, ...sids]) await this.send(method, params, sid).catch(() => {});
  }
}
