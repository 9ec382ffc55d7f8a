// A capture object (what extension/lib/capture.js returns: CDP results as they arrive) packed into
// the binary form of docs/capture-format.md, which the core reads without a JSON parse. This is
// what makes a step cheap: no JSON.stringify here, no parse in wasm.
//
// The packer checks only the shape it writes (arrays where arrays go, 32-bit integers, finite
// numbers, strings). Anything it cannot express exactly returns null, and the caller sends the
// capture as JSON instead, so the core's JSON reader names the defect precisely. Every rule of
// the content (index ranges, parents before children, ...) is the core's, for both forms.

const MAGIC = [0x41, 0x54, 0x48, 0x42];  // "ATHB"
const VERSION = 1;
const FLAG_RARE = ['inputChecked', 'optionSelected', 'isClickable'];
const VALUED_RARE = ['inputValue', 'textValue', 'pseudoType', 'shadowRootType', 'contentDocumentIndex'];
const encoder = new TextEncoder();

/** Thrown inside the packer when the capture is not of the shape it writes; caught in packCapture. */
class Unpackable extends Error {}
const unpackable = () => { throw new Unpackable(); };

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const isInt32 = (v) => (v | 0) === v;
const isNumber = (v) => typeof v === 'number' && Number.isFinite(v);
const optionalString = (v) => (v === undefined || v === null ? '' : typeof v === 'string' ? v : unpackable());

class Writer {
  constructor(size) {
    this.u8 = new Uint8Array(size);
    this.dv = new DataView(this.u8.buffer);
    this.pos = 0;
  }

  ensure(n) {
    if (this.pos + n <= this.u8.length) return;
    const next = new Uint8Array(Math.max(this.u8.length * 2, this.pos + n));
    next.set(this.u8.subarray(0, this.pos));
    this.u8 = next;
    this.dv = new DataView(next.buffer);
  }

  u32(v) { this.ensure(4); this.dv.setUint32(this.pos, v, true); this.pos += 4; }
  i32(v) { if (!isInt32(v)) unpackable(); this.ensure(4); this.dv.setInt32(this.pos, v, true); this.pos += 4; }
  f64(v) { if (!isNumber(v)) unpackable(); this.ensure(8); this.dv.setFloat64(this.pos, v, true); this.pos += 8; }

  /** u32 byte length + UTF-8 (lone surrogates become U+FFFD, as they do through JSON). */
  str(s) {
    this.ensure(4 + s.length * 3);
    const { written } = encoder.encodeInto(s, this.u8.subarray(this.pos + 4));
    this.dv.setUint32(this.pos, written, true);
    this.pos += 4 + written;
  }

  align8() {
    const pad = (8 - (this.pos % 8)) % 8;
    this.ensure(pad);
    this.u8.fill(0, this.pos, this.pos + pad);
    this.pos += pad;
  }

  /** An int32 column of n entries: from an array (checked), or `absent` everywhere when it is undefined. */
  i32s(arr, n, absent = 0) {
    this.align8();
    this.ensure(n * 4);
    const out = new Int32Array(this.u8.buffer, this.pos, n);
    if (arr === undefined) out.fill(absent);
    else for (let i = 0; i < n; i++) { const v = arr[i]; if (!isInt32(v)) unpackable(); out[i] = v; }
    this.pos += n * 4;
  }

  /** A float64 column from a flat list of numbers. */
  f64s(values) {
    this.align8();
    const n = values.length;
    this.ensure(n * 8);
    const out = new Float64Array(this.u8.buffer, this.pos, n);
    for (let i = 0; i < n; i++) { const v = values[i]; if (!isNumber(v)) unpackable(); out[i] = v; }
    this.pos += n * 8;
  }
}

const column = (obj, key, n, required) => {
  const a = obj[key];
  if (a === undefined && !required) return undefined;
  if (!Array.isArray(a) || a.length !== n) unpackable();
  return a;
};

// Per-node lists (attributes) or per-layout-entry lists (styles): offsets, then the values.
function lists(w, arr, n) {
  const offsets = new Array(n + 1);
  offsets[0] = 0;
  let total = 0;
  if (arr !== undefined) {
    for (let i = 0; i < n; i++) {
      const a = arr[i];
      if (!Array.isArray(a)) unpackable();
      total += a.length;
      offsets[i + 1] = total;
    }
  } else {
    offsets.fill(0);
  }
  w.i32s(offsets, n + 1);
  w.align8();
  w.ensure(total * 4);
  const out = new Int32Array(w.u8.buffer, w.pos, total);
  let k = 0;
  if (arr !== undefined)
    for (let i = 0; i < n; i++) {
      const a = arr[i];
      for (let j = 0; j < a.length; j++) { const v = a[j]; if (!isInt32(v)) unpackable(); out[k++] = v; }
    }
  w.pos += total * 4;
}

function rare(w, nodes, key, valued) {
  const r = nodes[key];
  if (r === undefined) {
    w.u32(0);
    w.i32s(undefined, 0);
    if (valued) w.i32s(undefined, 0);
    return;
  }
  if (!isObject(r) || !Array.isArray(r.index)) unpackable();
  const k = r.index.length;
  if (valued && (!Array.isArray(r.value) || r.value.length !== k)) unpackable();
  w.u32(k);
  w.i32s(r.index, k);
  if (valued) w.i32s(r.value, k);
}

const optionalIndex = (v) => (v === undefined ? -1 : v);

function documentOf(w, doc) {
  if (!isObject(doc) || doc.frameId === undefined) unpackable();
  w.i32(doc.frameId);
  w.i32(optionalIndex(doc.documentURL));
  w.i32(optionalIndex(doc.title));
  const sx = doc.scrollOffsetX, sy = doc.scrollOffsetY;
  w.u32((sx !== undefined ? 1 : 0) | (sy !== undefined ? 2 : 0));
  w.f64(sx === undefined ? 0 : sx);  // null is not absent: the JSON reader refuses it, so must we
  w.f64(sy === undefined ? 0 : sy);

  const nodes = doc.nodes;
  if (!isObject(nodes) || !Array.isArray(nodes.parentIndex)) unpackable();
  const n = nodes.parentIndex.length;
  w.u32(n);
  w.i32s(nodes.parentIndex, n);
  w.i32s(column(nodes, 'nodeType', n, true), n);
  w.i32s(column(nodes, 'nodeName', n, true), n);
  w.i32s(column(nodes, 'nodeValue', n, false), n, -1);
  w.i32s(column(nodes, 'backendNodeId', n, true), n);
  lists(w, column(nodes, 'attributes', n, false), n);
  for (const key of FLAG_RARE) rare(w, nodes, key, false);
  for (const key of VALUED_RARE) rare(w, nodes, key, true);

  const layout = doc.layout;
  if (!isObject(layout) || !Array.isArray(layout.nodeIndex)) unpackable();
  const m = layout.nodeIndex.length;
  w.u32(m);
  w.i32s(layout.nodeIndex, m);
  const bounds = column(layout, 'bounds', m, true);
  const flat = new Array(m * 4);
  for (let k = 0; k < m; k++) {
    const b = bounds[k];
    if (!Array.isArray(b) || b.length !== 4) unpackable();
    flat[4 * k] = b[0]; flat[4 * k + 1] = b[1]; flat[4 * k + 2] = b[2]; flat[4 * k + 3] = b[3];
  }
  w.f64s(flat);
  lists(w, column(layout, 'styles', m, true), m);
  w.i32s(column(layout, 'text', m, false), m, -1);
  // clientRects: only [x, y, w, h] entries matter (frame owners' border offsets); [] is the rest.
  const rects = column(layout, 'clientRects', m, false);
  const withRect = [], xy = [];
  if (rects !== undefined)
    for (let k = 0; k < m; k++) {
      const r = rects[k];
      if (!Array.isArray(r) || (r.length !== 0 && r.length !== 4)) unpackable();
      if (r.length === 4) { withRect.push(k); xy.push(r[0], r[1]); }
    }
  w.u32(withRect.length);
  w.i32s(withRect, withRect.length);
  w.f64s(xy);
}

// The frame tree in pre-order, each frame followed by its child count (an explicit stack: no
// recursion however deep the object).
function frames(w, tree) {
  const stack = [tree];
  while (stack.length) {
    const t = stack.pop();
    if (!isObject(t) || !isObject(t.frame)) unpackable();
    const f = t.frame;
    if (typeof f.id !== 'string' || typeof f.loaderId !== 'string') unpackable();
    w.str(f.id);
    w.str(f.loaderId);
    w.str(optionalString(f.parentId));
    w.str(optionalString(f.url));
    const kids = t.childFrames;
    if (kids !== undefined && !Array.isArray(kids)) unpackable();
    w.u32(kids ? kids.length : 0);
    if (kids) for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]);
  }
}

function snapshotOf(w, snap) {
  if (!isObject(snap) || !Array.isArray(snap.strings) || !Array.isArray(snap.documents)) unpackable();
  const strings = snap.strings;
  for (const s of strings) if (typeof s !== 'string' || s.includes('\0')) unpackable();
  // One encode for the whole table: each string followed by a 0 byte (none holds one).
  const blob = strings.length ? strings.join('\0') + '\0' : '';
  w.u32(strings.length);
  w.str(blob);
  w.u32(snap.documents.length);
  for (const doc of snap.documents) documentOf(w, doc);
}

/**
 * Packs a capture object into the binary form, or returns null when the capture is not of the
 * shape the binary form expresses (send it as JSON then: the core names the defect).
 * @param {any} capture
 * @returns {Uint8Array | null}
 */
export function packCapture(capture) {
  try {
    if (!isObject(capture) || (capture.v !== undefined && capture.v !== VERSION)) unpackable();
    const w = new Writer(1 << 16);
    for (const b of MAGIC) { w.ensure(1); w.u8[w.pos++] = b; }
    w.u32(VERSION);
    w.u32(0);  // total size, patched below
    const styles = capture.styles;
    if (!Array.isArray(styles)) unpackable();
    w.u32(styles.length);
    for (const s of styles) { if (typeof s !== 'string') unpackable(); w.str(s); }
    const vp = capture.viewport;
    if (vp !== undefined && !isObject(vp)) unpackable();
    w.u32(vp ? 1 : 0);
    for (const k of ['x', 'y', 'width', 'height']) w.f64(vp ? vp[k] : 0);
    frames(w, capture.frameTree);
    snapshotOf(w, capture.snapshot);
    const oopifs = capture.oopifs === undefined ? [] : capture.oopifs;
    if (!Array.isArray(oopifs)) unpackable();
    w.u32(oopifs.length);
    for (const o of oopifs) {
      if (!isObject(o) || typeof o.frameId !== 'string') unpackable();
      w.str(o.frameId);
      const owner = o.ownerBackendNodeId;
      w.u32(owner === undefined || owner === null ? 0 : 1);
      w.i32(owner === undefined || owner === null ? -1 : owner);
      frames(w, o.frameTree);
      snapshotOf(w, o.snapshot);
    }
    w.dv.setUint32(8, w.pos, true);
    return w.u8.subarray(0, w.pos);
  } catch (e) {
    if (e instanceof Unpackable || e instanceof RangeError) return null;
    throw e;
  }
}
