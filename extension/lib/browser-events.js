// What Chrome tells of the agent's tabs, and what it means for them: CDP events (kept by each
// TabSession, fed to the core, a crashed renderer renumbered), the debugger taken away (the call in
// flight answers it; the next call attaches again where the policy allows), tabs closed, and the
// tabs an action opened (adopted up to a bound, named in its FactPack). The Agent owns one and
// hands it Chrome's events (extension/lib/agent.js); it acts through the narrow EventsIO, never
// the agent itself.
import { CORE_EVENTS } from './capture.js';
import { LIMITS } from './limits.js';
import { checkUrl } from './policy.js';
import { quoteValue } from './quote.js';
import { contextOf, tabName } from './tabs.js';
import { ToolError } from './tab-state.js';
import { msg } from './tools/define.js';

/**
 * @typedef {import('./tab-session.js').TabSession} TabSession
 * @typedef {import('./tabs.js').PageKey} PageKey
 * @typedef {{
 *   tabs: Map<number, TabSession>,
 *   shared: Set<number>,
 *   tabMap: () => import('./tabs.js').TabMap,
 *   engine: () => any,
 *   policy: () => import('./policy.js').Policy,
 *   chrome: any,
 *   release: (tabId: number, why: {code: string, message: string} | null, o?: {detach?: boolean}) => Promise<void>,
 *   newTab: (tabId: number, key: PageKey, session: string) => TabSession,
 *   save: () => Promise<void>,
 *   log: (s: string) => void,
 * }} EventsIO
 */

export class BrowserEvents {
  /** @param {EventsIO} io */
  constructor(io) {
    this.io = io;
  }

  /** chrome.debugger.onEvent. @param {{tabId?: number, sessionId?: string}} source @param {string} method @param {any} params */
  onDebuggerEvent(source, method, params) {
    const t = source.tabId === undefined ? undefined : this.io.tabs.get(source.tabId);
    if (!t || t.dead) return;
    const engine = this.io.engine();
    const sid = source.sessionId;
    // What the tab keeps (requests, dialogs, loading, frames) is the TabSession's own.
    t.onEvent(method, params, sid);
    switch (method) {
      case 'Inspector.targetCrashed':
        if (!sid) {
          if (engine && t.hasBaseline) try { engine.closePage(t.key); } catch { /* gone */ }
          t.crash(`the page in tab ${tabName(t.key)} crashed (renderer gone): call reload or navigate to continue`);
          // A new page index: refs from before the crash can never alias elements after it.
          const former = tabName(t.key);
          const key = this.io.tabMap().add(t.tabId, t.key.context, t.session, { formerly: former, reason: 'renderer crashed' }).key;
          t.renumber(key, `the page crashed and was reloaded: tab ${former} is now ${tabName(key)}, refs from before are invalid`);
          this.io.save();
        }
        break;
      default: break;
    }
    if (CORE_EVENTS.has(method) && engine && t.hasBaseline && !t.aboutLeftOutFrame(method, params)) {
      try { engine.onEvent(t.key, JSON.stringify({ method, params })); } catch (e) { this.io.log(`core refused ${method}: ${msg(e)}`); }
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
    const t = source.tabId === undefined ? undefined : this.io.tabs.get(source.tabId);
    if (!t || t.dead) return;
    const name = tabName(t.key);
    const said = reason === 'canceled_by_user' ? 'the user cancelled the "is debugging this browser" bar' : `Chrome: ${reason}`;
    const why = { code: 'debugger_detached', message: `the debugger was detached from tab ${name} (${said}): the call in flight stopped and nothing more was done; the next call on ${name} attaches it again (the user sees the debugging bar again), or use tabs new to go on in a new tab` };
    if (reason !== 'target_closed') { t.debuggerLost(why, said); return; }
    // target_closed comes before tabs.onRemoved when the tab itself is closed: tell them apart.
    this.io.chrome.tabs.get(t.tabId).then(
      () => t.debuggerLost(why, said),
      () => this.onTabRemoved(t.tabId));
  }

  /**
   * The next call on a tab whose debugger Chrome took away attaches again only where the user's
   * policy lets the agent be; a tool that leaves the page (navigate, back, forward) goes on and
   * checks where it leads, and one that needs no page (find, tabs close) is no obstacle.
   * @param {TabSession} t @param {string | undefined} rule the tool's dialog rule ('leaves': it leaves the page; 'ignores': it needs no page)
   */
  async mayAttachAgain(t, rule) {
    const lost = t.lostDebugger;
    if (!lost || rule === 'leaves' || rule === 'ignores') return;
    const tab = await this.io.chrome.tabs.get(t.tabId).catch(() => null);
    if (!tab) throw new ToolError('tab_closed', `tab ${tabName(t.key)} was closed: navigate to a URL to go on in a new tab, or use tabs list to see the others`);
    const ok = checkUrl(this.io.policy(), tab.url || tab.pendingUrl || 'about:blank');
    if (!ok.ok) throw new ToolError('debugger_detached', `the debugger was detached from tab ${tabName(t.key)} (${lost.reason}) and is not attached again: ${ok.message}; once the tab is back on a page the agent may use, the next call attaches again; meanwhile use tabs new to go on in a new tab`);
  }

  /** chrome.tabs.onRemoved. @param {number} tabId */
  onTabRemoved(tabId) {
    this.io.shared.delete(tabId);
    const t = this.io.tabs.get(tabId);
    if (!t) return;
    this.io.release(tabId, { code: 'tab_closed', message: `tab ${tabName(t.key)} was closed: its state was dropped; navigate to a URL to go on in a new tab, or use tabs list to see the others` }, { detach: false });
  }

  /** chrome.tabs.onCreated: a controlled tab opened a new tab or popup. @param {any} tab */
  onTabCreated(tab) {
    // Only what the agent's own action opened: the user's new tabs (Chrome gives them the active
    // tab as opener too) are never taken over. A tab opened by a tab the action opened is the
    // action's too: Chrome names the tab active at that moment as the opener, and a page's
    // window.open makes each new tab active in turn.
    const opener = [...this.io.tabs.values()].find((t) => t.acting && !t.dead && (t.tabId === tab.openerTabId || t.opens(tab.openerTabId)));
    if (!opener) return;
    opener.tabOpened(tab.id);
    // Past the first few, what an action opens stays open, counted, not controlled: its page is
    // the user's business, and nothing of the user's browser is closed.
    if (opener.adoptedCount >= LIMITS.popupsAdoptedMax) { opener.openedPast(); return; }
    const url = tab.pendingUrl || tab.url;
    // Not adopted, and nothing of it named but the policy's reason (not its URL nor its title).
    const why = url ? checkUrl(this.io.policy(), url) : null;
    if (why && !why.ok) { opener.openedTab({ text: `a tab the agent may not control (${why.message})` }); return; }
    if (!this.io.policy().allowNewTabs) { opener.openedTab({ text: 'a new tab (not controlled: the user does not allow the agent new tabs)' }); return; }
    if (this.io.tabMap().ofSession(opener.session).length >= LIMITS.maxTabsPerSession) {
      opener.openedTab({ text: `a new tab (not controlled: this agent already controls ${LIMITS.maxTabsPerSession} tabs; close some with tabs close)` });
      return;
    }
    const r = this.io.tabMap().add(tab.id, contextOf(tab), opener.session);
    this.io.tabs.set(tab.id, this.io.newTab(tab.id, r.key, opener.session));
    // A tab opened by script often has no URL yet: it is checked again when the action answers.
    opener.openedTab({ tabId: tab.id, text: `tab ${tabName(r.key)}${url ? ` at ${quoteValue(url)}` : ''}` });
    this.io.save();
  }

  /**
   * What an action opened, as notes of its FactPack: a tab that went to a page the user does not
   * allow is let go; past the first few, they are counted.
   * @param {TabSession} t
   */
  async openedNotes(t) {
    const { opened, past } = t.takeOpened();
    /** @type {string[]} */
    const out = [];
    for (const o of opened) {
      // Where the new tab is now: one that went to a page the user does not allow is let go.
      const tab = o.tabId === undefined ? null : await this.io.chrome.tabs.get(o.tabId).catch(() => null);
      const url = tab ? tab.pendingUrl || tab.url : '';
      const why = o.tabId !== undefined && url ? checkUrl(this.io.policy(), url) : null;
      if (o.tabId !== undefined && why && !why.ok) {
        await this.io.release(o.tabId, null);
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
 * Notes said more than once (an action that opened many tabs a policy refuses) as one line with
 * their count. @param {string[]} notes @returns {string[]}
 */
function groupRepeats(notes) {
  /** @type {Map<string, number>} */
  const counts = new Map();
  for (const n of notes) counts.set(n, (counts.get(n) ?? 0) + 1);
  return [...counts].map(([n, k]) => (k > 1 ? `${n} (${k} times)` : n));
}
