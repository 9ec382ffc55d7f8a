// The waits in progress on one tab (TabSession's, extension/lib/tab-session.js): each raced
// against the tab's death (it rejects with why the agent lost the tab, the renderer crashed or
// Chrome took the debugger away) and, when asked, against a JavaScript dialog opening; each
// dropped as soon as its race settles. Owned by its TabSession.
import { ToolError } from './tab-state.js';

/** @typedef {import('./tab-modal.js').ModalState} ModalState */

export class TabWaits {
  /** Why the agent lost this tab (closed, released, stopped). @type {{code: string, message: string} | null} */
  dead = null;
  /** Waits in progress for the tab's death. @type {Set<(e: ToolError) => void>} */
  #deathWaiters = new Set();
  /** @type {ModalState} */
  #modal;

  /** @param {ModalState} modal the tab's dialogs, which a race may end */
  constructor(modal) { this.#modal = modal; }

  /** Every wait in progress rejects with `e`. @param {ToolError} e */
  reject(e) {
    for (const w of [...this.#deathWaiters]) w(e);
    this.#deathWaiters.clear();
  }

  /** Waits in progress, by kind. */
  get count() { return { death: this.#deathWaiters.size, dialog: this.#modal.waiters.size }; }

  /**
   * `p` raced against the tab's death (rejects with why) and, when `o` has `dialog`, a JS dialog
   * opening (resolves to `o.dialog`). Its waiters are dropped as soon as the race settles, so a
   * tab holds only those of the waits in progress, however long the session.
   * @template T, D @param {Promise<T>} p @param {{dialog?: D}} o @returns {Promise<T | D>}
   */
  async race(p, o) {
    if (this.dead) throw new ToolError(this.dead.code, this.dead.message);
    /** @type {(e: ToolError) => void} */
    let onDeath = () => {};
    /** @type {(d: any) => void} */
    let onDialog = () => {};
    /** @type {Promise<any>[]} */
    const racers = [p, new Promise((_, reject) => { onDeath = reject; this.#deathWaiters.add(onDeath); })];
    if ('dialog' in o) {
      racers.push(this.#modal.dialog ? Promise.resolve(o.dialog) : new Promise((resolve) => { onDialog = () => resolve(o.dialog); this.#modal.waiters.add(onDialog); }));
    }
    try {
      return await Promise.race(racers);
    } finally {
      this.#deathWaiters.delete(onDeath);
      this.#modal.waiters.delete(onDialog);
    }
  }

  /**
   * What the next call of a waiter in `waiters` is given, or `missed` when none came within `ms`
   * or the tab died meanwhile.
   * @template T @param {Set<(v: T) => void>} waiters @param {number} ms @param {T} missed @returns {Promise<T>}
   */
  waitOn(waiters, ms, missed) {
    /** @type {(v: T) => void} */
    let done = () => {};
    const p = new Promise((resolve) => { done = resolve; });
    const timer = setTimeout(() => done(missed), ms);
    waiters.add(done);
    return this.race(p, {}).catch(() => missed).finally(() => { clearTimeout(timer); waiters.delete(done); });
  }
}
