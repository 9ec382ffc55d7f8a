import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LIMITS } from '../lib/limits.js';
import { spawnSync } from 'node:child_process';
import { heldBytes, scrubSecrets, TraceLog } from '../lib/trace.js';

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

test('capture objects are recorded as given, charged by their estimated heap once each, and exported as JSON text', () => {
  const log = new TraceLog();
  const e = log.wrap(fakeEngine());
  const key = { context: 0, page: 1 };
  const cap = { v: 1, snapshot: { strings: ['INPUT', 'type', 'password', 'hunter22'], documents: [{ nodes: {
    parentIndex: [-1], attributes: [[1, 2]], inputValue: { index: [0], value: [3] },
  } }] } };
  const before = structuredClone(cap);
  e.openPage(key);
  e.beginAction(key, cap, null);
  e.finishAction(key, cap, { kind: 'dialog' });  // the same object twice: held once
  const log0 = log.pages.get('c0p1');
  assert.equal(log0.bytes, heldBytes(cap) + 2 * 64 + '<delta v="1"/>'.length);  // openPage is not charged
  assert.equal(heldBytes(cap), LIMITS.traceBytesPerCapture + LIMITS.traceBytesPerNode + 4 * LIMITS.traceBytesPerString + 25 * LIMITS.traceBytesPerChar);
  const t = log.export(key);
  assert.equal(typeof t.entries[1].capture, 'string');
  assert.doesNotMatch(t.entries[1].capture, /hunter22/);
  assert.deepEqual(cap, before, 'export scrubs a copy, never the live capture');
  const { snapshot } = JSON.parse(t.entries[2].capture);
  assert.deepEqual(snapshot.documents, before.snapshot.documents.map((d) => ({ nodes: { ...d.nodes, inputValue: { index: [0], value: [4] } } })));
});

test('a capture object JSON cannot write is exported as a note saying so', () => {
  const cyclic = { snapshot: { strings: [], documents: [] } };
  cyclic.self = cyclic;
  const out = JSON.parse(scrubSecrets(cyclic));
  assert.match(out.unserializable, /could not be written as JSON: .*circular/i);
  assert.equal(scrubSecrets('not json'), 'not json');
});

test('the byte bound holds for capture objects', () => {
  const log = new TraceLog();
  const e = log.wrap(fakeEngine());
  const key = { context: 0, page: 1 };
  // ~8 MB by the estimate: fewer than traceMaxBytes / 8 MB captures fit.
  const big = () => ({ snapshot: { strings: [], documents: [{ nodes: { parentIndex: new Array(20_000).fill(0) } }] } });
  e.openPage(key);
  let calls = 0;
  while (!log.pages.get('c0p1').truncated && calls < 1000) { e.snapshot(key, big(), {}); calls++; }
  const t = log.export(key);
  assert.match(t.truncated, /traceMaxBytes/);
  assert.ok(log.pages.get('c0p1').bytes <= LIMITS.traceMaxBytes);
  assert.equal(t.entries.length - 1, Math.floor(LIMITS.traceMaxBytes / (heldBytes(big()) + 64 + '<full v="1"/>'.length)));
});

// The estimate stands for memory: it must not be below what a capture object really holds. Measured
// in a child with --expose-gc (the test runner's own heap is too busy to measure in).
test('the estimate is at or above the heap a capture object takes, on every recorded page', () => {
  const script = `
    import { listCases, readStepFile } from ${JSON.stringify(new URL('../../tests/support/corpus.mjs', import.meta.url).href)};
    import { heldBytes } from ${JSON.stringify(new URL('../lib/trace.js', import.meta.url).href)};
    const out = [];
    for (const c of listCases()) {
      const text = readStepFile(c.steps[0].dir, 'capture.json');
      if (text === null) continue;
      // Enough copies to hold a few MB: the heap's own noise (tens of KB) is then amortized.
      const copies = Math.max(8, Math.ceil(4e6 / text.length));
      JSON.parse(text);  // warm-up, dropped: parser caches and internalized keys are shared by every copy
      const keep = [];
      gc(); const before = process.memoryUsage().heapUsed;
      for (let i = 0; i < copies; i++) keep.push(JSON.parse(text));
      gc(); const heap = (process.memoryUsage().heapUsed - before) / copies;
      out.push({ name: c.name, heap: Math.round(heap), estimate: heldBytes(keep[0]), json: text.length });
    }
    console.log(JSON.stringify(out));`;
  const r = spawnSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const pages = JSON.parse(r.stdout);
  assert.ok(pages.length >= 5, `recorded pages: ${pages.length}`);
  console.log(`# heap of a capture object vs the estimate: ${pages.map((p) => `${p.name} ${(p.heap / p.estimate).toFixed(2)}`).join(', ')}`);
  for (const p of pages) {
    assert.ok(p.estimate >= p.heap, `${p.name}: estimate ${p.estimate} below the measured heap ${p.heap} (JSON ${p.json})`);
    assert.ok(p.estimate <= 5 * Math.max(p.heap, 16_384), `${p.name}: estimate ${p.estimate} far above the heap ${p.heap}: traces would stop too early`);
  }
});
