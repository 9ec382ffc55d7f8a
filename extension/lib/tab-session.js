// Past 400 lines: what is left here is the tab's public face (the members tools and the agent call) and the routing of Chrome's events to the parts below.
//
// One controlled tab (docs/design.md, "The extension's shape"). The agent (extension/lib/agent.js)
// creates one per tab and routes Chrome's events for the tab to `onEvent`; the dispatcher runs
// every tool call on a tab through `run`, so calls on one tab run one at a time, in order, by
// construction. Chrome's debugger and the user's policy are injected, so Node tests drive a
// TabSession with a fake CDP (extension/test/tab-session.test.mjs).
//
// Its jobs are parts it owns, one file each, reached only through the members below: the call
// queue (tab-calls.js), the CDP transport (tab-cdp.js), out-of-process frame sessions
// (tab-frame-sessions.js), frames and their loads (tab-frames.js), requests in flight and those the
// policy stopped (tab-requests.js), the modal state (tab-modal.js), the tabs an action opened
// (tab-adoption.js), the latest capture and the watcher's marks (tab-marks.js), and the waits
// racing the tab's death (tab-waits.js). What is left here is the tab's public face, which the
// rest of the extension and its tests use unchanged: some 90 members, most one line handing over
// to a part, each with the comment that says what it means to a caller; that face, and the routing
// of Chrome's events to the parts (`onEvent`), are why this file is past ~400 lines.
import { NetLog } from './net-log.js';
import { ConsoleLog } from './console-log.js';
import { checkFrameUrl } from './policy.js';
import { tabName } from './tabs.js';
import { ToolError } from './tab-state.js';
import { TabCalls } from './tab-calls.js';
import { TabCdp } from './tab-cdp.js';
import { FrameSessions } from './tab-frame-sessions.js';
import { TabFrames } from './tab-frames.js';
import { TabRequests } from './tab-requests.js';
import { ModalState } from './tab-modal.js';
import { OpenedTabs } from './tab-adoption.js';
import { CaptureMarks } from './tab-marks.js';
import { TabWaits } from './tab-waits.js';

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
/** @typedef {import('./tab-modal.js').Dialog} Dialog @typedef {import('./tab-modal.js').Held} Held */

/** The host of a URL, for messages (the URL itself when it has none). @param {string} url */
export const hostOf = (url) => { try { return new URL(url).host || url.slice(0, 100); } catch { return url.slice(0, 100); } };

export { watchedTree } from './tab-marks.js';

export class TabSession {
  /** What the page requested since its last navigation, from when the agent first touched the tab (the network tool). */
  netLog = new NetLog();
  /** What the page logged since its last navigation, from when the agent first touched the tab (the console tool). */
  consoleLog = new ConsoleLog();
  /** What the console log asks of this tab (extension/lib/console-log.js ConsoleTab). */
  #consoleTab = {
    frameOfSession: (/** @type {string} */ sid) => this.#sessions.byId.get(sid)?.frameId,
    visible: (/** @type {string} */ url) => { const p = this.#io?.policy(); return !p || checkFrameUrl(p, url).ok; },
    request: (/** @type {string} */ id) => this.netLog.has(id),
  };
  // The parts this tab hands its jobs to, each its own and changed only through the methods below.
  #calls = new TabCalls();
  /** @type {TabCdp} */
  #cdp;
  #sessions = new FrameSessions();
  #frames = new TabFrames();
  #requests = new TabRequests();
  #modal = new ModalState();
  #opened = new OpenedTabs();
  #marks = new CaptureMarks();
  #waits = new TabWaits(this.#modal);
  /** @type {SessionIO | null} */
  #io;
  /** What the next FactPack of the tab says first. @type {string[]} */
  #notes = [];
  /** Wait for the next drag the browser intercepts (nextDrag). @type {Set<(data: any) => void>} */
  #dragWaiters = new Set();
  /** The tab's page key (`c{context}p{page}` of refs); a new page index after a crash or a restart. @type {PageKey} */
  #key;
  /** The engine holds a page for this tab (a full snapshot was taken). */
  #hasBaseline = false;
  /** Why the next FactPack is a full one (the page crashed, the agent was resumed). @type {string | null} */
  #fullReason = null;
  /** The renderer crashed: only reload or navigate go on. */
  #crashed = false;

  /** @param {number} tabId @param {PageKey} key @param {string} session @param {SessionIO | null} io null: no browser (tests of the flow alone) */
  constructor(tabId, key, session, io = null) {
    this.tabId = tabId;
    this.#key = key;
    this.session = session;
    this.#io = io;
    this.#cdp = new TabCdp(this, io);
  }

  // ------------------------------------------------------------------ what others read
  get key() { return this.#key; }
  get attached() { return this.#cdp.attached; }
  get hasBaseline() { return this.#hasBaseline; }
  get inflight() { return this.#requests.inflight; }
  get watchSince() { return this.#requests.watchSince; }
  get loading() { return this.#frames.loading; }
  get crashed() { return this.#crashed; }
  /** The page's main thread has not answered a command since `since` (null: it answers). */
  get busy() { return this.#cdp.busy ? { ...this.#cdp.busy } : null; }
  get mainFrameId() { return this.#frames.mainFrameId; }
  get withheldOwners() { return this.#frames.withheldOwners; }
  get withheldFrames() { return this.#frames.withheldFrames; }
  /** Child frames of the top document the load under way has attached (Chrome's own cap aside: 1,000 a page). */
  get frameCount() { return this.#frames.loadFrames.size; }
  /** An action is running on this tab (what it opens is the agent's). */
  get acting() { return this.#calls.acting; }
  get callId() { return this.#calls.callId; }
  get cancelled() { return this.#calls.cancelled; }
  get cancelWhy() { return this.#calls.cancelWhy; }
  /** How long the current call waited in the queue. */
  get waitedMs() { return this.#calls.waitedMs; }
  get name() { return tabName(this.key); }

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

  /** A dialog was dismissed to leave the page, maybe the first of a loop: the navigation goes through about:blank (ActionFlow.leaveHeld). */
  leaveThroughBlank() { this.#modal.leaveThroughBlank(); }
  /** Whether the navigation is to go through about:blank, once. */
  takeThroughBlank() { return this.#modal.takeThroughBlank(); }

  /**
   * The URL of the next document the main frame commits, or null when none did within `ms` (or
   * the tab died meanwhile).
   * @param {number} ms @returns {Promise<string | null>}
   */
  nextCommit(ms) { return this.#waitOn(this.#frames.commitWaiters, ms, null); }

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
  stoppedLoading(ms) { return this.#frames.loading ? this.#waitOn(this.#frames.stopWaiters, ms, false) : Promise.resolve(true); }

  /** @template T @param {Set<(v: T) => void>} waiters @param {number} ms @param {T} missed @returns {Promise<T>} */
  #waitOn(waiters, ms, missed) { return this.#waits.waitOn(waiters, ms, missed); }

  /** An action that loads a new document is under way (a navigation): loading until Chrome says it stopped. */
  expectLoad() { this.#frames.loading = true; }

  // ------------------------------------------------------------------ the current call (tab-calls.js) and the tabs it opens (tab-adoption.js)
  /** An action starts (ActionFlow.run): nothing timed, nothing captured yet. */
  actionStarted() { this.#calls.actionStarted(); }
  /** The action ended: what it cost (ActionFlow.timings). */
  actionEnded() { return this.#calls.actionEnded(); }
  /** ms spent in one phase of the current call. @param {string} phase @param {number} ms */
  addPhase(phase, ms) { this.#calls.addPhase(phase, ms); }
  /** ms one CDP method of a capture took in the current call. @param {string} method @param {number} ms */
  addCdp(method, ms) { this.#calls.addCdp(method, ms); }
  /** The current call took a capture. */
  countCapture() { this.#calls.countCapture(); }

  /** The current action opened a tab (adopted when `tabId` is given). @param {{text: string, tabId?: number}} o */
  openedTab(o) { this.#opened.add(o); }
  /** The current action opened the tab `tabId` (Chrome's tabs.onCreated), whatever becomes of it. @param {number} tabId */
  tabOpened(tabId) { this.#opened.opened(tabId); }
  /** Whether the current action opened the tab `tabId`. @param {number | undefined} tabId */
  opens(tabId) { return this.#opened.opens(tabId); }
  /** Tabs the current action opened that were adopted (at most LIMITS.popupsAdoptedMax are). */
  get adoptedCount() { return this.#opened.adoptedCount; }
  /** The current action opened one more tab than are adopted: left open, counted. */
  openedPast() { this.#opened.past(); }
  /** The tabs the current action opened (and how many past the adopted ones), once. @returns {{opened: Array<{text: string, tabId?: number}>, past: number}} */
  takeOpened() { return this.#opened.take(); }

  /** What the act has to say (wait_for gave up or was stopped, resize's viewport): said in its FactPack. @param {string} note */
  actNote(note) { this.#calls.actNote(note); }
  /** That note, once. */
  takeActNote() { return this.#calls.takeActNote(); }

  /**
   * Runs fn after every call queued before on this tab. Every tool call on a tab comes through
   * here (the dispatcher, extension/lib/agent.js): one capture/engine sequence at a time.
   * `fn` gets how long it waited.
   * @template R @param {(waitedMs: number) => Promise<R>} fn @returns {Promise<R>}
   */
  run(fn) { return this.#calls.run(fn); }

  /** Calls waiting in the queue or running. */
  get calls() { return this.#calls.count; }

  /** A call begins on this tab: its id (cancel finds it by it), no cancel yet, nothing opened. @param {any} id */
  beginCall(id) {
    this.#calls.begin(id);
    this.#opened.reset();
  }

  /** The agent cancelled the call (or it reached its deadline: `why`). @param {any} id @param {string | null} [why] @returns {boolean} whether it was this tab's */
  cancel(id, why = null) { return this.#calls.cancel(id, why); }

  /** The action running on this tab (if any) stops waiting, as a cancel does: `why` says so. @param {string} why */
  stop(why) { this.#calls.stop(why); }

  // ------------------------------------------------------------------ life and death
  /** Why the agent lost this tab (closed, released, stopped), or null. */
  get dead() { return this.#waits.dead; }

  /** The agent lost this tab: every wait in progress rejects with why. @param {{code: string, message: string} | null} why null: released quietly */
  kill(why) {
    if (why) this.#waits.dead = why;
    this.#waits.reject(new ToolError(why?.code ?? 'tab_released', why?.message ?? 'the agent released this tab'));
  }

  /** The renderer crashed: waits in progress reject, the page starts over. @param {string} message */
  crash(message) {
    this.#crashed = true;
    this.#cdp.answering();
    this.#waits.reject(new ToolError('renderer_crashed', message));
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
    this.#cdp.attached = false;
    this.#cdp.lost = { ...why, reason };
    this.#sessions.clear();
    this.#marks.captureMark = null;
    this.#waits.reject(new ToolError(why.code, why.message));
  }

  /** Chrome took the debugger away and no call has attached it again since (null: it did not). */
  get lostDebugger() { return this.#cdp.lost ? { ...this.#cdp.lost } : null; }

  /** Waits in progress, by kind (none stay behind once their race settled). */
  get waiters() { return this.#waits.count; }

  /**
   * `p` raced against the tab's death (rejects with why) and, when `o` has `dialog`, a JS dialog
   * opening (resolves to `o.dialog`). Its waiters are dropped as soon as the race settles, so a
   * tab holds only those of the waits in progress, however long the session.
   * @template T, D @param {Promise<T>} p @param {{dialog?: D}} [o] @returns {Promise<T | D>}
   */
  race(p, o = {}) { return this.#waits.race(p, o); }

  // ------------------------------------------------------------------ CDP (tab-cdp.js)
  /**
   * One CDP command on the tab (or one of its frames' sessions), bounded and raced against its
   * death, and against `signal` (its caller gave up on it: a capture a dialog interrupted).
   * @param {string} method @param {any} [params] @param {string} [sessionId] @param {AbortSignal} [signal]
   */
  send(method, params = {}, sessionId = undefined, signal = undefined) { return this.#cdp.send(method, params, sessionId, signal); }

  /** Attach on demand (again, after Chrome took the debugger away: its next FactPack says so). */
  attach() { return this.#cdp.attach(); }

  /** Lets the debugger go (unless Chrome already took it). @param {{detach?: boolean}} [o] */
  detach(o = { detach: true }) { return this.#cdp.detach(o); }

  /** The user changed the policy: the interception follows it, in the page and its frames' sessions. */
  policyChanged() { return this.#cdp.policyChanged(this.#sessions.byId.keys()); }

  /** Whether a request was stopped that no answer has named yet. */
  get stoppedPending() { return this.#requests.stoppedPending; }

  /** The addresses stopped since the last call (and forgets them). @returns {string[]} */
  takeStopped() { return this.#requests.takeStopped(); }

  // ------------------------------------------------------------------ frame sessions (tab-frame-sessions.js)
  /** The out-of-process iframes' sessions. */
  frameSessions() { return [...this.#sessions.byId.values()]; }
  /** The same, by session (a copy). */
  get oopifs() { return new Map(this.#sessions.byId); }
  /** @param {string} sessionId */
  frameSession(sessionId) { return this.#sessions.byId.get(sessionId); }
  /**
   * An out-of-process iframe's session attached (Target.attachedToTarget).
   * @param {string} sessionId @param {string} frameId @param {string} [parent] the session it attached through
   */
  frameAttached(sessionId, frameId, parent = undefined) { this.#sessions.attached(sessionId, frameId, parent); }

  /** A frame session ended, or was found dead by a capture: it goes, with every session attached through it. @param {string} sessionId */
  frameGone(sessionId) { this.#sessions.gone(sessionId); }

  /**
   * What Chrome says about this tab (chrome.debugger.onEvent), handed to the part whose job it is.
   * Crashes are the agent's (a new page index), and the core's own events go to the engine there.
   * @param {string} method @param {any} params @param {string | undefined} sid the frame session it came from
   */
  onEvent(method, params, sid) {
    const now = Date.now();
    if (this.consoleLog.onEvent(method, params, sid, this.#consoleTab)) this.send('Runtime.releaseObjectGroup', { objectGroup: 'console' }, sid).catch(() => {});
    const main = this.#frames.mainFrameId;
    switch (method) {
      // What a frame the policy withholds loads is not the agent's business: it never holds an answer.
      // Requests are known by id alone: an out-of-process iframe's document request starts in the
      // page's session and finishes in the frame's own.
      case 'Network.requestWillBeSent':
        if (this.#frames.withholds(params, this.#io?.policy())) break;
        this.netLog.onEvent(method, params, sid, main);
        this.#requests.started(params, now, main);
        break;
      case 'Network.responseReceived': this.netLog.onEvent(method, params, sid, main); break;
      case 'Network.loadingFinished': case 'Network.loadingFailed':
        this.netLog.onEvent(method, params, sid, main);
        this.#requests.ended(params);
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
      case 'Fetch.requestPaused': {
        // Always answered: a paused request never hangs the tab. Stopped as `Aborted`: the tab or
        // frame stays on the document it had, with no error page.
        const stop = this.#requests.stops(params, sid, this.#io?.policy(), this.#frames);
        if (stop) this.send('Fetch.failRequest', { requestId: params.requestId, errorReason: 'Aborted' }, sid).catch(() => {});
        else this.send('Fetch.continueRequest', { requestId: params.requestId }, sid).catch(() => {});
        break;
      }
      case 'Target.attachedToTarget':
        if (params.targetInfo?.type === 'iframe') {
          // A cross-site frame's document request starts in the page's session, and its renderer
          // is attached when the response comes: the rest of that request is told to the frame's
          // own session, which runs before its Network.enable, so its end was never heard and
          // every load of such a page waited the whole settle cap (TabRequests.frameRendered).
          this.#requests.frameRendered(String(params.targetInfo.targetId));
          this.frameAttached(params.sessionId, params.targetInfo.targetId, sid);
          this.#cdp.setupChild(params.sessionId);
        }
        break;
      case 'Target.detachedFromTarget': this.frameGone(String(params.sessionId)); break;
      default:
        // A new top document committed and its renderer spoke: it answers (another site's
        // renderer, after a navigation away from a busy page).
        if (this.#frames.onEvent(method, params, sid)) this.#cdp.answering();
        break;
    }
  }

  // ------------------------------------------------------------------ capture
  /** The latest capture (any call's: actions, read and screenshot). */
  get lastCapture() { return this.#marks.lastCapture; }

  /**
   * A capture of this tab was taken (agent.js captureTab): the latest from now on, showing the
   * page as of no known mark, with the frames the policy withheld from it and their owners.
   * @param {any} cap @param {{owners: Set<number>, frames: Set<string>}} [withheld]
   * @param {Set<string>} [leftOut] the frames it left out (capture.js capFrames)
   */
  captured(cap, withheld = { owners: new Set(), frames: new Set() }, leftOut = new Set()) {
    this.#marks.captured(cap);
    this.#frames.captured(cap, withheld, leftOut);
  }

  /**
   * Whether a CDP event is about a frame the last capture left out, or one inside it: the core is
   * not told (TabFrames.aboutLeftOutFrame). @param {string} method @param {any} params
   */
  aboutLeftOutFrame(method, params) { return this.#frames.aboutLeftOutFrame(method, params); }

  /** The latest capture shows the page as of the watcher's `mark` (null: unknown, never reused). @param {string | null} mark */
  markCapture(mark) { this.#marks.captureMark = mark; }

  /** Captures taken under an old policy are not reused. */
  forgetCapture() { this.#marks.captureMark = null; }

  /** The capture an action may begin on without capturing again (CaptureMarks.reusable), or null. @returns {any} */
  reusableCapture() { return this.#marks.reusable(this.#sessions.byId.size); }

  // ------------------------------------------------------------------ the page watcher's marks
  /** An action begins: requests from now on are its own. @param {number} at */
  watched(at) {
    this.#requests.watched(at);
    this.#marks.watchMark = null;
  }

  /**
   * Page.stopLoading cancelled every load of the page: Chrome tells the end of some requests it
   * cancelled (loadingFailed) and never of others (a frame's document request the stop cut), so
   * none begun before the stop is waited for.
   */
  loadStopped() { this.#requests.loadStopped(); }

  /** The page's watcher began following the action at this mark. @param {string} mark */
  watchMarked(mark) { this.#marks.watchMark = mark; }

  /** Stabilization ended (or began: null) at the watcher's `mark`. @param {string | null} mark */
  settled(mark) { this.#marks.settledMark = mark; }
  get settledMark() { return this.#marks.settledMark; }

  // ------------------------------------------------------------------ modal state (tab-modal.js)
  /** The JavaScript dialog open in the page, if any (a copy). @returns {Dialog | null} */
  get dialog() { return this.#modal.dialog ? { ...this.#modal.dialog } : null; }

  /** A dialog opened: waits racing one end. @param {Dialog} d */
  dialogOpened(d) { this.#modal.opened(d); }

  /**
   * The dialog closed. When the agent answered it, `answering` took the held action first; closed
   * by the page or the user, the action it held is orphaned: the next call on the tab ends it
   * (ActionFlow.endOrphan), so no held action outlives its dialog.
   */
  dialogClosed() { this.#modal.closed(); }

  /** An action was interrupted by the open dialog: it is finished when the agent answers. @param {Held} h */
  hold(h) { this.#modal.hold(h); }

  /** The agent answers the open dialog: the action it held (null: none), no longer held. */
  answering() { return this.#modal.answering(); }

  /**
   * The agent's answer was taken by the page. Chrome may say the dialog closed, and the page open
   * the next one (an alert() loop), before the answer's own reply: that next dialog stays open.
   */
  answered() { this.#modal.answered(); }

  /** A held action whose dialog closed without the agent's answer, once. */
  takeOrphan() { return this.#modal.takeOrphan(); }

  /** Said first in the tab's next FactPack. @param {string} s */
  note(s) { this.#notes.push(s); }

  /** What the next FactPack says first, once. */
  takeNotes() {
    const n = this.#notes;
    this.#notes = [];
    return n;
  }
}
