// The one capture implementation (docs/capture-format.md): the extension calls it with
// chrome.debugger's sendCommand, the recorder with a raw CDP session, so the corpus holds
// exactly what the core is fed in the user's browser. No Node or chrome APIs here.
//
// Cost model (docs/design.md, "Capture"): through chrome.debugger the price grows with the number of JSON
// nodes, so ask for as little as possible: one DOMSnapshot with the 7 computed styles the compiler reads per process
// (no DOM rects: Chrome computes them for every node, which was 70 % of the snapshot's time on
// a 2,000-element page; the only ones the compiler reads, frame owners' borders, come from one
// DOM.getBoxModel per frame owner), the frame tree, layout metrics, and one DOM.getFrameOwner per
// out-of-process iframe. The calls of one capture are issued together, not one after another.

import { LIMITS } from './limits.js';

/** Computed styles the compiler reads, in the order it reads them (capture.cpp). */
// `content` is read on ::before/::after only (its CSS alternative text and counters in names).
export const CAPTURE_STYLES = Object.freeze(['display', 'visibility', 'opacity', 'z-index', 'position', 'overflow', 'content']);

/** Capture format version this module writes. */
export const CAPTURE_VERSION = 1;

/**
 * @callback Send
 * @param {string} method CDP method, e.g. "DOMSnapshot.captureSnapshot"
 * @param {object} [params]
 * @param {string} [sessionId] flattened child session (out-of-process iframe); undefined = the page
 * @returns {Promise<any>}
 */

/**
 * @typedef {{frameId: string, sessionId: string}} OopifSession  an attached out-of-process iframe
 * @typedef {{frame?: {id?: string, url?: string}, childFrames?: FrameTree[]}} FrameTree  CDP Page.FrameTree (the parts read)
 * @typedef {{v: number, styles: string[], frameTree: FrameTree, snapshot: object,
 *            oopifs: Array<{frameId: string, ownerBackendNodeId: number|null, frameTree: FrameTree, snapshot: object}>,
 *            viewport: {x: number, y: number, width: number, height: number}}} Capture
 * @typedef {{capture: Capture, timings: Record<string, number>, warnings: string[], lost: string[]}} CaptureResult
 */

/** The DOMSnapshot.captureSnapshot request of every capture (bench/latency.mjs times it as is). */
export const SNAPSHOT_PARAMS = Object.freeze({ computedStyles: CAPTURE_STYLES, includeDOMRects: false });

/** Elements whose clientRects (border widths) place a child document. */
const FRAME_OWNERS = new Set(['IFRAME', 'FRAME', 'OBJECT', 'EMBED', 'FENCEDFRAME', 'PORTAL']);

/**
 * Drops what DOMSnapshot returns and the compiler never reads, before the capture is
 * serialized: offsetRects, scrollRects, stackingContexts, paintOrders and textBoxes, and
 * clientRects of everything but frame owners (`[]` there). On the 10,000-element page that
 * is ~30 % of the JSON, and every byte of it was stringified, encoded and parsed per step.
 * Only clientRects' first two numbers of frame owners are used (docs/capture-format.md).
 * @param {any} snapshot DOMSnapshot.captureSnapshot result, changed in place
 * @returns {any} the same object
 */
export function slimSnapshot(snapshot) {
  const strings = snapshot?.strings ?? [];
  for (const doc of snapshot?.documents ?? []) {
    delete doc.textBoxes;
    const layout = doc.layout;
    if (!layout) continue;
    delete layout.offsetRects;
    delete layout.scrollRects;
    delete layout.stackingContexts;
    delete layout.paintOrders;
    const rects = layout.clientRects, index = layout.nodeIndex, names = doc.nodes?.nodeName;
    if (!Array.isArray(rects) || !Array.isArray(index) || !Array.isArray(names)) continue;
    for (let k = 0; k < rects.length; k++)
      if (rects[k]?.length && !FRAME_OWNERS.has(strings[names[index[k]]])) rects[k] = [];
  }
  return snapshot;
}

/**
 * The border widths of the frame owners in a snapshot taken without DOM rects, as the
 * `clientRects` entries the compiler reads ([left, top, width, height] of the padding box; `[]`
 * elsewhere), from one DOM.getBoxModel per owner, all at once. An owner without a box (hidden,
 * gone meanwhile) keeps `[]`. No owner: no call.
 * @param {Send} send @param {any} snapshot changed in place @param {string} [sessionId]
 * @returns {Promise<any>} the same snapshot
 */
export async function measureFrameOwners(send, snapshot, sessionId) {
  const strings = snapshot?.strings ?? [];
  /** @type {Promise<void>[]} */
  const jobs = [];
  for (const doc of snapshot?.documents ?? []) {
    const layout = doc.layout, names = doc.nodes?.nodeName, ids = doc.nodes?.backendNodeId;
    if (!layout || !Array.isArray(layout.nodeIndex) || !Array.isArray(names) || !Array.isArray(ids) || Array.isArray(layout.clientRects)) continue;
    /** @type {number[][] | null} */
    let rects = null;
    layout.nodeIndex.forEach((/** @type {number} */ i, /** @type {number} */ k) => {
      if (!FRAME_OWNERS.has(strings[names[i]]) || typeof ids[i] !== 'number' || jobs.length >= LIMITS.frameOwnersMeasuredMax) return;
      const out = rects ??= layout.nodeIndex.map(() => []);
      layout.clientRects = out;
      jobs.push(send('DOM.getBoxModel', { backendNodeId: ids[i] }, sessionId).then((r) => {
        const b = r?.model?.border, p = r?.model?.padding;
        if (Array.isArray(b) && Array.isArray(p) && p.length >= 6) out[k] = [p[0] - b[0], p[1] - b[1], p[2] - p[0], p[5] - p[1]];
      }, () => {}));
    });
  }
  await Promise.all(jobs);
  return snapshot;
}

/** Milliseconds since an arbitrary origin (performance.now where available). */
const now = () => (globalThis.performance ? globalThis.performance.now() : Date.now());

/**
 * Captures the page and its out-of-process iframes.
 * @param {Send} send
 * @param {{oopifs?: OopifSession[]}} [opts]
 * @returns {Promise<CaptureResult>}
 */
export async function capture(send, opts = {}) {
  const oopifSessions = opts.oopifs ?? [];
  /** @type {Record<string, number>} */
  const timings = {};
  /** @type {string[]} */
  const warnings = [];
  /** @type {string[]} sessions that did not answer (their frame went): the caller lets them go */
  const lost = [];
  /** @template T @param {string} label @param {Promise<T>} promise @returns {Promise<T>} */
  const timed = async (label, promise) => {
    const t0 = now();
    try { return await promise; } finally { timings[label] = Math.round((now() - t0) * 100) / 100; }
  };
  const t0 = now();
  // The small calls go first: answers come back in the order the calls were sent, and behind the
  // snapshot they would wait for chrome.debugger to convert it (~4 ms on a 2,000-element page).
  const [tree, metrics, snapshot] = await Promise.all([
    timed('getFrameTree', send('Page.getFrameTree', {})),
    timed('getLayoutMetrics', send('Page.getLayoutMetrics', {})),
    timed('captureSnapshot', send('DOMSnapshot.captureSnapshot', SNAPSHOT_PARAMS).then(slimSnapshot).then((s) => measureFrameOwners(send, s))),
  ]);
  const oopifs = await Promise.all(oopifSessions.map(async (o, k) => {
    try {
      const [childTree, owner, snap] = await Promise.all([
        timed(`oopif${k}.getFrameTree`, send('Page.getFrameTree', {}, o.sessionId)),
        timed(`oopif${k}.getFrameOwner`, frameOwner(send, o.frameId, oopifSessions)),
        timed(`oopif${k}.captureSnapshot`, send('DOMSnapshot.captureSnapshot', SNAPSHOT_PARAMS, o.sessionId).then(slimSnapshot).then((s) => measureFrameOwners(send, s, o.sessionId))),
      ]);
      return { frameId: o.frameId, ownerBackendNodeId: owner, frameTree: childTree.frameTree, snapshot: snap };
    } catch (e) {
      // A frame that went away between attach and capture is not an error of the page: the
      // compiler reports its nodes as unknown frames if anything still points at it.
      const message = /** @type {{message?: unknown} | null | undefined} */ (e)?.message;
      warnings.push(`out-of-process frame ${o.frameId} could not be captured: ${message ? message : e}`);
      lost.push(o.sessionId);
      return null;
    }
  }));
  timings.total = Math.round((now() - t0) * 100) / 100;
  const vv = metrics.cssVisualViewport ?? metrics.visualViewport ?? {};
  return {
    capture: {
      v: CAPTURE_VERSION,
      styles: [...CAPTURE_STYLES],
      frameTree: tree.frameTree,
      snapshot,
      oopifs: oopifs.filter((o) => o !== null),
      viewport: { x: vv.pageX ?? 0, y: vv.pageY ?? 0, width: vv.clientWidth ?? 0, height: vv.clientHeight ?? 0 },
    },
    timings,
    warnings,
    lost,
  };
}

/**
 * backendNodeId of the <iframe> owning an out-of-process frame. The owner lives in the parent
 * frame's process: the page's session first, then the other iframe sessions (nested OOPIFs).
 * @param {Send} send
 * @param {string} frameId
 * @param {OopifSession[]} sessions
 * @returns {Promise<number|null>}
 */
async function frameOwner(send, frameId, sessions) {
  for (const sessionId of [undefined, ...sessions.map((s) => s.sessionId)]) {
    try {
      const r = await send('DOM.getFrameOwner', { frameId }, sessionId);
      if (r && typeof r.backendNodeId === 'number') return r.backendNodeId;
    } catch {
      // not in this process: try the next
    }
  }
  return null;
}

/**
 * Withholds what the user's policy does not let the agent see, before anything is compiled:
 * frames from blocked (or not allowed) sites lose their content, and so does every frame inside
 * them. A same-process frame's document keeps only its root node; an out-of-process frame is
 * dropped. The page itself (the top frame) is not judged here: if it is not allowed, `page`
 * names its URL and the caller must not compile the capture at all.
 * @param {Capture} cap changed in place
 * @param {(url: string) => boolean} allowed whether a frame at this URL may be seen
 * @returns {{page: string | null, withheld: string[], owners: Set<number>, frames: Set<string>}} page: the
 *   top frame's URL when it is not allowed; withheld: the URLs of withheld frames; owners:
 *   backendNodeIds of the <iframe> elements whose content was withheld (actions on them are
 *   refused); frames: the ids of every withheld frame (their requests hold no answer)
 */
export function withholdFrames(cap, allowed) {
  /** @type {string[]} */
  const withheld = [];
  /** @type {Set<number>} */
  const owners = new Set();
  const top = cap.frameTree?.frame;
  /** Frame ids to withhold, from every frame tree (a blocked frame takes its subtree with it). @type {Set<string>} */
  const ids = new Set();
  if (top && typeof top.url === 'string' && !allowed(top.url)) return { page: top.url, withheld, owners, frames: ids };
  /** @param {FrameTree | undefined} tree @param {boolean} inside */
  const walk = (tree, inside) => {
    const f = tree?.frame;
    if (!f) return;
    const out = inside || (typeof f.url === 'string' && !allowed(f.url));
    if (out && typeof f.id === 'string') {
      ids.add(f.id);
      if (!inside && typeof f.url === 'string') withheld.push(f.url);
    }
    for (const c of tree?.childFrames ?? []) walk(c, out);
  };
  walk(cap.frameTree, false);
  for (const o of cap.oopifs ?? []) walk(o.frameTree, ids.has(o.frameId));
  // Out-of-process frames: dropped whole (the compiler shows their owner as an empty frame).
  cap.oopifs = (cap.oopifs ?? []).filter((o) => {
    if (!ids.has(o.frameId)) return true;
    if (typeof o.ownerBackendNodeId === 'number') owners.add(o.ownerBackendNodeId);
    return false;
  });
  for (const snap of [cap.snapshot, ...cap.oopifs.map((o) => o.snapshot)]) blankDocuments(snap, ids, allowed, owners, withheld);
  return { page: null, withheld, owners, frames: ids };
}

/**
 * Keeps the content of at most `max` frames of a page (docs/design.md, "Capture": a page of
 * thousands of iframes): the first `max` in the order of the frame trees (the page's, then each
 * out-of-process frame's), each after its parent; every later frame, and every frame inside one,
 * is left out: gone from the frame trees, its document gone from the snapshot (the iframe element
 * stays, empty, as for a frame not yet loaded), its out-of-process session dropped. So the core
 * never sees a document it cannot place, and the same frames are kept from one capture to the next.
 * @param {Capture} cap changed in place
 * @param {number} max frames kept besides the top one
 * @returns {{frames: number, leftOut: Set<string>}} frames: how many the page has (the top one
 *   aside); leftOut: the ids of those left out (nothing the core is told about them is sent on)
 */
export function capFrames(cap, max) {
  /** Every frame id in order, the top frame first. @type {string[]} */
  const order = [];
  const seen = new Set();
  /** @param {FrameTree | undefined} tree */
  const walk = (tree) => {
    const id = tree?.frame?.id;
    if (typeof id === 'string' && !seen.has(id)) { seen.add(id); order.push(id); }
    for (const c of tree?.childFrames ?? []) walk(c);
  };
  walk(cap.frameTree);
  for (const o of cap.oopifs ?? []) walk(o.frameTree);
  const leftOut = new Set(order.slice(max + 1));
  const frames = Math.max(0, order.length - 1);
  if (leftOut.size === 0) return { frames, leftOut };
  /** @param {FrameTree} tree @returns {FrameTree} */
  const prune = (tree) => ({ ...tree, childFrames: (tree.childFrames ?? []).filter((c) => !leftOut.has(String(c.frame?.id))).map(prune) });
  cap.frameTree = prune(cap.frameTree);
  cap.oopifs = (cap.oopifs ?? []).filter((o) => !leftOut.has(o.frameId)).map((o) => ({ ...o, frameTree: prune(o.frameTree) }));
  for (const snap of [cap.snapshot, ...cap.oopifs.map((o) => o.snapshot)]) dropDocuments(snap, leftOut);
  return { frames, leftOut };
}

/**
 * Removes the documents of the given frames from one DOMSnapshot, and the documents inside them,
 * renumbering the contentDocumentIndex links of those kept.
 * @param {any} snap changed in place @param {Set<string>} frameIds
 */
function dropDocuments(snap, frameIds) {
  const strings = snap?.strings ?? [];
  const docs = Array.isArray(snap?.documents) ? snap.documents : [];
  /** @type {Set<number>} */
  const drop = new Set();
  docs.forEach((/** @type {any} */ d, /** @type {number} */ i) => { if (i > 0 && frameIds.has(strings[d?.frameId])) drop.add(i); });
  if (drop.size === 0) return;
  // A document lists the ones it holds after itself: one pass drops what is inside a dropped one.
  docs.forEach((/** @type {any} */ d, /** @type {number} */ i) => {
    const cdi = d?.nodes?.contentDocumentIndex;
    if (drop.has(i) && cdi && Array.isArray(cdi.value)) for (const k of cdi.value) drop.add(k);
  });
  /** Old document index -> new. @type {Map<number, number>} */
  const renumber = new Map();
  docs.forEach((/** @type {any} */ _, /** @type {number} */ i) => { if (!drop.has(i)) renumber.set(i, renumber.size); });
  snap.documents = docs.filter((/** @type {any} */ _, /** @type {number} */ i) => !drop.has(i));
  for (const d of snap.documents) {
    const cdi = d?.nodes?.contentDocumentIndex;
    if (!cdi || !Array.isArray(cdi.index) || !Array.isArray(cdi.value)) continue;
    /** @type {number[]} */ const index = [];
    /** @type {number[]} */ const value = [];
    cdi.index.forEach((/** @type {number} */ node, /** @type {number} */ k) => {
      const to = renumber.get(cdi.value[k]);
      if (to !== undefined) { index.push(node); value.push(to); }
    });
    d.nodes.contentDocumentIndex = { index, value };
  }
}

/**
 * Empties the documents of withheld frames in one DOMSnapshot (and the documents inside them),
 * and records their owner elements. A document whose frame is in no tree is judged by its URL.
 * @param {any} snap @param {Set<string>} ids @param {(url: string) => boolean} allowed
 * @param {Set<number>} owners @param {string[]} withheld
 */
function blankDocuments(snap, ids, allowed, owners, withheld) {
  const strings = snap?.strings ?? [];
  const docs = Array.isArray(snap?.documents) ? snap.documents : [];
  const blank = new Set();
  docs.forEach((/** @type {any} */ d, /** @type {number} */ i) => {
    const frameId = strings[d?.frameId], url = strings[d?.documentURL];
    if (ids.has(frameId)) blank.add(i);
    else if (i > 0 && typeof url === 'string' && !allowed(url)) { blank.add(i); withheld.push(url); }
  });
  if (blank.size === 0) return;  // the usual case: nothing to withhold, nothing more to walk
  /** Document index -> [index of the document holding its owner, that owner's backendNodeId]. */
  const ownerOf = new Map();
  docs.forEach((/** @type {any} */ d, /** @type {number} */ i) => {
    const cdi = d?.nodes?.contentDocumentIndex;
    if (!cdi || !Array.isArray(cdi.index)) return;
    cdi.index.forEach((/** @type {number} */ node, /** @type {number} */ k) => ownerOf.set(cdi.value[k], [i, d.nodes.backendNodeId?.[node]]));
  });
  // Documents inside a blanked one go with it (their owner element is gone).
  for (let changed = true; changed;) {
    changed = false;
    for (const [child, [parent]] of ownerOf) if (blank.has(parent) && !blank.has(child)) { blank.add(child); changed = true; }
  }
  for (const i of blank) {
    const d = docs[i];
    const owner = ownerOf.get(i);
    if (owner && typeof owner[1] === 'number') owners.add(owner[1]);
    keepRootOnly(d);
  }
}

/** Positions in a list of node indexes that refer to the root node (index 0). @param {unknown[]} index @returns {number[]} */
function rootRows(index) {
  /** @type {number[]} */
  const rows = [];
  index.forEach((n, j) => { if (n === 0) rows.push(j); });
  return rows;
}

/** Reduces one DOMSnapshot document to its root node (no content, no layout). @param {any} d */
function keepRootOnly(d) {
  const nodes = d?.nodes;
  if (nodes && typeof nodes === 'object') {
    for (const [k, v] of Object.entries(nodes)) {
      if (Array.isArray(v)) nodes[k] = v.slice(0, 1);
      else if (v && typeof v === 'object' && Array.isArray(v.index)) {
        const rows = rootRows(v.index);
        nodes[k] = Array.isArray(v.value) ? { index: rows.map(() => 0), value: rows.map((j) => v.value[j]) } : { index: rows.map(() => 0) };
      }
    }
  }
  const layout = d?.layout;
  if (layout && typeof layout === 'object' && Array.isArray(layout.nodeIndex)) {
    const rows = rootRows(layout.nodeIndex);
    const len = layout.nodeIndex.length;
    for (const [k, v] of Object.entries(layout)) if (Array.isArray(v) && v.length === len) layout[k] = rows.map((j) => v[j]);
  }
}

/** The CDP events the core wants (frame lifecycle); everything else is not forwarded. */
export const CORE_EVENTS = Object.freeze(new Set([
  'Page.frameNavigated', 'Page.frameDetached', 'Page.frameAttached', 'Page.navigatedWithinDocument',
  'Page.frameStartedLoading', 'Page.frameStoppedLoading', 'Page.lifecycleEvent',
  'Target.attachedToTarget', 'Target.detachedFromTarget', 'Inspector.targetCrashed',
]));
