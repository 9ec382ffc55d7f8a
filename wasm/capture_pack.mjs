// A capture object (what extension/lib/capture.js returns: CDP results as they arrive) packed into
// the binary form of docs/capture-format.md, which the core reads without a JSON parse. This is
// what makes a step cheap: no JSON.stringify here, no parse in wasm.
//
// The packer checks only the shape it writes (arrays where arrays go, 32-bit integers, finite
// numbers, strings). Anything it cannot express exactly returns null, and the caller sends the
// capture as JSON instead, so the core's JSON reader names the defect precisely. Every rule of
// the content (index ranges, parents before children, ...) is the core's, for both forms.
//
// Two passes: the first bounds the size from array lengths, so the buffer is allocated once
// (in the wasm heap, when the caller gives an allocator); the second writes every column straight
// into a typed view of it. Growing a buffer and building temporary arrays cost as much as the
// whole wasm step on a 10,000-element page (bench/wasm-results.md).

/** The first bytes of a capture in binary form ("ATHB"). */
export const BINARY_MAGIC = Object.freeze([0x41, 0x54, 0x48, 0x42]);
const VERSION = 1;
const FLAG_RARE = ['inputChecked', 'optionSelected', 'isClickable'];
const VALUED_RARE = ['inputValue', 'textValue', 'pseudoType', 'shadowRootType', 'contentDocumentIndex'];
/** @type {Array<[string, boolean]>} column name, has values */
const RARE = [...FLAG_RARE.map((key) => /** @type {[string, boolean]} */ ([key, false])), ...VALUED_RARE.map((key) => /** @type {[string, boolean]} */ ([key, true]))];
const encoder = new TextEncoder();

/** Thrown inside the packer when the capture is not of the shape it writes; caught in packCapture. */
class Unpackable extends Error {}
const unpackable = () => { throw new Unpackable(); };

// The capture is parsed CDP JSON of any shape until checked: `any` is what these take.
const isObject = (/** @type {any} */ v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const isInt32 = (/** @type {any} */ v) => (v | 0) === v;
const isNumber = (/** @type {any} */ v) => typeof v === 'number' && Number.isFinite(v);
const optionalString = (/** @type {any} */ v) => (v === undefined || v === null ? '' : typeof v === 'string' ? v : unpackable());
const optionalIndex = (/** @type {any} */ v) => (v === undefined ? -1 : v);
/** @type {(v: any) => any[]} */
const array = (v) => (Array.isArray(v) ? v : unpackable());

/** @type {(obj: any, key: string, n: number, required: boolean) => any} an array of n, or undefined when absent and not required */
const column = (obj, key, n, required) => {
  const a = obj[key];
  if (a === undefined && !required) return undefined;
  if (!Array.isArray(a) || a.length !== n) unpackable();
  return a;
};

// ------------------------------------------------------------------ pass 1: an upper bound
// UTF-8 takes at most 3 bytes per UTF-16 unit; every array may need 7 bytes of padding.
const ARRAY = 4 + 7;  // a count or length before an array, and the array's padding
const strBound = (/** @type {string} */ s) => 4 + 3 * s.length;

/** @param {any} tree */
function framesBound(tree) {
  let bytes = 0;
  const stack = [tree];
  while (stack.length) {
    const t = stack.pop();
    if (!isObject(t) || !isObject(t.frame)) unpackable();
    const f = t.frame;
    for (const s of [f.id, f.loaderId, f.parentId, f.url]) bytes += strBound(typeof s === 'string' ? s : '');
    bytes += 4;
    if (Array.isArray(t.childFrames)) for (const c of t.childFrames) stack.push(c);
  }
  return bytes;
}

// Sum of the lengths of a column of lists (attributes per node, styles per layout entry).
/** @param {any[] | undefined} arr */
function listsTotal(arr) {
  let total = 0;
  if (arr !== undefined) for (let i = 0; i < arr.length; i++) total += array(arr[i]).length;
  return total;
}

/** @param {any} doc */
function documentBound(doc) {
  if (!isObject(doc) || !isObject(doc.nodes) || !isObject(doc.layout)) unpackable();
  const nodes = doc.nodes, layout = doc.layout;
  const n = array(nodes.parentIndex).length, m = array(layout.nodeIndex).length;
  let bytes = 32 + 4;  // frameId, documentURL, title, scroll flags, scroll x and y; n
  bytes += 5 * (7 + 4 * n) + 7 + 4 * (n + 1) + 7 + 4 * listsTotal(nodes.attributes);
  for (const [key, valued] of RARE) {
    const r = nodes[key];
    const k = isObject(r) && Array.isArray(r.index) ? r.index.length : 0;
    bytes += ARRAY + 4 * k + (valued ? 7 + 4 * k : 0);
  }
  bytes += 4 + 7 + 4 * m + 7 + 32 * m + 7 + 4 * (m + 1) + 7 + 4 * listsTotal(layout.styles) + 7 + 4 * m;
  bytes += ARRAY + 7 + 20 * (Array.isArray(layout.clientRects) ? rectCount(layout.clientRects) : 0);
  return bytes;
}

/** @param {any} snap */
function snapshotBound(snap) {
  if (!isObject(snap)) unpackable();
  let chars = 0;
  for (const s of array(snap.strings)) chars += typeof s === 'string' ? s.length + 1 : unpackable();
  let bytes = 4 + 4 + 3 * chars + 4;
  for (const doc of array(snap.documents)) bytes += documentBound(doc);
  return bytes;
}

/** @param {any} capture */
function captureBound(capture) {
  let bytes = 12 + 4 + 4 + 32;  // header, style count, viewport
  for (const s of array(capture.styles)) bytes += strBound(typeof s === 'string' ? s : '');
  bytes += framesBound(capture.frameTree) + snapshotBound(capture.snapshot) + 4;
  if (Array.isArray(capture.oopifs))
    for (const o of capture.oopifs) {
      if (!isObject(o)) unpackable();
      bytes += strBound(typeof o.frameId === 'string' ? o.frameId : '') + 8 + framesBound(o.frameTree) + snapshotBound(o.snapshot);
    }
  return bytes;
}

// Layout entries whose clientRects is [x, y, w, h] (frame owners); [] is the rest.
/** @param {any[]} rects */
function rectCount(rects) {
  let k = 0;
  for (let i = 0; i < rects.length; i++) {
    const r = array(rects[i]);
    if (r.length === 4) k++;
    else if (r.length !== 0) unpackable();
  }
  return k;
}

// ------------------------------------------------------------------ pass 2: the bytes
class Writer {
  /** @param {Uint8Array} u8 large enough for the bound; its byteOffset a multiple of 8 */
  constructor(u8) {
    this.u8 = u8;
    this.buffer = u8.buffer;
    this.base = u8.byteOffset;
    this.dv = new DataView(u8.buffer, u8.byteOffset, u8.length);
    this.pos = 0;
  }

  /** @param {number} v */
  u32(v) { this.dv.setUint32(this.pos, v, true); this.pos += 4; }
  /** @param {any} v */
  i32(v) { if (!isInt32(v)) unpackable(); this.dv.setInt32(this.pos, v, true); this.pos += 4; }
  /** @param {any} v */
  f64(v) { if (!isNumber(v)) unpackable(); this.dv.setFloat64(this.pos, v, true); this.pos += 8; }

  /** u32 byte length + UTF-8 (lone surrogates become U+FFFD, as they do through JSON). @param {string} s */
  str(s) {
    const { read, written } = encoder.encodeInto(s, this.u8.subarray(this.pos + 4));
    if (read !== s.length) throw new Error('capture_pack: the size bound was too small (a bug)');
    this.u32(written);
    this.pos += written;
  }

  align8() {
    while (this.pos % 8) this.u8[this.pos++] = 0;
  }

  /** A typed view of the next n int32s (8-aligned from the buffer's start), advancing past them. @param {number} n */
  i32view(n) {
    this.align8();
    const out = new Int32Array(this.buffer, this.base + this.pos, n);
    this.pos += 4 * n;
    return out;
  }

  /** @param {number} n */
  f64view(n) {
    this.align8();
    const out = new Float64Array(this.buffer, this.base + this.pos, n);
    this.pos += 8 * n;
    return out;
  }

  /**
   * An int32 column of n entries: from an array (checked), or `absent` everywhere when it is undefined.
   * @param {any[] | undefined} arr @param {number} n @param {number} [absent]
   */
  i32s(arr, n, absent = 0) {
    const out = this.i32view(n);
    if (arr === undefined) out.fill(absent);
    else for (let i = 0; i < n; i++) { const v = arr[i]; if (!isInt32(v)) unpackable(); out[i] = v; }
  }
}

// Per-node lists (attributes) or per-layout-entry lists (styles): n + 1 offsets, then the values.
// The values' place follows from n alone, so both columns fill in one loop.
/** @param {Writer} w @param {any[] | undefined} arr @param {number} n */
function lists(w, arr, n) {
  const offsets = w.i32view(n + 1);
  offsets[0] = 0;
  if (arr === undefined) {
    offsets.fill(0);
    w.i32view(0);
    return;
  }
  const out = w.i32view(listsTotal(arr));
  let k = 0;
  for (let i = 0; i < n; i++) {
    const a = arr[i];
    for (let j = 0; j < a.length; j++) { const v = a[j]; if (!isInt32(v)) unpackable(); out[k++] = v; }
    offsets[i + 1] = k;
  }
}

/** @param {Writer} w @param {any} nodes @param {string} key @param {boolean} valued */
function rare(w, nodes, key, valued) {
  const r = nodes[key];
  if (r === undefined) {
    w.u32(0);
    w.i32view(0);
    if (valued) w.i32view(0);
    return;
  }
  if (!isObject(r) || !Array.isArray(r.index)) unpackable();
  const k = r.index.length;
  if (valued && (!Array.isArray(r.value) || r.value.length !== k)) unpackable();
  w.u32(k);
  w.i32s(r.index, k);
  if (valued) w.i32s(r.value, k);
}

/** @param {Writer} w @param {any} doc */
function documentOf(w, doc) {
  if (doc.frameId === undefined) unpackable();
  w.i32(doc.frameId);
  w.i32(optionalIndex(doc.documentURL));
  w.i32(optionalIndex(doc.title));
  const sx = doc.scrollOffsetX, sy = doc.scrollOffsetY;
  w.u32((sx !== undefined ? 1 : 0) | (sy !== undefined ? 2 : 0));
  w.f64(sx === undefined ? 0 : sx);  // null is not absent: the JSON reader refuses it, so must we
  w.f64(sy === undefined ? 0 : sy);

  const nodes = doc.nodes;
  const n = nodes.parentIndex.length;
  w.u32(n);
  w.i32s(nodes.parentIndex, n);
  w.i32s(column(nodes, 'nodeType', n, true), n);
  w.i32s(column(nodes, 'nodeName', n, true), n);
  w.i32s(column(nodes, 'nodeValue', n, false), n, -1);
  w.i32s(column(nodes, 'backendNodeId', n, true), n);
  lists(w, column(nodes, 'attributes', n, false), n);
  for (const [key, valued] of RARE) rare(w, nodes, key, valued);

  const layout = doc.layout;
  const m = layout.nodeIndex.length;
  w.u32(m);
  w.i32s(layout.nodeIndex, m);
  const bounds = column(layout, 'bounds', m, true);
  const flat = w.f64view(4 * m);
  for (let k = 0; k < m; k++) {
    const b = bounds[k];
    if (!Array.isArray(b) || b.length !== 4) unpackable();
    const x = b[0], y = b[1], wd = b[2], ht = b[3];
    if (!isNumber(x) || !isNumber(y) || !isNumber(wd) || !isNumber(ht)) unpackable();
    flat[4 * k] = x; flat[4 * k + 1] = y; flat[4 * k + 2] = wd; flat[4 * k + 3] = ht;
  }
  lists(w, column(layout, 'styles', m, true), m);
  w.i32s(column(layout, 'text', m, false), m, -1);
  // clientRects: only [x, y, w, h] entries matter (frame owners' border offsets); [] is the rest.
  const rects = column(layout, 'clientRects', m, false);
  const count = rects === undefined ? 0 : rectCount(rects);
  w.u32(count);
  const idx = w.i32view(count), xy = w.f64view(2 * count);
  for (let k = 0, j = 0; j < count; k++) {
    const r = rects[k];
    if (r.length !== 4) continue;
    if (!isNumber(r[0]) || !isNumber(r[1])) unpackable();
    idx[j] = k;
    xy[2 * j] = r[0];
    xy[2 * j + 1] = r[1];
    j++;
  }
}

// The frame tree in pre-order, each frame followed by its child count (an explicit stack: no
// recursion however deep the object).
/** @param {Writer} w @param {any} tree */
function frames(w, tree) {
  const stack = [tree];
  while (stack.length) {
    const t = stack.pop();
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

/** @param {Writer} w @param {any} snap */
function snapshotOf(w, snap) {
  const strings = snap.strings;
  for (const s of strings) if (s.includes('\0')) unpackable();
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
 *
 * `alloc(bytes)`, when given, supplies the buffer: a Uint8Array of at least `bytes` bytes whose
 * byteOffset is a multiple of 8 (a block of the wasm heap: no copy afterwards), or null to give up
 * (packCapture then returns null). `bytes` is an upper bound; the packed capture is the returned
 * view's first bytes. Without it a fresh buffer is allocated. No wasm call may run between alloc
 * and the return (the heap must not move).
 * @param {any} capture
 * @param {(bytes: number) => Uint8Array | null} [alloc]
 * @returns {Uint8Array | null}
 */
export function packCapture(capture, alloc) {
  try {
    if (!isObject(capture) || (capture.v !== undefined && capture.v !== VERSION)) unpackable();
    const bound = captureBound(capture);
    const u8 = alloc ? alloc(bound) : new Uint8Array(bound);
    if (u8 === null) return null;
    if (u8.length < bound || u8.byteOffset % 8 !== 0)
      throw new Error(`capture_pack: alloc gave ${u8.length} bytes at offset ${u8.byteOffset}; ${bound} bytes at a multiple of 8 are needed`);
    const w = new Writer(u8);
    for (const b of BINARY_MAGIC) u8[w.pos++] = b;
    w.u32(VERSION);
    w.u32(0);  // total size, patched below
    w.u32(capture.styles.length);
    for (const s of capture.styles) { if (typeof s !== 'string') unpackable(); w.str(s); }
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
      if (typeof o.frameId !== 'string') unpackable();
      w.str(o.frameId);
      const owner = o.ownerBackendNodeId;
      w.u32(owner === undefined || owner === null ? 0 : 1);
      w.i32(owner === undefined || owner === null ? -1 : owner);
      frames(w, o.frameTree);
      snapshotOf(w, o.snapshot);
    }
    w.dv.setUint32(8, w.pos, true);
    return u8.subarray(0, w.pos);
  } catch (e) {
    if (e instanceof Unpackable) return null;
    throw e;
  }
}
