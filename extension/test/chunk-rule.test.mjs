// The chunk rule is one table (rules/native-chunks.json): every case through the extension's
// ChunkAssembler (tests/unit/bridge/chunk_rule_test.cpp feeds the same cases to athena-bridge's).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { ChunkAssembler } from '../lib/native.js';

const rule = JSON.parse(readFileSync(new URL('../../rules/native-chunks.json', import.meta.url), 'utf8'));

test('chunk rule: every case of rules/native-chunks.json, through the extension\'s ChunkAssembler', () => {
  assert.ok(rule.cases.length > 10);
  for (const c of rule.cases) {
    const a = new ChunkAssembler({ maxChunks: c.maxChunks, maxBytes: c.maxBytes });
    assert.equal(c.chunks.length, c.then.length, c.name);
    c.chunks.forEach((piece, i) => {
      const want = c.then[i];
      const at = `${c.name}, piece ${i}`;
      if (want !== null && typeof want === 'object') assert.throws(() => a.add(piece), { message: want.error }, at);
      else assert.deepEqual(a.add(piece), want === null ? null : JSON.parse(want), at);
    });
  }
});
