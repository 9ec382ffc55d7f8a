// The tabs one action opened (TabSession's, extension/lib/tab-session.js): which are the action's
// (a tab they open in turn is too), which were adopted (at most LIMITS.popupsAdoptedMax), and how
// many were left open past those; what to say of them in the action's FactPack. Owned by its
// TabSession, which starts it over at each call.

export class OpenedTabs {
  /** Tabs opened during the current action: what to say, and the tab if adopted. @type {Array<{text: string, tabId?: number}>} */
  #opened = [];
  /** Every tab the current action opened, adopted or not. @type {Set<number>} */
  #ids = new Set();
  /** Tabs the current action opened past LIMITS.popupsAdoptedMax: left open, not adopted, counted. */
  #past = 0;

  /** A call begins: nothing opened yet. */
  reset() {
    this.#opened = [];
    this.#ids.clear();
    this.#past = 0;
  }

  /** The current action opened a tab (adopted when `tabId` is given). @param {{text: string, tabId?: number}} o */
  add(o) { this.#opened.push(o); }
  /** The current action opened the tab `tabId`, whatever becomes of it. @param {number} tabId */
  opened(tabId) { this.#ids.add(tabId); }
  /** Whether the current action opened the tab `tabId`. @param {number | undefined} tabId */
  opens(tabId) { return tabId !== undefined && this.#ids.has(tabId); }
  /** Tabs the current action opened that were adopted. */
  get adoptedCount() { return this.#opened.filter((o) => o.tabId !== undefined).length; }
  /** One more tab than are adopted: left open, counted. */
  past() { this.#past++; }
  /** The tabs the current action opened (and how many past the adopted ones), once. @returns {{opened: Array<{text: string, tabId?: number}>, past: number}} */
  take() {
    const o = { opened: this.#opened, past: this.#past };
    this.#opened = [];
    this.#past = 0;
    return o;
  }
}
