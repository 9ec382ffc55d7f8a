// Tools that act on the page as a user's hands: click, hover, type, press, select, scroll,
// upload, and the answer to a JavaScript dialog. Each runs through the action flow
// (extension/lib/action-flow.js), which resolves the ref, acts, waits for the page to settle and
// answers with what changed.
import { keyEvents } from '../keys.js';
import { LIMITS } from '../limits.js';
import { CLEAR_FN, SCROLL_FN, SELECT_FN } from '../page-scripts.js';
import { checkUpload } from '../policy.js';
import { ToolError } from '../tab-state.js';
import { quoteValue } from '../quote.js';
import { arg, defineTool, msg, oneOf, ref, str, strings } from './define.js';

/** click or hover: the mouse moves to the element's visible point (and clicks it). @param {'click' | 'hover'} name */
function pointerTool(name) {
  return defineTool({
    name,
    description: name === 'click' ? 'Click an element. Returns what changed.' : 'Move the mouse over an element.',
    args: { ref: ref() },
    required: ['ref'], mutating: true, factpack: true,
    async handler(ctx, session, args) {
      const t = await ctx.tabFor(session, args);
      return ctx.flow.run(t, name, args, async (target) => {
        const p = await ctx.driver.point(t, target);
        await ctx.send(t, 'Input.dispatchMouseEvent', { type: 'mouseMoved', x: p.x, y: p.y });
        if (name === 'hover') return;
        await ctx.send(t, 'Input.dispatchMouseEvent', { type: 'mousePressed', x: p.x, y: p.y, button: 'left', buttons: 1, clickCount: 1 });
        await ctx.send(t, 'Input.dispatchMouseEvent', { type: 'mouseReleased', x: p.x, y: p.y, button: 'left', buttons: 0, clickCount: 1 });
      }, { ref: true });
    },
  });
}

export const click = pointerTool('click');
export const hover = pointerTool('hover');

export const type = defineTool({
  name: 'type',
  description: 'Type into a field.',
  args: { ref: ref(), text: arg('string'), clear: arg('boolean', 'replace the value'), submit: arg('boolean', 'press Enter after') },
  required: ['ref', 'text'], mutating: true, factpack: true,
  async handler(ctx, session, args) {
    const text = str(args, 'text', true, true);
    if (text.length > LIMITS.typeMaxChars) throw new ToolError('bad_arguments', `type: text longer than ${LIMITS.typeMaxChars} characters`);
    const t = await ctx.tabFor(session, args);
    return ctx.flow.run(t, 'type', args, async (target) => {
      const sid = ctx.driver.sessionOf(t, target.frameId);
      await ctx.send(t, 'DOM.focus', { backendNodeId: target.backendNodeId }, sid);
      if (args.clear) await ctx.driver.callOn(t, target, CLEAR_FN);
      if (text) await ctx.send(t, 'Input.insertText', { text });
      if (args.submit) for (const k of keyEvents('Enter')) await ctx.send(t, 'Input.dispatchKeyEvent', k);
    }, { ref: true });
  },
});

export const press = defineTool({
  name: 'press',
  description: 'Press keys, e.g. Enter, Escape, Control+A.',
  args: { keys: arg('string') },
  required: ['keys'], mutating: true, factpack: true,
  async handler(ctx, session, args) {
    let events;
    try { events = keyEvents(args.keys); } catch (e) { throw new ToolError('bad_arguments', `press: ${msg(e)}`); }
    const t = await ctx.tabFor(session, args);
    return ctx.flow.run(t, 'press', args, async () => { for (const k of events) await ctx.send(t, 'Input.dispatchKeyEvent', k); });
  },
});

export const select = defineTool({
  name: 'select',
  description: 'Choose options of a select.',
  args: { ref: ref(), values: strings() },
  required: ['ref', 'values'], mutating: true, factpack: true,
  async handler(ctx, session, args) {
    // Types are checked against the declaration before any handler runs (agent.js, checkArguments).
    const values = /** @type {string[]} */ (args.values);
    const t = await ctx.tabFor(session, args);
    return ctx.flow.run(t, 'select', args, async (target) => {
      const r = await ctx.driver.callOn(t, target, SELECT_FN, [values]);
      if (r.error) throw new ToolError('not_a_select', `select: ${args.ref} is ${r.error}; use click for custom dropdowns`);
      if (!r.matched) throw new ToolError('no_such_option', `select: none of ${JSON.stringify(values)} is an option of ${args.ref} (options: ${r.options.map(quoteValue).join(', ')})`);
    }, { ref: true });
  },
});

export const scroll = defineTool({
  name: 'scroll',
  description: 'Scroll the page or an element.',
  args: { ref: ref(), direction: oneOf(['up', 'down', 'left', 'right']), amount: arg('number', 'pixels') },
  mutating: true, factpack: true,
  async handler(ctx, session, args) {
    const dir = args.direction ?? (args.ref ? null : 'down');
    if (args.amount !== undefined && !(args.amount > 0 && args.amount <= LIMITS.scrollMaxPx)) throw new ToolError('bad_arguments', `scroll: amount is CSS pixels, 1..${LIMITS.scrollMaxPx}`);
    const t = await ctx.tabFor(session, args);
    return ctx.flow.run(t, 'scroll', args, async (target) => {
      if (target) await ctx.driver.callOn(t, target, SCROLL_FN, [dir, args.amount ?? null, LIMITS.scrollViewportShare]);
      else await ctx.send(t, 'Runtime.evaluate', { expression: `(${SCROLL_FN}).call(null, ${JSON.stringify(dir)}, ${JSON.stringify(args.amount ?? null)}, ${LIMITS.scrollViewportShare})` });
    }, { ref: !!args.ref });
  },
});

export const dialog = defineTool({
  name: 'dialog',
  description: 'Answer an alert/confirm/prompt.',
  args: { accept: arg('boolean'), text: arg('string') },
  required: ['accept'], mutating: true, factpack: true,
  async handler(ctx, session, args) {
    return ctx.flow.answerDialog(await ctx.tabFor(session, args), args);
  },
});

export const upload = defineTool({
  name: 'upload',
  description: 'Set files on a file input.',
  args: { ref: ref(), files: strings() },
  required: ['ref', 'files'], mutating: true, factpack: true,
  async handler(ctx, session, args) {
    const files = /** @type {string[]} */ (args.files);
    if (files.length === 0 || files.length > LIMITS.uploadMaxFiles || files.some((f) => !f.startsWith('/')))
      throw new ToolError('bad_arguments', `upload: files is a list of 1..${LIMITS.uploadMaxFiles} absolute paths on this computer`);
    // The native host resolved each path (symlinks followed): the real file must be inside a
    // folder the user allowed in the options page.
    for (const f of files) {
      const ok = checkUpload(ctx.policy, f);
      if (!ok.ok) throw new ToolError(ok.code, ok.message);
    }
    const t = await ctx.tabFor(session, args);
    return ctx.flow.run(t, 'upload', args, async (target) => {
      try {
        await ctx.send(t, 'DOM.setFileInputFiles', { files, backendNodeId: target.backendNodeId }, ctx.driver.sessionOf(t, target.frameId));
      } catch (e) {
        if (e instanceof ToolError) throw e;
        throw new ToolError('upload_failed', `upload to ${args.ref}: ${msg(e)} (the ref must be an <input type=file>)`);
      }
    }, { ref: true });
  },
});
