// engine.resolveNow through the wasm wrapper: a ref resolved against a fresh capture
// outside any action (read, screenshot) commits no version and leaves a pending action alone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { capture } from './capture.mjs';
import { loadAthena } from './load.mjs';

const { athena, AthenaError } = await loadAthena();
const KEY = { context: 0, page: 1 };

function page() {
  const engine = athena.createEngine();
  engine.openPage(KEY);
  const full = engine.snapshot(KEY, capture());
  const ref = engine.find(KEY, { role: 'button', name: 'Add to cart' })[0].ref;
  return { engine, full, ref };
}

test('resolveNow: three reads on a changing page, then an action with the current version is not stale', () => {
  const { engine, full, ref } = page();
  for (let i = 0; i < 3; i++) {
    const t = engine.resolveNow(KEY, capture({ buttons: ['Add to cart', `New ${i}`] }), ref);
    assert.equal(t.name, 'Add to cart');
    assert.equal(typeof t.backendNodeId, 'number');
    assert.equal(engine.stats(KEY).version, full.version);
    assert.equal(engine.stats(KEY).deliveredVersion, full.version);
  }
  const pre = engine.beginAction(KEY, capture({ buttons: ['Add to cart', 'Later'] }), full.version);
  assert.equal(pre.freshness, 'stale_with_history');
  const pack = engine.finishAction(KEY, capture({ buttons: ['Add to cart', 'Later'] }), { kind: 'click' });
  assert.ok(pack.version > full.version);
  engine.dispose();
});

test('resolveNow between beginAction and finishAction leaves the action pending', () => {
  const { engine, full, ref } = page();
  assert.equal(engine.beginAction(KEY, capture(), full.version).freshness, 'current');
  engine.resolveNow(KEY, capture(), ref);
  const pack = engine.finishAction(KEY, capture({ buttons: ['Add to cart', 'Added'] }), { kind: 'click' });
  assert.equal(pack.type, 'delta');
  engine.dispose();
});

test('resolveNow: a ref gone from the fresh capture is an AthenaError; bad arguments are refused', () => {
  const { engine, ref } = page();
  assert.throws(() => engine.resolveNow(KEY, capture({ buttons: [] }), ref), (e) => e instanceof AthenaError && e.code === 'ref_removed');
  assert.throws(() => engine.resolveNow(KEY, 42, ref), (e) => e instanceof AthenaError && e.code === 'malformed_capture');
  assert.throws(() => engine.resolveNow({ context: 0, page: 9 }, capture(), ref), (e) => e instanceof AthenaError && e.code === 'unknown_page');
  engine.dispose();
});
