// engine.describeNode through the wasm wrapper: the core's role and name of a node by its
// backendNodeId, with the ref the agent holds; how the extension names what covers a target,
// so no role or name is computed in the page (extension/test/one-naming.test.mjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { capture } from './capture.mjs';
import { loadAthena } from './load.mjs';

const { athena, AthenaError } = await loadAthena();
const KEY = { context: 0, page: 1 };

test('describeNode: a node the agent holds a ref for is named as it was shown, with that ref', () => {
  const engine = athena.createEngine();
  engine.openPage(KEY);
  engine.snapshot(KEY, capture());
  const ref = engine.find(KEY, { role: 'button', name: 'Add to cart' })[0].ref;
  const t = engine.resolve(KEY, ref);
  assert.deepEqual(engine.describeNode(KEY, t.backendNodeId, t.frameId), { ref, role: 'button', name: 'Add to cart' });
  assert.deepEqual(engine.describeNode(KEY, t.backendNodeId, ''), { ref, role: 'button', name: 'Add to cart' }, 'any frame');
  assert.equal(engine.describeNode(KEY, t.backendNodeId, 'NO-SUCH-FRAME'), null);
  assert.equal(engine.describeNode(KEY, 987654, t.frameId), null, 'no line of the compiler\'s');
  assert.throws(() => engine.describeNode(KEY, 1.5, t.frameId), (e) => e instanceof AthenaError && e.code === 'invalid_argument');
  assert.throws(() => engine.describeNode({ context: 0, page: 9 }, t.backendNodeId, t.frameId), (e) => e instanceof AthenaError && e.code === 'unknown_page');
  engine.dispose();
});
