// Tools that act on the page as a user's hands: click, hover, type, press, select, scroll,
// upload, and the answer to a JavaScript dialog. Each runs through the action flow
// (extension/lib/action-flow.js), which resolves the ref, acts, waits for the page to settle and
// answers with what changed. Before touching a ref, each looks first (extension/lib/actionability.js):
// nothing is pressed on an element that is hidden, moving, disabled or under something else.
import { Actionability, who } from '../actionability.js';
import { InputGuard } from '../input-guard.js';
import { charEvents, keyEvents } from '../keys.js';
import { LIMITS } from '../limits.js';
import { pageFunction } from '../page-code.js';
import { SCROLL_FN, SELECT_FN } from '../page-scripts.js';
import { prepareFill } from '../../page/input.js';
import { checkUpload } from '../policy.js';
import { ToolError } from '../tab-state.js';
import { quoteValue } from '../quote.js';
import { arg, defineTool, msg, oneOf, ref, str, strings } from './define.js';

/** @typedef {import('./define.js').ToolContext} ToolContext @typedef {import('../tab-session.js').TabSession} TabSession */

/**
 * The core's role and name of a node (with the ref the agent holds for it, if any): how the
 * action checks name what covers a target or holds the focus. Null without an engine or a line.
 * @param {ToolContext} ctx @param {TabSession} t @param {number} backendNodeId @param {string} frameId
 */
function describeNode(ctx, t, backendNodeId, frameId) {
  const engine = ctx.engine;
  if (!engine) return null;
  try {
    return engine.describeNode(t.key, backendNodeId, frameId);
  } catch { return null; /* the page is gone from the engine: the node is described by its tag */ }
}

/**
 * Looks before acting on a ref (extension/lib/actionability.js): the point to press, or a
 * ToolError that says what is in the way. `ctx.driver.actionability` is turned off only by
 * bench/actionability.mjs, to measure what the checks cost.
 * @param {ToolContext} ctx @param {TabSession} t @param {any} target @param {import('../actionability.js').CheckOptions} o
 * @param {Actionability} [look] the one that will also confirm the point (it keeps the viewport it saw)
 */
export async function ready(ctx, t, target, o, look = new Actionability(ctx.driver)) {
  // Off: what the tools did before looking (click and hover pressed at the box's centre).
  if (ctx.driver.actionability === false) return o.kind === 'click' || o.kind === 'hover' ? ctx.driver.point(t, target) : null;
  return look.check(t, target, { ...o, refOf: (bn, frameId) => describeNode(ctx, t, bn, frameId) });
}

/**
 * Focuses the ref before keys go to it. An element that cannot take focus (a heading, a text
 * line) is refused by name: the keys would go wherever the focus is.
 * @param {ToolContext} ctx @param {TabSession} t @param {any} target @param {'type' | 'press'} kind
 */
export async function focus(ctx, t, target, kind) {
  await ctx.send(t, 'DOM.focus', { backendNodeId: target.backendNodeId }, ctx.driver.sessionOf(t, target.frameId)).catch((e) => {
    if (e instanceof ToolError || !/not focusable/i.test(msg(e))) throw e;
    const what = kind === 'type' ? 'typed; type into a field (a textbox, searchbox or combobox)' : 'pressed; give the ref of a control, or no ref';
    throw new ToolError('not_focusable', `${kind}: ${who(target)} cannot take the focus: nothing was ${what}`);
  });
}

/** Page code (extension/page/input.js), as the text CDP runs. */
export const FILL_FN = pageFunction(prepareFill);


/** The key events of press's `keys`, or bad_arguments. @param {any} args */
function keysOf(args) {
  try { return keyEvents(args.keys); } catch (e) { throw new ToolError('bad_arguments', `press: ${msg(e)}`); }
}

/**
 * The pointer as a user's hand moves it, after looking (ready): to the element's visible point,
 * and for a press, down and up there. Frames the policy withheld are not drawn while the pointer
 * moves and presses: a frame that turns its pointer-events on between the look and the press
 * cannot take it. Once the pointer is there it is looked at again (Actionability.confirm): the
 * frame the move arrived in is the last one the box must have held still over (the look before
 * the move waited one frame fewer: Chromium delivers a move at the next frame once the page
 * produces frames, so a frame waited for before it would be paid twice), and for a press the
 * point itself again (the page may answer the pointer's arrival by putting something else there:
 * pointerover). An element that moved in that frame is looked at again from the start, within
 * LIMITS.actionStableAttempts.
 * @param {ToolContext} ctx @param {TabSession} t @param {any} target @param {string} kind @param {boolean} press
 */
async function pointerAt(ctx, t, target, kind, press) {
  const o = { kind, enabled: press, moves: true };
  const look = new Actionability(ctx.driver);
  const guard = new InputGuard(ctx.driver, (t2, bn) => describeNode(ctx, t2, bn, ''));
  for (let attempt = 1; ; attempt++) {
    const p = /** @type {{x: number, y: number}} */ (await ready(ctx, t, target, o, look));
    try {
      await guard.withWithheldHidden(t, async () => {
        await ctx.send(t, 'Input.dispatchMouseEvent', { type: 'mouseMoved', x: p.x, y: p.y });
        const on = ctx.driver.actionability !== false;
        const named = { ...o, hit: press, refOf: (/** @type {number} */ bn, /** @type {string} */ frameId) => describeNode(ctx, t, bn, frameId) };
        if (on) await look.confirm(t, target, p, named);
        if (!press) return;
        // From here to the release, a press the page gives to another element is cancelled in the
        // page (Actionability.guardPress): the look above is a moment before the press.
        const unguard = on ? await look.guardPress(t, target, named) : null;
        let sent = false;
        try {
          await ctx.send(t, 'Input.dispatchMouseEvent', { type: 'mousePressed', x: p.x, y: p.y, button: 'left', buttons: 1, clickCount: 1 });
          await ctx.send(t, 'Input.dispatchMouseEvent', { type: 'mouseReleased', x: p.x, y: p.y, button: 'left', buttons: 0, clickCount: 1 });
          sent = true;
        } finally {
          // Said when the press was cancelled; when sending failed, that error is the one told.
          if (unguard) await (sent ? unguard() : unguard().catch(() => {}));
        }
      });
      return;
    } catch (e) {
      if (e instanceof ToolError && e.code === 'not_stable' && attempt < LIMITS.actionStableAttempts) continue;
      throw e;
    }
  }
}

/**
 * A click as a user's hand makes it (pointerAt). Also fill_form's way to tick a check box.
 * @param {ToolContext} ctx @param {TabSession} t @param {any} target @param {string} [kind]
 */
export function clickOn(ctx, t, target, kind = 'click') {
  return pointerAt(ctx, t, target, kind, true);
}

/**
 * Types into a field as `type` does: looks, focuses, replaces (or appends to) its value. Also
 * fill_form's way to fill a text field. `ref` names the field in errors.
 * @param {ToolContext} ctx @param {TabSession} t @param {any} target @param {string} text
 * @param {{append?: boolean, submit?: boolean, kind?: string}} [o]
 */
export async function typeInto(ctx, t, target, text, o = {}) {
  const kind = o.kind ?? 'type';
  await ready(ctx, t, target, { kind, enabled: true, editable: true });
  await focus(ctx, t, target, 'type');
  // Before every key event, where it would go (the page may move the focus in any handler, the
  // field's focus handler first of all): extension/lib/input-guard.js.
  const guard = new InputGuard(ctx.driver, (t2, bn) => describeNode(ctx, t2, bn, ''));
  /** @param {string} done */
  const checked = (done) => guard.checkFocus(t, kind, done);
  await checked('');
  const r = await ctx.driver.callOn(t, target, FILL_FN, [!!o.append, text]);
  if (r?.error) throw new ToolError('not_editable', `${kind}: the focused element is ${r.error}: nothing was typed (${target.ref})`);
  if (!r?.done) {
    // All but the last character at once; the last one as a key, so a page that acts on
    // keyup (a table's filter box) sees the typing end, as it would from a person.
    const chars = [...text];
    const last = chars.length ? charEvents(chars[chars.length - 1]) : null;
    const head = last ? chars.slice(0, -1).join('') : text;
    if (head) {
      await checked('');
      await ctx.send(t, 'Input.insertText', { text: head });
    }
    if (last) for (const k of last) {
      await checked(head ? `the first ${[...head].length} characters were typed into ${target.ref}` : '');
      await ctx.send(t, 'Input.dispatchKeyEvent', k);
    }
    if (!text && !o.append) for (const k of keyEvents('Delete')) {
      await checked('');
      await ctx.send(t, 'Input.dispatchKeyEvent', k);
    }
  }
  if (o.submit) for (const k of keyEvents('Enter')) {
    await checked(`the text was typed into ${target.ref}, Enter was not pressed`);
    await ctx.send(t, 'Input.dispatchKeyEvent', k);
  }
}

/**
 * Chooses options of a <select> as `select` does (looked at first). Also fill_form's way.
 * @param {ToolContext} ctx @param {TabSession} t @param {any} target @param {string[]} values @param {string} [kind]
 */
export async function selectIn(ctx, t, target, values, kind = 'select') {
  await ready(ctx, t, target, { kind, enabled: true });
  const r = await ctx.driver.callOn(t, target, SELECT_FN, [values]);
  if (r.error) throw new ToolError('not_a_select', `${kind}: ${target.ref} is ${r.error}; use click for custom dropdowns`);
  if (!r.matched) throw new ToolError('no_such_option', `${kind}: none of ${JSON.stringify(values)} is an option of ${target.ref} (options: ${r.options.map(quoteValue).join(', ')})`);
}

/** click or hover: the mouse moves to the element's visible point (and clicks it). @param {'click' | 'hover'} name */
function pointerTool(name) {
  return defineTool({
    name,
    description: name === 'click' ? 'Click an element. Returns what changed.' : 'Move the mouse over an element.',
    title: name === 'click' ? 'Click' : 'Hover',
    // A click may press Delete or Pay; moving the mouse over an element again changes nothing more.
    hints: name === 'click' ? { readOnly: false, destructive: true, idempotent: false, openWorld: true }
      : { readOnly: false, destructive: false, idempotent: true, openWorld: true },
    args: { ref: ref() },
    required: ['ref'], mutating: true, factpack: true,
    // A disabled element is not clicked; moving over it is harmless.
    refusesDisabled: name === 'click',
    async handler(t, args, ctx) {
      return ctx.flow.run(t, name, args, (target) => pointerAt(ctx, t, target, name, name === 'click'), { ref: true });
    },
  });
}

export const click = pointerTool('click');
export const hover = pointerTool('hover');

export const type = defineTool({
  name: 'type',
  title: 'Type text',
  // It replaces a field's value, and submit presses Enter.
  hints: { readOnly: false, destructive: true, idempotent: false, openWorld: true },
  description: 'Type into a field, replacing its value (append: true adds to it).',
  args: {
    ref: ref(), text: arg('string'), append: arg('boolean', 'add to the end instead of replacing'),
    clear: arg('boolean', 'replace the value (the default)'), submit: arg('boolean', 'press Enter after'),
  },
  required: ['ref', 'text'], mutating: true, factpack: true, refusesDisabled: true,
  precheck(args) {
    const text = str(args, 'text', true, true);
    if (text.length > LIMITS.typeMaxChars) throw new ToolError('bad_arguments', `type: text longer than ${LIMITS.typeMaxChars} characters`);
    if (args.append && args.clear) throw new ToolError('bad_arguments', 'type: append and clear contradict each other (replacing is the default)');
  },
  async handler(t, args, ctx) {
    const text = str(args, 'text', true, true);
    return ctx.flow.run(t, 'type', args, (target) => typeInto(ctx, t, target, text, { append: !!args.append, submit: !!args.submit }), { ref: true });
  },
});

export const press = defineTool({
  name: 'press',
  title: 'Press keys',
  hints: { readOnly: false, destructive: true, idempotent: false, openWorld: true },
  description: 'Press keys, e.g. Enter, Escape, Control+A (on ref: focused first).',
  args: { keys: arg('string'), ref: ref() },
  required: ['keys'], mutating: true, factpack: true,
  precheck(args) { keysOf(args); },
  async handler(t, args, ctx) {
    const events = keysOf(args);
    return ctx.flow.run(t, 'press', args, async (target) => {
      if (target) {
        await ready(ctx, t, target, { kind: 'press', enabled: true });
        await focus(ctx, t, target, 'press');
      }
      // Before every key event, where it would go (the page may move the focus in any handler,
      // or have put it in a withheld frame before the call).
      const guard = new InputGuard(ctx.driver, (t2, bn) => describeNode(ctx, t2, bn, ''));
      for (let i = 0; i < events.length; i++) {
        await guard.checkFocus(t, 'press', i ? `${i} of ${events.length} key events were sent before the focus moved` : '');
        await ctx.send(t, 'Input.dispatchKeyEvent', events[i]);
      }
    }, { ref: typeof args.ref === 'string' });
  },
});

export const select = defineTool({
  name: 'select',
  title: 'Select options',
  // A page may act on a change of choice (submit, navigate).
  hints: { readOnly: false, destructive: true, idempotent: false, openWorld: true },
  description: 'Choose options of a select.',
  args: { ref: ref(), values: strings() },
  required: ['ref', 'values'], mutating: true, factpack: true, refusesDisabled: true,
  async handler(t, args, ctx) {
    // athena-bridge checked the types against the declaration (bridge/src/tools.cpp); a caller
    // that did not gets a refusal here rather than a page script fed a non-list.
    if (!Array.isArray(args.values) || !args.values.every((/** @type {unknown} */ v) => typeof v === 'string')) throw new ToolError('bad_arguments', 'select: values must be a list of strings');
    const values = /** @type {string[]} */ (args.values);
    return ctx.flow.run(t, 'select', args, (target) => selectIn(ctx, t, target, values), { ref: true });
  },
});

export const scroll = defineTool({
  name: 'scroll',
  title: 'Scroll',
  // Scrolling loses nothing, but each call scrolls further.
  hints: { readOnly: false, destructive: false, idempotent: false, openWorld: true },
  description: 'Scroll the page, or the box holding ref (a grid); no direction: show ref.',
  args: { ref: ref(), direction: oneOf(['up', 'down', 'left', 'right']), amount: arg('number', 'pixels') },
  mutating: true, factpack: true,
  precheck(args) {
    if (args.amount !== undefined && !(args.amount > 0 && args.amount <= LIMITS.scrollMaxPx)) throw new ToolError('bad_arguments', `scroll: amount is CSS pixels, 1..${LIMITS.scrollMaxPx}`);
  },
  async handler(t, args, ctx) {
    const dir = args.direction ?? (args.ref ? null : 'down');
    return ctx.flow.run(t, 'scroll', args, async (target) => {
      if (target) await ctx.driver.callOn(t, target, SCROLL_FN, [dir, args.amount ?? null, LIMITS.scrollViewportShare]);
      else await ctx.send(t, 'Runtime.evaluate', { expression: `(${SCROLL_FN}).call(null, ${JSON.stringify(dir)}, ${JSON.stringify(args.amount ?? null)}, ${LIMITS.scrollViewportShare})` });
    }, { ref: !!args.ref });
  },
});

export const dialog = defineTool({
  name: 'dialog',
  title: 'Answer dialog',
  // Accepting a confirm may be what deletes.
  hints: { readOnly: false, destructive: true, idempotent: false, openWorld: true },
  description: 'Answer an alert/confirm/prompt.',
  args: { accept: arg('boolean'), text: arg('string') },
  required: ['accept'], mutating: true, factpack: true,
  // The one tool an open dialog does not block: it answers it (in the tab's queue like any other).
  dialog: 'answers',
  async handler(t, args, ctx) {
    return ctx.flow.answerDialog(t, args);
  },
});

export const upload = defineTool({
  name: 'upload',
  title: 'Upload files',
  // It hands the user's files to the page, replacing the input's files.
  hints: { readOnly: false, destructive: true, idempotent: false, openWorld: true },
  description: 'Set files on a file input.',
  args: { ref: ref(), files: strings() },
  required: ['ref', 'files'], mutating: true, factpack: true, refusesDisabled: true,
  // Paths on the user's computer: the native host resolves them before the call reaches us.
  localFiles: 'files',
  precheck(args, ctx) {
    const files = /** @type {string[]} */ (args.files);
    if (files.length === 0 || files.length > LIMITS.uploadMaxFiles || files.some((f) => !f.startsWith('/')))
      throw new ToolError('bad_arguments', `upload: files is a list of 1..${LIMITS.uploadMaxFiles} absolute paths on this computer`);
    // The native host resolved each path (symlinks followed): the real file must be inside a
    // folder the user allowed in the options page.
    for (const f of files) {
      const ok = checkUpload(ctx.policy, f);
      if (!ok.ok) throw new ToolError(ok.code, ok.message);
    }
  },
  async handler(t, args, ctx) {
    const files = /** @type {string[]} */ (args.files);
    return ctx.flow.run(t, 'upload', args, async (target) => {
      // No pointer: file inputs are usually hidden behind a styled label. Attached and enabled.
      await ready(ctx, t, target, { kind: 'upload', enabled: true, visible: false });
      try {
        await ctx.send(t, 'DOM.setFileInputFiles', { files, backendNodeId: target.backendNodeId }, ctx.driver.sessionOf(t, target.frameId));
      } catch (e) {
        if (e instanceof ToolError) throw e;
        throw new ToolError('upload_failed', `upload to ${args.ref}: ${msg(e)} (the ref must be an <input type=file>)`);
      }
    }, { ref: true });
  },
});
