// The agent's side of the extension, a dispatcher: every call comes in through dispatch, which
// finds the tool's declaration (extension/lib/tools/*.js, gathered by tool-contract.js), its tab,
// and runs its handler in that tab's queue (docs/design.md, "The extension's shape"). It holds what
// the calls share: the sessions and the tabs each controls (one TabSession per tab,
// extension/lib/tab-session.js), the user's policy and stop/resume, and their state across
// service-worker restarts (storage.session). The rest is in parts it owns, one job each:
//   - the action flow (extension/lib/action-flow.js): every mutating tool's capture and FactPack;
//   - the browser's engine and its refs across restarts (extension/lib/browser-engine.js);
//   - what Chrome tells of the agent's tabs (extension/lib/browser-events.js);
//   - a capture of a tab under the user's policy (extension/lib/tab-capture.js);
//   - what a failed call answers (extension/lib/call-errors.js).
// Over ~400 lines because sessions, tabs and their saved state are one state that every part of it
// reads and writes (#save writes them together): split apart, each would reach into the others.
// chrome is injected (the service worker passes the real one).
import { LIMITS } from './limits.js';
import { checkUrl, normalizePolicy } from './policy.js';
import { contextOf, parseTabName, tabName, TabMap } from './tabs.js';
import { TraceLog } from './trace.js';
import { ToolError } from './tab-state.js';
import { TabSession } from './tab-session.js';
import { stabilize, watch } from './stabilize.js';
import { WATCHER_JS } from './page-scripts.js';
import { ActionFlow, CALL_ID } from './action-flow.js';
import { quoteValue } from './quote.js';
import { TabDriver } from './tab-driver.js';
import { findTool, TOOLS } from './tool-contract.js';
import { dialogRule, msg, sleep } from './tools/define.js';
import { captureTab } from './tab-capture.js';
import { errorReply } from './call-errors.js';
import { BrowserEvents } from './browser-events.js';
import { BrowserEngine } from './browser-engine.js';

export { ToolError };

/**
 * @typedef {import('./tabs.js').PageKey} PageKey
 * @typedef {{session: string, tool: string, args?: any, id?: any}} Call
 * @typedef {{ok: boolean, text?: string, factpack?: any, version?: number, image?: {mime: string, data: string},
 *           error?: {code: string, message: string}}} Reply  ok true: text (+ factpack, version); ok false: error
 */
/**
 * What a tool acts through besides its tab (extension/lib/tools/define.js): the action flow, the
 * frame driver, the engine, the policy, and the session's tabs; never the agent itself.
 * @typedef {ReturnType<Agent['context']>} ToolContext
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
    /** session -> {client, current: tabId | null} @type {Map<string, {client: string, current: number | null}>} */
    this.sessions = new Map();
    /** Tabs the user shared with the agent. @type {Set<number>} */
    this.shared = new Set();
    this.policy = normalizePolicy({}).policy;
    this.stopped = false;
    /**
     * The name of the page-side watcher of stabilization (extension/lib/page-scripts.js): one per
     * browser session, kept across service-worker restarts (#restore), since the tabs keep the
     * watcher scripts registered by the worker before.
     */
    this.watchKey = `__athena${Math.random().toString(36).slice(2, 12)}`;
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
    this.restored = this.#restore();
  }

  // ------------------------------------------------------------------ state
  async #restore() {
    const c = this.chrome;
    const [local, sess] = await Promise.all([
      c.storage.local.get(['policy']).catch(() => ({})),
      c.storage.session.get(['athenaState', 'athenaWatchKey']).catch(() => ({})),
    ]);
    this.policy = normalizePolicy(local.policy).policy;
    if (typeof sess.athenaWatchKey === 'string' && /^__athena[a-z0-9]+$/.test(sess.athenaWatchKey)) {
      this.watchKey = sess.athenaWatchKey;
    } else {
      await c.storage.session.set({ athenaWatchKey: this.watchKey }).catch(() => {});
    }
    const st = sess.athenaState;
    this.core.restoreFloor(st?.refFloor);
    if (st && st.tabMap) {
      // The service worker was stopped and started again: the engine (and every ref) is gone.
      this.tabMap = new TabMap(st.tabMap);
      this.stopped = !!st.stopped;
      for (const s of st.shared ?? []) this.shared.add(s);
      const live = new Set((await c.tabs.query({}).catch(() => [])).map((/** @type {chrome.tabs.Tab} */ t) => t.id));
      for (const r of [...this.tabMap.byTab.values()]) if (!live.has(r.tabId)) this.tabMap.remove(r.tabId);
      this.tabMap.renumberAll('the extension was restarted by the browser (service worker stopped); its state was rebuilt');
      for (const [id, s] of Object.entries(st.sessions ?? {})) {
        // A session with no current tab but exactly one of its own (saved before its current
        // tab was): that one.
        const own = this.tabMap.ofSession(id);
        const current = s.current ?? (own.length === 1 ? own[0].tabId : null);
        this.sessions.set(id, { client: s.client, current });
      }
      for (const r of this.tabMap.byTab.values()) {
        const t = this.#tab(r.tabId, r.key, r.session);
        t.renumber(r.key, `${r.reason}: tab ${r.formerly} is now ${tabName(r.key)}, refs from before are invalid; this is a full snapshot`);
        this.tabs.set(r.tabId, t);
      }
      await this.#save();
    }
  }

  async #save() {
    const sessions = Object.fromEntries([...this.sessions].map(([k, v]) => [k, v]));
    await this.chrome.storage.session.set({ athenaState: { tabMap: this.tabMap.toJSON(), sessions, shared: [...this.shared], stopped: this.stopped, refFloor: this.core.refFloor } }).catch(() => {});
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
      if (this.sessions.size >= LIMITS.maxSessions) {
        // Room first from sessions holding no tab (e.g. agents gone while the port was down), else
        // from the one whose last call is the oldest: athena-bridge lets an idle agent's slot go
        // and keeps its session, so every session ends up holding a tab, and room was never made.
        // Its tabs are let go (they stay open for the user); its next call starts afresh. A
        // session with a call running is let go last: athena-bridge lets an agent's slot go only
        // between its calls, so an agent at work never loses its tabs under its call.
        const ids = [...this.sessions.keys()];
        const between = ids.filter((id) => !this.#inFlight.get(id));
        const oldest = (/** @type {string[]} */ of) => of.reduce((a, b) => ((this.#lastCall.get(a) ?? 0) <= (this.#lastCall.get(b) ?? 0) ? a : b));
        const idle = ids.find((id) => this.tabMap.ofSession(id).length === 0) ?? oldest(between.length ? between : ids);
        this.sessions.delete(idle);
        this.#lastCall.delete(idle);
        this.closeSession(idle).catch((e) => this.log(`session ${idle} was not closed: ${msg(e)}`));
      }
      this.sessions.set(session, { client, current: null });
      this.#save();
    }
    this.#lastCall.set(session, Date.now());
  }

  /** When each session's last call came (the one idle the longest makes room). @type {Map<string, number>} */
  #lastCall = new Map();
  /** Calls of each session under way (dispatch). @type {Map<string, number>} */
  #inFlight = new Map();

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
    for (const [tabId, t] of [...this.tabs]) {
      if (t.dead?.code !== 'stopped_by_user') continue;
      const tab = await this.chrome.tabs.get(tabId).catch(() => null);
      if (!tab) { this.tabs.delete(tabId); this.tabMap.remove(tabId); continue; }
      const former = tabName(t.key);
      const r = this.tabMap.add(tabId, t.key.context, t.session, { formerly: former, reason: 'the user stopped and resumed the agent' });
      const fresh = this.#tab(tabId, r.key, t.session);
      fresh.renumber(r.key, `the user stopped the agent and resumed it: tab ${former} is now ${tabName(r.key)}, refs from before are invalid; this is a full snapshot`);
      this.tabs.set(tabId, fresh);
    }
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
   * Drops the agent's hold on a tab: engine state, debugger, records.
   * @param {number} tabId @param {{code: string, message: string} | null} why (null: quiet release)
   * @param {{detach?: boolean}} [o]
   */
  async release(tabId, why, o = { detach: true }) {
    const t = this.tabs.get(tabId);
    if (t) {
      t.kill(why);
      if (this.engine && t.hasBaseline) try { this.engine.closePage(t.key); } catch { /* already gone */ }
      t.baselineDropped();
      await t.detach(o);
    }
    if (!why) { this.tabs.delete(tabId); this.tabMap.remove(tabId); }
    await this.#save();
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
      if (!call || typeof call !== 'object') throw new ToolError('bad_call', 'a call is {session, tool, args}');
      const { session, tool } = call;
      const args = call.args ?? {};
      if (typeof session !== 'string' || !session) throw new ToolError('bad_call', 'call.session must be the session id from session_open');
      if (typeof tool !== 'string') throw new ToolError('bad_call', 'call.tool must be a tool name');
      if (typeof args !== 'object' || Array.isArray(args)) throw new ToolError('bad_arguments', `${tool}: args must be an object`);
      // The one tool contract (extension/lib/tool-contract.js). athena-bridge, the only way calls
      // come in, checks every call's arguments against it (bridge/src/tools.cpp check_arguments);
      // here a handler checks only the values it uses (tools/define.js str(), and its own).
      const decl = findTool(tool);
      if (!decl) throw new ToolError('unknown_tool', `unknown tool "${tool}": use ${TOOLS.map((d) => d.name).join(', ')}`);
      if (this.stopped) throw new ToolError('stopped_by_user', 'the user stopped the agent from the extension popup: nothing will be done until they resume it');
      if (!this.sessions.has(session)) this.openSession(session, 'agent');
      this.#lastCall.set(session, Date.now());
      counted = session;
      this.#inFlight.set(session, (this.#inFlight.get(session) ?? 0) + 1);
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
      if (counted !== null) {
        const n = (this.#inFlight.get(counted) ?? 1) - 1;
        if (n > 0) this.#inFlight.set(counted, n); else this.#inFlight.delete(counted);
      }
    }
  }

  /**
   * The narrow context a tool of `session` acts through (tools/define.js ToolContext).
   * @param {string} session
   */
  context(session) {
    const agent = this;
    return {
      session,
      get policy() { return agent.policy; },
      flow: this.flow,
      driver: this.driver,
      loadEngine: () => this.loadEngine(),
      /** The engine when loaded, else null. */
      get engine() { return agent.engine; },
      /** @param {TabSession} t @param {string} method @param {any} [params] @param {string} [sessionId] */
      send: (t, method, params = {}, sessionId = undefined) => t.send(method, params, sessionId),
      /** @param {TabSession} t */
      attach: (t) => t.attach(),
      /** @param {TabSession} t */
      captureTab: (t) => this.captureTab(t),
      /** @param {TabSession} t */
      reload: (t) => this.chrome.tabs.reload(t.tabId),
      // The session's tabs (the tabs tool).
      /** @param {any} args @param {{keepCurrent?: boolean}} [o] */
      tabFor: (args, o = {}) => this.tabFor(session, args, o),
      ownTabs: () => this.tabMap.ofSession(session),
      /** Tabs the user shared that no agent controls yet. @returns {number[]} */
      sharedTabs: () => [...this.shared].filter((id) => !this.tabs.has(id)),
      /** @param {number} tabId */
      chromeTab: (tabId) => this.chrome.tabs.get(tabId).catch(() => null),
      currentTabId: () => this.sessions.get(session)?.current ?? null,
      /** A new tab, the session's current one. */
      openTab: async () => {
        const tab = await this.chrome.tabs.create({ url: 'about:blank', active: true });
        return this.#makeCurrent(session, await this.adopt(session, tab.id));
      },
      /** @param {number} tabId */
      adoptShared: async (tabId) => this.#makeCurrent(session, await this.adopt(session, tabId)),
      /** @param {TabSession} t */
      activate: async (t) => { await this.chrome.tabs.update(t.tabId, { active: true }).catch(() => {}); },
      /** Released and closed (in its queue: nothing runs on it meanwhile). @param {TabSession} t */
      close: async (t) => {
        await this.release(t.tabId, null);
        await this.chrome.tabs.remove(t.tabId).catch(() => {});
        const s = this.sessions.get(session);
        if (s && s.current === t.tabId) s.current = null;
      },
    };
  }

  /** @param {string} session @param {TabSession} t */
  #makeCurrent(session, t) {
    const s = this.sessions.get(session);
    if (s) s.current = t.tabId;
    return t;
  }

  // ------------------------------------------------------------------ tabs
  /**
   * The tab a call acts on: args.tab, else the ref's tab, else the session's current tab; with
   * create, a new tab when the session has none. It becomes the session's current tab, unless
   * keepCurrent (tabs close: closing another tab leaves the agent where it was).
   * @param {string} session @param {any} args @param {{create?: boolean, keepCurrent?: boolean}} [o]
   * @returns {Promise<TabSession>}
   */
  async tabFor(session, args, o = {}) {
    const s = this.sessions.get(session);
    const name = args.tab ?? (typeof args.ref === 'string' ? await this.core.tabOfRef(args.ref) : undefined);
    let t;
    if (name !== undefined) {
      if (!parseTabName(name)) throw new ToolError('bad_arguments', `"${name}" is not a tab id (like c0p1)`);
      const r = this.tabMap.byTabName(name);
      t = r ? this.tabs.get(r.tabId) : undefined;
      if (!t) {
        const dead = [...this.tabs.values()].find((x) => tabName(x.key) === name && x.dead);
        if (dead?.dead) throw new ToolError(dead.dead.code, dead.dead.message);
        throw new ToolError('unknown_tab', `tab ${name} is not controlled by this agent (closed, released, or from before a restart): use tabs list`);
      }
      if (t.session !== session) throw new ToolError('unknown_tab', `tab ${name} belongs to another agent session`);
    } else if (s?.current != null && this.tabs.has(s.current) && !(o.create && this.tabs.get(s.current)?.dead?.code === 'tab_closed')) {
      t = this.tabs.get(s.current);
    } else {
      // The user closed the agent's tab: a tool that opens one (navigate) starts in a new tab and
      // says so, the way an agent starts anyway; the closed one's name still answers tab_closed.
      const closed = s?.current != null ? this.tabs.get(s.current) : undefined;
      if (closed?.dead?.code === 'tab_closed') { this.tabs.delete(closed.tabId); this.tabMap.remove(closed.tabId); }
      const sharedTab = [...this.shared].find((id) => !this.tabs.has(id));
      if (sharedTab !== undefined) {
        t = await this.adopt(session, sharedTab);
      } else if (o.create) {
        if (!this.policy.allowNewTabs) throw new ToolError('new_tabs_disabled', 'the agent has no tab and the user does not allow it to open one: ask the user to share a tab (extension popup)');
        const tab = await this.chrome.tabs.create({ url: 'about:blank', active: true });
        t = await this.adopt(session, tab.id);
        if (closed) t.note(`tab ${tabName(closed.key)} was closed, so this is a new tab, ${tabName(t.key)}: refs of the closed one are invalid`);
      } else {
        throw new ToolError('no_tab', 'this agent controls no tab yet: navigate to a URL (opens a tab) or ask the user to share one');
      }
    }
    if (!t) throw new ToolError('no_tab', 'no tab');
    if (t.dead) throw new ToolError(t.dead.code, t.dead.message);
    // Saved with the rest (storage.session): a worker Chrome stopped and started again finds the
    // agent's current tab where it was.
    if (s && s.current !== t.tabId && !o.keepCurrent) { s.current = t.tabId; await this.#save(); }
    return t;
  }

  /** @param {string} session @param {number} tabId */
  async adopt(session, tabId) {
    if (this.tabMap.ofSession(session).length >= LIMITS.maxTabsPerSession) throw new ToolError('too_many_tabs', `an agent may control at most ${LIMITS.maxTabsPerSession} tabs: close some with tabs close`);
    const tab = await this.chrome.tabs.get(tabId);
    const r = this.tabMap.add(tabId, contextOf(tab), session);
    const t = this.#tab(tabId, r.key, session);
    this.tabs.set(tabId, t);
    await this.#save();
    return t;
  }
}


