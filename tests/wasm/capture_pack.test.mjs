// The capture packer (wasm/capture_pack.mjs) at the boundary: a capture object gives what its JSON
// text gives, byte for byte, errors included (what the packer cannot express goes as JSON, so the
// core names the defect); packing leaves the object as it was; and bytes that are truncated or
// corrupted are refused with malformed_capture, never a trap, the module answering as before.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { capture } from './capture.mjs';
import { loadAthena } from './load.mjs';

const { athena, mod, AthenaError } = await loadAthena();
const { packCapture } = mod;
const KEY = { context: 0, page: 1 };
const c0 = capture();
const c1 = capture({ dialog: { name: 'Added', buttons: ['OK'] } });

// A short session fed with `as(text)` for every capture: its answers, or the error of its first call.
function answers(as, first = c0) {
  const e = athena.createEngine();
  e.openPage(KEY);
  try {
    const full = e.snapshot(KEY, as(first));
    e.beginAction(KEY, as(first), full.version);
    const next = e.finishAction(KEY, as(c1), { kind: 'click' });
    return [full.type, full.text, full.json, next.type, next.text, next.json, JSON.stringify(e.stats(KEY))];
  } catch (err) {
    assert.ok(err instanceof AthenaError, String(err));
    return [err.code, err.message];
  } finally {
    e.dispose();
  }
}
const reference = answers((t) => t);

test('a capture object and its binary form give what its JSON text gives', () => {
  assert.deepEqual(answers((t) => JSON.parse(t)), reference);
  assert.deepEqual(answers((t) => packCapture(JSON.parse(t))), reference);
});

test('packing does not change the capture object', () => {
  const obj = JSON.parse(c0);
  const before = structuredClone(obj);
  assert.ok(packCapture(obj) instanceof Uint8Array);
  assert.deepEqual(obj, before);
});

test('packing into a caller\'s buffer (the wasm heap) gives the same bytes; null gives up; a short or misaligned buffer is refused', () => {
  const obj = JSON.parse(c1);
  const own = packCapture(obj);
  let asked = 0;
  const big = new Uint8Array(own.length * 4 + 64).fill(0xee);  // stale bytes: every byte must be written
  const into = packCapture(obj, (n) => { asked = n; return big.subarray(8, 8 + n); });
  assert.ok(asked >= own.length, `the bound ${asked} is below the ${own.length} bytes written`);
  assert.equal(into.byteOffset, 8);
  assert.deepEqual(into, own);
  assert.equal(packCapture(obj, () => null), null);
  assert.throws(() => packCapture(obj, (n) => new Uint8Array(n - 1)), /bytes at a multiple of 8 are needed/);
  assert.throws(() => packCapture(obj, (n) => big.subarray(4, 4 + n)), /bytes at a multiple of 8 are needed/);
  // Strings of 1 to 4 UTF-8 bytes per character, lone surrogates included: the bound holds.
  const wide = JSON.parse(c1);
  wide.snapshot.strings.push('é'.repeat(500), '漢'.repeat(500), '😀'.repeat(500), '\ud800'.repeat(500));
  const wideOwn = packCapture(wide);
  assert.ok(wideOwn instanceof Uint8Array);
  assert.deepEqual(packCapture(wide, (n) => big.length >= n ? big.subarray(0, n) : new Uint8Array(n)), wideOwn);
});

// Each defect changes the parsed capture; the engine's answer to the object must be the answer to
// its JSON text, whether the packer expressed it (content rules: the core's, in both forms) or not.
const doc = (o) => o.snapshot.documents[0];
const defects = {
  'a string in parentIndex': (o) => { doc(o).nodes.parentIndex[2] = '1'; },
  'a fraction as a node type': (o) => { doc(o).nodes.nodeType[1] = 1.5; },
  'a backend id beyond 32 bits': (o) => { doc(o).nodes.backendNodeId[1] = 2 ** 40; },
  'NaN in bounds': (o) => { doc(o).layout.bounds[0][1] = NaN; },
  'three numbers as bounds': (o) => { doc(o).layout.bounds[0] = [1, 2, 3]; },
  'null oopifs': (o) => { o.oopifs = null; },
  'null scroll offset': (o) => { doc(o).scrollOffsetX = null; },
  'no frameId': (o) => { delete doc(o).frameId; },
  'nodeValue null': (o) => { doc(o).nodes.nodeValue = null; },
  'a rare entry that is null': (o) => { doc(o).nodes.isClickable = null; },
  'a rare entry with fewer values': (o) => { doc(o).nodes.inputValue = { index: [1, 2], value: [0] }; },
  'an odd attribute list': (o) => { doc(o).nodes.attributes[1] = [0]; },
  'a string index out of range': (o) => { doc(o).nodes.nodeName[1] = 99999; },
  'a parent after its child': (o) => { doc(o).nodes.parentIndex[1] = 2; },
  'a node type above 12': (o) => { doc(o).nodes.nodeType[1] = 13; },
  'a layout entry of a missing node': (o) => { doc(o).layout.nodeIndex[0] = 1e6; },
  'a number as a string': (o) => { o.snapshot.strings[0] = 5; },
  'a string holding U+0000': (o) => { o.snapshot.strings.push('a\u0000b'); },
  'a lone surrogate in a string': (o) => { o.snapshot.strings.push('x\ud800y'); },
  'version 2': (o) => { o.v = 2; },
  'no styles': (o) => { delete o.styles; },
  'a frame tree without loaderId': (o) => { delete o.frameTree.frame.loaderId; },
  'an empty frame id': (o) => { o.frameTree.frame.id = ''; },
  'a viewport without width': (o) => { delete o.viewport.width; },
  'no documents': (o) => { o.snapshot.documents = []; },
  'a clientRect of two numbers': (o) => { doc(o).layout.clientRects = doc(o).layout.nodeIndex.map(() => []); doc(o).layout.clientRects[0] = [1, 2]; },
};

for (const [name, change] of Object.entries(defects)) {
  test(`${name}: the object is answered as its JSON text is`, () => {
    const broken = JSON.parse(c0);
    change(broken);
    const text = JSON.stringify(broken);
    // structuredClone keeps what JSON cannot (NaN, undefined): the object is what a caller would pass.
    const asObject = (t) => (t === text ? structuredClone(broken) : JSON.parse(t));
    assert.deepEqual(answers(asObject, text), answers((t) => t, text));
  });
}

test('truncated or corrupted bytes are malformed_capture, and the module answers as before', () => {
  const good = packCapture(JSON.parse(c0));
  const e = athena.createEngine();
  e.openPage(KEY);
  // A corrupted buffer may still read as a capture, which the engine may then refuse for its
  // content (a frame that changed identity, ...): any stable code but "internal" (a trap).
  const codes = {};
  const refusedOrOk = (bytes) => {
    try {
      e.snapshot(KEY, bytes);
      return 'ok';
    } catch (err) {
      assert.ok(err instanceof AthenaError, `a glue error instead of an AthenaError: ${err}`);
      assert.notEqual(err.code, 'internal', err.message);
      codes[err.code] = (codes[err.code] ?? 0) + 1;
      return err.message;
    }
  };
  let refused = 0;
  for (let n = 4; n < good.length; n += 3) {
    const cut = good.slice(0, n);
    if (n >= 12) new DataView(cut.buffer).setUint32(8, n, true);  // a header agreeing with the cut: the reader must still stop
    if (refusedOrOk(cut) !== 'ok') refused++;
  }
  assert.ok(refused > good.length / 4);
  let seed = 7;
  const next = () => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0);
  const outcomes = { ok: 0, refused: 0 };
  for (let k = 0; k < 3000; k++) {
    const bad = good.slice();
    for (let m = 0; m < 3; m++) bad[12 + (next() % (bad.length - 12))] = next() & 0xff;
    outcomes[refusedOrOk(bad) === 'ok' ? 'ok' : 'refused']++;
  }
  assert.ok(outcomes.refused > 0 && outcomes.ok > 0, JSON.stringify(outcomes));
  assert.ok(codes.malformed_capture > outcomes.refused / 2, JSON.stringify(codes));
  e.dispose();
  assert.deepEqual(answers((t) => JSON.parse(t)), reference);
  assert.deepEqual(answers((t) => t), reference);
});
