// The agent's side of the extension, a dispatcher: every call comes in through dispatch, which
// finds the tool's declaration (extension/lib/tools/*.js, gathered by tool-contract.js), its tab,
// and runs its handler in that tab's queue (docs/design.md, "The extension's shape"). It holds what
// the calls share: the tabs the agents control (one TabSession per tab, extension/lib/tab-session.js),
// the user's policy and stop/resume, and saves them (extension/lib/saved-state.js). The rest is in
// parts it owns, one job each:
//   - the call's shape and its tool (extension/lib/call-check.js);
//   - the sessions, their current tabs, which one makes room (extension/lib/agent-sessions.js);
//   - which tab a call acts on, and the tabs each session owns (extension/lib/tab-ownership.js);
//   - the narrow context a tool acts through (extension/lib/tool-context.js);
//   - the action flow (extension/lib/action-flow.js): every mutating tool's capture and FactPack;
//   - the browser's engine and its refs across restarts (extension/lib/browser-engine.js);
//   - what Chrome tells of the agent's tabs (extension/lib/browser-events.js);
//   - a capture of a tab under the user's policy (extension/lib/tab-capture.js);
//   - what a failed call answers (extension/lib/call-errors.js).
// chrome is injected (the service worker passes the real one).
import { checkUrl, normalizePolicy } from './policy.js';
import { tabName, TabMap } from './tabs.js';
import { TraceLog } from './trace.js';
import { ToolError } from './tab-state.js';
import { TabSession } from './tab-session.js';
import { stabilize, watch } from './stabilize.js';
import { WATCHER_JS } from './page-scripts.js';
import { ActionFlow, CALL_ID } from './action-flow.js';
import { quoteValue } from './quote.js';
import { TabDriver } from './tab-driver.js';
import { dialogRule, msg, sleep } from './tools/define.js';
import { captureTab } from './tab-capture.js';
import { errorReply } from './call-errors.js';
import { BrowserEvents } from './browser-events.js';
import { BrowserEngine } from './browser-engine.js';
import { AgentSessions } from './agent-sessions.js';
import { TabOwnership } from './tab-ownership.js';
import { toolContext } from './tool-context.js';
import { checkCall } from './call-check.js';
import { loadSaved, newWatchKey, save } from './saved-state.js';

export { ToolError };

/**
 * @typedef {import('./tabs.js').PageKey} PageKey
 * @typedef {import('./call-check.js').Call} Call
 * @typedef {{ok: boolean, text?: string, factpack?: any, version?: number, image?: {mime: string, data: string},
 *           error?: {code: string, message: string}}} Reply  ok true: text (+ factpack, version); ok false: error
 */

export class Agent {
  /**
   * @param {{chrome: any, athena: Promise<any>, log?: (s: string) => void}} o
   */
  constructor(o) {
    this.chrome = o.chrome;
    this.log = o.log ?? (() => {});
    this.tabMap = new TabMap();
    /** What the core was fed, per agent tab, for the playground (lib/trace.js). */
    this.traces = new TraceLog();
    /** The one engine of this browser, and the ref numbers it hands out across restarts (extension/lib/browser-engine.js). */
    this.core = new BrowserEngine({ athena: o.athena, traces: this.traces, save: () => this.#save() });
    /** @type {Map<number, TabSession>} */
    this.tabs = new Map();
    /** session -> {client, current: tabId | null}, and which one makes room (extension/lib/agent-sessions.js). */
    this.sessions = new AgentSessions();
    /** Tabs the user shared with the agent. @type {Set<number>} */
    this.shared = new Set();
    this.policy = normalizePolicy({}).policy;
    this.stopped = false;
    /**
     * The name of the page-side watcher of stabilization (extension/lib/page-scripts.js): one per
     * browser session, kept across service-worker restarts (#restore), since the tabs keep the
     * watcher scripts registered by the worker before.
     */
    this.watchKey = newWatchKey();
    /** Frame sessions, element geometry and calls on live nodes, over CDP. */
    this.driver = new TabDriver((t, method, params, sessionId) => t.send(method, params, sessionId));
    /** The action flow: the only caller of the engine's begin/finish/abort. */
    this.flow = new ActionFlow({
      engine: () => this.loadEngine(),
      engineIfLoaded: () => this.engine,
      capture: (t, signal) => this.captureTab(t, signal),
      stabilize: (t, so) => stabilize(t, this.#settleIO(t), so),
      watch: (t) => watch(t, this.#settleIO(t)),
      attach: (t) => t.attach(),
      tab: (tabId) => this.chrome.tabs.get(tabId).catch(() => null),
      pageAllowed: (url) => checkUrl(this.policy, url),
      openedNotes: (t) => this.events.openedNotes(t),
      send: (t, method, params) => t.send(method, params),
      sleep,
    });
    /** What Chrome tells of the agent's tabs (extension/lib/browser-events.js). */
    this.events = new BrowserEvents({
      tabs: this.tabs,
      shared: this.shared,
      tabMap: () => this.tabMap,
      engine: () => this.engine,
      policy: () => this.policy,
      chrome: this.chrome,
      release: (tabId, why, ro) => this.release(tabId, why, ro),
      newTab: (tabId, key, session) => this.#tab(tabId, key, session),
      save: () => this.#save(),
      log: (m) => this.log(m),
    });
    /** Which tab a call acts on, and the tabs each session owns (extension/lib/tab-ownership.js). */
    this.owner = new TabOwnership({
      chrome: this.chrome,
      tabs: this.tabs,
      shared: this.shared,
      sessions: this.sessions,
      tabMap: () => this.tabMap,
      policy: () => this.policy,
      engine: () => this.engine,
      tabOfRef: (ref) => this.core.tabOfRef(ref),
      newTab: (tabId, key, session) => this.#tab(tabId, key, session),
      save: () => this.#save(),
    });
    this.restored = this.#restore();
  }

  // ------------------------------------------------------------------ state
  async #restore() {
    const saved = await loadSaved(this.chrome, this.watchKey);
    this.policy = normalizePolicy(saved.policy).policy;
    this.watchKey = saved.watchKey;
    const st = saved.state;
    this.core.restoreFloor(st?.refFloor);
    if (!st?.tabMap) return;
    // The service worker was stopped and started again: the engine (and every ref) is gone.
    this.tabMap = new TabMap(st.tabMap);
    this.stopped = !!st.stopped;
    for (const s of st.shared ?? []) this.shared.add(s);
    const live = new Set((await this.chrome.tabs.query({}).catch(() => [])).map((/** @type {chrome.tabs.Tab} */ t) => t.id));
    for (const r of [...this.tabMap.byTab.values()]) if (!live.has(r.tabId)) this.tabMap.remove(r.tabId);
    this.tabMap.renumberAll('the extension was restarted by the browser (service worker stopped); its state was rebuilt');
    for (const [id, s] of Object.entries(st.sessions ?? {})) {
      // A session with no current tab but exactly one of its own (saved before its current
      // tab was): that one.
      const own = this.tabMap.ofSession(id);
      this.sessions.set(id, { client: s.client, current: s.current ?? (own.length === 1 ? own[0].tabId : null) });
    }
    for (const r of this.tabMap.byTab.values()) {
      const t = this.#tab(r.tabId, r.key, r.session);
      t.renumber(r.key, `${r.reason}: tab ${r.formerly} is now ${tabName(r.key)}, refs from before are invalid; this is a full snapshot`);
      this.tabs.set(r.tabId, t);
    }
    await this.#save();
  }

  /** @returns {Promise<void>} */
  #save() {
    return save(this.chrome, { tabMap: this.tabMap.toJSON(), sessions: Object.fromEntries(this.sessions), shared: [...this.shared], stopped: this.stopped, refFloor: this.core.refFloor });
  }

  /** A TabSession of this browser. @param {number} tabId @param {PageKey} key @param {string} session */
  #tab(tabId, key, session) {
    return new TabSession(tabId, key, session, { debugger: this.chrome.debugger, policy: () => this.policy, watcherSource: () => this.watcherSource });
  }

  /** The engine when loaded, else null. */
  get engine() { return this.core.engine; }

  /** The one engine of this browser, created once even when the first calls come together. */
  loadEngine() { return this.core.load(); }

  /** @param {any} raw policy from storage */
  setPolicy(raw) {
    this.policy = normalizePolicy(raw).policy;
    // Captures taken under the old policy are not reused (extension/lib/action-flow.js).
    for (const t of this.tabs.values()) {
      t.forgetCapture();
      t.policyChanged().catch(() => {});
    }
  }

  // ------------------------------------------------------------------ sessions
  /** @param {string} session @param {string} client */
  openSession(session, client) {
    if (!this.sessions.has(session)) {
      const idle = this.sessions.makeRoom((id) => this.tabMap.ofSession(id).length > 0);
      if (idle !== null) this.closeSession(idle).catch((e) => this.log(`session ${idle} was not closed: ${msg(e)}`));
      this.sessions.set(session, { client, current: null });
      this.#save();
    }
    this.sessions.touch(session);
  }

  /** The agent left: its tabs stay open, its state is dropped. @param {string} session */
  async closeSession(session) {
    // As tabs close does: what runs on a tab is told to stop waiting and ends first, in the tab's
    // queue, so no action's engine page is closed under it.
    for (const r of this.tabMap.ofSession(session)) {
      const t = this.tabs.get(r.tabId);
      if (!t || t.dead) { await this.release(r.tabId, null); continue; }
      t.stop('the agent\'s session ended');
      await t.run(() => this.release(r.tabId, null));
    }
    this.sessions.delete(session);
    await this.#save();
  }

  /**
   * The user pressed stop: every tab released at once, calls refused until resumed. Unlike tabs
   * close and a session's end this does not wait for the call running on a tab: its waits reject
   * with stopped_by_user and it answers that, because the user asked for nothing more to happen.
   */
  async stop() {
    this.stopped = true;
    // Tabs already lost for another reason (closed, detached) keep that reason: resume revives
    // only what stop took.
    for (const [tabId, t] of [...this.tabs]) if (!t.dead) await this.release(tabId, { code: 'stopped_by_user', message: 'the user stopped the agent from the extension popup' });
    await this.#save();
  }

  /**
   * The user resumed: the tabs stop released are the agent's again, each under a new page index
   * (the engine forgot them, so refs from before must never alias new elements) and with a full
   * snapshot as its next FactPack.
   */
  async resume() {
    this.stopped = false;
    for (const [tabId, t] of [...this.tabs]) if (t.dead?.code === 'stopped_by_user') await this.owner.revive(tabId, t);
    await this.#save();
  }

  /**
   * The agent cancelled a call (wire `cancel`), or it reached its deadline (`why` says so): stop
   * waiting; what was done is reported.
   * @param {any} id @param {string} [why]
   */
  cancel(id, why) {
    // A call still waiting in its tab's queue is marked: it answers `cancelled` when its turn
    // comes, and does nothing (dispatch). A running one is the tab's to stop.
    const waiting = this.#waiting.get(id);
    if (waiting) { waiting.why = why ?? 'the agent cancelled it'; return; }
    for (const t of this.tabs.values()) t.cancel(id, why ?? null);
  }

  /** Calls queued on a tab and not begun, by call id: why they were cancelled meanwhile (null: not). @type {Map<any, {why: string | null}>} */
  #waiting = new Map();

  /** @param {number} tabId */
  async share(tabId) {
    const t = await this.chrome.tabs.get(tabId);
    const ok = checkUrl(this.policy, t.url || t.pendingUrl || 'about:blank');
    if (!ok.ok) throw new ToolError(ok.code, ok.message);
    this.shared.add(tabId);
    await this.#save();
  }

  /** What the popup shows. */
  status() {
    return {
      stopped: this.stopped,
      sessions: [...this.sessions].map(([id, s]) => ({ id, client: s.client })),
      tabs: [...this.tabs.values()].map((t) => ({ tab: tabName(t.key), tabId: t.tabId, session: t.session, dead: t.dead?.code ?? null })),
      shared: [...this.shared],
    };
  }

  /**
   * Drops the agent's hold on a tab (extension/lib/tab-ownership.js).
   * @param {number} tabId @param {{code: string, message: string} | null} why (null: quiet release)
   * @param {{detach?: boolean}} [o]
   */
  release(tabId, why, o = { detach: true }) {
    return this.owner.release(tabId, why, o);
  }

  // ------------------------------------------------------------------ chrome events
  // What Chrome tells of the agent's tabs is the BrowserEvents' (extension/lib/browser-events.js).
  /** @param {{tabId?: number, sessionId?: string}} source @param {string} method @param {any} params */
  onDebuggerEvent(source, method, params) { this.events.onDebuggerEvent(source, method, params); }
  /** @param {chrome.debugger.Debuggee} source @param {string} reason */
  onDebuggerDetach(source, reason) { this.events.onDebuggerDetach(source, reason); }
  /** @param {number} tabId */
  onTabRemoved(tabId) { this.events.onTabRemoved(tabId); }
  /** @param {any} tab */
  onTabCreated(tab) { this.events.onTabCreated(tab); }

  // ------------------------------------------------------------------ CDP
  /**
   * One capture of tab t under the user's policy (extension/lib/tab-capture.js).
   * @param {TabSession} t @param {AbortSignal} [signal] the caller gave up on it (a dialog opened): stop
   */
  captureTab(t, signal) {
    return captureTab(t, this.policy, signal);
  }

  /** The watcher's source under this worker's key (what each TabSession registers). */
  get watcherSource() { return WATCHER_JS(this.watchKey); }

  /** Stabilization's view of tab t (extension/lib/stabilize.js). @param {TabSession} t */
  #settleIO(t) {
    return { send: (/** @type {string} */ method, /** @type {any} */ params) => t.send(method, params), now: Date.now, sleep, key: this.watchKey };
  }

  // ------------------------------------------------------------------ dispatch
  /**
   * The one entry point: native messaging calls and tests both come through here.
   * @param {Call} call
   * @returns {Promise<Reply>}
   */
  async dispatch(call) {
    /** @type {TabSession | null} */
    let callTab = null;
    /** The session this call counts under while it runs. @type {string | null} */
    let counted = null;
    try {
      await this.restored;
      const { session, tool, args, decl } = checkCall(call);
      if (this.stopped) throw new ToolError('stopped_by_user', 'the user stopped the agent from the extension popup: nothing will be done until they resume it');
      if (!this.sessions.has(session)) this.openSession(session, 'agent');
      counted = session;
      this.sessions.callBegan(session);
      const ctx = this.context(session);
      decl.precheck?.(args, ctx);
      const t = typeof decl.tab === 'function' ? await decl.tab(args, ctx) : await this.tabFor(session, args, { create: decl.tab === 'create' });
      callTab = t;
      const full = { ...args, [CALL_ID]: call.id ?? null };
      if (!t) return await this.core.delivered(await decl.handler(/** @type {any} */ (null), full, ctx));
      const ends = decl.ends?.(args);
      if (ends) t.stop(ends);
      // Every call on a tab runs in its queue, one at a time, and an open dialog is checked here
      // only: each tool declares whether it blocks the tool or is what the tool answers.
      const id = call.id ?? null;
      const waiting = { why: /** @type {string | null} */ (null) };
      if (id !== null) this.#waiting.set(id, waiting);
      return await this.core.delivered(await t.run(async () => {
        if (id !== null) this.#waiting.delete(id);
        if (waiting.why) throw new ToolError('cancelled', `${tool} did nothing: ${waiting.why} while it waited for the call before it on tab ${tabName(t.key)}`);
        if (t.dead) throw new ToolError(t.dead.code, t.dead.message);
        this.flow.endOrphan(t);
        const rule = dialogRule(decl, args);
        await this.events.mayAttachAgain(t, rule);
        const d = t.dialog;
        if (d && rule === 'blocks') throw new ToolError('dialog_open', `a JavaScript ${d.type} is open in ${tabName(t.key)} (${quoteValue(d.message)}): answer it with dialog {accept, text?} first`);
        if (!d && rule === 'answers') throw new ToolError('no_dialog', `no JavaScript dialog is open in ${tabName(t.key)}`);
        if (d && rule === 'leaves') await this.flow.leaveDialog(t, tool);
        return decl.handler(t, full, ctx);
      }));
    } catch (e) {
      return errorReply(e, callTab);
    } finally {
      if (counted !== null) this.sessions.callEnded(counted);
    }
  }

  /** The narrow context a tool of `session` acts through (extension/lib/tool-context.js). @param {string} session */
  context(session) {
    return toolContext(this, session);
  }

  /**
   * The tab a call acts on, made the session's current one (extension/lib/tab-ownership.js).
   * @param {string} session @param {any} args @param {{create?: boolean, keepCurrent?: boolean}} [o]
   */
  tabFor(session, args, o = {}) {
    return this.owner.tabFor(session, args, o);
  }
}
