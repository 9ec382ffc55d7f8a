// The fidelity property inside wasm: thousands of random sessions (tests/support SnapshotGen +
// AgentView, the native suite's own code, compiled into the test-only module athena_core_test),
// each FactPack applied to the agent's view and compared with a fresh full snapshot. Then the
// same seeds natively (bench_wasm_native --fidelity): identical pack counts and view digests,
// i.e. the same engine decisions on both sides, step by step.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { loadTestCore, root } from './load.mjs';
import { AgentView, parseFactPack } from '../support/factpack-text.mjs';

const RUNS = Number(process.env.ATHENA_WASM_FIDELITY_RUNS ?? 3000);
const STEPS = 12;  // as tests/unit/engine/fidelity_test.cpp
const core = await loadTestCore();

function run(first, count) {
  const r = core.runFidelity(first, count, STEPS);
  assert.equal(r.ok, true, `${r.code}: ${r.message}`);
  return JSON.parse(r.json);
}

test(`fidelity through wasm on ${RUNS} random sessions of ${STEPS} steps`, () => {
  const res = run(1, RUNS);
  assert.deepEqual(res.failures, [], res.failures.join('\n\n'));
  assert.equal(res.sequences, RUNS);
  assert.equal(res.steps, RUNS * STEPS);
  // The generator must have exercised every kind of FactPack.
  for (const type of ['full:first', 'full:navigation', 'full:stale_version', 'full:requested', 'delta', 'no_change',
    'overlay_opened', 'overlay_closed'])
    assert.ok(res.packs[type] > 0, `no ${type} pack in ${JSON.stringify(res.packs)}`);
  console.log(`# wasm fidelity: ${res.sequences} sequences, ${res.steps} steps, ${res.aborts} aborts; ${JSON.stringify(res.packs)}`);
});

const native = process.env.ATHENA_WASM_NATIVE ??
  ['build/dev/bench/bench_wasm_native', 'build/release/bench/bench_wasm_native'].map((p) => path.join(root, p)).find(existsSync);

// Under ./athena test (ATHENA_ROOT set) the dev build has it: missing is a failure, not a skip.
// Run on its own (node --test) without a native build, it is reported as skipped, with this reason.
test('the same sessions natively give the same packs and the same agent views', { skip: !native && !process.env.ATHENA_ROOT && 'bench_wasm_native is not built (build/dev or build/release)' }, () => {
  assert.ok(native, 'bench_wasm_native not found in build/dev or build/release (./athena build builds it)');
  const count = Math.min(RUNS, 1000);
  const wasm = run(1, count);
  const nat = JSON.parse(execFileSync(native, ['--fidelity', '1', String(count), String(STEPS)], { encoding: 'utf8' }));
  assert.deepEqual(wasm, nat);
  // A different seed range gives a different digest: the comparison can fail.
  assert.notEqual(run(1001, 20).digest, wasm.digest);
});

// The same property from the TEXT alone, as an agent reads it: every FactPack of a session parsed
// by tests/support/factpack-text.mjs and applied to its view with no inconsistency (a ref added
// twice, a close with no open overlay, a change to a ref it never held), and at the end the view
// holds what a requested snapshot of the page shows (the same lines, when neither was trimmed;
// only lines of the page, when one was).
const TEXT_RUNS = Number(process.env.ATHENA_WASM_TEXT_FIDELITY_RUNS ?? 1000);
for (const budget of [0, 60]) test(`fidelity from the text on ${TEXT_RUNS} random sessions${budget ? `, rendered within ${budget} tokens` : ''}`, () => {
  let exact = 0, overlaysAtSnapshot = 0, behind = 0, partial = 0, cappedRuns = 0;
  for (let seed = 1; seed <= TEXT_RUNS; seed++) {
    const r = core.fidelityTexts(seed, STEPS, budget);
    assert.equal(r.ok, true, `${r.code}: ${r.message}`);
    const { texts, error } = JSON.parse(r.json);
    assert.equal(error, '', error);
    const view = new AgentView();
    let trimmed = false, capped = false;
    for (const [k, text] of texts.slice(0, -1).entries()) {
      const fp = parseFactPack(text);
      trimmed ||= fp.gaps.length > 0;
      // A change the caps left out says "snapshot shows the page now": from there the agent knows
      // its view may be behind until it asks (the bench's end-of-flow check follows that pointer).
      capped ||= [fp, ...fp.beforeAction].some((p) => p.gaps.some((g) => /snapshot shows the page now/.test(g.line)));
      if (fp.type === 'full' && fp.reason === 'requested' && fp.regions.some((g) => g.overlay)) overlaysAtSnapshot++;
      assert.deepEqual(view.apply(fp), [], `seed ${seed}, pack ${k}:\n${text}`);
    }
    if (!texts.at(-1)) { behind++; continue; }  // the page changed after the last FactPack: nothing to compare
    const last = parseFactPack(texts.at(-1));
    const fresh = new AgentView();
    assert.deepEqual(fresh.apply(last), [], `seed ${seed}, last snapshot:\n${texts.at(-1)}`);
    if (capped) { cappedRuns++; continue; }
    // The same overlays open, and (as in tests/unit/engine/fidelity.h) the lines of the live one
    // equal: the page under an open overlay is frozen for the agent until it closes.
    assert.equal(view.overlays.length, fresh.overlays.length, `seed ${seed}: open overlays\n${texts.join('\n')}`);
    const live = (/** @type {AgentView} */ v) => {
      const top = v.overlays.at(-1);
      return top ? v.canonical().filter((l) => top.refs.has(l.split(' ', 1)[0])) : v.canonical();
    };
    if (!trimmed && last.gaps.length === 0) {
      assert.deepEqual(live(view), live(fresh), `seed ${seed}: the view from the text is not the page\n${texts.join('\n')}`);
      exact++;
    } else {
      partial++;
      const page = new Set(live(fresh));
      const heads = new Set([...fresh.elements.values()].map((e) => `${e.ref} ${e.role} ${JSON.stringify(e.name)}`));
      for (const l of live(view)) {
        // A line known only from a change to it (a gap hid it) is known by its ref, role and name.
        const e = view.elements.get(l.split(' ', 1)[0]);
        if (e?.partial) assert.ok(heads.has(`${e.ref} ${e.role} ${JSON.stringify(e.name)}`), `seed ${seed}: holds ${l}, not on the page`);
        else assert.ok(page.has(l), `seed ${seed}: holds ${l}, not on the page`);
      }
    }
  }
  // The sessions must have been compared whole, and must have met a snapshot taken over an overlay.
  // Within the small budget many sessions are trimmed (checked line by line), else compared whole.
  if (budget) assert.ok(partial > TEXT_RUNS / 20, `only ${partial} of ${TEXT_RUNS} sessions trimmed and compared`);
  else assert.ok(exact > TEXT_RUNS / 2, `only ${exact} of ${TEXT_RUNS} sessions compared whole`);
  assert.ok(overlaysAtSnapshot > 0, 'no snapshot was taken while an overlay was open');
  console.log(`# text fidelity: ${TEXT_RUNS} sessions, ${exact} compared whole, ${partial} trimmed, ${cappedRuns} told a snapshot shows the rest, ${behind} ending behind the page, ${overlaysAtSnapshot} snapshots over an open overlay`);
});
