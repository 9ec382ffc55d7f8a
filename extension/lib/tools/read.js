// Tools that look without acting: find (also what a FactPack trimmed), read (the text of an
// element or a region), screenshot. None begins an action or commits a version: a read never
// disturbs an action in flight, nor puts the agent's version out of date.
import { LIMITS } from '../limits.js';
import { REGION_NAMES } from '../landmarks.js';
import { READ_FN, READ_LANDMARK_FN, READ_REGION_JS } from '../page-scripts.js';
import { blankRects, blockedPageError, framesAllowed, hideWithheld, pageGate, withheldBoxes } from '../page-gate.js';
import { checkUrl } from '../policy.js';
import { escapeBlock, quoteValue } from '../quote.js';
import { isFrameWord, isRef, parseFrameRun } from '../ref.js';
import { ToolError } from '../tab-state.js';
import { tabName } from '../tabs.js';
import { arg, defineTool, msg, ref, str } from './define.js';
import { snapshot } from './navigation.js';

/** @typedef {import('./define.js').ToolContext} ToolContext @typedef {import('../tab-session.js').TabSession} TabSession */

export const find = defineTool({
  name: 'find',
  title: 'Find elements',
  hints: { readOnly: true, openWorld: true },
  description: 'Find elements, also those a FactPack trimmed: pass a gap line\'s find arguments.',
  args: {
    role: arg('string'), name: arg('string', 'substring; case and spaces ignored'), region: arg('string', 'region name or label'),
    frame: arg('string', 'e.g. f2, or a run f2..f9'), after: arg('string', 'ref: continue after it'),
    within: arg('string', 'ref: the lines under it (its "(N more …)")'), limit: arg('integer'),
  },
  // Element lines as FactPacks show them, but a list of its own (not a FactPack of the page).
  answers: 'own-text',
  // It reads the engine, not the page: an open dialog is no obstacle.
  dialog: 'ignores',
  async handler(t, args, ctx) {
    // Nothing to find in yet: the page whole, as snapshot shows it.
    if (!t.hasBaseline) return ctx.flow.run(t, snapshot.name, args, null);
    // Without a limit the core's default applies (core/include/athena/limits.h kDefaultFindLimit).
    const limit = args.limit;
    if (limit !== undefined && (!Number.isInteger(limit) || limit < 1 || limit > LIMITS.findMaxLimit)) throw new ToolError('bad_arguments', `find: limit is 1..${LIMITS.findMaxLimit}`);
    /** @type {{limit?: number, role?: string, name?: string, region?: string, frame?: string, after?: string, within?: string}} */
    const q = limit === undefined ? {} : { limit };
    for (const k of /** @type {const} */ (['role', 'name', 'region', 'frame', 'after', 'within'])) if (args[k] !== undefined) q[k] = str(args, k, true);
    if (q.frame !== undefined && parseFrameRun(q.frame) === null) throw new ToolError('bad_arguments', `find: frame is a frame id as the FactPack shows it (like f1), or a run of them (like f2..f9), got ${JSON.stringify(q.frame)}`);
    if (q.after !== undefined && !isRef(q.after)) throw new ToolError('bad_arguments', `find: after is a ref from a find answer or a gap line (like e20), got ${JSON.stringify(q.after)}`);
    if (q.within !== undefined && !isRef(q.within)) throw new ToolError('bad_arguments', `find: within is the ref of a line ending "(N more …)" (like e20), got ${JSON.stringify(q.within)}`);
    const engine = await ctx.loadEngine();
    /** @type {{text: string, version: number}} */
    let r;
    try {
      // The core renders the answer: the same element lines and the one quoting routine as FactPacks.
      r = engine.findText(t.key, q);
    } catch (e) {
      if (e instanceof ToolError) throw e;
      if (e && typeof e === 'object' && 'name' in e && e.name === 'AthenaError') throw new ToolError(String(/** @type {{code?: unknown}} */ (e).code), `find: ${msg(e).replace(/^(findText|find): /, '')}`);
      throw e;
    }
    return { ok: true, text: r.text, version: r.version };
  },
});

export const read = defineTool({
  name: 'read',
  title: 'Read text',
  hints: { readOnly: true, openWorld: true },
  description: 'Text of an element (a heading: its section) or region; in parts (from).',
  args: { ref: ref(), region: arg('string', 'region name or label'), frame: arg('string'), from: arg('integer', 'where to go on: the next= of the last part') },
  answers: 'own-text',
  // In the tab's queue (the dispatcher's): a capture never races an action.
  async handler(t, args, ctx) {
    return readText(ctx, t, args);
  },
});

export const screenshot = defineTool({
  name: 'screenshot',
  title: 'Screenshot',
  hints: { readOnly: true, openWorld: true },
  description: 'PNG of the page or an element.',
  args: { ref: ref() },
  answers: 'image',
  precheck(args, ctx) {
    if (!ctx.policy.allowScreenshots) throw new ToolError('screenshots_disabled', 'the user does not allow screenshots (extension options)');
  },
  async handler(t, args, ctx) {
    return shoot(ctx, t, args);
  },
});

/** read: text of a ref or a region. @param {ToolContext} ctx @param {TabSession} t @param {any} args */
async function readText(ctx, t, args) {
  await ctx.attach(t);
  // A tab on a site the policy does not allow shows nothing, however it got there; checked again
  // once read, in case the page went there meanwhile.
  await pageGate(ctx, t);
  if (args.ref !== undefined && (args.region !== undefined || args.frame !== undefined)) throw new ToolError('bad_arguments', 'read: give either ref or region (with frame for a region inside an iframe), not both');
  if (args.frame !== undefined && !isFrameWord(str(args, 'frame', true))) throw new ToolError('bad_arguments', `read: frame is a frame id as the FactPack shows it (like f1), got ${JSON.stringify(args.frame)}`);
  const from = args.from ?? 0;
  if (!Number.isInteger(from) || from < 0) throw new ToolError('bad_arguments', `read: from is a character offset (0 or more, the next= of the last part), got ${JSON.stringify(from)}`);
  // An answer keeps to the token budget every FactPack and find answer keeps to: a longer text
  // comes in parts, each saying where the next one starts.
  const engine = await ctx.loadEngine();
  const maxBytes = engine.tokenBudget * engine.limits.bytesPerToken;
  /** @type {{text: string, length: number, from?: number}} */
  let r;
  let what;
  if (args.ref !== undefined) {
    const target = await resolveNow(ctx, t, str(args, 'ref', true));
    r = await ctx.driver.callOn(t, target, READ_FN, [maxBytes, from]);
    // An image, a progress bar or a meter holds no text: what it says is its line's name and value.
    if (r.length === 0 && /^(image|progressbar|meter)$/.test(target.role)) {
      const said = [target.element?.name, target.element?.state?.value].filter((w) => typeof w === 'string' && w).join(' ');
      r = { text: said.slice(from, from + maxBytes), length: said.length, from: Math.min(from, said.length) };
    }
    // A FactPack names a link by its text: its address is here.
    const href = target.element?.href;
    what = `ref=${quoteValue(args.ref)}${href ? ` href=${quoteValue(href)}` : ''}`;
  } else {
    const region = args.region === undefined ? 'page' : str(args, 'region', true);
    const frame = args.frame ?? 'f0';
    r = await readRegion(ctx, t, region, frame, maxBytes, from);
    what = `region=${quoteValue(region)}${args.frame !== undefined ? ` frame="${frame}"` : ''}`;
  }
  await pageGate(ctx, t);
  const start = r.from ?? 0;
  const text = cutToBytes(r.text, maxBytes);
  const next = start + text.length;
  const cut = next < r.length || start > 0;
  // The page's text keeps its lines, escaped so that it can never close <read> or open a tag.
  return { ok: true, text: `<read ${what} chars="${r.length}"${cut ? ` truncated="true"${start ? ` from="${start}"` : ''} shown="${text.length}"${next < r.length ? ` next="${next}"` : ''}` : ''}>\n${escapeBlock(text)}\n</read>` };
}

/**
 * screenshot: the page or a ref's box. A page the policy does not allow is refused (checked
 * before and after the picture); in an allowed page, the frames the policy withholds (as a fresh
 * capture names them) are hidden in the page for the time of the picture (page-gate.js
 * hideWithheld: a frame that jumps or toggles every animation frame is never painted), and their
 * boxes, measured before and after, are painted grey too before the image leaves the extension
 * (blankRects). A ref that is such a frame is refused.
 * @param {ToolContext} ctx @param {TabSession} t @param {any} args
 */
async function shoot(ctx, t, args) {
  await ctx.attach(t);
  const tree = await pageGate(ctx, t);
  /** @type {any} */
  const params = { format: 'png' };
  /** The owners of the frames withheld now: none to look for when the page has no frame of another process and none of its own the policy withholds. */
  let owners = new Set();
  const m = await ctx.send(t, 'Page.getLayoutMetrics');
  const vv = m.cssVisualViewport ?? { pageX: 0, pageY: 0 };
  let origin = { x: 0, y: 0 };
  let cssWidth = vv.clientWidth ?? m.cssLayoutViewport?.clientWidth ?? 0;
  if (args.ref) {
    const target = await resolveNow(ctx, t, args.ref);
    if (t.withheldOwners.has(target.backendNodeId)) throw new ToolError('blocked_origin', `${args.ref} is a frame whose content the user's policy withholds: no screenshot of it is taken`);
    const p = await ctx.driver.point(t, target);
    params.clip = { x: p.box.x + vv.pageX, y: p.box.y + vv.pageY, width: Math.max(1, p.box.width), height: Math.max(1, p.box.height), scale: 1 };
    origin = { x: p.box.x, y: p.box.y };
    cssWidth = params.clip.width;
    owners = t.withheldOwners;
  } else if (t.frameSessions().length > 0 || !framesAllowed(ctx.policy, tree)) {
    // A fresh capture names the frames withheld now and their owners (a page not allowed is
    // refused by it). Skipped on a page of one process whose frames are all allowed: a capture of
    // a big page costs what several pictures do.
    await ctx.captureTab(t);
    owners = t.withheldOwners;
  }
  const before = await withheldBoxes(ctx, t, owners);
  // The withheld frames are hidden in the page itself for the picture, whatever it does meanwhile;
  // the boxes measured around it are painted grey as well.
  const restore = await hideWithheld(ctx, t, owners);
  let r;
  try {
    r = await ctx.send(t, 'Page.captureScreenshot', params);
  } finally {
    await restore();
  }
  await pageGate(ctx, t);
  const boxes = [...before, ...(before.length ? await withheldBoxes(ctx, t, owners) : [])];
  const data = boxes.length ? await blankRects(r.data, boxes.map((b) => ({ ...b, x: b.x - origin.x, y: b.y - origin.y })), cssWidth) : r.data;
  const bytes = Math.floor((data.length * 3) / 4);
  const blanked = boxes.length ? ` withheld_frames_blanked="${owners.size}"` : '';
  return { ok: true, text: `<screenshot tab="${tabName(t.key)}"${args.ref ? ` ref="${args.ref}"` : ''} format="png" bytes="${bytes}"${blanked}/>`, image: { mime: 'image/png', data } };
}

/**
 * A ref resolved against a fresh capture, outside an action: no version is committed and no
 * action is begun.
 * @param {ToolContext} ctx @param {TabSession} t @param {string} ref
 */
async function resolveNow(ctx, t, ref) {
  if (!t.hasBaseline) throw new ToolError('unknown_ref', `${ref}: this tab has no snapshot yet; call snapshot first`);
  const engine = await ctx.loadEngine();
  const cap = await ctx.captureTab(t);
  return engine.resolveNow(t.key, cap.capture, ref);
}

/**
 * Text of a region as the FactPack named it: a region name (main, nav, dialog, ...) or its label
 * ("related navigation"), in the main frame or the frame given (f1, as in `<region frame="f1">`).
 * Resolved through an element the engine holds in that region (so the very landmark shown, also
 * inside an out-of-process iframe or a shadow root), else by selector in the main document.
 * @param {ToolContext} ctx @param {TabSession} t @param {string} region @param {string} frame
 * @param {number} max characters at most @param {number} from where the part starts
 * @returns {Promise<{text: string, length: number, from?: number}>}
 */
async function readRegion(ctx, t, region, frame, max, from) {
  const isName = REGION_NAMES.includes(region);
  if (t.hasBaseline) {
    const engine = await ctx.loadEngine();
    // The core says which region the string names (its name or its label: rules/region-match.json)
    // and which elements it holds there; its find has no frame filter, so it lists every frame's.
    /** @param {{region?: string}} q @returns {any[]} */
    const held = (q) => { try { return engine.find(t.key, { ...q, limit: engine.limits.maxFindLimit }); } catch { return []; } };
    const picked = held({ region }).filter((e) => (e.frame ?? 'f0') === frame);
    if (!picked.length && !(isName && frame === 'f0')) {
      const inFrame = held({}).filter((e) => (e.frame ?? 'f0') === frame);
      const shown = [...new Set(inFrame.map((e) => (labelOf(e) ? `${e.region} ${quoteValue(labelOf(e))}` : e.region)))];
      throw new ToolError('no_such_region', `read: no region ${quoteValue(region)} in ${frame === 'f0' ? 'the page' : `frame ${frame}`}; regions shown: ${shown.join(', ') || 'none'} (give a region name or its label)`);
    }
    for (const e of picked.slice(0, 3)) {
      let target;
      try { target = await resolveNow(ctx, t, e.ref); } catch (err) { if (err instanceof ToolError) throw err; continue; }
      const r = await ctx.driver.callOn(t, target, READ_LANDMARK_FN, [String(e.region), max, from]);
      if (r) return r;
    }
  }
  if (!isName) throw new ToolError('no_such_region', `read: no region ${quoteValue(region)}: give a region name (${REGION_NAMES.join(', ')}) or a label the FactPack showed`);
  const ev = await ctx.send(t, 'Runtime.evaluate', { expression: READ_REGION_JS(region, max, from), returnByValue: true });
  const r = ev.result?.value;
  // The document that answered is judged itself: the page may have navigated since the gate.
  if (r && typeof r.url === 'string') {
    const why = checkUrl(ctx.policy, r.url);
    if (!why.ok) throw blockedPageError(t, why);
  }
  if (!r) throw new ToolError('no_such_region', `read: the page has no ${quoteValue(region)} region`);
  return r;
}

/** The landmark label of an element (the engine's JSON: region_label). @param {any} e */
const labelOf = (e) => e.region_label ?? '';


/**
 * The longest start of s whose UTF-8 form fits in maxBytes (never splitting a surrogate pair): the
 * page cut its text to maxBytes characters, which may still be more bytes.
 * @param {string} s @param {number} maxBytes
 */
export function cutToBytes(s, maxBytes) {
  const enc = new TextEncoder();
  if (enc.encode(s).length <= maxBytes) return s;
  let lo = 0, hi = s.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (enc.encode(s.slice(0, mid)).length <= maxBytes) lo = mid; else hi = mid - 1;
  }
  if (lo > 0 && /[\uD800-\uDBFF]/.test(s[lo - 1])) lo--;
  return s.slice(0, lo);
}
