// The runner behind `./athena test` (tests/runner/suites.sh) must fail whenever a suite fails:
// a non-zero exit counts even when the suite printed a passing summary, or none at all.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Runs `run_suite` lines then finish_suites in bash; returns {status, out}. */
function runner(lines) {
  const logs = mkdtempSync(path.join(os.tmpdir(), 'athena-runner-'));
  try {
    const script = `set -euo pipefail\nsource "${root}/tests/runner/suites.sh"\n${lines.join('\n')}\nfinish_suites`;
    const r = spawnSync('bash', ['-c', script], { encoding: 'utf8', env: { ...process.env, ATHENA_TEST_LOGS: logs } });
    return { status: r.status, out: r.stdout + r.stderr };
  } finally {
    rmSync(logs, { recursive: true, force: true });
  }
}

const closing = (out) => /athena test: (\d+) passed, (\d+) failed/.exec(out)?.slice(1).map(Number);

test('a plain suite that exits non-zero (a tsc type error) fails the run', () => {
  const r = runner([`run_suite typecheck plain bash -c 'echo "a.js(1,1): error TS2322: bad"; exit 2'`]);
  assert.notEqual(r.status, 0);
  assert.deepEqual(closing(r.out), [0, 1]);
  assert.match(r.out, /failed suites: typecheck/);
});

test('a node suite that dies before its summary counts a failure', () => {
  const r = runner([`run_suite units node bash -c 'echo "ok 1 - first"; exit 7'`]);
  assert.notEqual(r.status, 0);
  assert.deepEqual(closing(r.out), [0, 1]);
});

test('a ctest suite whose summary passes but whose exit status does not still fails', () => {
  const r = runner([`run_suite native ctest bash -c 'echo "100% tests passed, 0 tests failed out of 3"; exit 8'`]);
  assert.notEqual(r.status, 0);
  assert.deepEqual(closing(r.out), [3, 1]);
});

test('a suite that exits 0 without any summary fails: nothing shows a test ran', () => {
  const r = runner([`run_suite units node bash -c 'echo hello'`]);
  assert.notEqual(r.status, 0);
  assert.deepEqual(closing(r.out), [0, 1]);
});

test('passing suites pass, and counts add up across suites', () => {
  const r = runner([
    `run_suite a plain true`,
    `run_suite b node bash -c 'printf "# pass 4\\n# fail 0\\n"'`,
    `run_suite c ctest bash -c 'echo "100% tests passed, 0 tests failed out of 2"'`,
  ]);
  assert.equal(r.status, 0, r.out);
  assert.deepEqual(closing(r.out), [7, 0]);
});

test('one failing suite among passing ones fails the run', () => {
  const r = runner([`run_suite a plain true`, `run_suite b node bash -c 'printf "# pass 3\\n# fail 1\\n"; exit 1'`]);
  assert.notEqual(r.status, 0);
  assert.deepEqual(closing(r.out), [4, 1]);
});

test('./athena test itself exits non-zero when a suite fails (a fake tsc that reports an error)', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'athena-runner-'));
  try {
    const npx = path.join(dir, 'npx');
    writeFileSync(npx, '#!/bin/sh\necho "extension/lib/x.js(3,7): error TS2322: Type string is not assignable"\nexit 2\n');
    chmodSync(npx, 0o755);
    const r = spawnSync(path.join(root, 'athena'), ['test', '--no-build', 'typecheck'], {
      encoding: 'utf8', cwd: root,
      env: { ...process.env, PATH: `${dir}:${process.env.PATH}`, ATHENA_TEST_LOGS: path.join(dir, 'logs') },
    });
    assert.notEqual(r.status, 0, r.stdout + r.stderr);
    assert.deepEqual(closing(r.stdout), [0, 1]);
    const bad = spawnSync(path.join(root, 'athena'), ['test', '--no-build', 'nosuchsuite'], { encoding: 'utf8', cwd: root });
    assert.notEqual(bad.status, 0);
    assert.match(bad.stderr, /unknown suite 'nosuchsuite' \(suites: native asan node node18 typecheck lint e2e fuzz\)/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('every Catch2 test case name can be its own ctest entry (no ";", a CMake list separator)', async () => {
  const { readdirSync, readFileSync } = await import('node:fs');
  const bad = [];
  const walk = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (p.endsWith('.cpp')) for (const m of readFileSync(p, 'utf8').matchAll(/TEST_CASE\("((?:[^"\\]|\\.)*)"/g)) if (m[1].includes(';')) bad.push(`${p}: ${m[1]}`);
    }
  };
  walk(path.join(root, 'tests/unit'));
  assert.deepEqual(bad, []);
});
