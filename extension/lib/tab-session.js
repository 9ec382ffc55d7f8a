// One controlled tab (docs/design.md, "The extension's shape"): its queue, its CDP sessions and
// send, its capture, its watcher marks and its modal state (a JavaScript dialog or a beforeunload
// prompt) are private fields, changed only through the methods below. The agent
// (extension/lib/agent.js) creates one per tab and routes Chrome's events for the tab to
// `onEvent`; the dispatcher runs every tool call on a tab through `run`, so calls on one tab run
// one at a time, in order, by construction. Chrome's debugger and the user's policy are injected,
// so Node tests drive a TabSession with a fake CDP (extension/test/tab-session.test.mjs).
import { LIMITS } from './limits.js';
import { NetLog } from './net-log.js';
import { ConsoleLog } from './console-log.js';
import { checkFrameUrl, checkUrl } from './policy.js';
import { tabName } from './tabs.js';
import { ToolError } from './tab-state.js';

/** @typedef {import('./tabs.js').PageKey} PageKey */
/**
 * What a TabSession reaches the browser through.
 * @typedef {{
 *   debugger: {attach: (t: {tabId: number}, v: string) => Promise<any>, detach: (t: {tabId: number}) => Promise<any>,
 *              sendCommand: (t: {tabId: number, sessionId?: string}, method: string, params?: any) => Promise<any>},
 *   policy: () => import('./policy.js').Policy,
 *   watcherSource: () => string,
 * }} SessionIO
 */
/** @typedef {{type: string, message: string, defaultPrompt?: string, url?: string}} Dialog */
/** The action a dialog interrupted, finished when the agent answers it. @typedef {{kind: string, acting: Promise<any>, notes: string[]}} Held */

/** The host of a URL, for messages (the URL itself when it has none). @param {string} url */
export const hostOf = (url) => { try { return new URL(url).host || url.slice(0, 100); } catch { return url.slice(0, 100); } };
const msg = (/** @type {unknown} */ e) => (e instanceof Error ? e.message : String(e));
/** What chrome.debugger answers once the debugger is no longer attached to the tab. */
const DETACHED = /not attached to the tab|Detached while handling command/i;
/**
 * Commands the browser answers without the page's main thread, and which leave the page: sent
 * even while the page is busy (a navigation to another site goes to another renderer).
 */
const PAST_A_BUSY_PAGE = new Set(['Page.navigate', 'Page.reload', 'Page.navigateToHistoryEntry', 'Page.getNavigationHistory', 'Page.handleJavaScriptDialog']);

/**
 * The origin a frame's document runs in (null when unknown or opaque): CDP's securityOrigin,
 * which an about:blank or srcdoc frame inherits from its parent, else its URL's.
 * @param {any} frame
 */
function originOf(frame) {
  const o = frame?.securityOrigin;
  if (typeof o === 'string' && o) return o === 'null' || o === '://' ? null : o;
  try { const u = new URL(String(frame?.url ?? '')); return u.origin === 'null' ? null : u.origin; } catch { return null; }
}

/**
 * Whether the page's watcher reaches every frame of an in-process frame tree: it walks only
 * same-origin frames (extension/lib/page-scripts.js, `all`), so every frame must have the top
 * frame's origin.
 * @param {any} tree a capture's frameTree
 */
export function watchedTree(tree) {
  const top = originOf(tree?.frame);
  /** @param {any} node @returns {boolean} */
  const same = (node) => (node.childFrames ?? []).every((/** @type {any} */ c) => originOf(c.frame) === top && same(c));
  return top !== null && same(tree);
}

export class TabSession {
  /** What the page requested since its last navigation, from when the agent first touched the tab (the network tool). */
  netLog = new NetLog();
  /** What the page logged since its last navigation, from when the agent first touched the tab (the console tool). */
  consoleLog = new ConsoleLog();
  /** What the console log asks of this tab (extension/lib/console-log.js ConsoleTab). */
  #consoleTab = {
    frameOfSession: (/** @type {string} */ sid) => this.#oopifs.get(sid)?.frameId,
    visible: (/** @type {string} */ url) => { const p = this.#io?.policy(); return !p || checkFrameUrl(p, url).ok; },
    request: (/** @type {string} */ id) => this.netLog.has(id),
  };
  /** Calls on this tab, one at a time: each starts when the one before has ended. @type {Promise<any>} */
  #queue = Promise.resolve();
  /** Calls waiting in the queue or running. */
  #calls = 0;
  /** @type {SessionIO | null} */
  #io;
  /** Out-of-process iframes, by their flattened CDP session. @type {Map<string, {frameId: string, sessionId: string}>} */
  #oopifs = new Map();
  /** The session each out-of-process frame's session was attached through (absent: the page's). @type {Map<string, string>} */
  #oopifParent = new Map();
  /** The latest capture (frame trees locate out-of-process frames), and the page's change mark it is known to show. @type {any} */
  #lastCapture = null;
  /** @type {string | null} */
  #captureMark = null;
  /** The page watcher's marks (extension/lib/page-scripts.js): when the current action began, when the last stabilization ended. @type {string | null} */
  #watchMark = null;
  /** @type {string | null} */
  #settledMark = null;
  /** The JavaScript dialog open in the page. @type {Dialog | null} */
  #dialog = null;
  /** The dialog the agent is answering (`answering` to `answered`). @type {Dialog | null} */
  #dialogAnswered = null;
  /** The action that dialog interrupted. @type {Held | null} */
  #held = null;
  /** A held action whose dialog the page or the user closed: the next call on the tab ends it. @type {{held: Held, dialog: Dialog} | null} */
  #orphan = null;
  /** What the next FactPack of the tab says first. @type {string[]} */
  #notes = [];
  /** Waits in progress for a dialog and for the tab's death (each dropped when its race settles). @type {Set<(d: any) => void>} */
  #dialogWaiters = new Set();
  /** @type {Set<(e: ToolError) => void>} */
  #deathWaiters = new Set();
  /** The navigation under way is to leave the page through about:blank (leaveThroughBlank). */
  #throughBlank = false;
  /** Waits for the next main-frame commit (nextCommit), given its URL. @type {Set<(url: string | null) => void>} */
  #commitWaiters = new Set();
  /** Wait for the next drag the browser intercepts (nextDrag). @type {Set<(data: any) => void>} */
  #dragWaiters = new Set();
  /** Waits for the main frame to stop loading (stoppedLoading). @type {Set<(stopped: boolean) => void>} */
  #stopWaiters = new Set();
  /** Why the agent lost this tab (closed, released, stopped). @type {{code: string, message: string} | null} */
  #dead = null;
  /** Chrome took the debugger away and the tab is still the agent's: what happened, until the next call attaches again. @type {{code: string, message: string, reason: string} | null} */
  #lost = null;

  /** The tab's page key (`c{context}p{page}` of refs); a new page index after a crash or a restart. @type {PageKey} */
  #key;
  /** The debugger is attached (by this worker, or found attached after a restart). */
  #attached = false;
  /** The engine holds a page for this tab (a full snapshot was taken). */
  #hasBaseline = false;
  /** Why the next FactPack is a full one (the page crashed, the agent was resumed). @type {string | null} */
  #fullReason = null;
  /** Requests under way, by id: when each started (stabilization waits for the action's own). @type {Map<string, number>} */
  #inflight = new Map();
  /** Of those, the documents an iframe loads, by request id: the frame each is for. @type {Map<string, string>} */
  #frameDocuments = new Map();
  /** When the current action began (requests started since are the action's). */
  #watchSince = 0;
  /** The top frame is loading. */
  #loading = false;
  /** The renderer crashed: only reload or navigate go on. */
  #crashed = false;
  /**
   * The page's main thread left a command unanswered past LIMITS.cdpCommandMs (a script of the
   * page still running): since when, and which command; null once the page answers anything again.
   * @type {{since: number, method: string} | null}
   */
  #busy = null;
  /** Calls waiting for a busy page to answer again. @type {Set<() => void>} */
  #answerWaiters = new Set();
  #mainFrameId = '';
  /** backendNodeIds of frame owners whose content the policy withheld (last capture). @type {Set<number>} */
  #withheldOwners = new Set();
  /** Addresses whose requests the policy stopped before they left the browser, since the last take. @type {string[]} */
  #stopped = [];
  /** Each frame's committed document (frame id -> URL): a frame's first load from a navigation away. @type {Map<string, string>} */
  #frameUrls = new Map();
  /** Ids of the frames the policy withheld (last capture). @type {Set<string>} */
  #withheldFrames = new Set();
  /** Ids of the frames the last capture left out (past LIMITS.framesCapturedMax), and of frames inside them since. @type {Set<string>} */
  #leftOutFrames = new Set();
  /** The child frames of the top document, by id, as Chrome attaches and detaches them. @type {Set<string>} */
  #frames = new Set();
  /**
   * Those the load under way attached: none before a navigation commits, whatever the document it
   * replaces held (stabilization stops a load that passes LIMITS.framesCapturedMax, and must not
   * stop the next page's for frames the last one had). @type {Set<string>}
   */
  #loadFrames = new Set();
  /** Those attached past the first LIMITS.framesCapturedMax: their requests are not waited for (a capture leaves them out). @type {Set<string>} */
  #framesPast = new Set();
  // The current call (begun by `beginCall`, timed by `actionStarted`): read by stabilization,
  // wait_for, the action flow's timings and tabs the action opens.
  #acting = false;
  /** Tabs opened by this tab during the current action: what to say, and the tab if adopted. @type {Array<{text: string, tabId?: number}>} */
  #opened = [];
  /** Every tab the current action opened, adopted or not (a tab they open in turn is the action's too). @type {Set<number>} */
  #openedIds = new Set();
  /** Tabs the current action opened past LIMITS.popupsAdoptedMax: left open, not adopted, counted. */
  #openedPast = 0;
  /** What the act itself has to say (wait_for gave up, resize's new viewport): said in its FactPack. @type {string | null} */
  #actNote = null;
  /** @type {any} */
  #callId = null;
  #cancelled = false;
  /** @type {string | null} */
  #cancelWhy = null;
  /** Milliseconds per phase of the current call, and per CDP method of its captures. @type {Record<string, number>} */
  #phases = {};
  /** @type {Record<string, number>} */
  #cdp = {};
  #captures = 0;
  #waitedMs = 0;

  /** @param {number} tabId @param {PageKey} key @param {string} session @param {SessionIO | null} io null: no browser (tests of the flow alone) */
  constructor(tabId, key, session, io = null) {
    this.tabId = tabId;
    this.#key = key;
    this.session = session;
    this.#io = io;
  }

  // ------------------------------------------------------------------ what others read
  get key() { return this.#key; }
  get attached() { return this.#attached; }
  get hasBaseline() { return this.#hasBaseline; }
  get inflight() { return this.#inflight; }
  get watchSince() { return this.#watchSince; }
  get loading() { return this.#loading; }
  get crashed() { return this.#crashed; }
  /** The page's main thread has not answered a command since `since` (null: it answers). */
  get busy() { return this.#busy ? { ...this.#busy } : null; }
  get mainFrameId() { return this.#mainFrameId; }
  get withheldOwners() { return this.#withheldOwners; }
  get withheldFrames() { return this.#withheldFrames; }
  /** Child frames of the top document the load under way has attached (Chrome's own cap aside: 1,000 a page). */
  get frameCount() { return this.#loadFrames.size; }
  /** An action is running on this tab (what it opens is the agent's). */
  get acting() { return this.#acting; }
  get callId() { return this.#callId; }
  get cancelled() { return this.#cancelled; }
  get cancelWhy() { return this.#cancelWhy; }
  /** How long the current call waited in the queue. */
  get waitedMs() { return this.#waitedMs; }

  // ------------------------------------------------------------------ the page as the engine holds it
  /** The engine took a full snapshot of this tab. */
  baselineTaken() { this.#hasBaseline = true; }
  /** The engine's page for this tab was closed (released, crashed). */
  baselineDropped() { this.#hasBaseline = false; }

  /**
   * The tab starts over under a new page index (a crash, a resume): refs from before can never
   * alias what comes after; `why` opens its next FactPack, which is a full one.
   * @param {PageKey} key @param {string} why
   */
  renumber(key, why) {
    this.#key = key;
    this.#fullReason = why;
  }

  /** Why the next FactPack is a full one, once. */
  takeFullReason() {
    const r = this.#fullReason;
    this.#fullReason = null;
    return r;
  }

  /** The agent reloads or navigates the crashed page: it is usable again. */
  recovered() { this.#crashed = false; }

  /** The page answered again (a command it had left unanswered settled, or a new document committed). */
  #answering() {
    this.#busy = null;
    for (const w of [...this.#answerWaiters]) w();
    this.#answerWaiters.clear();
  }

  /**
   * What the agent is told when the page's main thread does not answer. @param {string} method
   * @param {boolean} still the page was already busy before this call
   */
  #busyError(method, still) {
    const what = still && this.#busy
      ? `is still busy: its main thread has answered nothing for ${Math.round((Date.now() - this.#busy.since) / 1000)} s (since ${this.#busy.method}; waited ${LIMITS.pageBusyWaitMs} ms more for ${method})`
      : `is busy: its main thread did not answer ${method} within ${LIMITS.cdpCommandMs} ms`;
    return new ToolError('page_busy', `the page in tab ${this.name} ${what}, so a script of the page is still running; wait, then call snapshot to see the page once it answers; or navigate (it leaves the page through about:blank, a renderer of its own), or open what you need in a new tab with tabs {action: "new", url}`);
  }

  /** A dialog was dismissed to leave the page, maybe the first of a loop: the navigation goes through about:blank (ActionFlow.leaveHeld). */
  leaveThroughBlank() { this.#throughBlank = true; }
  /** Whether the navigation is to go through about:blank, once. */
  takeThroughBlank() {
    const b = this.#throughBlank;
    this.#throughBlank = false;
    return b;
  }

  /**
   * The URL of the next document the main frame commits, or null when none did within `ms` (or
   * the tab died meanwhile).
   * @param {number} ms @returns {Promise<string | null>}
   */
  nextCommit(ms) { return this.#waitOn(this.#commitWaiters, ms, null); }

  /**
   * The drag data of the next HTML5 drag the browser intercepts (Input.dragIntercepted, while the
   * drag tool has Input.setInterceptDrags on), or null when none comes within `ms`.
   * @param {number} ms @returns {Promise<any>}
   */
  nextDrag(ms) { return this.#waitOn(this.#dragWaiters, ms, null); }

  /**
   * Whether the main frame stopped loading (Page.frameStoppedLoading) within `ms`: at once when it
   * is not loading.
   * @param {number} ms @returns {Promise<boolean>}
   */
  stoppedLoading(ms) { return this.#loading ? this.#waitOn(this.#stopWaiters, ms, false) : Promise.resolve(true); }

  /**
   * What the next call of a waiter in `waiters` is given, or `missed` when none came within `ms`
   * or the tab died meanwhile.
   * @template T @param {Set<(v: T) => void>} waiters @param {number} ms @param {T} missed @returns {Promise<T>}
   */
  #waitOn(waiters, ms, missed) {
    /** @type {(v: T) => void} */
    let done = () => {};
    const p = new Promise((resolve) => { done = resolve; });
    const timer = setTimeout(() => done(missed), ms);
    waiters.add(done);
    return this.race(p).catch(() => missed).finally(() => { clearTimeout(timer); waiters.delete(done); });
  }

  /** An action that loads a new document is under way (a navigation): loading until Chrome says it stopped. */
  expectLoad() { this.#loading = true; }

  // ------------------------------------------------------------------ the current call
  /** An action starts (ActionFlow.run): nothing timed, nothing captured yet. */
  actionStarted() {
    this.#acting = true;
    this.#phases = { queue: this.#waitedMs };
    this.#cdp = {};
    this.#captures = 0;
  }

  /** The action ended: what it cost (ActionFlow.timings). */
  actionEnded() {
    this.#acting = false;
    return { phases: this.#phases, cdp: this.#cdp, captures: this.#captures };
  }

  /** ms spent in one phase of the current call. @param {string} phase @param {number} ms */
  addPhase(phase, ms) { this.#phases[phase] = (this.#phases[phase] ?? 0) + ms; }
  /** ms one CDP method of a capture took in the current call. @param {string} method @param {number} ms */
  addCdp(method, ms) { this.#cdp[method] = (this.#cdp[method] ?? 0) + ms; }
  /** The current call took a capture. */
  countCapture() { this.#captures++; }

  /** The current action opened a tab (adopted when `tabId` is given). @param {{text: string, tabId?: number}} o */
  openedTab(o) { this.#opened.push(o); }
  /** The current action opened the tab `tabId` (Chrome's tabs.onCreated), whatever becomes of it. @param {number} tabId */
  tabOpened(tabId) { this.#openedIds.add(tabId); }
  /** Whether the current action opened the tab `tabId`. @param {number | undefined} tabId */
  opens(tabId) { return tabId !== undefined && this.#openedIds.has(tabId); }
  /** Tabs the current action opened that were adopted (at most LIMITS.popupsAdoptedMax are). */
  get adoptedCount() { return this.#opened.filter((o) => o.tabId !== undefined).length; }
  /** The current action opened one more tab than are adopted: left open, counted. */
  openedPast() { this.#openedPast++; }
  /** The tabs the current action opened (and how many past the adopted ones), once. @returns {{opened: Array<{text: string, tabId?: number}>, past: number}} */
  takeOpened() {
    const o = { opened: this.#opened, past: this.#openedPast };
    this.#opened = [];
    this.#openedPast = 0;
    return o;
  }

  /** What the act has to say (wait_for gave up or was stopped, resize's viewport): said in its FactPack. @param {string} note */
  actNote(note) { this.#actNote = note; }
  /** That note, once. */
  takeActNote() {
    const n = this.#actNote;
    this.#actNote = null;
    return n;
  }

  get name() { return tabName(this.key); }

  // ------------------------------------------------------------------ the queue
  /**
   * Runs fn after every call queued before on this tab. Every tool call on a tab comes through
   * here (the dispatcher, extension/lib/agent.js): one capture/engine sequence at a time.
   * `fn` gets how long it waited.
   * @template R @param {(waitedMs: number) => Promise<R>} fn @returns {Promise<R>}
   */
  run(fn) {
    const queued = performance.now();
    this.#calls++;
    const run = this.#queue.then(() => {
      this.#waitedMs = performance.now() - queued;
      return fn(this.#waitedMs);
    }).finally(() => { this.#calls--; });
    this.#queue = run.catch(() => {});
    return run;
  }

  /** Calls waiting in the queue or running. */
  get calls() { return this.#calls; }

  /** A call begins on this tab: its id (cancel finds it by it), no cancel yet, nothing opened. @param {any} id */
  beginCall(id) {
    this.#callId = id ?? null;
    this.#cancelled = false;
    this.#cancelWhy = null;
    this.#opened = [];
    this.#openedIds.clear();
    this.#openedPast = 0;
  }

  /** The agent cancelled the call (or it reached its deadline: `why`). @param {any} id @param {string | null} [why] @returns {boolean} whether it was this tab's */
  cancel(id, why = null) {
    if (id === null || id === undefined || this.#callId !== id) return false;
    this.#cancelled = true;
    this.#cancelWhy = why;
    return true;
  }

  /** The action running on this tab (if any) stops waiting, as a cancel does: `why` says so. @param {string} why */
  stop(why) {
    if (!this.#acting) return;
    this.#cancelled = true;
    this.#cancelWhy = why;
  }

  // ------------------------------------------------------------------ life and death
  get dead() { return this.#dead; }

  /** The agent lost this tab: every wait in progress rejects with why. @param {{code: string, message: string} | null} why null: released quietly */
  kill(why) {
    if (why) this.#dead = why;
    const e = new ToolError(why?.code ?? 'tab_released', why?.message ?? 'the agent released this tab');
    for (const w of [...this.#deathWaiters]) w(e);
    this.#deathWaiters.clear();
  }

  /** The renderer crashed: waits in progress reject, the page starts over. @param {string} message */
  crash(message) {
    this.#crashed = true;
    this.#answering();
    for (const w of [...this.#deathWaiters]) w(new ToolError('renderer_crashed', message));
    this.#deathWaiters.clear();
    this.#hasBaseline = false;
  }

  /**
   * Chrome took the debugger away (chrome.debugger.onDetach while the tab lives on: the user
   * cancelled the debugging bar, or the tab went where an extension may not debug): every wait in
   * progress rejects with why, at once, and nothing of this debugging session is kept (its frame
   * sessions, the capture it may reuse). The tab stays the agent's, its name and the engine's page
   * too: the next call attaches again (`attach`), and its capture is checked against what the
   * agent was shown as after any action.
   * @param {{code: string, message: string}} why @param {string} reason what Chrome said, for the note after re-attaching
   */
  debuggerLost(why, reason) {
    this.#attached = false;
    this.#lost = { ...why, reason };
    this.#oopifs.clear();
    this.#oopifParent.clear();
    this.#captureMark = null;
    const e = new ToolError(why.code, why.message);
    for (const w of [...this.#deathWaiters]) w(e);
    this.#deathWaiters.clear();
  }

  /** Chrome took the debugger away and no call has attached it again since (null: it did not). */
  get lostDebugger() { return this.#lost ? { ...this.#lost } : null; }

  /** Waits in progress, by kind (none stay behind once their race settled). */
  get waiters() { return { death: this.#deathWaiters.size, dialog: this.#dialogWaiters.size }; }

  /**
   * `p` raced against the tab's death (rejects with why) and, when `o` has `dialog`, a JS dialog
   * opening (resolves to `o.dialog`). Its waiters are dropped as soon as the race settles, so a
   * tab holds only those of the waits in progress, however long the session.
   * @template T, D @param {Promise<T>} p @param {{dialog?: D}} [o] @returns {Promise<T | D>}
   */
  async race(p, o = {}) {
    if (this.#dead) throw new ToolError(this.#dead.code, this.#dead.message);
    /** @type {(e: ToolError) => void} */
    let onDeath = () => {};
    /** @type {(d: any) => void} */
    let onDialog = () => {};
    /** @type {Promise<any>[]} */
    const racers = [p, new Promise((_, reject) => { onDeath = reject; this.#deathWaiters.add(onDeath); })];
    if ('dialog' in o) {
      racers.push(this.#dialog ? Promise.resolve(o.dialog) : new Promise((resolve) => { onDialog = () => resolve(o.dialog); this.#dialogWaiters.add(onDialog); }));
    }
    try {
      return await Promise.race(racers);
    } finally {
      this.#deathWaiters.delete(onDeath);
      this.#dialogWaiters.delete(onDialog);
    }
  }

  // ------------------------------------------------------------------ CDP
  /** @returns {SessionIO} */
  #browser() {
    if (!this.#io) throw new ToolError('internal', `tab ${this.name} has no browser`);
    return this.#io;
  }

  /**
   * One CDP command on the tab (or one of its frames' sessions), bounded and raced against its
   * death, and against `signal` (its caller gave up on it: a capture a dialog interrupted).
   * @param {string} method @param {any} [params] @param {string} [sessionId] @param {AbortSignal} [signal]
   */
  async send(method, params = {}, sessionId = undefined, signal = undefined) {
    if (this.#dead) throw new ToolError(this.#dead.code, this.#dead.message);
    // A crashed page never answers: said at once (navigate and reload recover it before they send).
    if (this.#crashed) throw new ToolError('renderer_crashed', `the page in tab ${this.name} crashed (its renderer is gone): call navigate or reload to continue`);
    // A busy page gets nothing more to queue behind its script: the call waits a bounded while for
    // it to answer what it was sent before, then says it is busy. What leaves the page goes on.
    if (this.#busy && !sessionId && !PAST_A_BUSY_PAGE.has(method)) {
      /** @type {() => void} */
      let wake = () => {};
      /** @type {ReturnType<typeof setTimeout> | undefined} */
      let waitTimer;
      await this.race(new Promise((resolve) => {
        wake = () => resolve(undefined);
        this.#answerWaiters.add(wake);
        waitTimer = setTimeout(wake, LIMITS.pageBusyWaitMs);
      })).finally(() => { clearTimeout(waitTimer); this.#answerWaiters.delete(wake); });
      if (this.#busy) throw this.#busyError(method, true);
    }
    const target = sessionId ? { tabId: this.tabId, sessionId } : { tabId: this.tabId };
    let timer;
    /** @type {() => void} */
    let onAbort = () => {};
    const timeout = new Promise((_, reject) => {
      timer = setTimeout(() => {
        // The page's main thread did not answer: busy until this (or any) command it left
        // unanswered settles. A page with a frame session (out-of-process iframe) is judged by the page's.
        if (!sessionId && !this.#busy) this.#busy = { since: Date.now(), method };
        if (!sessionId) sent.then(() => this.#answering(), () => this.#answering());
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
      const why = { code: 'debugger_detached', message: `the debugger was detached from tab ${this.name} during ${method} (the user closed the "is debugging this browser" bar, or Chrome took it): nothing more was done; call again to attach again, or ask the user to share the tab` };
      if (!this.#lost) this.debuggerLost(why, 'Chrome answered that it was no longer attached');
      throw new ToolError(why.code, why.message);
    });
    try {
      return await this.race(Promise.race([sent, timeout]));
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }

  /**
   * Attach on demand; "already attached" after a worker restart means it is still ours. After
   * Chrome took the debugger away (`debuggerLost`) this is the attaching again: the tab keeps its
   * name, and its next FactPack says what happened; a refusal says why and what to do.
   */
  async attach() {
    if (this.#attached) return;
    let reattached = false;
    const lost = this.#lost;
    try {
      await this.#browser().debugger.attach({ tabId: this.tabId }, '1.3');
    } catch (e) {
      if (lost && !/already attached/i.test(msg(e))) throw new ToolError('debugger_detached', `the debugger was detached from tab ${this.name} (${lost.reason}) and Chrome refused to attach it again (${msg(e)}): ask the user to share the tab again from the extension popup, or use tabs new to go on in a new tab`);
      if (!/already attached/i.test(msg(e))) throw new ToolError('attach_failed', `cannot control tab ${this.name}: ${msg(e)}`);
      reattached = true;
    }
    this.#attached = true;
    if (lost) {
      this.#lost = null;
      this.note(`the debugger was detached from tab ${this.name} (${lost.reason}) and is attached again: events meanwhile were missed, so this FactPack compares the page as it is now with what you were shown; your refs of ${this.name} hold where the page did not change`);
    }
    await this.send('Page.enable');
    await this.send('Network.enable');
    this.consoleLog.begin(Date.now());
    await Promise.all([this.send('Runtime.enable'), this.send('Log.enable')]);
    const fetch = this.#fetchSetup();
    if (fetch) await this.send(...fetch);
    await this.send(...this.#watcher());
    if (reattached) await this.send('Target.setAutoAttach', { autoAttach: false, waitForDebuggerOnStart: false, flatten: true }).catch(() => {});
    await this.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: true });
  }

  /** Lets the debugger go (unless Chrome already took it). @param {{detach?: boolean}} [o] */
  async detach(o = { detach: true }) {
    const was = this.#attached;
    this.#attached = false;
    if (o.detach && was && this.#io) await this.#io.debugger.detach({ tabId: this.tabId }).catch(() => {});
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
   * request of the tab is paused until #paused has judged it, so one that goes to a site the agent
   * may not go to never leaves the browser (its cookies with it). Documents only: they are the
   * navigations, a handful per page; subresources of an allowed page stay unpaused (a paused
   * request costs a round trip through chrome.debugger). No list: no interception at all (null).
   * @returns {[string, any] | null}
   */
  #fetchSetup() {
    const policy = this.#io?.policy();
    const listed = !!policy && (policy.block.length > 0 || policy.allow.length > 0);
    return listed ? ['Fetch.enable', { patterns: [{ urlPattern: '*', resourceType: 'Document', requestStage: 'Request' }] }] : null;
  }

  /** The user changed the policy: the interception follows it, in the page and its frames' sessions. */
  async policyChanged() {
    if (!this.#attached) return;
    const [method, params] = this.#fetchSetup() ?? ['Fetch.disable', {}];
    for (const sid of [undefined, ...this.#oopifs.keys()]) await this.send(method, params, sid).catch(() => {});
  }

  /**
   * A document request paused by the interception (Fetch.requestPaused): let go, or stopped when
   * the tab would go to a site the policy refuses (checkUrl: every spelling of it, a redirect's
   * next hop included, as Chrome pauses each hop), or a frame that shows an allowed document would
   * go to a site the policy withholds. A blocked frame an allowed page embeds loads as it would for
   * the user (the capture withholds it). Stopped as `Aborted`: the tab or frame stays on the
   * document it had, with no error page. Always answered: a paused request never hangs the tab.
   * @param {any} params @param {string | undefined} sid
   */
  #paused(params, sid) {
    const url = String(params?.request?.url ?? '');
    const frame = String(params?.frameId ?? '');
    const policy = this.#io?.policy();
    let stop = false;
    if (policy && params?.resourceType === 'Document') {
      if (!sid && (!this.#mainFrameId || frame === this.#mainFrameId)) stop = !checkUrl(policy, url).ok;
      else {
        const was = this.#frameUrls.get(frame);
        stop = !checkFrameUrl(policy, url).ok && was !== undefined && /^https?:/i.test(was) && checkFrameUrl(policy, was).ok;
      }
    }
    if (stop) {
      if (this.#stopped.length < LIMITS.stoppedRequestsKept) this.#stopped.push(url);
      this.send('Fetch.failRequest', { requestId: params.requestId, errorReason: 'Aborted' }, sid).catch(() => {});
    } else {
      this.send('Fetch.continueRequest', { requestId: params.requestId }, sid).catch(() => {});
    }
  }

  /** Whether a request was stopped that no answer has named yet. */
  get stoppedPending() { return this.#stopped.length > 0; }

  /** The addresses stopped since the last call (and forgets them). @returns {string[]} */
  takeStopped() {
    const s = this.#stopped;
    this.#stopped = [];
    return s;
  }

  /** An out-of-process iframe attached: its session gets the same setup as the page's. @param {string} sessionId */
  async #setupChild(sessionId) {
    const fetch = this.#fetchSetup();
    /** @type {Array<[string, any]>} */
    const setup = [['Page.enable', {}], ['Network.enable', {}], ['Runtime.enable', {}], ['Log.enable', {}], ...(fetch ? [fetch] : []), this.#watcher(), ['Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: true }], ['Runtime.runIfWaitingForDebugger', {}]];
    // Sent together, not each after the last one's answer: a frame's target can hold an answer
    // until it runs, and it runs only on runIfWaitingForDebugger, so one after another left a frame
    // inside an out-of-process frame (shop -> cdn -> bank) never loading in the user's tab.
    await Promise.all(setup.map(([m, p]) => this.send(m, p, sessionId).catch(() => {})));
  }

  /** The out-of-process iframes' sessions. */
  frameSessions() { return [...this.#oopifs.values()]; }
  /** The same, by session (a copy). */
  get oopifs() { return new Map(this.#oopifs); }
  /** @param {string} sessionId */
  frameSession(sessionId) { return this.#oopifs.get(sessionId); }
  /**
   * An out-of-process iframe's session attached (Target.attachedToTarget).
   * @param {string} sessionId @param {string} frameId @param {string} [parent] the session it attached through
   */
  frameAttached(sessionId, frameId, parent = undefined) {
    this.#oopifs.set(sessionId, { frameId, sessionId });
    if (parent) this.#oopifParent.set(sessionId, parent);
  }

  /**
   * A frame session ended, or was found dead by a capture: it goes, and with it every session
   * attached through it (a frame inside an out-of-process frame is attached by that frame's
   * session, and when that one goes Chrome does not always say so of the inner ones: each page of
   * nested cross-site frames left one dead session, and every later capture one more warning).
   * @param {string} sessionId
   */
  frameGone(sessionId) {
    const gone = [sessionId];
    for (let i = 0; i < gone.length; i++) {
      this.#oopifs.delete(gone[i]);
      this.#oopifParent.delete(gone[i]);
      for (const [child, parent] of this.#oopifParent) if (parent === gone[i]) gone.push(child);
    }
  }

  /**
   * What Chrome says about this tab (chrome.debugger.onEvent), kept here. Crashes are the
   * agent's (a new page index), and the core's own events go to the engine there.
   * @param {string} method @param {any} params @param {string | undefined} sid the frame session it came from
   */
  onEvent(method, params, sid) {
    const now = Date.now();
    if (this.consoleLog.onEvent(method, params, sid, this.#consoleTab)) this.send('Runtime.releaseObjectGroup', { objectGroup: 'console' }, sid).catch(() => {});
    switch (method) {
      // What a frame the policy withholds loads is not the agent's business: it never holds an answer.
      // Requests are known by id alone: an out-of-process iframe's document request starts in the
      // page's session and finishes in the frame's own.
      case 'Network.requestWillBeSent':
        if (this.#withheld(params)) break;
        this.netLog.onEvent(method, params, sid, this.#mainFrameId);
        this.#inflight.set(String(params.requestId), now);
        if (params.type === 'Document' && params.frameId && params.frameId !== this.#mainFrameId) this.#frameDocuments.set(String(params.requestId), String(params.frameId));
        break;
      case 'Network.responseReceived': this.netLog.onEvent(method, params, sid, this.#mainFrameId); break;
      case 'Network.loadingFinished': case 'Network.loadingFailed':
        this.netLog.onEvent(method, params, sid, this.#mainFrameId);
        this.#inflight.delete(String(params.requestId));
        this.#frameDocuments.delete(String(params.requestId));
        break;
      case 'Page.javascriptDialogOpening': {
        // A dialog raised by a frame the policy withholds keeps its text to itself.
        const policy = this.#io?.policy();
        this.dialogOpened(!policy || checkFrameUrl(policy, params.url).ok
          ? { type: params.type, message: params.message, defaultPrompt: params.defaultPrompt, url: params.url }
          : { type: params.type, message: `[withheld: raised by ${hostOf(String(params.url))}, which the user's policy does not let the agent see]`, defaultPrompt: '', url: '' });
        break;
      }
      case 'Page.javascriptDialogClosed': this.dialogClosed(); break;
      case 'Input.dragIntercepted':
        for (const w of [...this.#dragWaiters]) w(params.data);
        this.#dragWaiters.clear();
        break;
      case 'Page.frameStartedLoading':
        if (!sid && (!this.#mainFrameId || params.frameId === this.#mainFrameId)) {
          this.#loading = true;
          this.#loadFrames.clear();
        }
        break;
      case 'Page.frameStoppedLoading':
        if (!sid && (!this.#mainFrameId || params.frameId === this.#mainFrameId)) {
          this.#loading = false;
          for (const w of [...this.#stopWaiters]) w(true);
          this.#stopWaiters.clear();
        }
        break;
      case 'Fetch.requestPaused': this.#paused(params, sid); break;
      case 'Page.frameNavigated':
        if (this.#frameUrls.size < LIMITS.framesCapturedMax || this.#frameUrls.has(String(params.frame.id))) this.#frameUrls.set(String(params.frame.id), String(params.frame.url));
        if (!sid && !params.frame.parentId) {
          this.#mainFrameId = params.frame.id;
          for (const w of [...this.#commitWaiters]) w(String(params.frame.url));
          this.#commitWaiters.clear();
          this.#frames.clear();
          this.#loadFrames.clear();
          this.#framesPast.clear();
          // A new document committed and its renderer spoke: it answers (another site's renderer,
          // after a navigation away from a busy page).
          this.#answering();
        }
        break;
      case 'Page.frameAttached':
        if (sid) break;
        if (this.#frames.size >= LIMITS.framesCapturedMax) this.#framesPast.add(String(params.frameId));
        this.#frames.add(String(params.frameId));
        this.#loadFrames.add(String(params.frameId));
        break;
      case 'Page.frameDetached':
        if (params.reason !== 'swap') this.#frameUrls.delete(String(params.frameId));
        if (!sid && params.reason !== 'swap') for (const set of [this.#frames, this.#loadFrames, this.#framesPast]) set.delete(String(params.frameId));
        break;
      case 'Target.attachedToTarget':
        if (params.targetInfo?.type === 'iframe') {
          // A cross-site frame's document request starts in the page's session, and its renderer
          // is attached when the response comes: the rest of that request is told to the frame's
          // own session, which runs before its Network.enable, so its end was never heard and
          // every load of such a page waited the whole settle cap. The frame's process has its
          // document now; what that document loads next is heard in its session.
          const frame = String(params.targetInfo.targetId);
          for (const [id, f] of [...this.#frameDocuments]) {
            if (f !== frame) continue;
            this.#frameDocuments.delete(id);
            this.#inflight.delete(id);
          }
          this.frameAttached(params.sessionId, params.targetInfo.targetId, sid);
          if (this.#io) this.#setupChild(params.sessionId);
        }
        break;
      case 'Target.detachedFromTarget': this.frameGone(String(params.sessionId)); break;
      default: break;
    }
  }

  /**
   * A request of a frame the policy withholds (known from the last capture, or by the document it
   * loads or belongs to, before any capture has seen the frame): nothing of it is the agent's, so
   * stabilization never waits for it (a blocked iframe added the whole settle cap to every navigate).
   * @param {any} params Network.requestWillBeSent
   */
  #withheld(params) {
    // A frame attached past the ones a capture keeps (capture.js capFrames) holds no answer either.
    if (this.#withheldFrames.has(params.frameId) || this.#framesPast.has(params.frameId)) return true;
    const policy = this.#io?.policy();
    const doc = typeof params.documentURL === 'string' ? params.documentURL : '';
    return !!policy && /^https?:/i.test(doc) && !checkFrameUrl(policy, doc).ok;
  }

  // ------------------------------------------------------------------ capture
  /** The latest capture (any call's: actions, read and screenshot). */
  get lastCapture() { return this.#lastCapture; }

  /**
   * A capture of this tab was taken (agent.js captureTab): the latest from now on, showing the
   * page as of no known mark, with the frames the policy withheld from it and their owners.
   * @param {any} cap @param {{owners: Set<number>, frames: Set<string>}} [withheld]
   * @param {Set<string>} [leftOut] the frames it left out (capture.js capFrames)
   */
  captured(cap, withheld = { owners: new Set(), frames: new Set() }, leftOut = new Set()) {
    this.#lastCapture = cap;
    this.#captureMark = null;
    this.#withheldOwners = withheld.owners;
    this.#withheldFrames = withheld.frames;
    this.#leftOutFrames = leftOut;
    const main = cap?.frameTree?.frame?.id;
    if (typeof main === 'string' && main) this.#mainFrameId = main;
  }

  /**
   * Whether a CDP event is about a frame the last capture left out, or one inside it: the core is
   * not told (a frame it cannot place would make every later FactPack a full one, and no action
   * run). A frame attached inside a left-out one is left out from then on.
   * @param {string} method @param {any} params
   */
  aboutLeftOutFrame(method, params) {
    if (this.#leftOutFrames.size === 0) return false;
    const id = String(method === 'Page.frameNavigated' ? params?.frame?.id : params?.frameId ?? params?.targetInfo?.targetId ?? params?.targetId);
    const parent = method === 'Page.frameNavigated' ? params?.frame?.parentId : params?.parentFrameId;
    if (typeof parent === 'string' && this.#leftOutFrames.has(parent)) this.#leftOutFrames.add(id);
    return this.#leftOutFrames.has(id);
  }

  /** The latest capture shows the page as of the watcher's `mark` (null: unknown, never reused). @param {string | null} mark */
  markCapture(mark) { this.#captureMark = mark; }

  /** Captures taken under an old policy are not reused. */
  forgetCapture() { this.#captureMark = null; }

  /**
   * The capture an action may begin on without capturing again (docs/design.md, "Capture"): the
   * page's watcher saw no change since it was taken (same document, no mutation, input, scroll or
   * resize), and every frame is one the watcher sees into: no out-of-process frame, and no
   * in-process frame of another origin (a same-site cross-origin iframe shares the page's process
   * but not its watcher, whose marks cover only the documents it can reach).
   * @returns {any} the capture, or null
   */
  reusableCapture() {
    const cap = this.#lastCapture;
    if (!cap || this.#watchMark === null || this.#watchMark !== this.#captureMark || this.#oopifs.size > 0) return null;
    if (cap.frameTree && !watchedTree(cap.frameTree)) return null;
    return cap;
  }

  // ------------------------------------------------------------------ the page watcher's marks
  /** An action begins: requests from now on are its own. @param {number} at */
  watched(at) {
    this.#watchSince = at;
    this.#inflight.clear();
    this.#frameDocuments.clear();
    this.#watchMark = null;
  }

  /**
   * Page.stopLoading cancelled every load of the page: Chrome tells the end of some requests it
   * cancelled (loadingFailed) and never of others (a frame's document request the stop cut), so
   * none begun before the stop is waited for.
   */
  loadStopped() {
    this.#inflight.clear();
    this.#frameDocuments.clear();
  }

  /** The page's watcher began following the action at this mark. @param {string} mark */
  watchMarked(mark) { this.#watchMark = mark; }

  /** Stabilization ended (or began: null) at the watcher's `mark`. @param {string | null} mark */
  settled(mark) { this.#settledMark = mark; }
  get settledMark() { return this.#settledMark; }

  // ------------------------------------------------------------------ modal state
  /** The JavaScript dialog open in the page, if any (a copy). @returns {Dialog | null} */
  get dialog() { return this.#dialog ? { ...this.#dialog } : null; }

  /** A dialog opened: waits racing one end. @param {Dialog} d */
  dialogOpened(d) {
    this.#dialog = d;
    for (const w of [...this.#dialogWaiters]) w(d);
    this.#dialogWaiters.clear();
  }

  /**
   * The dialog closed. When the agent answered it, `answering` took the held action first; closed
   * by the page or the user, the action it held is orphaned: the next call on the tab ends it
   * (ActionFlow.endOrphan), so no held action outlives its dialog.
   */
  dialogClosed() {
    if (this.#held && this.#dialog) this.#orphan = { held: this.#held, dialog: this.#dialog };
    this.#held = null;
    this.#dialog = null;
  }

  /** An action was interrupted by the open dialog: it is finished when the agent answers. @param {Held} h */
  hold(h) { this.#held = h; }

  /** The agent answers the open dialog: the action it held (null: none), no longer held. */
  answering() {
    const h = this.#held;
    this.#held = null;
    this.#dialogAnswered = this.#dialog;
    return h;
  }

  /**
   * The agent's answer was taken by the page. Chrome may say the dialog closed, and the page open
   * the next one (an alert() loop), before the answer's own reply: that next dialog stays open.
   */
  answered() {
    if (this.#dialog === this.#dialogAnswered) this.#dialog = null;
    this.#dialogAnswered = null;
  }

  /** A held action whose dialog closed without the agent's answer, once. */
  takeOrphan() {
    const o = this.#orphan;
    this.#orphan = null;
    return o;
  }

  /** Said first in the tab's next FactPack. @param {string} s */
  note(s) { this.#notes.push(s); }

  /** What the next FactPack says first, once. */
  takeNotes() {
    const n = this.#notes;
    this.#notes = [];
    return n;
  }
}
