// The one wasm engine of this browser, and the numbers of the refs it hands out: an engine of a
// service worker Chrome stopped and started again numbers its refs past every one an earlier
// worker's engine handed out (storage.session holds the floor), so a ref of before a restart can
// never name a new element, and is told apart from one never issued. The Agent owns one.
import { LIMITS } from './limits.js';
import { isRef, parseRef } from './ref.js';
import { ToolError } from './tab-state.js';
import { tabName } from './tabs.js';

export class BrowserEngine {
  /**
   * @param {{athena: Promise<any>, traces: import('./trace.js').TraceLog, save: () => Promise<void>}} io
   *   athena: the loaded wasm module; traces: what the core is fed, for the playground; save: the
   *   agent's state to storage.session (it holds refFloor)
   */
  constructor(io) {
    this.io = io;
    /** @type {any} */
    this.engine = null;
    /** @type {Promise<any> | null} */
    this.promise = null;
    /** Past every ref handed out, in this worker or an earlier one (storage.session): where the next engine starts. */
    this.refFloor = 1;
    /** Where this worker's engine started numbering: a ref below it is from before a restart. */
    this.firstRef = 1;
  }

  /** The floor an earlier worker saved. @param {unknown} floor */
  restoreFloor(floor) {
    if (typeof floor === 'number' && Number.isSafeInteger(floor) && floor > 0) this.refFloor = floor;
  }

  /** The engine, created once even when the first calls come together. */
  load() {
    // It numbers refs from past every one an earlier worker's engine handed out: a ref of before
    // a restart can never name a new element.
    this.promise ??= this.io.athena.then(async (athena) => {
      this.firstRef = this.refFloor;
      const engine = this.io.traces.wrap(athena.createEngine({ firstRef: this.firstRef }));
      this.refFloor += LIMITS.refBlock;
      await this.io.save();
      this.engine = engine;
      return engine;
    });
    return this.promise;
  }

  /**
   * The tab that issued a ref, by name: the engine numbers refs across all its tabs. A ref from
   * before the worker restarted has none: the call goes to the agent's current tab, whose answer
   * is the full snapshot saying so.
   * @param {string} ref @returns {Promise<string | undefined>}
   */
  async tabOfRef(ref) {
    if (!isRef(ref)) throw new ToolError('bad_arguments', `"${ref}" is not an element ref (like e5): use a ref from your last FactPack`);
    // No core (it failed to load): the call goes where it would without a ref, and says why there.
    const engine = await this.load().catch(() => null);
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
  async delivered(result) {
    const next = this.engine?.nextRef();
    if (next !== undefined && next >= this.refFloor) {
      this.refFloor = next + LIMITS.refBlock;
      await this.io.save();
    }
    return result;
  }
}
