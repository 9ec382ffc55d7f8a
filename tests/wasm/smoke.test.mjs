// The wasm module loads under Node (18 and 20+; bytes passed: the glue's fetch() of a file URL fails).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadCore } from './load.mjs';

test('wasm core loads and answers', async () => {
  const core = await loadCore();
  assert.match(core.version(), /^\d+\.\d+\.\d+$/);
});
