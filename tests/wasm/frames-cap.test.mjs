// A page's frames past the ones a capture keeps (extension/lib/capture.js capFrames,
// extension/lib/limits.js framesCapturedMax) on a recorded page with a same-process and an
// out-of-process iframe: the frames left out are gone from the capture the core sees, which
// compiles it as a page whose iframes are empty (no unknown frames, so the next action runs on
// a delta), and the frames kept are untouched.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gunzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { capFrames } from '../../extension/lib/capture.js';
import { loadAthena } from './load.mjs';

const { athena } = await loadAthena();
const KEY = { context: 0, page: 1 };
const recorded = () => JSON.parse(gunzipSync(readFileSync(new URL('../cases/frames/00-load/capture.json.gz', import.meta.url))).toString());

/** A full snapshot of `cap`, then an action begun and finished on the same capture: [full text, freshness, the action's text]. */
function act(cap) {
  const e = athena.createEngine();
  e.openPage(KEY);
  try {
    const full = e.snapshot(KEY, cap);
    const pre = e.beginAction(KEY, cap, full.version);
    const after = e.finishAction(KEY, cap, { kind: 'click', warnings: [] });
    return [full.text, pre.freshness, after.text];
  } finally {
    e.dispose();
  }
}

test('no more frames than the cap: the capture is unchanged', () => {
  const cap = recorded();
  const r = capFrames(cap, 2);
  assert.deepEqual(r, { frames: 2, leftOut: new Set() });
  assert.deepEqual(cap, recorded());
});

test('one frame kept: the same-process frame (first in order) stays, the out-of-process one is left out', () => {
  const cap = recorded();
  const cross = cap.oopifs[0].frameId;
  const r = capFrames(cap, 1);
  assert.equal(r.frames, 2);
  assert.deepEqual([...r.leftOut], [cross]);
  assert.equal(cap.oopifs.length, 0);
  assert.deepEqual(cap.snapshot, recorded().snapshot, 'the same-process document is kept as it was');
  const [full, freshness, after] = act(cap);
  assert.match(full, /button "Subscribe"/);
  assert.doesNotMatch(full, /Apply coupon/);
  assert.doesNotMatch(full, /unknown/);
  assert.equal(freshness, 'current');
  assert.match(after, /^<no_change /);
});

test('no frame kept: both documents are gone, the page compiles with its own elements, and an action runs on it', () => {
  const cap = recorded();
  const inner = cap.frameTree.childFrames[0].frame.id;
  const cross = cap.oopifs[0].frameId;
  const r = capFrames(cap, 0);
  assert.deepEqual([...r.leftOut].sort(), [inner, cross].sort());
  assert.deepEqual(cap.frameTree.childFrames, []);
  assert.equal(cap.snapshot.documents.length, 1);
  const cdi = cap.snapshot.documents[0].nodes.contentDocumentIndex;
  assert.deepEqual(cdi, { index: [], value: [] }, 'no iframe points at a document that is gone');
  const [full, freshness, after] = act(cap);
  assert.match(full, /button "Top button"/);
  assert.doesNotMatch(full, /Subscribe|Apply coupon|unknown/);
  assert.equal(freshness, 'current');
  assert.match(after, /^<no_change /);
});
