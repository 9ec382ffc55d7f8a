// The agent's side of the extension: sessions and the tabs each controls (one TabSession per tab,
// extension/lib/tab-session.js, which owns the tab's queue, CDP, capture marks and dialogs), the
// user's policy and stop/resume, Chrome's events, and the dispatcher, which runs every call on a
// tab in that tab's queue (docs/design.md, "The extension's shape"). The tools are declared with
// their handlers in extension/lib/tools/*.js (gathered by tool-contract.js); each mutating one goes
// through the action flow (extension/lib/action-flow.js). One wasm engine per browser; chrome is
// injected (the service worker passes the real one).
import { capFrames, capture, CORE_EVENTS, withholdFrames } from './capture.js';
import { LIMITS } from './limits.js';
import { checkFrameUrl, checkUrl, normalizePolicy } from './policy.js';
import { blockedPageError } from './page-gate.js';
import { contextOf, parseTabName, tabName, TabMap } from './tabs.js';
import { isRef, parseRef } from './ref.js';
import { TraceLog } from './trace.js';
import { ToolError } from './tab-state.js';
import { TabSession } from './tab-session.js';
import { stabilize, watch } from './stabilize.js';
import { WATCHER_JS } from './page-scripts.js';
import { ActionFlow, CALL_ID } from './action-flow.js';
import { quoteValue, safeMessage } from './quote.js';
import { TabDriver } from './tab-driver.js';
import { findTool, TOOLS } from './tool-contract.js';
import { msg, sleep } from './tools/define.js';

export { ToolError };

/** The host of a URL, for messages (the URL itself when it has none). @param {string} url */
const hostOf = (url) => { try { return new URL(url).host || url.slice(0, 100); } catch { return url.slice(0, 100); } };

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
    this.athenaReady = o.athena;
    this.log = o.log ?? (() => {});
    /** @type {any} */
    this.engine = null;
    /** @type {Promise<any> | null} */
    this.enginePromise = null;
    /** Past every ref handed out, in this worker or an earlier one (storage.session): where the next engine starts. */
    this.refFloor = 1;
    /** Where this worker's engine started numbering: a ref below it is from before a restart. */
    this.firstRef = 1;
    this.tabMap = new TabMap();
    /** What the core was fed, per agent tab, for the playground (lib/trace.js). */
    this.traces = new TraceLog();
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
      openedNotes: (t) => this.#openedNotes(t),
      send: (t, method, params) => t.send(method, params),
      sleep,
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
    if (st && Number.isSafeInteger(st.refFloor) && st.refFloor > 0) this.refFloor = st.refFloor;
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

  /**
   * The tab that issued a ref, by name: the engine numbers refs across all its tabs. A ref from
   * before the worker restarted has none: the call goes to the agent's current tab, whose answer
   * is the full snapshot saying so.
   * @param {string} ref @returns {Promise<string | undefined>}
   */
  async #tabOfRef(ref) {
    if (!isRef(ref)) throw new ToolError('bad_arguments', `"${ref}" is not an element ref (like e5): use a ref from your last FactPack`);
    // No core (it failed to load): the call goes where it would without a ref, and says why there.
    const engine = await this.loadEngine().catch(() => null);
    if (!engine) return undefined;
    try {
      return tabName(engine.owner(ref));
    } catch (e) {
      if (!(e && typeof e === 'object' && 'code' in e && e.code === 'unknown_ref')) throw e;
    }
    if ((parseRef(ref)?.element ?? 0) < this.firstRef) return undefined;
    throw new ToolError('unknown_ref', `ref ${ref} is not one any tab of this agent remembers (never issued, of a tab it no longer controls, or from before the extension restarted): take a snapshot and use its refs`);
  }

  /**
   * A result about to reach the agent: storage first holds a number past every ref in it, so the
   * engine of a restarted worker numbers past them. @template R @param {R} result @returns {Promise<R>}
   */
  async #delivered(result) {
    const next = this.engine?.nextRef();
    if (next !== undefined && next >= this.refFloor) {
      this.refFloor = next + LIMITS.refBlock;
      await this.#save();
    }
    return result;
  }

  async #save() {
    const sessions = Object.fromEntries([...this.sessions].map(([k, v]) => [k, v]));
    await this.chrome.storage.session.set({ athenaState: { tabMap: this.tabMap.toJSON(), sessions, shared: [...this.shared], stopped: this.stopped, refFloor: this.refFloor } }).catch(() => {});
  }

  /** A TabSession of this browser. @param {number} tabId @param {PageKey} key @param {string} session */
  #tab(tabId, key, session) {
    return new TabSession(tabId, key, session, { debugger: this.chrome.debugger, policy: () => this.policy, watcherSource: () => this.watcherSource });
  }

  /** @param {any} raw policy from storage */
  setPolicy(raw) {
    this.policy = normalizePolicy(raw).policy;
    // Captures taken under the old policy are not reused (extension/lib/action-flow.js).
    for (const t of this.tabs.values()) {
      t.forgetCapture();
      t.policyChanged().catch(() => {});
    }
  }

  /** The one engine of this browser, created once even when the first calls come together. */
  loadEngine() {
    // It numbers refs from past every one an earlier worker's engine handed out: a ref of before
    // a restart can never name a new element.
    this.enginePromise ??= this.athenaReady.then(async (athena) => {
      this.firstRef = this.refFloor;
      const engine = this.traces.wrap(athena.createEngine({ firstRef: this.firstRef }));
      this.refFloor += LIMITS.refBlock;
      await this.#save();
      this.engine = engine;
      return engine;
    });
    return this.enginePromise;
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
  /** chrome.debugger.onEvent. @param {{tabId?: number, sessionId?: string}} source @param {string} method @param {any} params */
  onDebuggerEvent(source, method, params) {
    const t = source.tabId === undefined ? undefined : this.tabs.get(source.tabId);
    if (!t || t.dead) return;
    const sid = source.sessionId;
    // What the tab keeps (requests, dialogs, loading, frames) is the TabSession's own.
    t.onEvent(method, params, sid);
    switch (method) {
      case 'Inspector.targetCrashed':
        if (!sid) {
          if (this.engine && t.hasBaseline) try { this.engine.closePage(t.key); } catch { /* gone */ }
          t.crash(`the page in tab ${tabName(t.key)} crashed (renderer gone): call reload or navigate to continue`);
          // A new page index: refs from before the crash can never alias elements after it.
          const former = tabName(t.key);
          const key = this.tabMap.add(t.tabId, t.key.context, t.session, { formerly: former, reason: 'renderer crashed' }).key;
          t.renumber(key, `the page crashed and was reloaded: tab ${former} is now ${tabName(key)}, refs from before are invalid`);
          this.#save();
        }
        break;
      default: break;
    }
    if (CORE_EVENTS.has(method) && this.engine && t.hasBaseline && !t.aboutLeftOutFrame(method, params)) {
      try { this.engine.onEvent(t.key, JSON.stringify({ method, params })); } catch (e) { this.log(`core refused ${method}: ${msg(e)}`); }
    }
  }

  /**
   * chrome.debugger.onDetach: the user cancelled the debugging bar, the tab went where an
   * extension may not debug, or the tab went away. Chrome sends it only when it took the debugger
   * (never for the extension's own detach). The call in flight answers at once what happened; the
   * tab stays the agent's, under its name, and the next call on it attaches again
   * (TabSession.attach) when the user's policy still allows where it is (dispatch).
   * @param {chrome.debugger.Debuggee} source @param {string} reason
   */
  onDebuggerDetach(source, reason) {
    const t = source.tabId === undefined ? undefined : this.tabs.get(source.tabId);
    if (!t || t.dead) return;
    const name = tabName(t.key);
    const said = reason === 'canceled_by_user' ? 'the user cancelled the "is debugging this browser" bar' : `Chrome: ${reason}`;
    const why = { code: 'debugger_detached', message: `the debugger was detached from tab ${name} (${said}): the call in flight stopped and nothing more was done; the next call on ${name} attaches it again (the user sees the debugging bar again), or use tabs new to go on in a new tab` };
    if (reason !== 'target_closed') { t.debuggerLost(why, said); return; }
    // target_closed comes before tabs.onRemoved when the tab itself is closed: tell them apart.
    this.chrome.tabs.get(t.tabId).then(
      () => t.debuggerLost(why, said),
      () => this.onTabRemoved(t.tabId));
  }

  /**
   * The next call on a tab whose debugger Chrome took away attaches again only where the user's
   * policy lets the agent be; a tool that leaves the page (navigate, back, forward) goes on and
   * checks where it leads, and one that needs no page (find, tabs close) is no obstacle.
   * @param {TabSession} t @param {string | undefined} rule the tool's dialog rule ('leaves': it leaves the page; 'ignores': it needs no page)
   */
  async #mayAttachAgain(t, rule) {
    const lost = t.lostDebugger;
    if (!lost || rule === 'leaves' || rule === 'ignores') return;
    const tab = await this.chrome.tabs.get(t.tabId).catch(() => null);
    if (!tab) throw new ToolError('tab_closed', `tab ${tabName(t.key)} was closed: navigate to a URL to go on in a new tab, or use tabs list to see the others`);
    const ok = checkUrl(this.policy, tab.url || tab.pendingUrl || 'about:blank');
    if (!ok.ok) throw new ToolError('debugger_detached', `the debugger was detached from tab ${tabName(t.key)} (${lost.reason}) and is not attached again: ${ok.message}; once the tab is back on a page the agent may use, the next call attaches again; meanwhile use tabs new to go on in a new tab`);
  }

  /** chrome.tabs.onRemoved. @param {number} tabId */
  onTabRemoved(tabId) {
    this.shared.delete(tabId);
    const t = this.tabs.get(tabId);
    if (!t) return;
    this.release(tabId, { code: 'tab_closed', message: `tab ${tabName(t.key)} was closed: its state was dropped; navigate to a URL to go on in a new tab, or use tabs list to see the others` }, { detach: false });
  }

  /** chrome.tabs.onCreated: a controlled tab opened a new tab or popup. @param {any} tab */
  onTabCreated(tab) {
    // Only what the agent's own action opened: the user's new tabs (Chrome gives them the active
    // tab as opener too) are never taken over. A tab opened by a tab the action opened is the
    // action's too: Chrome names the tab active at that moment as the opener, and a page's
    // window.open makes each new tab active in turn.
    const opener = [...this.tabs.values()].find((t) => t.acting && !t.dead && (t.tabId === tab.openerTabId || t.opens(tab.openerTabId)));
    if (!opener) return;
    opener.tabOpened(tab.id);
    // Past the first few, what an action opens stays open, counted, not controlled: its page is
    // the user's business, and nothing of the user's browser is closed.
    if (opener.adoptedCount >= LIMITS.popupsAdoptedMax) { opener.openedPast(); return; }
    const url = tab.pendingUrl || tab.url;
    // Not adopted, and nothing of it named but the policy's reason (not its URL nor its title).
    const why = url ? checkUrl(this.policy, url) : null;
    if (why && !why.ok) { opener.openedTab({ text: `a tab the agent may not control (${why.message})` }); return; }
    if (!this.policy.allowNewTabs) { opener.openedTab({ text: 'a new tab (not controlled: the user does not allow the agent new tabs)' }); return; }
    if (this.tabMap.ofSession(opener.session).length >= LIMITS.maxTabsPerSession) {
      opener.openedTab({ text: `a new tab (not controlled: this agent already controls ${LIMITS.maxTabsPerSession} tabs; close some with tabs close)` });
      return;
    }
    const r = this.tabMap.add(tab.id, contextOf(tab), opener.session);
    this.tabs.set(tab.id, this.#tab(tab.id, r.key, opener.session));
    // A tab opened by script often has no URL yet: it is checked again when the action answers.
    opener.openedTab({ tabId: tab.id, text: `tab ${tabName(r.key)}${url ? ` at ${quoteValue(url)}` : ''}` });
    this.#save();
  }

  // ------------------------------------------------------------------ CDP
  /**
   * One capture of tab t, retried when a navigation races it (actions, read and screenshot use it).
   * @param {TabSession} t @param {AbortSignal} [signal] the caller gave up on it (a dialog opened): stop
   */
  async captureTab(t, signal) {
    let last;
    for (let i = 0; i < LIMITS.captureAttempts; i++) {
      if (signal?.aborted) throw new ToolError('capture_abandoned', 'the capture was given up (a JavaScript dialog opened)');
      try {
        // A navigation the interception stopped (tab-session.js #paused): the tab is where it
        // was, and the agent is told, by the policy's reason, never by the page.
        const stopped = t.takeStopped();
        if (stopped.length) {
          const why = checkUrl(this.policy, stopped[0]);
          throw new ToolError('blocked_origin', `the page went for a site the agent may not go to (${why.ok ? 'a frame the agent may not see' : why.message.replace(/: the agent may not act there.*$/, '')})${stopped.length > 1 ? `, ${stopped.length} times` : ''}: the request was stopped before it left the browser, and the tab stays on the page it was on (take a snapshot to see it)`);
        }
        const r = await capture((m, p, sid) => t.send(m, p, sid, signal), { oopifs: [...t.oopifs.values()] });
        // A frame session that no longer answers is let go: its warning is said once.
        for (const sid of r.lost) t.frameGone(sid);
        // The policy holds on where the page is now, whatever led there (a redirect, a click, a
        // script): a page it does not allow is never compiled, and its blocked frames are emptied.
        const w = withholdFrames(r.capture, (url) => checkFrameUrl(this.policy, url).ok);
        if (w.page !== null) {
          const why = checkUrl(this.policy, w.page);
          // Named by the policy's reason (its host), never by the page's URL, title or text.
          throw blockedPageError(t, why.ok ? { ok: false, code: 'blocked_origin', message: 'a frame the agent may not see' } : why);
        }
        const urls = frameUrls(r.capture);
        const cut = capFrames(r.capture, LIMITS.framesCapturedMax);
        t.captured(r.capture, { owners: w.owners, frames: w.frames }, cut.leftOut);
        const withheld = [...new Set(w.withheld.map(hostOf))].map((h) => `a frame from ${h} was left out: the user's policy does not let the agent see or act there`);
        // The first frame left out that the policy lets the agent see is named (a quoted value):
        // navigating there shows what it holds.
        const first = [...cut.leftOut].map((id) => urls.get(id)).find((u) => typeof u === 'string' && /^https?:/i.test(u) && checkFrameUrl(this.policy, u).ok);
        const many = cut.leftOut.size === 0 ? [] : [`this page has ${cut.frames} frames: this FactPack shows what the first ${LIMITS.framesCapturedMax} hold, and leaves the other ${cut.leftOut.size} out (their iframes are empty here, nothing in them can be acted on)${first ? `; to see one, navigate to its own address, as the first left out: ${quoteValue(first)}` : ''}`];
        // The object itself goes to the core (packed into its binary form): no JSON.stringify.
        return { capture: r.capture, warnings: [...r.warnings, ...withheld, ...many], timings: r.timings };
      } catch (e) {
        // Retried: a navigation racing the capture. A busy page is not asked again (page_busy).
        // When what the page did not answer is our own snapshot, the page is too large to capture,
        // not busy with a script of its own: said as such, with what still works.
        if (e instanceof ToolError && e.code === 'page_busy' && /DOMSnapshot\.captureSnapshot/.test(e.message)) {
          throw new ToolError('page_too_large', `tab ${tabName(t.key)}: the page is too large to capture: its snapshot (DOMSnapshot.captureSnapshot) did not come back within ${LIMITS.cdpCommandMs} ms, and it is this capture, not a script of the page, that keeps the page's main thread busy; wait for it to answer, then ${TOO_LARGE_WAY_ON}`);
        }
        if (e instanceof ToolError) throw e;
        last = e;
        await sleep(LIMITS.captureRetryMs);
      }
    }
    throw new ToolError('capture_failed', `could not capture tab ${tabName(t.key)} after ${LIMITS.captureAttempts} attempts: ${msg(last)}`);
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
      if (!t) return await this.#delivered(await decl.handler(/** @type {any} */ (null), full, ctx));
      const ends = decl.ends?.(args);
      if (ends) t.stop(ends);
      // Every call on a tab runs in its queue, one at a time, and an open dialog is checked here
      // only: each tool declares whether it blocks the tool or is what the tool answers.
      const id = call.id ?? null;
      const waiting = { why: /** @type {string | null} */ (null) };
      if (id !== null) this.#waiting.set(id, waiting);
      return await this.#delivered(await t.run(async () => {
        if (id !== null) this.#waiting.delete(id);
        if (waiting.why) throw new ToolError('cancelled', `${tool} did nothing: ${waiting.why} while it waited for the call before it on tab ${tabName(t.key)}`);
        if (t.dead) throw new ToolError(t.dead.code, t.dead.message);
        this.flow.endOrphan(t);
        const rule = typeof decl.dialog === 'function' ? decl.dialog(args) : decl.dialog;
        await this.#mayAttachAgain(t, rule);
        const d = t.dialog;
        if (d && rule === 'blocks') throw new ToolError('dialog_open', `a JavaScript ${d.type} is open in ${tabName(t.key)} (${quoteValue(d.message)}): answer it with dialog {accept, text?} first`);
        if (!d && rule === 'answers') throw new ToolError('no_dialog', `no JavaScript dialog is open in ${tabName(t.key)}`);
        if (d && rule === 'leaves') await this.flow.leaveDialog(t, tool);
        return decl.handler(t, full, ctx);
      }));
    } catch (e) {
      // Every message passes the last guard of the quoting rule (quote.js safeMessage): one line,
      // no '<' unescaped, whatever page text a path put in it.
      if (e instanceof ToolError) return { ok: false, error: { code: e.code, message: safeMessage(e.message) } };
      // The engine forgot a page under a call because its tab went away meanwhile (closed, the
      // debugger detached): the agent is told that, not the core's own wording.
      if (e && typeof e === 'object' && 'code' in e && e.code === 'unknown_page' && callTab?.dead) return { ok: false, error: { code: callTab.dead.code, message: safeMessage(callTab.dead.message) } };
      // A capture that came back but is over the core's input bound: the same page too large to
      // capture (on a faster machine the snapshot answers in time, and is then too big to take).
      if (isAthenaError(e) && e.code === 'input_too_large' && /: capture is \d+ /.test(String(e.message))) {
        return { ok: false, error: { code: 'page_too_large', message: safeMessage(`the page is too large to capture: ${e.message}; it is the page's size, not a script of the page; ${TOO_LARGE_WAY_ON}`) } };
      }
      if (isAthenaError(e)) return { ok: false, error: { code: String(e.code), message: safeMessage(refMessage(e)) } };
      return { ok: false, error: { code: 'internal', message: safeMessage(msg(e)) } };
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
    const name = args.tab ?? (typeof args.ref === 'string' ? await this.#tabOfRef(args.ref) : undefined);
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

  // ------------------------------------------------------------------ what an action opened
  /** @param {TabSession} t */
  async #openedNotes(t) {
    const { opened, past } = t.takeOpened();
    /** @type {string[]} */
    const out = [];
    for (const o of opened) {
      // Where the new tab is now: one that went to a page the user does not allow is let go.
      const tab = o.tabId === undefined ? null : await this.chrome.tabs.get(o.tabId).catch(() => null);
      const url = tab ? tab.pendingUrl || tab.url : '';
      const why = o.tabId !== undefined && url ? checkUrl(this.policy, url) : null;
      if (o.tabId !== undefined && why && !why.ok) {
        await this.release(o.tabId, null);
        out.push(`this action opened a tab the agent may not control (${why.message})`);
      } else {
        out.push(`this action opened ${o.text}: use tabs select to act there`);
      }
    }
    if (past > 0) out.push(`this action opened ${past} more tab${past > 1 ? 's' : ''}, left open and not controlled: the agent takes over at most ${LIMITS.popupsAdoptedMax} of the tabs one action opens, and closes none of them (they stay in the user's browser); tabs list shows the tabs you control`);
    return groupRepeats(out);
  }
}

/**
 * The URL of every frame of a capture's frame trees, by frame id (taken before capFrames prunes them).
 * @param {import('./capture.js').Capture} cap
 */
function frameUrls(cap) {
  /** @type {Map<string, string>} */
  const urls = new Map();
  /** @param {import('./capture.js').FrameTree | undefined} tree */
  const walk = (tree) => {
    const f = tree?.frame;
    if (typeof f?.id === 'string' && typeof f.url === 'string') urls.set(f.id, f.url);
    for (const c of tree?.childFrames ?? []) walk(c);
  };
  walk(cap.frameTree);
  for (const o of cap.oopifs ?? []) walk(o.frameTree);
  return urls;
}

/**
 * Notes said more than once (an action that opened many tabs a policy refuses) as one line with
 * their count. @param {string[]} notes @returns {string[]}
 */
function groupRepeats(notes) {
  /** @type {Map<string, number>} */
  const counts = new Map();
  for (const n of notes) counts.set(n, (counts.get(n) ?? 0) + 1);
  return [...counts].map(([n, k]) => (k > 1 ? `${n} (${k} times)` : n));
}

/** What still works on a page too large to capture. */
const TOO_LARGE_WAY_ON = 'use read with a region or a ref (it reads text in the page, without a capture), or navigate to a smaller view of it (a page of results, a filtered list)';

/** An error the core threw (AthenaError of wasm/athena.mjs). @param {unknown} e @returns {e is {name: string, code: string, message: string}} */
function isAthenaError(e) {
  return !!e && typeof e === 'object' && 'code' in e && 'name' in e && e.name === 'AthenaError';
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
