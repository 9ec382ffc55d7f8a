// Which tab a call acts on, and which tabs each session owns: a call's tab (its `tab` argument,
// else its ref's tab, else the session's current one, else a shared tab or, where the tool may
// open one, a new tab), the session's current tab, and a tab taken under a session (adopted) up to
// LIMITS.maxTabsPerSession, let go (released) and, after the user's stop and resume, taken again
// under a new page index. The Agent owns one (extension/lib/agent.js); it acts through the narrow
// OwnershipIO, never the agent itself.
import { LIMITS } from './limits.js';
import { contextOf, parseTabName, tabName } from './tabs.js';
import { ToolError } from './tab-state.js';

/**
 * @typedef {import('./tab-session.js').TabSession} TabSession
 * @typedef {import('./tabs.js').PageKey} PageKey
 * @typedef {{
 *   chrome: any,
 *   tabs: Map<number, TabSession>,
 *   shared: Set<number>,
 *   sessions: import('./agent-sessions.js').AgentSessions,
 *   tabMap: () => import('./tabs.js').TabMap,
 *   policy: () => import('./policy.js').Policy,
 *   engine: () => any,
 *   tabOfRef: (ref: string) => Promise<string | undefined>,
 *   newTab: (tabId: number, key: PageKey, session: string) => TabSession,
 *   save: () => Promise<void>,
 * }} OwnershipIO
 */

export class TabOwnership {
  /** @param {OwnershipIO} io */
  constructor(io) {
    this.io = io;
  }

  /**
   * The tab a call acts on: args.tab, else the ref's tab, else the session's current tab; with
   * create, a new tab when the session has none. It becomes the session's current tab, unless
   * keepCurrent (tabs close: closing another tab leaves the agent where it was).
   * @param {string} session @param {any} args @param {{create?: boolean, keepCurrent?: boolean}} [o]
   * @returns {Promise<TabSession>}
   */
  async tabFor(session, args, o = {}) {
    const { tabs, shared } = this.io;
    const tabMap = this.io.tabMap();
    const s = this.io.sessions.get(session);
    const name = args.tab ?? (typeof args.ref === 'string' ? await this.io.tabOfRef(args.ref) : undefined);
    let t;
    if (name !== undefined) {
      if (!parseTabName(name)) throw new ToolError('bad_arguments', `"${name}" is not a tab id (like c0p1)`);
      const r = tabMap.byTabName(name);
      t = r ? tabs.get(r.tabId) : undefined;
      if (!t) {
        const dead = [...tabs.values()].find((x) => tabName(x.key) === name && x.dead);
        if (dead?.dead) throw new ToolError(dead.dead.code, dead.dead.message);
        throw new ToolError('unknown_tab', `tab ${name} is not controlled by this agent (closed, released, or from before a restart): use tabs list`);
      }
      if (t.session !== session) throw new ToolError('unknown_tab', `tab ${name} belongs to another agent session`);
    } else if (s?.current != null && tabs.has(s.current) && !(o.create && tabs.get(s.current)?.dead?.code === 'tab_closed')) {
      t = tabs.get(s.current);
    } else {
      // The user closed the agent's tab: a tool that opens one (navigate) starts in a new tab and
      // says so, the way an agent starts anyway; the closed one's name still answers tab_closed.
      const closed = s?.current != null ? tabs.get(s.current) : undefined;
      if (closed?.dead?.code === 'tab_closed') { tabs.delete(closed.tabId); tabMap.remove(closed.tabId); }
      const sharedTab = [...shared].find((id) => !tabs.has(id));
      if (sharedTab !== undefined) {
        t = await this.adopt(session, sharedTab);
      } else if (o.create) {
        if (!this.io.policy().allowNewTabs) throw new ToolError('new_tabs_disabled', 'the agent has no tab and the user does not allow it to open one: ask the user to share a tab (extension popup)');
        const tab = await this.io.chrome.tabs.create({ url: 'about:blank', active: true });
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
    if (s && s.current !== t.tabId && !o.keepCurrent) { s.current = t.tabId; await this.io.save(); }
    return t;
  }

  /** The tab, taken under the session. @param {string} session @param {number} tabId */
  async adopt(session, tabId) {
    if (this.io.tabMap().ofSession(session).length >= LIMITS.maxTabsPerSession) throw new ToolError('too_many_tabs', `an agent may control at most ${LIMITS.maxTabsPerSession} tabs: close some with tabs close`);
    const tab = await this.io.chrome.tabs.get(tabId);
    const r = this.io.tabMap().add(tabId, contextOf(tab), session);
    const t = this.io.newTab(tabId, r.key, session);
    this.io.tabs.set(tabId, t);
    await this.io.save();
    return t;
  }

  /** The tab, adopted as the session's current one. @param {string} session @param {number} tabId */
  async adoptCurrent(session, tabId) {
    const t = await this.adopt(session, tabId);
    this.io.sessions.setCurrent(session, t.tabId);
    return t;
  }

  /** A new tab, the session's current one. @param {string} session */
  async openTab(session) {
    const tab = await this.io.chrome.tabs.create({ url: 'about:blank', active: true });
    return this.adoptCurrent(session, tab.id);
  }

  /** Tabs the user shared that no agent controls yet. @returns {number[]} */
  sharedTabs() {
    return [...this.io.shared].filter((id) => !this.io.tabs.has(id));
  }

  /**
   * Drops the agent's hold on a tab: engine state, debugger, records.
   * @param {number} tabId @param {{code: string, message: string} | null} why (null: quiet release)
   * @param {{detach?: boolean}} [o]
   */
  async release(tabId, why, o = { detach: true }) {
    const t = this.io.tabs.get(tabId);
    if (t) {
      t.kill(why);
      const engine = this.io.engine();
      if (engine && t.hasBaseline) try { engine.closePage(t.key); } catch { /* already gone */ }
      t.baselineDropped();
      await t.detach(o);
    }
    if (!why) { this.io.tabs.delete(tabId); this.io.tabMap().remove(tabId); }
    await this.io.save();
  }

  /**
   * A tab the user's stop released, the agent's again under a new page index (the engine forgot
   * it, so refs from before must never alias new elements) and with a full snapshot as its next
   * FactPack; forgotten when the tab was closed meanwhile.
   * @param {number} tabId @param {TabSession} t its released session
   */
  async revive(tabId, t) {
    const { tabs } = this.io;
    const tabMap = this.io.tabMap();
    const tab = await this.io.chrome.tabs.get(tabId).catch(() => null);
    if (!tab) { tabs.delete(tabId); tabMap.remove(tabId); return; }
    const former = tabName(t.key);
    const r = tabMap.add(tabId, t.key.context, t.session, { formerly: former, reason: 'the user stopped and resumed the agent' });
    const fresh = this.io.newTab(tabId, r.key, t.session);
    fresh.renumber(r.key, `the user stopped the agent and resumed it: tab ${former} is now ${tabName(r.key)}, refs from before are invalid; this is a full snapshot`);
    tabs.set(tabId, fresh);
  }
}
