// The policy on frames (extension/lib/capture.js withholdFrames) on a recorded page with a
// same-process and an out-of-process iframe: what the user does not allow is emptied before the
// core sees it, the core compiles what is left, and nothing of the withheld frames is in the
// FactPack, text or JSON.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gunzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { withholdFrames } from '../../extension/lib/capture.js';
import { loadAthena } from './load.mjs';

const { athena } = await loadAthena();
const KEY = { context: 0, page: 1 };
const recorded = () => JSON.parse(gunzipSync(readFileSync(new URL('../cases/frames/00-load/capture.json.gz', import.meta.url))).toString());
const hostIs = (url, host) => { try { return new URL(url).hostname === host; } catch { return false; } };

/** The FactPack of a capture: [text, json]. */
function pack(cap) {
  const e = athena.createEngine();
  e.openPage(KEY);
  try {
    const p = e.snapshot(KEY, cap);
    return [p.text, JSON.stringify(p.json)];
  } finally {
    e.dispose();
  }
}

const [allText] = pack(recorded());

test('nothing withheld when the policy allows every frame: the capture is unchanged', () => {
  const cap = recorded();
  const w = withholdFrames(cap, () => true);
  assert.deepEqual(w, { page: null, withheld: [], owners: new Set(), frames: new Set() });
  assert.deepEqual(cap, recorded());
});

test('a blocked out-of-process frame is dropped and its owner recorded; the rest compiles', () => {
  const cap = recorded();
  const inner = cap.oopifs[0];
  const w = withholdFrames(cap, (url) => !hostIs(url, 'localhost'));
  assert.equal(w.page, null);
  assert.deepEqual(w.withheld, [inner.frameTree.frame.url]);
  assert.deepEqual([...w.owners], [inner.ownerBackendNodeId]);
  assert.equal(cap.oopifs.length, 0);
  const [text, json] = pack(cap);
  // The cross-site frame's content was in the full pack, and is in neither form now.
  assert.match(allText, /Apply coupon/, 'the recorded cross-site frame shows in the unfiltered FactPack');
  for (const s of [text, json]) assert.doesNotMatch(s, /Apply coupon|Coupon|frame-cross/);
  assert.match(text, /button "Subscribe"/, 'the same-process frame is still there');
  assert.match(text, /button "Top button"/);
});

test('a blocked same-process frame keeps only its root; its owner is recorded', () => {
  const cap = recorded();
  const w = withholdFrames(cap, (url) => !url.includes('frame-inner'));
  assert.equal(w.withheld.length, 1);
  const doc = cap.snapshot.documents[1];
  assert.equal(doc.nodes.parentIndex.length, 1);
  assert.ok(doc.layout.nodeIndex.every((n) => n === 0));
  assert.equal(w.owners.size, 1);
  const [text, json] = pack(cap);
  assert.match(allText, /textbox "Email"/);
  for (const s of [text, json]) assert.doesNotMatch(s, /Email|Subscribe|frame-inner/);
  assert.match(text, /button "Apply coupon"/, 'the allowed cross-site frame is still there');
});

test('a page the policy does not allow is named and left alone (the caller never compiles it)', () => {
  const cap = recorded();
  const w = withholdFrames(cap, (url) => !hostIs(url, '127.0.0.1'));
  assert.match(w.page, /^http:\/\/127\.0\.0\.1:\d+\/sites\/frames\.html/);
  assert.deepEqual(cap, recorded());
});
