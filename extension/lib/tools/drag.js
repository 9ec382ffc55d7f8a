// drag: a card to another column, a file onto a drop zone, a slider's thumb by some pixels, as a
// hand does it: press on the element, move in steps, rest on the drop point, release. Both ends
// are looked at first as click looks at its target (extension/lib/actionability.js): nothing is
// pressed on what is hidden, moving, disabled or covered, nor dropped on what is.
//
// Two kinds of drag exist in pages, and one gesture must serve both:
// - pointer-driven libraries (SortableJS's fallback mode, most sliders) follow mousemove events:
//   trusted mouse events (Input.dispatchMouseEvent) are all they need, given time to see the
//   pointer arrive (LIMITS.dragStepMs, dragRestMs);
// - native HTML5 drag and drop (draggable=true, dragstart/dragover/drop) is run by the browser's
//   own drag loop, which a headless or remote-controlled browser does not run for synthetic mouse
//   events. So the browser is asked to hand the drag over (Input.setInterceptDrags): when the
//   page starts one, Input.dragIntercepted gives its data, and the rest of the gesture is sent as
//   drag events (Input.dispatchDragEvent: dragEnter, dragOver, drop), as Playwright does.
// The page says which it was: a dragstart listener set on the source's window before the press.
import { Actionability, who } from '../actionability.js';
import { LIMITS } from '../limits.js';
import { pageFunction } from '../page-code.js';
import { dragStarted, trackDragStart } from '../../page/drag.js';
import { ToolError } from '../tab-state.js';
import { arg, defineTool, msg, ref, sleep } from './define.js';
import { ready } from './input.js';

/** @typedef {import('./define.js').ToolContext} ToolContext @typedef {import('../tab-session.js').TabSession} TabSession */
/** @typedef {{x: number, y: number}} Point */

/** Page code (extension/page/drag.js), as the text CDP runs. */
const TRACK_FN = pageFunction(trackDragStart);
const STARTED_FN = pageFunction(dragStarted);

/** @param {any} args */
function offsetOf(args) {
  const by = args.dx !== undefined || args.dy !== undefined;
  if (!!args.to === by) throw new ToolError('bad_arguments', 'drag: give to (the ref to drop on) or dx/dy (CSS pixels to move by), one of the two');
  if (!by) return null;
  const dx = args.dx ?? 0, dy = args.dy ?? 0;
  if (![dx, dy].every((v) => Number.isFinite(v) && Math.abs(v) <= LIMITS.dragMaxPx) || (dx === 0 && dy === 0))
    throw new ToolError('bad_arguments', `drag: dx and dy are CSS pixels, -${LIMITS.dragMaxPx}..${LIMITS.dragMaxPx}, not both 0`);
  return { dx, dy };
}

/**
 * Watches the source's window for a dragstart; started() says whether one came. In the
 * source's frame (its session when out of process).
 * @param {ToolContext} ctx @param {TabSession} t @param {any} source
 */
async function watchDragStart(ctx, t, source) {
  const sid = ctx.driver.sessionOf(t, source.frameId);
  const { object } = await ctx.send(t, 'DOM.resolveNode', { backendNodeId: source.backendNodeId }, sid);
  const r = await ctx.send(t, 'Runtime.callFunctionOn', { objectId: object.objectId, functionDeclaration: TRACK_FN }, sid);
  ctx.send(t, 'Runtime.releaseObject', { objectId: object.objectId }, sid).catch(() => {});
  const seen = r.result?.objectId;
  return {
    started: async () => {
      if (!seen) return false;
      const s = await ctx.send(t, 'Runtime.callFunctionOn', { objectId: seen, functionDeclaration: STARTED_FN, returnByValue: true }, sid);
      return s.result?.value === true;
    },
    release: () => { if (seen) ctx.send(t, 'Runtime.releaseObject', { objectId: seen }, sid).catch(() => {}); },
  };
}

/**
 * The gesture, from `from` to `to` (main-viewport CSS px): press, move in LIMITS.dragSteps, rest,
 * release; an HTML5 drag the page starts on the way is taken over (see the top of this file).
 * @param {ToolContext} ctx @param {TabSession} t @param {any} source @param {Point} from @param {Point} to
 */
async function gesture(ctx, t, source, from, to) {
  const n = LIMITS.dragSteps;
  /** @param {number} i */
  const at = (i) => ({ x: Math.round(from.x + ((to.x - from.x) * i) / n), y: Math.round(from.y + ((to.y - from.y) * i) / n) });
  /** @param {string} type @param {Point} p @param {number} buttons */
  const mouse = (type, p, buttons) => ctx.send(t, 'Input.dispatchMouseEvent', { type, x: p.x, y: p.y, button: 'left', buttons, clickCount: type === 'mouseMoved' ? 0 : 1 });
  /** @param {string} type @param {Point} p @param {any} data */
  const dragEvent = (type, p, data) => ctx.send(t, 'Input.dispatchDragEvent', { type, x: p.x, y: p.y, data });

  await mouse('mouseMoved', from, 0);
  await mouse('mousePressed', from, 1);
  const watch = await watchDragStart(ctx, t, source);
  /** The browser's drag data once the page started an HTML5 drag. @type {any} */
  let data = null;
  let released = false;
  try {
    let i = 1;
    // Moves until the page starts a native drag (past the browser's few-pixel threshold) or the end.
    const dragged = t.nextDrag(LIMITS.dragInterceptMs);
    await ctx.send(t, 'Input.setInterceptDrags', { enabled: true });
    try {
      for (; i <= n; i++) {
        await mouse('mouseMoved', at(i), 1);
        if (await watch.started()) {
          data = await dragged;
          if (!data) throw new ToolError('drag_failed', `drag: the page started an HTML5 drag of ${who(source)} but the browser did not hand it over within ${LIMITS.dragInterceptMs} ms: nothing was dropped`);
          break;
        }
        await sleep(LIMITS.dragStepMs);
      }
    } finally {
      await ctx.send(t, 'Input.setInterceptDrags', { enabled: false }).catch(() => {});
    }
    if (data) {
      // The browser now runs no drag loop of its own: each further step is a drag event.
      await dragEvent('dragEnter', at(i), data);
      for (i++; i <= n; i++) { await sleep(LIMITS.dragStepMs); await dragEvent('dragOver', at(i), data); }
      await sleep(LIMITS.dragRestMs);
      await dragEvent('dragOver', to, data);
      await dragEvent('drop', to, data);
      data = null;
      released = true;
      return;
    }
    await sleep(LIMITS.dragRestMs);
    await mouse('mouseMoved', to, 1);
    await mouse('mouseReleased', to, 0);
    released = true;
  } finally {
    watch.release();
    // A gesture cut short lets go, so that no button stays down in the page.
    if (data) await dragEvent('dragCancel', to, data).catch(() => {});
    if (!released) await mouse('mouseReleased', to, 0).catch(() => {});
  }
}

export const drag = defineTool({
  name: 'drag',
  title: 'Drag and drop',
  // A drop may move, delete or reorder what the page holds, and a second drop moves it again.
  hints: { readOnly: false, destructive: true, idempotent: false, openWorld: true },
  description: 'Drag an element onto another (to), or by dx/dy pixels.',
  args: { ref: ref(), to: arg('string', 'ref to drop on'), dx: arg('number'), dy: arg('number') },
  required: ['ref'], mutating: true, factpack: true, group: 'input',
  precheck(args) { offsetOf(args); },
  async handler(t, args, ctx) {
    const by = offsetOf(args);
    return ctx.flow.run(t, 'drag', args, async (source) => {
      /** @type {any} */ let dest = null;
      if (!by) {
        try { dest = ctx.flow.resolve(t, 'drag', args.to, false); } catch (e) {
          const code = e && typeof e === 'object' && 'code' in e ? String(e.code) : 'bad_ref';
          throw new ToolError(code, `drag: the drop target ${args.to}: ${msg(e)}; nothing was dragged: take a snapshot and use its refs`);
        }
        if (dest.frameId !== source.frameId)
          throw new ToolError('other_frame', `drag: the drop target ${who(dest)} is in another frame than ${who(source)}: a drag cannot carry an element from one frame's document to another's; nothing was dragged`);
      }
      const from = /** @type {Point} */ (await ready(ctx, t, source, { kind: 'drag', enabled: true }));
      /** @type {Point} */ let to;
      if (!by) {
        const before = await ctx.driver.point(t, source, { scroll: false });
        to = /** @type {Point} */ (await ready(ctx, t, dest, { kind: 'drop on', enabled: false }));
        const after = await ctx.driver.point(t, source, { scroll: false });
        // Bringing the target into view moved the source: they are not on screen together.
        if (after.x !== before.x || after.y !== before.y)
          throw new ToolError('not_reachable', `drag: ${who(source)} and ${who(dest)} do not fit on screen together: nothing was dragged; use resize for a taller viewport, or drag by dx/dy in steps`);
      } else {
        to = { x: Math.round(from.x + by.dx), y: Math.round(from.y + by.dy) };
        const hit = await new Actionability(ctx.driver).hitAt(t, to.x, to.y);
        if (hit.none) throw new ToolError('not_visible', `drag: the drop point (${to.x}, ${to.y}) is outside the visible page: nothing was dragged`);
        if (hit.withheld) throw new ToolError('blocked_origin', `drag: the drop point lies in a frame of ${hit.withheld}, which the user's policy withholds: nothing was dragged`);
        if (hit.frameId !== source.frameId) throw new ToolError('other_frame', `drag: the drop point (${to.x}, ${to.y}) is in another frame than ${who(source)}: a drag cannot cross frames; nothing was dragged`);
      }
      await gesture(ctx, t, source, from, to);
    }, { ref: true });
  },
});
