// One file past 400 lines: the order of an action (pre-validate, resolve, act, settle, capture, FactPack) is the invariant, and it is kept in one place.
//
// The action flow (docs/design.md): the one module that calls the engine's beginAction,
// finishAction and abortAction. Per tab, one call at a time: pre-validate with the agent's
// version, resolve the ref, act, stabilize, capture, FactPack; JS dialogs hold an action until
// they are answered. Chrome is reached only through the injected FlowIO, so Node tests drive it
// with a fake engine and fake CDP (extension/test/action-flow.test.mjs).
import { LIMITS } from './limits.js';
import { quoteValue } from './quote.js';
import { tabName } from './tabs.js';
import { ToolError } from './tab-state.js';
import { findTool, TOOLS } from './tool-contract.js';
import { CALL_ID, dialogRule } from './tools/define.js';

/** @typedef {import('./tab-session.js').TabSession} TabSession */
/**
 * @typedef {{ok: boolean, text?: string, factpack?: any, version?: number, image?: {mime: string, data: string},
 *           error?: {code: string, message: string}}} Reply  ok true: text (+ factpack, version); ok false: error
 */
/**
 * What the flow needs from the browser and the agent.
 * @typedef {{
 *   engine: () => Promise<any>,
 *   engineIfLoaded: () => any,
 *   capture: (t: TabSession, signal?: AbortSignal) => Promise<{capture: any, warnings: string[], timings?: Record<string, number>}>,
 *   stabilize: (t: TabSession, o?: {navigation?: boolean}) => Promise<string[]>,
 *   watch: (t: TabSession) => Promise<void>,
 *   attach: (t: TabSession) => Promise<void>,
 *   tab: (tabId: number) => Promise<{url?: string, pendingUrl?: string} | null>,
 *   pageAllowed: (url: string) => {ok: true} | {ok: false, code: string, message: string},
 *   openedNotes: (t: TabSession) => Promise<string[]>,
 *   send: (t: TabSession, method: string, params?: any) => Promise<any>,
 *   sleep: (ms: number) => Promise<void>,
 * }} FlowIO
 */

/**
 * page_busy (extension/lib/tab-session.js), said with what became of the call; other errors as
 * they are. @param {unknown} e @param {string} what
 */
function busyWith(e, what) {
  return e instanceof ToolError && e.code === 'page_busy' ? new ToolError('page_busy', `${what}: ${e.message}`) : e;
}

/** Milliseconds since an arbitrary origin. */
const now = () => (globalThis.performance ? globalThis.performance.now() : Date.now());

// Where a call's wire id travels with its arguments (declared beside the tools, which read it too).
export { CALL_ID };

/**
 * The declaration of the tool a flow runs for (its `kind`): what the flow does differently for a
 * tool is read from it (extension/lib/tools/define.js ToolDecl), never from the tool's name.
 * @param {string} kind @returns {import('./tools/define.js').ToolDecl}
 */
function declOf(kind) {
  const d = findTool(kind);
  if (!d) throw new Error(`the action flow runs tools only: no tool is named ${JSON.stringify(kind)}`);
  return d;
}

/** Whether the tool leaves the page through any dialog it opens (its dialog rule 'leaves'). @param {import('./tools/define.js').ToolDecl} d @param {any} args */
const leavesPage = (d, args) => dialogRule(d, args) === 'leaves';

/** The navigation that leaves a busy (or crashed) page for any address: the way on named when one cannot. */
const LEAVES_BUSY = TOOLS.find((d) => d.navigates && d.revivesCrashed && leavesPage(d, {}));
/** The tool whose call answers a JavaScript dialog (its dialog rule 'answers'): its answer is its own action. */
const DIALOG_ANSWER = TOOLS.find((d) => typeof d.dialog !== 'function' && d.dialog === 'answers');

export class ActionFlow {
  /** @param {FlowIO} io */
  constructor(io) {
    this.io = io;
    /**
     * Where the time of the latest calls went, newest last (at most LIMITS.timingsKept): per
     * phase (queue, attach, capture, engine, act, stabilize) and per CDP call of the captures.
     * The agent-flow benchmark reads it (bench/flows.mjs, "Where a step's time goes").
     * @type {Array<{tool: string, ms: number, phases: Record<string, number>, cdp: Record<string, number>, captures: number}>}
     */
    this.timings = [];
  }

  /** Runs fn, adding its duration to phase of tab t's current call. @template R @param {TabSession} t @param {string} phase @param {() => R} fn @returns {R} */
  #timed(t, phase, fn) {
    const t0 = now();
    const add = () => t.addPhase(phase, now() - t0);
    const r = fn();
    if (r instanceof Promise) return /** @type {R} */ (/** @type {unknown} */ (r.finally(add)));
    add();
    return r;
  }

  /**
   * A capture, timed, its CDP calls summed by method; null when a JavaScript dialog opened first (a
   * dialog blocks the page's renderer, so the capture would wait for it until its CDP bound, times
   * its attempts: an alert loop made every dialog answer take 45 s).
   * @param {TabSession} t
   */
  async #capture(t) {
    t.countCapture();
    const abandon = new AbortController();
    const capturing = this.#timed(t, 'capture', () => this.io.capture(t, abandon.signal));
    capturing.catch(() => {});  // settles once abandoned, after a dialog won the race
    const r = await t.race(capturing, { dialog: null });
    if (r === null) { abandon.abort(); return null; }
    for (const [k, ms] of Object.entries(r.timings ?? {})) {
      if (k === 'total') continue;
      const method = k.replace(/^oopif\d+\./, 'oopif.');
      t.addCdp(method, ms);
    }
    return r;
  }

  /**
   * A full snapshot taken because the engine holds nothing for this tab, or a navigation's
   * baseline; `inDocument`: the step may stay in the document the agent holds (a history entry
   * of a single-page app), and then the engine answers the delta from what the agent holds.
   * @param {TabSession} t @param {string} kind @param {string[]} warnings @param {boolean} [inDocument]
   */
  async baseline(t, kind, warnings, inDocument = false) {
    const decl = declOf(kind);
    const engine = await this.io.engine();
    const cap = await this.#capture(t);
    if (!cap) return null;
    // A navigation's capture follows its stabilization: the page as of that mark.
    t.markCapture(decl.navigates ? t.settledMark : null);
    const pack = this.#timed(t, 'engine', () => {
      engine.openPage(t.key);
      return engine.snapshot(t.key, cap.capture, { kind, warnings: [...warnings, ...cap.warnings], collapseUnchanged: decl.collapsesUnchanged, ...(inDocument ? { inDocument } : {}) });
    });
    t.baselineTaken();
    return pack;
  }

  /**
   * The action flow (docs/design.md): pre-validate, resolve, act, stabilize, FactPack.
   * @param {TabSession} t @param {string} kind @param {any} args
   * @param {((target: any) => Promise<void>) | null} act null: no action (snapshot)
   * @param {{ref?: boolean, inDocument?: boolean}} [o] inDocument: a navigation that may stay in the
   *   document (back, forward: a single-page app's history), answered as a delta when it does
   * @returns {Promise<Reply>}
   */
  async run(t, kind, args, act, o = {}) {
    // Called in the tab's queue (the dispatcher's, agent.js): nothing else runs on t meanwhile.
    t.actionStarted();
    const start = now();
    try { return await this.runNow(t, kind, args, act, o); } finally {
      const spent = t.actionEnded();
      this.timings.push({ tool: kind, ms: now() - start + (spent.phases.queue ?? 0), ...spent });
      if (this.timings.length > LIMITS.timingsKept) this.timings.shift();
    }
  }

  /** @param {TabSession} t @param {string} kind @param {any} args @param {any} act @param {{ref?: boolean, inDocument?: boolean}} o */
  async runNow(t, kind, args, act, o) {
    const decl = declOf(kind);
    if (t.dead) throw new ToolError(t.dead.code, t.dead.message);
    if (t.crashed && !decl.revivesCrashed) throw new ToolError('renderer_crashed', `the page in tab ${tabName(t.key)} crashed: call reload or navigate to continue`);
    const tab = await this.io.tab(t.tabId);
    if (!tab) throw new ToolError('tab_closed', `tab ${tabName(t.key)} was closed`);
    // Leaving a page is always allowed (back and forward check where they lead).
    if (!leavesPage(decl, args)) {
      const ok = this.io.pageAllowed(tab.url || tab.pendingUrl || 'about:blank');
      if (!ok.ok) throw new ToolError(ok.code, ok.message);
    }
    await this.#timed(t, 'attach', () => this.io.attach(t));
    const engine = await this.io.engine();
    t.beginCall(args[CALL_ID]);
    /** @type {string[]} */
    const notes = [];
    const fullReason = t.takeFullReason();
    if (fullReason) notes.push(fullReason);
    notes.push(...t.takeNotes());

    // Navigations and snapshots are baselines: a full FactPack.
    if (decl.baseline || !t.hasBaseline) {
      if (!decl.baseline) {
        notes.push(`${kind} was not executed: the extension holds no state for tab ${tabName(t.key)}; here is a full snapshot, act on its refs`);
      }
      try {
        if (act && decl.navigates && leavesPage(decl, args)) {
          // A dialog the page opens blocks its renderer: the watch is not waited for then; a
          // crashed renderer would never answer it.
          if (!t.crashed) await this.#timed(t, 'act', () => t.race(this.io.watch(t), { dialog: null }));
          t.expectLoad();
          await this.#timed(t, 'act', () => this.#leave(t, kind, act(null)));
          notes.push(...t.takeNotes());
        } else if (act && decl.navigates) {
          if (!t.crashed) await this.#timed(t, 'act', () => this.io.watch(t));
          t.expectLoad();
          await this.#timed(t, 'act', () => act(null));
        }
        const warnings = decl.navigates ? await this.#timed(t, 'stabilize', () => this.io.stabilize(t, { navigation: true })) : [];
        if (t.dialog) return this.dialogReply(t);
        const pack = await this.baseline(t, kind, [...notes, ...warnings, ...await this.io.openedNotes(t)], Boolean(o.inDocument) && t.hasBaseline);
        return pack ? reply(pack) : this.dialogReply(t);
      } catch (e) {
        if (!decl.navigates) throw e;
        // A page of the same site loads in the same renderer: one a script holds answers nothing,
        // and a new tab gets a renderer of its own. A page that crashes its renderer as it loads
        // would crash it again on reload.
        if (e instanceof ToolError && e.code === 'renderer_crashed') throw new ToolError('renderer_crashed', `${kind}: the page crashed its renderer as it loaded (the browser gave up on it; nothing of it can be shown); navigate elsewhere to go on in tab ${tabName(t.key)}`);
        const why = leavesPage(decl, args) ? `about:blank did not commit within ${LIMITS.leaveHopMs} ms` : `${kind} stays in the busy page's renderer; ${LEAVES_BUSY?.name} leaves it through about:blank`;
        throw busyWith(e, `${kind} was begun, but the busy page has not let go (${why}; to open the page at once use tabs {action: "new", url})`);
      }
    }

    // Pre-validation with the agent's version.
    const agentVersion = args.version === undefined || args.version === null ? null : args.version;
    if (agentVersion !== null && !(Number.isInteger(agentVersion) && agentVersion >= 0)) throw new ToolError('bad_arguments', `${kind}: version must be the version number of your last FactPack`);
    // The page's watcher starts before anything else (its time counts as the action's). A page
    // that has not changed since the last capture (same document, no mutation, input, scroll or
    // resize seen, no out-of-process frame it cannot see into) is not captured again.
    if (act) await this.#timed(t, 'act', () => this.io.watch(t));
    const reused = act ? t.reusableCapture() : null;
    t.markCapture(null);
    const before = reused ? { capture: reused } : await this.#capture(t).catch((e) => { throw busyWith(e, `${kind} was not done`); });
    if (!before) return this.dialogReply(t);  // nothing begun: the dialog is the page's, before the action
    const pre = this.#timed(t, 'engine', () => engine.beginAction(t.key, before.capture, agentVersion));
    if (pre.freshness === 'stale_no_history') {
      return { ...reply(pre.pack), text: `<not_executed reason="stale_version" yours="${agentVersion}" current="${pre.currentVersion}">${kind} was not executed: your page state is too old to reconcile. Here is the current page; retry with its refs.</not_executed>\n${pre.pack.text}` };
    }
    let target = null;
    try {
      if (o.ref) {
        if (typeof args.ref !== 'string') throw new ToolError('bad_arguments', `${kind} needs a ref (like e5) from your last FactPack`);
        target = this.resolve(t, kind, args.ref, decl.refusesDisabled);
      }
      if (act) {
        const acting = act(target);
        const first = await this.#timed(t, 'act', () => t.race(acting.then(() => 'done'), { dialog: 'dialog' }));
        if (first === 'dialog') {
          t.hold({ kind, acting: acting.catch(() => {}), notes });
          return this.dialogReply(t);
        }
      }
    } catch (e) {
      engine.abortAction(t.key);
      throw busyWith(e, `${kind} was begun and the page may still act on it`);
    }
    const actNote = t.takeActNote();
    if (actNote) notes.push(actNote);
    return this.finish(t, kind, notes, []);
  }

  /**
   * The live target of a ref the agent holds, inside an action (between beginAction and its end):
   * refused when it is a frame the policy withholds, or disabled when `enabled` is asked. Tools
   * that act on several refs (fill_form, drag) resolve each through it.
   * @param {TabSession} t @param {string} kind @param {string} ref @param {boolean} enabled
   */
  resolve(t, kind, ref, enabled) {
    const engine = this.io.engineIfLoaded();
    const target = this.#timed(t, 'engine', () => engine.resolve(t.key, ref));
    if (t.withheldOwners.has(target.backendNodeId))
      throw new ToolError('blocked_origin', `${ref} is a frame whose content the user's policy withholds: the agent may not act in it`);
    if (enabled && target.disabled) throw new ToolError('element_disabled', `${ref} (${target.role} ${quoteValue(target.name)}) is disabled: ${kind} refused`);
    return target;
  }

  /** After acting: stabilize, capture, FactPack. @param {TabSession} t @param {string} kind @param {string[]} notes @param {string[]} extra */
  async finish(t, kind, notes, extra) {
    const engine = await this.io.engine();
    try {
      const warnings = await this.#timed(t, 'stabilize', () => this.io.stabilize(t));
      if (t.dialog) { t.hold({ kind, acting: Promise.resolve(), notes }); return this.dialogReply(t); }
      const mark = t.settledMark;
      const after = await this.#capture(t);
      if (!after) { t.hold({ kind, acting: Promise.resolve(), notes }); return this.dialogReply(t); }
      t.markCapture(mark);
      const opened = await this.io.openedNotes(t);
      const pack = this.#timed(t, 'engine', () => engine.finishAction(t.key, after.capture, { kind, warnings: [...notes, ...extra, ...warnings, ...after.warnings, ...opened] }));
      return reply(pack);
    } catch (e) {
      try { engine.abortAction(t.key); } catch { /* not in an action */ }
      throw busyWith(e, `${kind} was done`);
    }
  }

  /**
   * Ends the action a dialog held when the page or the user closed that dialog (not the agent):
   * the engine's action is aborted (no version of it is delivered), and the tab's next FactPack
   * says so; what the action changed shows there, as a change from the agent's version. Called in
   * the tab's queue before every call (agent.js dispatch).
   * @param {TabSession} t
   */
  endOrphan(t) {
    const o = t.takeOrphan();
    if (!o) return;
    const engine = this.io.engineIfLoaded();
    if (engine && t.hasBaseline) try { engine.abortAction(t.key); } catch { /* not in an action */ }
    t.note(`the ${o.dialog.type} ${quoteValue(o.dialog.message)} that held your ${o.held.kind} was closed by the page or the user, not by a dialog answer: that ${o.held.kind} ended there, and what it changed is in this FactPack`);
  }

  /**
   * A navigation that leaves the page (navigate, back, forward) under way: every dialog the page
   * opens meanwhile is answered as `leaveDialog` does (a beforeunload prompt the navigation itself
   * raises, the next alert of a loop), at most LIMITS.leaveDialogsMax, since the navigation cannot
   * go on while one blocks the renderer (it waited out its CDP bound, and the next call with it).
   * @param {TabSession} t @param {string} kind @param {Promise<void>} acting
   */
  async #leave(t, kind, acting) {
    acting.catch(() => {});  // settles after a dialog won the race; awaited below
    for (let answered = 0; answered < LIMITS.leaveDialogsMax; answered++) {
      if (await t.race(acting.then(() => 'done'), { dialog: 'dialog' }) === 'done') return;
      // Chrome may have closed it itself as the navigation began ("No dialog is showing").
      await this.leaveDialog(t, kind, { under: true }).catch((e) => { if (e instanceof ToolError) throw e; t.dialogClosed(); });
    }
    await acting;
  }

  /**
   * A call that leaves the page (navigate, back, forward) finds a dialog open: it answers it on
   * the way (a beforeunload prompt accepted, so the page may go; any other dialog dismissed), ends
   * the action the dialog held (aborted in the engine: no version of it is delivered), and the
   * next FactPack says what was done. Called in the tab's queue (agent.js dispatch). A dialog
   * dismissed on the way out may be the first of a loop: the navigation goes through about:blank
   * (leaveHeld).
   * @param {TabSession} t @param {string} tool @param {{under?: boolean}} [o] under: the navigation is already under way
   */
  async leaveDialog(t, tool, o = {}) {
    const d = t.dialog;
    if (!d) return;
    const accept = d.type === 'beforeunload';
    if (!accept && !o.under) t.leaveThroughBlank();
    const held = t.answering();
    await this.io.send(t, 'Page.handleJavaScriptDialog', { accept });
    t.answered();
    const engine = this.io.engineIfLoaded();
    if (held && engine && t.hasBaseline) try { engine.abortAction(t.key); } catch { /* not in an action */ }
    t.note(`the ${d.type} ${quoteValue(d.message)} was ${accept ? 'accepted' : 'dismissed'} so that ${tool} could leave the page${held ? `; the ${held.kind} it held ended there` : ''}`);
  }

  /**
   * The first step of a navigation that leaves the page (navigate, back, forward; their acts in
   * extension/lib/tools/navigation.js): a page a dialog loop or its own script holds is left
   * through about:blank (hop), and the FactPack says so, with `how` the navigation went on.
   * Chrome loads a page of the same site in the same renderer: a loop from timers would raise its
   * next dialog before the new page commits, and a script that never returns would hold it for
   * ever. Whether it went through about:blank.
   * @param {TabSession} t @param {string} tool @param {string} [how]
   */
  async leaveHeld(t, tool, how = '') {
    if (!(t.takeThroughBlank() || t.busy) || t.crashed || !await this.hop(t)) return false;
    t.note(`${tool} left the page through about:blank (a renderer of its own, which the page could not hold)${how}: back now leads to about:blank`);
    return true;
  }

  /**
   * Sends the tab to about:blank, which the browser gives a renderer of its own: a page that holds
   * its renderer (a script that does not return, a dialog loop) cannot hold the next page, as it
   * would one of its own site. Whether about:blank committed within LIMITS.leaveHopMs; then its
   * load is waited for too (within the same bound), so that the next command finds it the page the
   * tab's debugger is attached to.
   * @param {TabSession} t @returns {Promise<boolean>}
   */
  async hop(t) {
    const committed = t.nextCommit(LIMITS.leaveHopMs);
    this.io.send(t, 'Page.navigate', { url: 'about:blank' }).catch(() => {});
    if ((await committed) !== 'about:blank') return false;
    await t.stoppedLoading(LIMITS.leaveHopMs);
    return true;
  }

  /** The page is blocked by a JS dialog: tell the agent. @param {TabSession} t @returns {Reply} */
  dialogReply(t) {
    const d = t.dialog ?? { type: 'alert', message: '' };
    return {
      ok: true,
      text: `<dialog tab="${tabName(t.key)}" type="${d.type}" message=${quoteValue(d.message)}${d.type === 'prompt' ? ` default=${quoteValue(d.defaultPrompt ?? '')}` : ''}>The page is blocked by a JavaScript ${d.type}: answer it with dialog {accept: true|false${d.type === 'prompt' ? ', text' : ''}}.</dialog>`,
      factpack: { type: 'dialog', dialog: { ...d } },
      // The last version the agent was delivered: the dialog changes no FactPack state.
      version: this.deliveredVersion(t),
    };
  }

  /** @param {TabSession} t @returns {number} 0 before the first FactPack of the tab */
  deliveredVersion(t) {
    const engine = this.io.engineIfLoaded();
    if (!engine || !t.hasBaseline) return 0;
    try { return engine.stats(t.key).deliveredVersion; } catch { return 0; }
  }

  /**
   * dialog {accept, text?}: answers the JS dialog open in tab t, in its queue (the dispatcher
   * checked that one is open).
   * @param {TabSession} t @param {any} args
   */
  async answerDialog(t, args) {
    const d = t.dialog;
    if (!d) throw new ToolError('no_dialog', `no JavaScript dialog is open in ${tabName(t.key)}`);
    if (typeof args.accept !== 'boolean') throw new ToolError('bad_arguments', 'dialog: accept must be true or false');
    // The held action is taken before answering: the page's 'dialog closed' may come before the
    // answer's reply, and must not be taken for the page closing it by itself.
    const held = t.answering();
    try {
      await this.io.send(t, 'Page.handleJavaScriptDialog', { accept: args.accept, ...(typeof args.text === 'string' ? { promptText: args.text } : {}) });
    } catch (e) {
      if (held && t.dialog) t.hold(held);
      throw e;
    }
    t.answered();
    // The page's message (and the agent's own text) are quoted values: no quote in them ends one.
    const note = `answered the ${d.type} ${quoteValue(d.message)} with ${args.accept ? 'accept' : 'dismiss'}${typeof args.text === 'string' && d.type === 'prompt' ? ` and text ${quoteValue(args.text)}` : ''}`;
    const engine = await this.io.engine();
    if (held) {
      await Promise.race([held.acting, this.io.sleep(LIMITS.stabilizeCapMs)]);
      return this.finish(t, held.kind, held.notes, [note]);
    }
    const notes = t.takeNotes();
    const kind = DIALOG_ANSWER?.name ?? '';
    if (!t.hasBaseline) {
      const pack = await this.baseline(t, kind, [...notes, note]);
      return pack ? reply(pack) : this.dialogReply(t);
    }
    // A dialog the page opened by itself: the drift shows up in this result; the next one of a
    // loop is answered at once.
    const warnings = await this.io.stabilize(t);
    if (t.dialog) { for (const n of [...notes, note]) t.note(n); return this.dialogReply(t); }
    const abandon = new AbortController();
    const capturing = this.io.capture(t, abandon.signal);
    capturing.catch(() => {});
    const cap = await t.race(capturing, { dialog: null });
    if (!cap) { abandon.abort(); for (const n of [...notes, note]) t.note(n); return this.dialogReply(t); }
    engine.beginAction(t.key, cap.capture, null);
    return reply(engine.finishAction(t.key, cap.capture, { kind, warnings: [...notes, note, ...warnings] }));
  }
}

/**
 * A FactPack's answer: its text, and its JSON for a structured client. The JSON is parsed only
 * when read: extension/lib/native.js drops it unread for the other clients. Over
 * LIMITS.structuredFactpackMaxBytes it says how large it was instead.
 * @param {any} pack FactPackResult @returns {Reply}
 */
export function reply(pack) {
  /** @type {any} */ let factpack;
  return {
    ok: true, text: pack.text, version: pack.version,
    get factpack() { return (factpack ??= boundedFactpack(pack)); },
  };
}

/** @param {any} pack FactPackResult */
function boundedFactpack(pack) {
  const max = LIMITS.structuredFactpackMaxBytes;
  // Encoded only when it could be over (3 bytes a UTF-16 unit at most).
  const bytes = pack.json.length * 3 <= max ? 0 : new TextEncoder().encode(pack.json).length;
  if (bytes <= max) return JSON.parse(pack.json);
  return {
    type: pack.type, version: pack.version,
    omitted: `this FactPack's JSON is ${bytes} bytes, over the ${max}-byte bound of structured results: the text content is the FactPack (trimmed to the token budget; its gap lines name the find calls that list the rest)`,
  };
}
