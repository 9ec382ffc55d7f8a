// The agent's hands: every tool of docs/wire-protocol.md, each through the
// action flow of docs/design.md (pre-validation with the agent's version -> resolve the ref, its semantic
// key re-checked against the live node -> act -> bounded stabilization -> FactPack), over
// chrome.debugger. One wasm engine per browser; chrome is injected (the service worker passes the
// real one).
import { escapeBlock, quoteValue } from './quote.js';
import { capture, CORE_EVENTS, withholdFrames } from './capture.js';
import { LIMITS } from './limits.js';
import { keyEvents } from './keys.js';
import { CLEAR_FN, READ_FN, REGION_SELECTORS, SCROLL_FN, SELECT_FN, STATE_FN } from './page-scripts.js';
import { checkFrameUrl, checkUpload, checkUrl, normalizePolicy } from './policy.js';
import { contextOf, parseTabName, tabName, TabMap } from './tabs.js';
import { TraceLog } from './trace.js';
import { TabState, ToolError } from './tab-state.js';
import { stabilize } from './stabilize.js';
import { ActionFlow, CALL_ID } from './action-flow.js';
import { TabDriver } from './tab-driver.js';

export { ToolError };
import { checkArguments, findTool, TOOLS } from './tool-contract.js';

const sleep = (/** @type {number} */ ms) => new Promise((r) => setTimeout(r, ms));
const msg = (/** @type {unknown} */ e) => (e instanceof Error ? e.message : String(e));
/** The host of a URL, for messages (the URL itself when it has none). @param {string} url */
const hostOf = (url) => { try { return new URL(url).host || url.slice(0, 100); } catch { return url.slice(0, 100); } };



/**
 * @typedef {import('./tabs.js').PageKey} PageKey
 * @typedef {{session: string, tool: string, args?: any, id?: any}} Call
 * @typedef {{ok: boolean, text?: string, factpack?: any, version?: number, image?: {mime: string, data: string},
 *           error?: {code: string, message: string}}} Reply  ok true: text (+ factpack, version); ok false: error
 */

export class Agent {
  /**
   * @param {{chrome: any, athena: Promise<any>, log?: (s: string) => void}} o
   */
  constructor(o) {
    this.chrome = o.chrome;
    this.athenaReady = o.athena;
    this.log = o.log ?? (() => {});
    /** @type {any} */
    this.engine = null;
    /** @type {Promise<any> | null} */
    this.enginePromise = null;
    this.tabMap = new TabMap();
    /** What the core was fed, per agent tab, for the playground (lib/trace.js). */
    this.traces = new TraceLog();
    /** @type {Map<number, TabState>} */
    this.tabs = new Map();
    /** session -> {client, current: tabId | null} @type {Map<string, {client: string, current: number | null}>} */
    this.sessions = new Map();
    /** Tabs the user shared with the agent. @type {Set<number>} */
    this.shared = new Set();
    this.policy = normalizePolicy({}).policy;
    this.stopped = false;
    /** Frame sessions, element geometry and calls on live nodes, over CDP. */
    this.driver = new TabDriver((t, method, params, sessionId) => this.send(t, method, params, sessionId));
    /** The action flow: the only caller of the engine's begin/finish/abort. */
    this.flow = new ActionFlow({
      engine: () => this.#engine(),
      engineIfLoaded: () => this.engine,
      capture: (t) => this.#capture(t),
      stabilize: (t, so) => this.#stabilize(t, so),
      attach: (t) => this.#attach(t),
      tab: (tabId) => this.chrome.tabs.get(tabId).catch(() => null),
      pageAllowed: (url) => checkUrl(this.policy, url),
      openedNotes: (t) => this.#openedNotes(t),
      send: (t, method, params) => this.send(t, method, params),
      sleep,
    });
    this.restored = this.#restore();
  }

  // ------------------------------------------------------------------ state
  async #restore() {
    const c = this.chrome;
    const [local, sess] = await Promise.all([
      c.storage.local.get(['policy']).catch(() => ({})),
      c.storage.session.get(['athenaState']).catch(() => ({})),
    ]);
    this.policy = normalizePolicy(local.policy).policy;
    const st = sess.athenaState;
    if (st && st.tabMap) {
      // The service worker was stopped and started again: the engine (and every ref) is gone.
      this.tabMap = new TabMap(st.tabMap);
      this.stopped = !!st.stopped;
      for (const s of st.shared ?? []) this.shared.add(s);
      const live = new Set((await c.tabs.query({}).catch(() => [])).map((/** @type {chrome.tabs.Tab} */ t) => t.id));
      for (const r of [...this.tabMap.byTab.values()]) if (!live.has(r.tabId)) this.tabMap.remove(r.tabId);
      this.tabMap.renumberAll('the extension was restarted by the browser (service worker stopped); its state was rebuilt');
      for (const [id, s] of Object.entries(st.sessions ?? {})) this.sessions.set(id, { client: s.client, current: s.current ?? null });
      for (const r of this.tabMap.byTab.values()) {
        const t = new TabState(r.tabId, r.key, r.session);
        t.fullReason = `${r.reason}: tab ${r.formerly} is now ${tabName(r.key)}, refs from before are invalid; this is a full snapshot`;
        this.tabs.set(r.tabId, t);
      }
      await this.#save();
    }
  }

  async #save() {
    const sessions = Object.fromEntries([...this.sessions].map(([k, v]) => [k, v]));
    await this.chrome.storage.session.set({ athenaState: { tabMap: this.tabMap.toJSON(), sessions, shared: [...this.shared], stopped: this.stopped } }).catch(() => {});
  }

  /** @param {any} raw policy from storage */
  setPolicy(raw) { this.policy = normalizePolicy(raw).policy; }

  /** The one engine of this browser, created once even when the first calls come together. */
  #engine() {
    this.enginePromise ??= this.athenaReady.then((athena) => { this.engine = this.traces.wrap(athena.createEngine()); return this.engine; });
    return this.enginePromise;
  }

  // ------------------------------------------------------------------ sessions
  /** @param {string} session @param {string} client */
  openSession(session, client) {
    if (!this.sessions.has(session)) {
      if (this.sessions.size >= LIMITS.maxSessions) {
        // Room first from sessions holding no tab (e.g. agents gone while the port was down).
        const idle = [...this.sessions.keys()].find((id) => this.tabMap.ofSession(id).length === 0);
        if (idle !== undefined) this.sessions.delete(idle);
      }
      if (this.sessions.size >= LIMITS.maxSessions) throw new ToolError('too_many_sessions', `at most ${LIMITS.maxSessions} agent sessions at once: close one first`);
      this.sessions.set(session, { client, current: null });
      this.#save();
    }
  }

  /** The agent left: its tabs stay open, its state is dropped. @param {string} session */
  async closeSession(session) {
    for (const r of this.tabMap.ofSession(session)) await this.#release(r.tabId, null);
    this.sessions.delete(session);
    await this.#save();
  }

  /** The user pressed stop: every tab released, calls refused until resumed. */
  async stop() {
    this.stopped = true;
    // Tabs already lost for another reason (closed, detached) keep that reason: resume revives
    // only what stop took.
    for (const [tabId, t] of [...this.tabs]) if (!t.dead) await this.#release(tabId, { code: 'stopped_by_user', message: 'the user stopped the agent from the extension popup' });
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
      const fresh = new TabState(tabId, r.key, t.session);
      fresh.fullReason = `the user stopped the agent and resumed it: tab ${former} is now ${tabName(r.key)}, refs from before are invalid; this is a full snapshot`;
      this.tabs.set(tabId, fresh);
    }
    await this.#save();
  }

  /** The agent cancelled a call (wire `cancel`): stop waiting; what was done is reported. @param {any} id */
  cancel(id) {
    for (const t of this.tabs.values()) if (id !== null && id !== undefined && t.callId === id) t.cancelled = true;
  }

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
  async #release(tabId, why, o = { detach: true }) {
    const t = this.tabs.get(tabId);
    if (t) {
      if (why) t.dead = why;
      for (const w of [...t.deathWaiters]) w(new ToolError(why?.code ?? 'tab_released', why?.message ?? 'the agent released this tab'));
      t.deathWaiters.clear();
      if (this.engine && t.hasBaseline) try { this.engine.closePage(t.key); } catch { /* already gone */ }
      t.hasBaseline = false;
      if (o.detach && t.attached) { t.attached = false; await this.chrome.debugger.detach({ tabId }).catch(() => {}); }
      t.attached = false;
    }
    if (!why) { this.tabs.delete(tabId); this.tabMap.remove(tabId); }
    await this.#save();
  }

  // ------------------------------------------------------------------ chrome events
  /** chrome.debugger.onEvent. @param {{tabId?: number, sessionId?: string}} source @param {string} method @param {any} params */
  onDebuggerEvent(source, method, params) {
    const t = source.tabId === undefined ? undefined : this.tabs.get(source.tabId);
    if (!t || t.dead) return;
    const sid = source.sessionId;
    const now = Date.now();
    switch (method) {
      case 'Network.requestWillBeSent': t.inflight.set(`${sid ?? ''}/${params.requestId}`, now); t.lastNetwork = now; break;
      case 'Network.loadingFinished': case 'Network.loadingFailed': t.inflight.delete(`${sid ?? ''}/${params.requestId}`); t.lastNetwork = now; break;
      case 'Page.javascriptDialogOpening':
        // A dialog raised by a frame the policy withholds keeps its text to itself.
        t.dialog = checkFrameUrl(this.policy, params.url).ok
          ? { type: params.type, message: params.message, defaultPrompt: params.defaultPrompt, url: params.url }
          : { type: params.type, message: `[withheld: raised by ${hostOf(String(params.url))}, which the user's policy does not let the agent see]`, defaultPrompt: '', url: '' };
        for (const w of [...t.dialogWaiters]) w(t.dialog);
        t.dialogWaiters.clear();
        break;
      case 'Page.javascriptDialogClosed': t.dialog = null; break;
      case 'Page.frameStartedLoading': if (!sid && (!t.mainFrameId || params.frameId === t.mainFrameId)) t.loading = true; break;
      case 'Page.frameStoppedLoading': if (!sid && (!t.mainFrameId || params.frameId === t.mainFrameId)) t.loading = false; break;
      case 'Page.frameNavigated': if (!sid && !params.frame.parentId) t.mainFrameId = params.frame.id; break;
      case 'Target.attachedToTarget':
        if (params.targetInfo?.type === 'iframe') {
          t.oopifs.set(params.sessionId, { frameId: params.targetInfo.targetId, sessionId: params.sessionId });
          this.#setupChild(t, params.sessionId);
        }
        break;
      case 'Target.detachedFromTarget': t.oopifs.delete(params.sessionId); break;
      case 'Inspector.targetCrashed':
        if (!sid) {
          t.crashed = true;
          for (const w of [...t.deathWaiters]) w(new ToolError('renderer_crashed', `the page in tab ${tabName(t.key)} crashed (renderer gone): call reload or navigate to continue`));
          t.deathWaiters.clear();
          if (this.engine && t.hasBaseline) try { this.engine.closePage(t.key); } catch { /* gone */ }
          t.hasBaseline = false;
          // A new page index: refs from before the crash can never alias elements after it.
          const former = tabName(t.key);
          t.key = this.tabMap.add(t.tabId, t.key.context, t.session, { formerly: former, reason: 'renderer crashed' }).key;
          t.fullReason = `the page crashed and was reloaded: tab ${former} is now ${tabName(t.key)}, refs from before are invalid`;
          this.#save();
        }
        break;
      default: break;
    }
    if (CORE_EVENTS.has(method) && this.engine && t.hasBaseline) {
      try { this.engine.onEvent(t.key, JSON.stringify({ method, params })); } catch (e) { this.log(`core refused ${method}: ${msg(e)}`); }
    }
  }

  /**
   * chrome.debugger.onDetach: the user closed the infobar, or the tab went away.
   * @param {chrome.debugger.Debuggee} source @param {string} reason
   */
  onDebuggerDetach(source, reason) {
    const t = source.tabId === undefined ? undefined : this.tabs.get(source.tabId);
    if (!t) return;
    t.attached = false;
    const name = tabName(t.key);
    const why = reason === 'canceled_by_user'
      ? { code: 'debugger_detached', message: `the user closed the debugging bar of tab ${name}: the agent no longer controls it (its state was dropped); ask the user to share it again or open a new tab` }
      : { code: 'debugger_detached', message: `the debugger was detached from tab ${name} (${reason}): its state was dropped; navigate again or open a new tab` };
    if (reason !== 'target_closed') { this.#release(t.tabId, why, { detach: false }); return; }
    // target_closed comes before tabs.onRemoved when the tab itself is closed: tell them apart.
    this.chrome.tabs.get(t.tabId).then(
      () => this.#release(t.tabId, why, { detach: false }),
      () => this.onTabRemoved(t.tabId));
  }

  /** chrome.tabs.onRemoved. @param {number} tabId */
  onTabRemoved(tabId) {
    this.shared.delete(tabId);
    const t = this.tabs.get(tabId);
    if (!t) return;
    this.#release(tabId, { code: 'tab_closed', message: `tab ${tabName(t.key)} was closed: its state was dropped; use tabs list to see the others` }, { detach: false });
  }

  /** chrome.tabs.onCreated: a controlled tab opened a new tab or popup. @param {any} tab */
  onTabCreated(tab) {
    const opener = tab.openerTabId === undefined ? undefined : this.tabs.get(tab.openerTabId);
    // Only what the agent's own action opened: the user's new tabs (Chrome gives them the active
    // tab as opener too) are never taken over.
    if (!opener || opener.dead || !opener.acting) return;
    const url = tab.pendingUrl || tab.url;
    if (url && !checkUrl(this.policy, url).ok) { opener.opened.push({ text: `a tab the agent may not control (${url})` }); return; }
    if (!this.policy.allowNewTabs) { opener.opened.push({ text: 'a new tab (not controlled: the user does not allow the agent new tabs)' }); return; }
    if (this.tabMap.ofSession(opener.session).length >= LIMITS.maxTabsPerSession) {
      opener.opened.push({ text: `a new tab (not controlled: this agent already controls ${LIMITS.maxTabsPerSession} tabs; close some with tabs close)` });
      return;
    }
    const r = this.tabMap.add(tab.id, contextOf(tab), opener.session);
    this.tabs.set(tab.id, new TabState(tab.id, r.key, opener.session));
    // A tab opened by script often has no URL yet: it is checked again when the action answers.
    opener.opened.push({ tabId: tab.id, text: `tab ${tabName(r.key)}${tab.pendingUrl || tab.url ? ` (${tab.pendingUrl || tab.url})` : ''}` });
    this.#save();
  }

  // ------------------------------------------------------------------ CDP
  /** @param {TabState} t @param {string} method @param {any} [params] @param {string} [sessionId] */
  async send(t, method, params = {}, sessionId = undefined) {
    if (t.dead) throw new ToolError(t.dead.code, t.dead.message);
    const target = sessionId ? { tabId: t.tabId, sessionId } : { tabId: t.tabId };
    let timer;
    const timeout = new Promise((_, reject) => { timer = setTimeout(() => reject(new ToolError('cdp_timeout', `${method} got no answer within ${LIMITS.cdpCommandMs} ms (the page may be hung)`)), LIMITS.cdpCommandMs); });
    try {
      return await t.race(Promise.race([this.chrome.debugger.sendCommand(target, method, params), timeout]));
    } finally { clearTimeout(timer); }
  }

  /** @param {TabState} t @param {string} sessionId */
  async #setupChild(t, sessionId) {
    /** @type {Array<[string, any]>} */
    const setup = [['Page.enable', {}], ['Network.enable', {}], ['Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: true }], ['Runtime.runIfWaitingForDebugger', {}]];
    for (const [m, p] of setup) {
      await this.send(t, m, p, sessionId).catch(() => {});
    }
  }

  /** Attach on demand; "already attached" after a worker restart means it is still ours. @param {TabState} t */
  async #attach(t) {
    if (t.attached) return;
    let reattached = false;
    try {
      await this.chrome.debugger.attach({ tabId: t.tabId }, '1.3');
    } catch (e) {
      if (!/already attached/i.test(msg(e))) throw new ToolError('attach_failed', `cannot control tab ${tabName(t.key)}: ${msg(e)}`);
      reattached = true;
    }
    t.attached = true;
    await this.send(t, 'Page.enable');
    await this.send(t, 'Network.enable');
    if (reattached) await this.send(t, 'Target.setAutoAttach', { autoAttach: false, waitForDebuggerOnStart: false, flatten: true }).catch(() => {});
    await this.send(t, 'Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: true });
  }

  /** One capture, retried when a navigation races it. @param {TabState} t */
  async #capture(t) {
    let last;
    for (let i = 0; i < LIMITS.captureAttempts; i++) {
      try {
        const r = await capture((m, p, sid) => this.send(t, m, p, sid), { oopifs: [...t.oopifs.values()] });
        // The policy holds on where the page is now, whatever led there (a redirect, a click, a
        // script): a page it does not allow is never compiled, and its blocked frames are emptied.
        const w = withholdFrames(r.capture, (url) => checkFrameUrl(this.policy, url).ok);
        if (w.page !== null) {
          const why = checkUrl(this.policy, w.page);
          throw new ToolError(why.ok ? 'blocked_origin' : why.code, `tab ${tabName(t.key)} is now at ${w.page.slice(0, LIMITS.urlMaxChars)}: ${why.ok ? 'the agent may not act there' : why.message}. Nothing of that page is shown; use back, or navigate elsewhere`);
        }
        t.withheldOwners = w.owners;
        const withheld = [...new Set(w.withheld.map(hostOf))].map((h) => `a frame from ${h} was left out: the user's policy does not let the agent see or act there`);
        t.mainFrameId = r.capture.frameTree?.frame?.id ?? t.mainFrameId;
        t.lastCapture = r.capture;
        // The object itself goes to the core (packed into its binary form): no JSON.stringify.
        return { capture: r.capture, warnings: [...r.warnings, ...withheld], timings: r.timings };
      } catch (e) {
        if (e instanceof ToolError && e.code !== 'cdp_timeout') throw e;
        last = e;
        await sleep(LIMITS.captureRetryMs);
      }
    }
    throw new ToolError('capture_failed', `could not capture tab ${tabName(t.key)} after ${LIMITS.captureAttempts} attempts: ${msg(last)}`);
  }

  /**
   * Bounded stabilization (extension/lib/stabilize.js) of tab t, over its CDP session.
   * @param {TabState} t @param {{navigation?: boolean}} [o]
   * @returns {Promise<string[]>} warnings
   */
  #stabilize(t, o = {}) {
    return stabilize(t, { send: (method, params) => this.send(t, method, params), now: Date.now, sleep }, o);
  }

  // ------------------------------------------------------------------ dispatch
  /**
   * The one entry point: native messaging calls and tests both come through here.
   * @param {Call} call
   * @returns {Promise<Reply>}
   */
  async dispatch(call) {
    try {
      await this.restored;
      if (!call || typeof call !== 'object') throw new ToolError('bad_call', 'a call is {session, tool, args}');
      const { session, tool } = call;
      const args = call.args ?? {};
      if (typeof session !== 'string' || !session) throw new ToolError('bad_call', 'call.session must be the session id from session_open');
      if (typeof tool !== 'string') throw new ToolError('bad_call', 'call.tool must be a tool name');
      if (typeof args !== 'object' || Array.isArray(args)) throw new ToolError('bad_arguments', `${tool}: args must be an object`);
      // The one tool contract (extension/lib/tool-contract.js), which athena-bridge checks too.
      const decl = findTool(tool);
      if (!decl) throw new ToolError('unknown_tool', `unknown tool "${tool}": use ${TOOLS.map((d) => d.name).join(', ')}`);
      const wrong = checkArguments(decl, args);
      if (wrong) throw new ToolError('bad_arguments', wrong);
      if (this.stopped) throw new ToolError('stopped_by_user', 'the user stopped the agent from the extension popup: nothing will be done until they resume it');
      if (!this.sessions.has(session)) this.openSession(session, 'agent');
      return await this.#tool(session, tool, { ...args, [CALL_ID]: call.id ?? null });
    } catch (e) {
      if (e instanceof ToolError) return { ok: false, error: { code: e.code, message: e.message } };
      if (e && typeof e === 'object' && 'code' in e && 'name' in e && e.name === 'AthenaError') return { ok: false, error: { code: String(e.code), message: refMessage(e) } };
      return { ok: false, error: { code: 'internal', message: msg(e) } };
    }
  }

  /** @param {string} session @param {string} tool @param {any} args */
  async #tool(session, tool, args) {
    switch (tool) {
      case 'tabs': return this.#tabs(session, args);
      case 'navigate': {
        const url = str(args, 'url', true);
        if (url.length > LIMITS.urlMaxChars) throw new ToolError('bad_arguments', `navigate: url longer than ${LIMITS.urlMaxChars} characters`);
        const ok = checkUrl(this.policy, url);
        if (!ok.ok) throw new ToolError(ok.code, ok.message);
        const t = await this.#tabFor(session, args, { create: true });
        return this.flow.run(t, 'navigate', args, async () => {
          const r = await this.send(t, 'Page.navigate', { url });
          if (r.errorText) throw new ToolError('navigation_failed', `navigate to ${url} failed: ${r.errorText}`);
        });
      }
      case 'back': case 'forward': case 'reload': {
        const t = await this.#tabFor(session, args);
        return this.flow.run(t, tool, args, async () => {
          if (tool === 'reload') { t.crashed = false; await this.chrome.tabs.reload(t.tabId); return; }
          const h = await this.send(t, 'Page.getNavigationHistory');
          const i = h.currentIndex + (tool === 'back' ? -1 : 1);
          if (i < 0 || i >= h.entries.length) throw new ToolError('no_history', `${tool}: there is no page ${tool === 'back' ? 'before' : 'after'} this one in the tab's history`);
          const ok = checkUrl(this.policy, h.entries[i].url);
          if (!ok.ok) throw new ToolError(ok.code, ok.message);
          await this.send(t, 'Page.navigateToHistoryEntry', { entryId: h.entries[i].id });
        });
      }
      case 'snapshot': {
        const t = await this.#tabFor(session, args);
        return this.flow.run(t, 'snapshot', args, null);
      }
      case 'click': case 'hover': {
        const t = await this.#tabFor(session, args);
        return this.flow.run(t, tool, args, async (target) => {
          const p = await this.driver.point(t, target);
          await this.send(t, 'Input.dispatchMouseEvent', { type: 'mouseMoved', x: p.x, y: p.y });
          if (tool === 'hover') return;
          await this.send(t, 'Input.dispatchMouseEvent', { type: 'mousePressed', x: p.x, y: p.y, button: 'left', buttons: 1, clickCount: 1 });
          await this.send(t, 'Input.dispatchMouseEvent', { type: 'mouseReleased', x: p.x, y: p.y, button: 'left', buttons: 0, clickCount: 1 });
        }, { ref: true });
      }
      case 'type': {
        const text = str(args, 'text', true, true);
        if (text.length > LIMITS.typeMaxChars) throw new ToolError('bad_arguments', `type: text longer than ${LIMITS.typeMaxChars} characters`);
        const t = await this.#tabFor(session, args);
        return this.flow.run(t, 'type', args, async (target) => {
          const sid = this.driver.sessionOf(t, target.frameId);
          await this.send(t, 'DOM.focus', { backendNodeId: target.backendNodeId }, sid);
          if (args.clear) {
            await this.driver.callOn(t, target, CLEAR_FN);
          }
          if (text) await this.send(t, 'Input.insertText', { text });
          if (args.submit) for (const k of keyEvents('Enter')) await this.send(t, 'Input.dispatchKeyEvent', k);
        }, { ref: true });
      }
      case 'press': {
        let events;
        try { events = keyEvents(args.keys); } catch (e) { throw new ToolError('bad_arguments', `press: ${msg(e)}`); }
        const t = await this.#tabFor(session, args);
        return this.flow.run(t, 'press', args, async () => { for (const k of events) await this.send(t, 'Input.dispatchKeyEvent', k); });
      }
      case 'select': {
        const values = Array.isArray(args.values) ? args.values : typeof args.values === 'string' ? [args.values] : null;
        if (!values || values.some((/** @type {unknown} */ v) => typeof v !== 'string')) throw new ToolError('bad_arguments', 'select: values must be a list of option values or labels');
        const t = await this.#tabFor(session, args);
        return this.flow.run(t, 'select', args, async (target) => {
          const r = await this.driver.callOn(t, target, SELECT_FN, [values]);
          if (r.error) throw new ToolError('not_a_select', `select: ${args.ref} is ${r.error}; use click for custom dropdowns`);
          if (!r.matched) throw new ToolError('no_such_option', `select: none of ${JSON.stringify(values)} is an option of ${args.ref} (options: ${r.options.join(', ')})`);
        }, { ref: true });
      }
      case 'scroll': {
        const dir = args.direction ?? (args.ref ? null : 'down');
        if (dir !== null && !['up', 'down', 'left', 'right'].includes(dir)) throw new ToolError('bad_arguments', 'scroll: direction is up, down, left or right');
        if (args.amount !== undefined && !(typeof args.amount === 'number' && args.amount > 0 && args.amount <= LIMITS.scrollMaxPx)) throw new ToolError('bad_arguments', `scroll: amount is CSS pixels, 1..${LIMITS.scrollMaxPx}`);
        const t = await this.#tabFor(session, args);
        return this.flow.run(t, 'scroll', args, async (target) => {
          const fn = SCROLL_FN;
          if (target) await this.driver.callOn(t, target, fn, [dir, args.amount ?? null, LIMITS.scrollViewportShare]);
          else await this.send(t, 'Runtime.evaluate', { expression: `(${fn}).call(null, ${JSON.stringify(dir)}, ${JSON.stringify(args.amount ?? null)}, ${LIMITS.scrollViewportShare})` });
        }, { ref: !!args.ref });
      }
      case 'wait_for': return this.#waitFor(session, args);
      case 'find': {
        const t = await this.#tabFor(session, args);
        if (!t.hasBaseline) return this.flow.run(t, 'snapshot', args, null);
        const limit = args.limit === undefined ? LIMITS.findDefaultLimit : args.limit;
        if (!Number.isInteger(limit) || limit < 1 || limit > LIMITS.findMaxLimit) throw new ToolError('bad_arguments', `find: limit is 1..${LIMITS.findMaxLimit}`);
        /** @type {{limit: number, role?: string, name?: string, region?: string, frame?: string, after?: string}} */
        const q = { limit };
        for (const k of /** @type {const} */ (['role', 'name', 'region', 'frame', 'after'])) if (args[k] !== undefined) q[k] = str(args, k, true);
        if (q.frame !== undefined && !/^f\d+$/.test(q.frame)) throw new ToolError('bad_arguments', `find: frame is a frame id as the FactPack shows it (like f1), got ${JSON.stringify(q.frame)}`);
        if (q.after !== undefined && !/^c\d+p\d+f\d+e\d+$/.test(q.after)) throw new ToolError('bad_arguments', `find: after is a ref from a find answer or a gap line (like c0p1f0e20), got ${JSON.stringify(q.after)}`);
        const engine = await this.#engine();
        /** @type {{text: string, version: number}} */
        let r;
        try {
          // The core renders the answer: the same element lines and the one quoting routine as FactPacks.
          r = engine.findText(t.key, q);
        } catch (e) {
          if (e instanceof ToolError) throw e;
          if (e && typeof e === 'object' && 'name' in e && e.name === 'AthenaError') throw new ToolError(String(/** @type {{code?: unknown}} */ (e).code), `find: ${msg(e).replace(/^(findText|find): /, '')}`);
          throw e;
        }
        return { ok: true, text: r.text, version: r.version };
      }
      case 'read': {
        const t = await this.#tabFor(session, args);
        return this.flow.queued(t, () => this.#read(t, args));
      }
      case 'dialog': return this.flow.answerDialog(await this.#tabFor(session, args), args);
      case 'upload': {
        const files = args.files;
        if (!Array.isArray(files) || files.length === 0 || files.length > LIMITS.uploadMaxFiles || files.some((f) => typeof f !== 'string' || !f.startsWith('/')))
          throw new ToolError('bad_arguments', `upload: files is a list of 1..${LIMITS.uploadMaxFiles} absolute paths on this computer`);
        // The native host resolved each path (symlinks followed): the real file must be inside
        // a folder the user allowed in the options page.
        for (const f of files) {
          const ok = checkUpload(this.policy, f);
          if (!ok.ok) throw new ToolError(ok.code, ok.message);
        }
        const t = await this.#tabFor(session, args);
        return this.flow.run(t, 'upload', args, async (target) => {
          try {
            await this.send(t, 'DOM.setFileInputFiles', { files, backendNodeId: target.backendNodeId }, this.driver.sessionOf(t, target.frameId));
          } catch (e) {
            if (e instanceof ToolError) throw e;
            throw new ToolError('upload_failed', `upload to ${args.ref}: ${msg(e)} (the ref must be an <input type=file>)`);
          }
        }, { ref: true });
      }
      case 'screenshot': {
        if (!this.policy.allowScreenshots) throw new ToolError('screenshots_disabled', 'the user does not allow screenshots (extension options)');
        const t = await this.#tabFor(session, args);
        return this.flow.queued(t, () => this.#screenshot(t, args));
      }
      default:
        throw new ToolError('internal', `tool "${tool}" is declared in tool-contract.js but has no handler`);
    }
  }

  /** read: text of a ref or a region, in the tab's queue (a capture never races an action). @param {TabState} t @param {any} args */
  async #read(t, args) {
    await this.#attach(t);
    if (args.ref !== undefined && (args.region !== undefined || args.frame !== undefined)) throw new ToolError('bad_arguments', 'read: give either ref or region (with frame for a region inside an iframe), not both');
    if (args.frame !== undefined && !/^f\d+$/.test(str(args, 'frame', true))) throw new ToolError('bad_arguments', `read: frame is a frame id as the FactPack shows it (like f1), got ${JSON.stringify(args.frame)}`);
    /** @type {{text: string, length: number}} */
    let r;
    let what;
    if (args.ref !== undefined) {
      const target = await this.#resolveNow(t, str(args, 'ref', true));
      r = await this.driver.callOn(t, target, READ_FN, [LIMITS.readMaxChars]);
      what = `ref=${quoteValue(args.ref)}`;
    } else {
      const region = args.region === undefined ? 'page' : str(args, 'region', true);
      const frame = args.frame ?? 'f0';
      r = await this.#readRegion(t, region, frame);
      what = `region=${quoteValue(region)}${args.frame !== undefined ? ` frame="${frame}"` : ''}`;
    }
    const cut = r.length > r.text.length;
    // The page's text keeps its lines, escaped so that it can never close <read> or open a tag.
    return { ok: true, text: `<read ${what} chars="${r.length}"${cut ? ` truncated="true" shown="${r.text.length}"` : ''}>\n${escapeBlock(r.text)}\n</read>` };
  }

  /** screenshot: the page or a ref's box, in the tab's queue. @param {TabState} t @param {any} args */
  async #screenshot(t, args) {
    await this.#attach(t);
    /** @type {any} */
    const params = { format: 'png' };
    if (args.ref) {
      const target = await this.#resolveNow(t, args.ref);
      const p = await this.driver.point(t, target);
      const m = await this.send(t, 'Page.getLayoutMetrics');
      const vv = m.cssVisualViewport ?? { pageX: 0, pageY: 0 };
      params.clip = { x: p.box.x + vv.pageX, y: p.box.y + vv.pageY, width: Math.max(1, p.box.width), height: Math.max(1, p.box.height), scale: 1 };
    }
    const r = await this.send(t, 'Page.captureScreenshot', params);
    const bytes = Math.floor((r.data.length * 3) / 4);
    return { ok: true, text: `<screenshot tab="${tabName(t.key)}"${args.ref ? ` ref="${args.ref}"` : ''} format="png" bytes="${bytes}"/>`, image: { mime: 'image/png', data: r.data } };
  }

  // ------------------------------------------------------------------ tabs
  /**
   * The tab a call acts on: args.tab, else the ref's tab, else the session's current tab; with
   * create, a new tab when the session has none.
   * @param {string} session @param {any} args @param {{create?: boolean}} [o]
   * @returns {Promise<TabState>}
   */
  async #tabFor(session, args, o = {}) {
    const s = this.sessions.get(session);
    const name = args.tab ?? (typeof args.ref === 'string' ? args.ref.replace(/f\d+e\d+$/, '') : undefined);
    let t;
    if (name !== undefined) {
      if (!parseTabName(name)) throw new ToolError('bad_arguments', `"${name}" is not a tab id (like c0p1) or a ref (like c0p1f0e5)`);
      const r = this.tabMap.byTabName(name);
      t = r ? this.tabs.get(r.tabId) : undefined;
      if (!t) {
        const dead = [...this.tabs.values()].find((x) => tabName(x.key) === name && x.dead);
        if (dead?.dead) throw new ToolError(dead.dead.code, dead.dead.message);
        throw new ToolError('unknown_tab', `tab ${name} is not controlled by this agent (closed, released, or from before a restart): use tabs list`);
      }
      if (t.session !== session) throw new ToolError('unknown_tab', `tab ${name} belongs to another agent session`);
    } else if (s?.current != null && this.tabs.has(s.current)) {
      t = this.tabs.get(s.current);
    } else {
      const sharedTab = [...this.shared].find((id) => !this.tabs.has(id));
      if (sharedTab !== undefined) {
        t = await this.#adopt(session, sharedTab);
      } else if (o.create) {
        if (!this.policy.allowNewTabs) throw new ToolError('new_tabs_disabled', 'the agent has no tab and the user does not allow it to open one: ask the user to share a tab (extension popup)');
        const tab = await this.chrome.tabs.create({ url: 'about:blank', active: true });
        t = await this.#adopt(session, tab.id);
      } else {
        throw new ToolError('no_tab', 'this agent controls no tab yet: navigate to a URL (opens a tab) or ask the user to share one');
      }
    }
    if (!t) throw new ToolError('no_tab', 'no tab');
    if (t.dead) throw new ToolError(t.dead.code, t.dead.message);
    if (s) s.current = t.tabId;
    return t;
  }

  /** @param {string} session @param {number} tabId */
  async #adopt(session, tabId) {
    if (this.tabMap.ofSession(session).length >= LIMITS.maxTabsPerSession) throw new ToolError('too_many_tabs', `an agent may control at most ${LIMITS.maxTabsPerSession} tabs: close some with tabs close`);
    const tab = await this.chrome.tabs.get(tabId);
    const r = this.tabMap.add(tabId, contextOf(tab), session);
    const t = new TabState(tabId, r.key, session);
    this.tabs.set(tabId, t);
    await this.#save();
    return t;
  }

  /** @param {string} session @param {any} args */
  async #tabs(session, args) {
    const s = this.sessions.get(session);
    switch (args.action ?? 'list') {
      case 'list': {
        const lines = [];
        for (const r of this.tabMap.ofSession(session)) {
          const tab = await this.chrome.tabs.get(r.tabId).catch(() => null);
          if (!tab) continue;
          lines.push(`  <tab id="${tabName(r.key)}"${s?.current === r.tabId ? ' current="true"' : ''} url=${quoteValue(tab.url ?? '')} title=${quoteValue(tab.title ?? '')}/>`);
        }
        for (const id of this.shared) if (!this.tabs.has(id)) {
          const tab = await this.chrome.tabs.get(id).catch(() => null);
          if (tab) lines.push(`  <tab id="shared-${id}" shared_by_user="true" url=${quoteValue(tab.url ?? '')} title=${quoteValue(tab.title ?? '')}/>`);
        }
        return { ok: true, text: `<tabs count="${lines.length}">\n${lines.join('\n')}\n</tabs>` };
      }
      case 'new': {
        if (!this.policy.allowNewTabs) throw new ToolError('new_tabs_disabled', 'the user does not allow the agent to open new tabs (extension options)');
        const url = args.url ?? 'about:blank';
        const ok = checkUrl(this.policy, url);
        if (!ok.ok) throw new ToolError(ok.code, ok.message);
        const tab = await this.chrome.tabs.create({ url: 'about:blank', active: true });
        const t = await this.#adopt(session, tab.id);
        if (s) s.current = t.tabId;
        return this.flow.run(t, 'navigate', args, async () => { await this.send(t, 'Page.navigate', { url }); });
      }
      case 'select': {
        const name = str(args, 'tab', true);
        const shared = /^shared-(\d+)$/.exec(name);
        if (shared) {
          const id = Number(shared[1]);
          if (!this.shared.has(id) || this.tabs.has(id)) throw new ToolError('unknown_tab', `${name} is not a tab the user shared (or another agent took it): use tabs list`);
          const t = await this.#adopt(session, id);
          if (s) s.current = t.tabId;
          return this.flow.run(t, 'snapshot', {}, null);
        }
        const t = await this.#tabFor(session, { tab: name });
        await this.chrome.tabs.update(t.tabId, { active: true }).catch(() => {});
        return this.flow.run(t, 'snapshot', { tab: args.tab }, null);
      }
      case 'close': {
        const t = await this.#tabFor(session, { tab: str(args, 'tab', true) });
        const name = tabName(t.key);
        await this.#release(t.tabId, null);
        await this.chrome.tabs.remove(t.tabId).catch(() => {});
        if (s && s.current === t.tabId) s.current = null;
        return { ok: true, text: `<tabs closed="${name}"/>` };
      }
      default: throw new ToolError('bad_arguments', 'tabs: action is list, new, select or close');
    }
  }

  // ------------------------------------------------------------------ acting
  /**
   * Text of a region as the FactPack named it: a region name (main, nav, dialog, ...) or its label
   * ("related navigation"), in the main frame or the frame given (f1, as in `<region frame="f1">`).
   * Resolved through an element the engine holds in that region (so the very landmark shown, also
   * inside an out-of-process iframe or a shadow root), else by selector in the main document.
   * @param {TabState} t @param {string} region @param {string} frame @returns {Promise<{text: string, length: number}>}
   */
  async #readRegion(t, region, frame) {
    const isName = Object.prototype.hasOwnProperty.call(REGION_SELECTORS, region);
    const fold = (/** @type {string} */ x) => x.replace(/\s+/g, ' ').trim().toLowerCase();
    if (t.hasBaseline) {
      const engine = await this.#engine();
      /** @type {any[]} */
      let els = [];
      try { els = engine.find(t.key, { limit: 100000 }); } catch { els = []; }
      const inFrame = els.filter((e) => refFrame(e.ref) === frame);
      const byLabel = inFrame.filter((e) => labelOf(e) && fold(labelOf(e)) === fold(region));
      const picked = byLabel.length ? byLabel : isName ? inFrame.filter((e) => e.region === region) : [];
      if (!picked.length && !(isName && frame === 'f0')) {
        const shown = [...new Set(inFrame.map((e) => (labelOf(e) ? `${e.region} "${labelOf(e)}"` : e.region)))];
        throw new ToolError('no_such_region', `read: no region ${JSON.stringify(region)} in ${frame === 'f0' ? 'the page' : `frame ${frame}`}; regions shown: ${shown.join(', ') || 'none'} (give a region name or its label)`);
      }
      for (const e of picked.slice(0, 3)) {
        let target;
        try { target = await this.#resolveNow(t, e.ref); } catch (err) { if (err instanceof ToolError) throw err; continue; }
        const sel = e.region === 'page' ? null : REGION_SELECTORS[e.region] ?? null;
        const r = await this.driver.callOn(t, target, READ_LANDMARK_FN, [sel, LIMITS.readMaxChars]);
        if (r) return r;
      }
    }
    if (!isName) throw new ToolError('no_such_region', `read: no region ${JSON.stringify(region)}: give a region name (${Object.keys(REGION_SELECTORS).join(', ')}) or a label the FactPack showed`);
    const ev = await this.send(t, 'Runtime.evaluate', { expression: `(() => { const el = document.querySelector(${JSON.stringify(REGION_SELECTORS[region])}); if (!el) return null; return (${READ_FN}).call(el, ${LIMITS.readMaxChars}); })()`, returnByValue: true });
    const r = ev.result?.value;
    if (!r) throw new ToolError('no_such_region', `read: the page has no ${region} region`);
    return r;
  }

  /** A ref resolved against a fresh capture, outside an action (read, screenshot). @param {TabState} t @param {string} ref */
  async #resolveNow(t, ref) {
    if (!t.hasBaseline) throw new ToolError('unknown_ref', `${ref}: this tab has no snapshot yet; call snapshot first`);
    const engine = await this.#engine();
    const cap = await this.#capture(t);
    // No version is committed and no action is begun: a read never disturbs an action's
    // begin/finish, nor puts the agent's version out of date (issue 18).
    return engine.resolveNow(t.key, cap.capture, ref);
  }

  /** @param {TabState} t */
  async #openedNotes(t) {
    const out = [];
    const opened = t.opened;
    t.opened = [];
    for (const o of opened) {
      // Where the new tab is now: one that went to a page the user does not allow is let go.
      const tab = o.tabId === undefined ? null : await this.chrome.tabs.get(o.tabId).catch(() => null);
      const url = tab ? tab.pendingUrl || tab.url : '';
      if (o.tabId !== undefined && url && !checkUrl(this.policy, url).ok) {
        await this.#release(o.tabId, null);
        out.push(`this action opened a tab the agent may not control (${url})`);
      } else {
        out.push(`this action opened ${o.text}: use tabs select to act there`);
      }
    }
    return out;
  }

  /** @param {string} session @param {any} args */
  async #waitFor(session, args) {
    const ms = args.ms === undefined ? LIMITS.waitForDefaultMs : args.ms;
    if (!(typeof ms === 'number' && ms >= 0 && ms <= LIMITS.waitForMaxMs)) throw new ToolError('bad_arguments', `wait_for: ms is 0..${LIMITS.waitForMaxMs}`);
    const STATES = ['visible', 'hidden', 'enabled', 'disabled', 'checked', 'unchecked', 'attached', 'detached'];
    if (args.state !== undefined && !STATES.includes(args.state)) throw new ToolError('bad_arguments', `wait_for: state is one of ${STATES.join(', ')}`);
    if (args.state !== undefined && typeof args.ref !== 'string') throw new ToolError('bad_arguments', 'wait_for: state needs a ref');
    const text = args.text ?? args.gone;
    if (text !== undefined && typeof text !== 'string') throw new ToolError('bad_arguments', 'wait_for: text/gone must be a string');
    const t = await this.#tabFor(session, args);
    const condition = args.text !== undefined ? `text ${JSON.stringify(args.text)} to appear` : args.gone !== undefined ? `text ${JSON.stringify(args.gone)} to disappear` : args.ref ? `${args.ref} to be ${args.state ?? 'visible'}` : null;
    return this.flow.run(t, 'wait_for', { version: args.version, ref: args.ref, [CALL_ID]: args[CALL_ID] }, async (target) => {
      const end = Date.now() + ms;
      if (!condition) { await sleep(ms); return; }
      for (;;) {
        let met = false;
        if (text !== undefined) {
          const r = await this.send(t, 'Runtime.evaluate', { expression: `(document.body ? document.body.innerText : '').includes(${JSON.stringify(text)})`, returnByValue: true }).catch((e) => { if (e instanceof ToolError) throw e; return null; });
          const has = !!r?.result?.value;
          met = args.text !== undefined ? has : !has;
        } else {
          met = await this.#refState(t, target, args.state ?? 'visible');
        }
        if (met) return;
        if (t.cancelled) { t.waitNote = `wait_for: cancelled by the agent while waiting for ${condition}`; return; }
        if (Date.now() >= end) { t.waitNote = `wait_for: gave up waiting for ${condition} after ${ms} ms`; return; }
        await sleep(LIMITS.waitForPollMs);
      }
    }, { ref: typeof args.ref === 'string' }).then((r) => r);
  }

  /** @param {TabState} t @param {any} target @param {string} state */
  async #refState(t, target, state) {
    let v;
    try {
      v = await this.driver.callOn(t, target, STATE_FN);
    } catch (e) {
      if (e instanceof ToolError && e.code !== 'page_error') throw e;
      v = { attached: false, visible: false, disabled: false, checked: false };
    }
    switch (state) {
      case 'visible': return v.visible;
      case 'hidden': return !v.visible;
      case 'enabled': return !v.disabled;
      case 'disabled': return v.disabled;
      case 'checked': return v.checked;
      case 'unchecked': return !v.checked;
      case 'attached': return v.attached;
      default: return !v.attached;
    }
  }
}

/** The landmark label of an element (the engine's JSON: region_label). @param {any} e */
const labelOf = (e) => e.region_label ?? '';

/** "f2" of "c0p1f2e17". @param {string} ref */
const refFrame = (ref) => /^c\d+p\d+(f\d+)e\d+$/.exec(ref)?.[1] ?? '';

/** Text of the landmark around this node (crossing shadow roots), or of its document's body. */
const READ_LANDMARK_FN = `function (sel, max) {
  let n = this, lm = null;
  while (n && sel) {
    if (n.nodeType === 1 && n.matches(sel)) { lm = n; break; }
    n = n.parentNode || (n instanceof ShadowRoot ? n.host : null);
  }
  const el = lm || (this.ownerDocument || document).body;
  const t = el.innerText ?? el.textContent ?? '';
  return { text: t.slice(0, max), length: t.length };
}`;



/** A string argument. @param {any} args @param {string} k @param {boolean} required @param {boolean} [allowEmpty] */
function str(args, k, required, allowEmpty = false) {
  const v = args[k];
  if (v === undefined && !required) return '';
  if (typeof v !== 'string' || (!allowEmpty && !v)) throw new ToolError('bad_arguments', `"${k}" must be a non-empty string`);
  return v;
}

/** The core's ref errors, worded for the agent. @param {any} e */
function refMessage(e) {
  const advice = /** @type {Record<string, string | undefined>} */ ({
    identity_changed: 'the element behind this ref changed (it is no longer what you were shown): nothing was done; use the refs of the FactPack that comes with your next snapshot',
    ref_removed: 'the element behind this ref is gone from the page: nothing was done',
    document_replaced: 'the page navigated since you got this ref: nothing was done; take a snapshot',
    unknown_ref: 'this ref was never issued for this tab: use a ref from your last FactPack',
    unknown_page: 'this tab has no state in the extension: take a snapshot',
    stale_version: 'your version is not the current one: take a snapshot',
  })[e.code];
  return advice ? `${e.message} — ${advice}` : e.message;
}
