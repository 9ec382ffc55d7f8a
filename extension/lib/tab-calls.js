// The call queue of one tab (TabSession's, extension/lib/tab-session.js): calls on the tab run one
// at a time, in order; the call running has an id (cancel finds it by it), may be cancelled or
// stopped, and is timed phase by phase for the action flow's timings. Owned by its TabSession,
// which reads and changes it only through these members.

export class TabCalls {
  /** Calls on this tab, one at a time: each starts when the one before has ended. @type {Promise<any>} */
  #queue = Promise.resolve();
  /** Calls waiting in the queue or running. */
  count = 0;
  /** How long the current call waited in the queue. */
  waitedMs = 0;
  // The current call (begun by `begin`, timed by `actionStarted`): read by stabilization,
  // wait_for, the action flow's timings and tabs the action opens.
  acting = false;
  /** @type {any} */
  callId = null;
  cancelled = false;
  /** @type {string | null} */
  cancelWhy = null;
  /** Milliseconds per phase of the current call, and per CDP method of its captures. @type {Record<string, number>} */
  #phases = {};
  /** @type {Record<string, number>} */
  #cdp = {};
  #captures = 0;
  /** What the act itself has to say (wait_for gave up, resize's new viewport): said in its FactPack. @type {string | null} */
  #actNote = null;

  /**
   * Runs fn after every call queued before. `fn` gets how long it waited.
   * @template R @param {(waitedMs: number) => Promise<R>} fn @returns {Promise<R>}
   */
  run(fn) {
    const queued = performance.now();
    this.count++;
    const run = this.#queue.then(() => {
      this.waitedMs = performance.now() - queued;
      return fn(this.waitedMs);
    }).finally(() => { this.count--; });
    this.#queue = run.catch(() => {});
    return run;
  }

  /** A call begins: its id, no cancel yet. @param {any} id */
  begin(id) {
    this.callId = id ?? null;
    this.cancelled = false;
    this.cancelWhy = null;
  }

  /** The agent cancelled the call (or it reached its deadline: `why`). @param {any} id @param {string | null} why @returns {boolean} whether it was this tab's */
  cancel(id, why) {
    if (id === null || id === undefined || this.callId !== id) return false;
    this.cancelled = true;
    this.cancelWhy = why;
    return true;
  }

  /** The action running (if any) stops waiting, as a cancel does: `why` says so. @param {string} why */
  stop(why) {
    if (!this.acting) return;
    this.cancelled = true;
    this.cancelWhy = why;
  }

  /** An action starts (ActionFlow.run): nothing timed, nothing captured yet. */
  actionStarted() {
    this.acting = true;
    this.#phases = { queue: this.waitedMs };
    this.#cdp = {};
    this.#captures = 0;
  }

  /** The action ended: what it cost (ActionFlow.timings). */
  actionEnded() {
    this.acting = false;
    return { phases: this.#phases, cdp: this.#cdp, captures: this.#captures };
  }

  /** ms spent in one phase of the current call. @param {string} phase @param {number} ms */
  addPhase(phase, ms) { this.#phases[phase] = (this.#phases[phase] ?? 0) + ms; }
  /** ms one CDP method of a capture took in the current call. @param {string} method @param {number} ms */
  addCdp(method, ms) { this.#cdp[method] = (this.#cdp[method] ?? 0) + ms; }
  /** The current call took a capture. */
  countCapture() { this.#captures++; }

  /** What the act has to say: said in its FactPack. @param {string} note */
  actNote(note) { this.#actNote = note; }
  /** That note, once. */
  takeActNote() {
    const n = this.#actNote;
    this.#actNote = null;
    return n;
  }
}
