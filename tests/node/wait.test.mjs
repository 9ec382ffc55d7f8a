// tests/support/wait.mjs: every wait ends with the awaited value or with an error naming what did
// not happen, never silently.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { nextEvent, until, within } from '../support/wait.mjs';

test('until returns the first truthy value, or fails naming the state and what was seen', async () => {
  let n = 0;
  assert.equal(await until('n reaching 3', () => (++n >= 3 ? n : 0), { pollMs: 1 }), 3);
  await assert.rejects(until('the moon rising', () => false, { ms: 30, pollMs: 5, last: () => 'clouds' }),
    /^Error: the moon rising did not happen within 30 ms; last seen: clouds$/);
  await assert.rejects(until('a check that throws', () => { throw new Error('boom'); }), /boom/);
});

test('within passes a result through, or fails naming the call that hung', async () => {
  assert.equal(await within('a quick call', Promise.resolve(7), 50), 7);
  await assert.rejects(within('the stuck call', new Promise(() => {}), 20), /^Error: the stuck call did not finish within 20 ms \(hung\?\)$/);
});

test('nextEvent resolves with the event arguments, or fails naming the event', async () => {
  const e = new EventEmitter();
  const got = nextEvent(e, 'ready', 'the ready event', 1000);
  e.emit('ready', 1, 'two');
  assert.deepEqual(await got, [1, 'two']);
  await assert.rejects(nextEvent(new EventEmitter(), 'close', 'the socket closing', 20), /^Error: the socket closing did not happen within 20 ms$/);
});
