// Parity: the wasm module answers byte for byte what the native core answers. Every recorded case
// of tests/cases (with its CDP events), plus hand-written flows (overlays, navigation, a
// 10,000-element page, bad captures mid-flow), is played through the wrapper and through the
// native core (bench_wasm_native --replay: the same calls in the same order), and every answer is
// compared: FactPack type, version, text and JSON, or error code and message.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bigCapture, capture } from './capture.mjs';
import { loadAthena, root } from './load.mjs';
import { listCases, readStepFile } from '../support/corpus.mjs';

const { athena, AthenaError } = await loadAthena();
const native = process.env.ATHENA_WASM_NATIVE ??
  ['build/dev/bench/bench_wasm_native', 'build/release/bench/bench_wasm_native'].map((p) => path.join(root, p)).find(existsSync);
// Recorded cases: one capture per step folder, events.json = the CDP events seen before it.
function recordedFlows() {
  return listCases().map((c) => {
    const steps = c.steps.filter((s) => readStepFile(s.dir, 'capture.json') !== null);
    return {
      name: `tests/cases/${c.name}`,
      captures: steps.map((s) => readStepFile(s.dir, 'capture.json')),
      events: steps.map((s) => JSON.parse(readStepFile(s.dir, 'events.json') ?? '[]').map((e) => JSON.stringify(e))),
    };
  });
}

const nav = (frame, loader) => JSON.stringify({ method: 'Page.frameNavigated', params: { frame: { id: frame, loaderId: loader, url: 'https://example.test/next' } } });
const handWritten = [
  { name: 'overlay open, act inside, close', captures: [capture(), capture({ dialog: { name: 'Added', buttons: ['OK', 'Undo'] } }),
    capture({ dialog: { name: 'Added', buttons: ['OK'] } }), capture({ buttons: ['Add to cart', 'Checkout'] }), capture({ buttons: ['Add to cart', 'Checkout'] })] },
  { name: 'navigation with events', captures: [capture(), capture({ loader: 'L1', links: ['Home', 'Cart', 'Orders'] }), capture({ loader: 'L1' })],
    events: [[], [nav('F0', 'L1')], ['{"method":"Page.frameDetached","params":{"frameId":"nope","reason":"remove"}}']] },
  { name: 'bad input mid-flow', captures: [capture(), '{"v":1', capture({ buttons: ['Add', 'Remove'] }), '{"v":1,"snapshot":{}}', capture()],
    events: [[], ['{'], [], ['{"method":5}'], []] },
  { name: 'unicode and long names', captures: [capture({ buttons: ['Ajouter au panier — 9,99 €', '购物车', '🙂 '.repeat(200)] }),
    capture({ buttons: ['Ajouter au panier — 9,99 €', 'x'.repeat(1000)] })] },
  { name: '10,000-element page', captures: [bigCapture(10000), bigCapture(10000, { change: 'small' }), bigCapture(10000, { change: 'small', rerender: true }),
    bigCapture(10000, { change: 'small', rerender: true, navigate: true })] },
];

// The wrapper side of bench_wasm_native's play(): same calls, same order, same answers recorded.
function playWasm(flow) {
  const outputs = [];
  const engine = athena.createEngine();
  const key = { context: 0, page: 1 };
  engine.openPage(key);
  const record = (call, fn) => {
    try {
      const pack = fn();
      const o = { call };
      if (pack) Object.assign(o, { type: pack.type, version: pack.version, text: pack.text, json: pack.json });
      outputs.push(o);
      return pack;
    } catch (e) {
      if (!(e instanceof AthenaError)) throw e;
      outputs.push({ call, error: { code: e.code, message: e.message } });
      return undefined;
    }
  };
  const feed = (i) => { for (const ev of flow.events?.[i] ?? []) record('onEvent', () => engine.onEvent(key, ev)); };
  let version;
  feed(0);
  const full = record('snapshot', () => engine.snapshot(key, flow.captures[0]));
  if (full) version = full.version;
  for (let i = 1; i < flow.captures.length; i++) {
    feed(i);
    let pre;
    record('beginAction', () => { pre = engine.beginAction(key, flow.captures[i - 1], version); return pre.pack; });
    if (!pre) continue;
    if (pre.freshness === 'stale_no_history') { version = pre.pack.version; continue; }
    const pack = record('finishAction', () => engine.finishAction(key, flow.captures[i], {}));
    if (pack) version = pack.version;
  }
  engine.dispose();
  return outputs;
}

function playNative(flows) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'athena-parity-'));
  try {
    const job = flows.map((f, fi) => ({
      name: f.name,
      captures: f.captures.map((c, i) => { const p = path.join(dir, `${fi}-${i}.json`); writeFileSync(p, c); return p; }),
      events: f.events ?? f.captures.map(() => []),
    }));
    writeFileSync(path.join(dir, 'job.json'), JSON.stringify(job));
    return JSON.parse(execFileSync(native, ['--replay', path.join(dir, 'job.json')], { encoding: 'utf8', maxBuffer: 1 << 28 })).flows;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const flows = [...recordedFlows(), ...handWritten];
const haveNative = Boolean(native);

// Under ./athena test (ATHENA_ROOT set) the dev build has it: missing is a failure, not a skip.
test('the native replay tool is built', { skip: !haveNative && !process.env.ATHENA_ROOT && 'bench_wasm_native is not built (build/dev or build/release)' }, () => {
  assert.ok(native, 'bench_wasm_native not found in build/dev or build/release (./athena build builds it)');
});

if (haveNative) {
  const nativeFlows = playNative(flows);
  let calls = 0;
  for (const [i, flow] of flows.entries()) {
    test(`parity: ${flow.name} (${flow.captures.length} captures)`, () => {
      const wasm = playWasm(flow);
      const nat = nativeFlows[i].outputs;
      assert.equal(wasm.length, nat.length, 'number of answers');
      for (let k = 0; k < nat.length; k++) {
        // Field by field, so a failure names the call and the part that differs.
        const w = wasm[k], n = nat[k];
        assert.equal(w.call, n.call, `answer ${k}`);
        assert.deepEqual(w.error, n.error, `answer ${k} (${n.call}) error`);
        for (const field of ['type', 'version', 'text', 'json']) assert.equal(w[field], n[field], `answer ${k} (${n.call}) ${field}`);
      }
      calls += nat.length;
      if (flow.name.startsWith('bad input')) assert.ok(nat.some((o) => o.error), 'the bad-input flow has errors to compare');
    });
  }
  test('parity covered every kind of answer', () => {
    const all = flows.flatMap((_, i) => nativeFlows[i].outputs);
    for (const t of ['full', 'delta', 'overlay_opened', 'overlay_closed', 'no_change'])
      assert.ok(all.some((o) => o.type === t), `no ${t} pack among the compared answers`);
    assert.ok(all.some((o) => o.error), 'no error among the compared answers');
    console.log(`# parity: ${flows.length} flows (${flows.length - handWritten.length} recorded), ${all.length} answers compared byte for byte (${calls} checked)`);
  });
}
