// The bounds both ends of the native wire must agree on live in rules/ (native-chunks.json
// `bounds`, wire-bounds.json), from which athena-bridge's are generated (bridge/gen-tools.mjs); the
// extension holds them in extension/lib/limits.js, since Chrome loads it from its own folder only.
// This test fails when the extension's differ from rules/.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { LIMITS } from '../../extension/lib/limits.js';

const rules = (/** @type {string} */ name) => JSON.parse(readFileSync(new URL(`../../rules/${name}`, import.meta.url), 'utf8'));

test('the chunk rule\'s bounds: extension/lib/limits.js holds rules/native-chunks.json\'s', () => {
  const { bounds } = rules('native-chunks.json');
  assert.deepEqual(
    { chunkBytes: LIMITS.nativeChunkBytes, maxChunks: LIMITS.nativeMaxChunks, maxMessageBytes: LIMITS.nativeMaxMessageBytes },
    bounds);
});

test('a call\'s deadlines and the wake alarm: extension/lib/limits.js holds rules/wire-bounds.json\'s', () => {
  const { about: _about, ...bounds } = rules('wire-bounds.json');
  assert.deepEqual(
    { callDeadlineMaxMs: LIMITS.callDeadlineMaxMs, callDeadlineGraceMs: LIMITS.callDeadlineGraceMs, wakeAlarmMinutes: LIMITS.wakeAlarmMinutes },
    bounds);
});
