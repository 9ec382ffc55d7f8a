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
