// The user's policy where the tab is now, for the tools that look (read, screenshot, wait_for,
// tabs list): a tab on a site the policy does not allow shows nothing of itself, however it got
// there (a link, a redirect, the page's own script after the action answered). Actions and
// snapshots are gated by the capture itself (agent.js captureTab); these tools read the page
// without compiling a capture, so they ask where the top frame is, before and after they read.
// And screenshot's blanking of the frames the policy withholds in an allowed page.
import { LIMITS } from './limits.js';
import { callExpression, pageFunction } from './page-code.js';
import { hideUntilRestored, restoreAll } from '../page/page-gate.js';
import { checkFrameUrl, checkUrl } from './policy.js';
import { ToolError } from './tab-state.js';
import { tabName } from './tabs.js';

/** @typedef {{key: import('./tabs.js').PageKey, withheldOwners: Set<number>}} TabState  a controlled tab (only what the gate reads) */

/**
 * The error for a tab whose page the policy does not allow: it names the policy and the site's
 * host (what the user's list names), never the page's path, title or text.
 * @param {TabState} t @param {{ok: false, code: string, message: string}} why checkUrl's refusal
 */
export function blockedPageError(t, why) {
  return new ToolError(why.code, `tab ${tabName(t.key)} is on a page the user's policy does not let the agent see or act on (${why.message}). Nothing of that page is shown; use back, or navigate elsewhere`);
}

/**
 * Throws blockedPageError when tab t's top frame is on a page the policy does not allow; else
 * answers the frame tree it read.
 * @param {{policy: import('./policy.js').Policy, send(t: any, method: string, params?: any): Promise<any>}} ctx
 * @param {TabState} t attached
 */
export async function pageGate(ctx, t) {
  const r = await ctx.send(t, 'Page.getFrameTree');
  const url = String(r?.frameTree?.frame?.url ?? '');
  const why = checkUrl(ctx.policy, url || 'about:blank');
  if (!why.ok) throw blockedPageError(t, why);
  return r?.frameTree;
}

/**
 * Whether every frame of a frame tree (Page.getFrameTree: the frames of the page's own process)
 * is one the policy lets the agent see. @param {import('./policy.js').Policy} policy @param {any} tree
 * @returns {boolean}
 */
export function framesAllowed(policy, tree) {
  if (!tree?.frame) return true;
  if (tree.frame.url !== undefined && !checkFrameUrl(policy, String(tree.frame.url)).ok) return false;
  return (tree.childFrames ?? []).every((/** @type {any} */ c) => framesAllowed(policy, c));
}

/**
 * A tab as `tabs list` shows it: its URL and title, or only that the policy withholds it.
 * @param {import('./policy.js').Policy} policy @param {{url?: string, pendingUrl?: string, title?: string}} tab
 * @returns {{url: string, title: string} | {withheld: string}}
 */
export function listedTab(policy, tab) {
  for (const u of [tab.url, tab.pendingUrl]) {
    if (!u) continue;
    const why = checkUrl(policy, u);
    // A browser page (chrome://newtab) is named as before: it is no site of the user's lists.
    if (!why.ok && why.code === 'blocked_origin') return { withheld: 'a site the user\'s policy does not let the agent see' };
  }
  return { url: tab.url ?? '', title: tab.title ?? '' };
}

/**
 * The boxes (CSS px, viewport) of the <iframe> elements whose content the policy withholds, as
 * the last capture named them (TabState.withheldOwners). A box that cannot be found (an owner
 * inside an out-of-process frame) makes the screenshot refused: nothing withheld is ever shown
 * because it could not be located.
 * @param {{send(t: any, method: string, params?: any): Promise<any>}} ctx @param {TabState} t
 * @param {Set<number>} [owners] the owners to blank (default: the last capture's)
 * @returns {Promise<Array<{x: number, y: number, width: number, height: number}>>}
 */
export async function withheldBoxes(ctx, t, owners = t.withheldOwners) {
  const out = [];
  for (const backendNodeId of owners) {
    let q;
    try {
      q = (await ctx.send(t, 'DOM.getBoxModel', { backendNodeId }))?.model?.border;
    } catch (e) {
      // Not rendered (display: none, detached): nothing of it is painted either.
      if (e instanceof ToolError) throw e;
      if (/could not compute box model/i.test(e instanceof Error ? e.message : String(e))) continue;
      throw new ToolError('screenshot_refused', `screenshot: a frame the user's policy withholds could not be located to blank it, so no screenshot was taken (${e instanceof Error ? e.message : String(e)})`);
    }
    if (!Array.isArray(q) || q.length < 8) continue;
    const xs = [q[0], q[2], q[4], q[6]], ys = [q[1], q[3], q[5], q[7]];
    const x = Math.min(...xs), y = Math.min(...ys);
    out.push({ x, y, width: Math.max(...xs) - x, height: Math.max(...ys) - y });
  }
  return out;
}

/**
 * In the page, for the time of a picture: each withheld frame's owner element (an iframe of an
 * allowed page) gets `visibility: hidden` and `opacity: 0`, inline and !important, so the browser
 * paints nothing of the frame wherever the page moves it, and whatever display it toggles. Kept
 * by a MutationObserver of an isolated world (the page's scripts cannot reach or disconnect it):
 * a page that rewrites the owner's style has it set again before the next frame is rendered
 * (observers run at the microtask checkpoint, before rendering). Boxes measured around the
 * picture (withheldBoxes, blankRects) could miss a frame that moves every animation frame.
 * Returns what puts the page back as it was; throws screenshot_refused if an owner cannot be hidden.
 * @param {any} ctx @param {any} t @param {Set<number>} owners the owners' backendNodeIds (the page's process)
 * @returns {Promise<() => Promise<void>>}
 */
export async function hideWithheld(ctx, t, owners) {
  if (owners.size === 0) return async () => {};
  const key = `athenaPaint${Math.random().toString(36).slice(2)}`;
  /** @type {Set<number>} isolated worlds holding a restore list under `key` */
  const worlds = new Set();
  const tree = await ctx.send(t, 'Page.getFrameTree');
  /** @type {string[]} */
  const frames = [];
  const walk = (/** @type {any} */ n) => { if (n?.frame?.id) frames.push(n.frame.id); for (const c of n?.childFrames ?? []) walk(c); };
  walk(tree?.frameTree);
  /** @type {Map<string, number>} frame id -> its isolated world */
  const worldOf = new Map();
  const restore = async () => {
    for (const contextId of worlds) {
      await ctx.send(t, 'Runtime.evaluate', { expression: callExpression(RESTORE_FN, key), contextId }).catch(() => {});
    }
  };
  try {
    for (const backendNodeId of owners) {
      const node = (await ctx.send(t, 'DOM.describeNode', { backendNodeId }).catch(() => null))?.node;
      if (!node) continue;  // gone: nothing of it is painted either
      // The owner lives in one of the frames of this process: the one whose isolated world resolves it.
      let object = null;
      for (const frameId of frames) {
        if (!worldOf.has(frameId)) worldOf.set(frameId, (await ctx.send(t, 'Page.createIsolatedWorld', { frameId, worldName: 'athena-paint' })).executionContextId);
        const contextId = /** @type {number} */ (worldOf.get(frameId));
        object = (await ctx.send(t, 'DOM.resolveNode', { backendNodeId, executionContextId: contextId }).catch(() => null))?.object;
        if (object?.objectId) { worlds.add(contextId); break; }
      }
      if (!object?.objectId) throw new ToolError('screenshot_refused', 'screenshot: a frame the user\'s policy withholds could not be hidden for the picture, so no screenshot was taken (take it again once the page is still)');
      await ctx.send(t, 'Runtime.callFunctionOn', { objectId: object.objectId, functionDeclaration: HIDE_FN, arguments: [{ value: key }] });
      await ctx.send(t, 'Runtime.releaseObject', { objectId: object.objectId }).catch(() => {});
    }
  } catch (e) {
    await restore();
    throw e;
  }
  return restore;
}

/** Page code (extension/page/page-gate.js), as the text CDP runs. */
const HIDE_FN = pageFunction(hideUntilRestored);
const RESTORE_FN = pageFunction(restoreAll);

/**
 * Paints `rects` (CSS px, relative to the image's origin) solid grey in a base64 PNG whose width
 * is `cssWidth` CSS px, with the service worker's OffscreenCanvas. Without one, refuses: a
 * screenshot with a withheld frame is never sent unpainted.
 * @param {string} data base64 PNG @param {Array<{x: number, y: number, width: number, height: number}>} rects
 * @param {number} cssWidth
 * @returns {Promise<string>} base64 PNG
 */
export async function blankRects(data, rects, cssWidth) {
  const g = /** @type {any} */ (globalThis);
  if (typeof g.OffscreenCanvas !== 'function' || typeof g.createImageBitmap !== 'function')
    throw new ToolError('screenshot_refused', 'screenshot: the page holds a frame the user\'s policy withholds and it cannot be blanked here, so no screenshot was taken');
  const bin = atob(data);
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  const bmp = await g.createImageBitmap(new Blob([bytes], { type: 'image/png' }));
  const scale = cssWidth > 0 ? bmp.width / cssWidth : 1;
  const canvas = new g.OffscreenCanvas(bmp.width, bmp.height);
  const c2d = canvas.getContext('2d');
  c2d.drawImage(bmp, 0, 0);
  c2d.fillStyle = LIMITS.screenshotBlankFill;
  // Whole device pixels, rounded outwards: no edge of the frame is left.
  for (const r of rects) {
    const x0 = Math.floor(r.x * scale), y0 = Math.floor(r.y * scale);
    c2d.fillRect(x0, y0, Math.ceil((r.x + r.width) * scale) - x0, Math.ceil((r.y + r.height) * scale) - y0);
  }
  const blob = await canvas.convertToBlob({ type: 'image/png' });
  const out = new Uint8Array(await blob.arrayBuffer());
  let s = '';
  const step = LIMITS.base64ChunkBytes;
  for (let i = 0; i < out.length; i += step) s += String.fromCharCode(...out.subarray(i, i + step));
  return btoa(s);
}
