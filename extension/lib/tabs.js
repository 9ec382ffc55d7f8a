// Tabs and browser contexts the agent controls, each named c{context}p{page}. Page indices are
// never reused, not even across service-worker restarts (the counter lives in
// chrome.storage.session). Refs (e{n}, extension/lib/ref.js) name no tab: the engine knows which
// tab issued one.
import { FIELD } from './ref.js';

/** @typedef {{context: number, page: number}} PageKey */

/** "c0p3" for a page key. @param {PageKey} k */
export const tabName = (k) => `c${k.context}p${k.page}`;

const TAB_NAME = new RegExp(`^c${FIELD}p${FIELD}$`);

/**
 * Parses a tab's name, "c0p3".
 * @param {unknown} s
 * @returns {PageKey | null}
 */
export function parseTabName(s) {
  const tab = typeof s === 'string' ? TAB_NAME.exec(s) : null;
  return tab ? { context: Number(tab[1]), page: Number(tab[2]) } : null;
}

/** Context index of a Chrome tab: 0 normal, 1 incognito. @param {{incognito?: boolean}} tab */
export const contextOf = (tab) => (tab.incognito ? 1 : 0);

/**
 * @typedef {{tabId: number, key: PageKey, session: string, formerly?: string, reason?: string}} TabRecord
 * @typedef {{nextPage: Record<string, number>, tabs: TabRecord[]}} TabMapState
 */

export class TabMap {
  /** @type {Map<number, TabRecord>} */
  byTab = new Map();
  /** @type {Map<string, number>} tab name (current or former) -> tabId */
  byName = new Map();
  /** @type {Record<string, number>} */
  nextPage = {};

  /** @param {TabMapState} [state] */
  constructor(state) {
    if (state) {
      this.nextPage = { ...state.nextPage };
      for (const r of state.tabs) this.#put(r);
    }
  }

  /** @param {TabRecord} r */
  #put(r) {
    this.byTab.set(r.tabId, r);
    this.byName.set(tabName(r.key), r.tabId);
    if (r.formerly) this.byName.set(r.formerly, r.tabId);
  }

  /**
   * Gives a tab a fresh page index in its context (first time, or again after a restart).
   * @param {number} tabId @param {number} context @param {string} session
   * @param {{formerly?: string, reason?: string}} [extra]
   * @returns {TabRecord}
   */
  add(tabId, context, session, extra = {}) {
    const old = this.byTab.get(tabId);
    if (old) this.remove(tabId);
    const page = (this.nextPage[context] ?? 0) + 1;
    this.nextPage[context] = page;
    /** @type {TabRecord} */
    const r = { tabId, key: { context, page }, session, ...extra };
    this.#put(r);
    return r;
  }

  /** @param {number} tabId */
  remove(tabId) {
    const r = this.byTab.get(tabId);
    if (!r) return null;
    this.byTab.delete(tabId);
    for (const [n, t] of [...this.byName]) if (t === tabId) this.byName.delete(n);
    return r;
  }

  /** @param {string} name "c0p1" (current or former name) */
  byTabName(name) {
    const id = this.byName.get(name);
    return id === undefined ? null : this.byTab.get(id) ?? null;
  }

  /** @param {string} session */
  ofSession(session) {
    return [...this.byTab.values()].filter((r) => r.session === session);
  }

  /** @returns {TabMapState} */
  toJSON() {
    return { nextPage: { ...this.nextPage }, tabs: [...this.byTab.values()] };
  }

  /**
   * After a service-worker restart: every tab gets a new page index (the new engine restarts
   * its ref counters), remembering its former name and why.
   * @param {string} reason
   */
  renumberAll(reason) {
    for (const r of [...this.byTab.values()]) this.add(r.tabId, r.key.context, r.session, { formerly: tabName(r.key), reason });
  }
}
