import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LIMITS } from '../lib/limits.js';
import { scrubSecrets, TraceLog } from '../lib/trace.js';

/** A stand-in with the wasm engine's method shapes (the real one runs in the e2e tests). */
function fakeEngine() {
  let v = 0;
  return {
    openPage() {}, closePage() {}, onEvent() {}, abortAction() {},
    snapshot: () => ({ type: 'full', version: ++v, text: `<full v="${v}"/>`, json: '{}' }),
    beginAction: () => ({ freshness: 'current' }),
    finishAction(key, capture) { if (capture === 'bad') throw Object.assign(new Error('bad'), { code: 'malformed_json' }); return { type: 'delta', version: ++v, text: `<delta v="${v}"/>`, json: '{}' }; },
    stats: () => ({ version: v }),
  };
}

test('every core call is recorded per page with the FactPack it answered; errors too', () => {
  const log = new TraceLog();
  const e = log.wrap(fakeEngine());
  const key = { context: 0, page: 1 };
  e.openPage(key);
  e.snapshot(key, '{"c":0}', { kind: 'navigate' });
  e.beginAction(key, '{"c":0}', 1);
  e.onEvent(key, '{"method":"Page.frameNavigated"}');
  e.finishAction(key, '{"c":1}', { kind: 'click' });
  assert.throws(() => e.finishAction(key, 'bad', {}), /bad/);
  assert.equal(e.stats(key).version, 2);  // other methods pass through
  const t = log.export('c0p1');
  assert.equal(t.format, 'athena-trace');
  assert.deepEqual(t.entries.map((x) => x.call), ['openPage', 'snapshot', 'beginAction', 'onEvent', 'finishAction', 'finishAction']);
  assert.equal(t.entries[1].out.text, '<full v="1"/>');
  assert.equal(t.entries[4].out.text, '<delta v="2"/>');
  assert.equal(t.entries[5].error, 'malformed_json');
  assert.throws(() => log.export('c0p9'), /no trace for c0p9/);
});

test('recording is bounded and says where it stopped', () => {
  const log = new TraceLog();
  const e = log.wrap(fakeEngine());
  const key = { context: 0, page: 1 };
  e.openPage(key);
  for (let i = 0; i < LIMITS.traceMaxEntries + 5; i++) e.onEvent(key, '{}');
  const t = log.export(key);
  assert.equal(t.entries.length, LIMITS.traceMaxEntries);
  assert.match(t.truncated, /recording stopped after \d+ calls/);
  for (let p = 2; p <= LIMITS.traceMaxPages + 2; p++) e.openPage({ context: 0, page: p });
  assert.equal(log.keys().length, LIMITS.traceMaxPages);
});

test('password, card and one-time-code values never leave in a trace', () => {
  const strings = ['INPUT', 'type', 'password', 'hunter22', 'autocomplete', 'cc-number', '4111111111111111', 'text', 'ada'];
  const cap = { snapshot: { strings, documents: [{ nodes: {
    attributes: [[1, 2], [4, 5], [1, 7]],
    inputValue: { index: [0, 1, 2], value: [3, 6, 8] },
  } }] } };
  const out = scrubSecrets(JSON.stringify(cap));
  assert.doesNotMatch(out, /hunter22|4111111111111111/);
  assert.match(out, /"ada"/);
  const again = JSON.parse(out);
  assert.equal(again.snapshot.strings[again.snapshot.documents[0].nodes.inputValue.value[0]], '[redacted]');
});

test('openPage on an open page keeps its trace (the engine keeps its state); after closePage a new trace starts', () => {
  const log = new TraceLog();
  const e = log.wrap(fakeEngine());
  const key = { context: 0, page: 1 };
  e.openPage(key);
  e.snapshot(key, '{}', {});
  e.openPage(key);  // a navigation baseline on the same tab
  e.snapshot(key, '{}', {});
  assert.deepEqual(log.export(key).entries.map((x) => x.call), ['openPage', 'snapshot', 'openPage', 'snapshot']);
  e.closePage(key);
  e.openPage(key);
  assert.deepEqual(log.export(key).entries.map((x) => x.call), ['openPage']);
});
