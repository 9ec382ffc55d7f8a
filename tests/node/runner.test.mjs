// The runner behind `./athena test` (tests/runner/suites.sh) must fail whenever a suite fails:
// a non-zero exit counts even when the suite printed a passing summary, or none at all. A failed
// build is one failure, the suites that need it are counted as skipped, every other suite still
// runs, and the last line is always the summary CI reads.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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
/** The last line, as CI reads it: "N passed, N failed" after "athena test:", ", N skipped" allowed after. */
const SUMMARY_RE = /^athena test: \d+ passed, \d+ failed(, \d+ skipped)?$/;
const lastLine = (out) => out.trimEnd().split('\n').at(-1);

test('a plain suite that exits non-zero (a tsc type error) fails the run', () => {
  const r = runner([`run_suite typecheck plain bash -c 'echo "a.js(1,1): error TS2322: bad"; exit 2'`]);
  assert.notEqual(r.status, 0);
  assert.deepEqual(closing(r.out), [0, 1]);
  assert.match(r.out, /failed suites: typecheck/);
  assert.match(r.out, /suite typecheck failed \(exit 2, 1 failed\)/);  // its own status, under set -e too
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

test('a failed build is one failure, the suites that need it are skipped, every other suite runs', () => {
  const r = runner([
    `run_build dev bash -c 'echo "/usr/bin/ld: cannot find libclang_rt.fuzzer-x86_64.a"; exit 1'`,
    `run_build wasm-release true`,
    `run_suite_after "dev" native ctest bash -c 'echo "100% tests passed, 0 tests failed out of 9"'`,
    `run_suite_after "dev wasm-release" e2e node bash -c 'printf "# pass 5\\n# fail 0\\n"'`,
    `run_suite_after "wasm-release" node-units node bash -c 'printf "# pass 2\\n# fail 0\\n"'`,
    `run_suite lint plain true`,
  ]);
  assert.notEqual(r.status, 0);
  // build wasm-release 1 + node-units 2 + lint 1 passed; the dev build failed; native and e2e not run.
  assert.equal(lastLine(r.out), 'athena test: 4 passed, 1 failed, 2 skipped');
  assert.match(lastLine(r.out), SUMMARY_RE);
  assert.match(r.out, /failed suites: build-dev /);
  assert.match(r.out, /suite native skipped: it needs build dev, which failed/);
  assert.match(r.out, /suite e2e skipped: it needs build dev, which failed/);
  assert.match(r.out, /not run: native \(build dev failed\),e2e \(build dev failed\)/);
  assert.doesNotMatch(r.out, /100% tests passed/);  // the skipped suite's command never ran
});

test('a build that exits from inside the runner (./athena die) ends only its step, with its status', () => {
  const r = runner([
    `fail_build() { echo "cmake failed"; exit 3; }`,
    `run_build fuzz fail_build`,
    `run_suite_after fuzz fuzz plain true`,
    `run_suite lint plain true`,
  ]);
  assert.notEqual(r.status, 0);
  assert.match(r.out, /suite build-fuzz failed \(exit 3, 1 failed\)/);
  assert.equal(lastLine(r.out), 'athena test: 1 passed, 1 failed, 1 skipped');
});

test('a build step shows its whole output, a suite only its progress lines', () => {
  const r = runner([`run_build dev bash -c 'echo "[3/9] Building CXX object core/x.o"'`, `run_suite a plain bash -c 'echo chatter'`]);
  assert.equal(r.status, 0, r.out);
  assert.match(r.out, /\[3\/9\] Building CXX object/);
  assert.doesNotMatch(r.out, /chatter/);
  assert.equal(lastLine(r.out), 'athena test: 2 passed, 0 failed');
});

test('the run says how long each step took, in the order they ran, before the summary', () => {
  const r = runner([`run_build dev true`, `run_suite_after dev native plain true`, `run_suite lint plain false`]);
  assert.notEqual(r.status, 0);
  const lines = r.out.trimEnd().split('\n');
  assert.match(lines.at(-3), /^step times: build-dev \d+ s, native \d+ s, lint \d+ s$/);
  assert.equal(lastLine(r.out), 'athena test: 2 passed, 1 failed');
});

test('node --test skipped and todo tests are counted as skipped, cancelled ones as failed', () => {
  const skips = runner([`run_suite units node bash -c 'printf "# pass 3\\n# fail 0\\n# cancelled 0\\n# skipped 1\\n# todo 1\\n"'`]);
  assert.equal(skips.status, 0, skips.out);
  assert.equal(lastLine(skips.out), 'athena test: 3 passed, 0 failed, 2 skipped');
  assert.match(skips.out, /suite units: 2 test\(s\) skipped/);
  const cancelled = runner([`run_suite units node bash -c 'printf "# pass 3\\n# fail 0\\n# cancelled 2\\n"; exit 1'`]);
  assert.notEqual(cancelled.status, 0);
  assert.equal(lastLine(cancelled.out), 'athena test: 3 passed, 2 failed');
});

test('ctest tests listed as (Skipped) are counted as skipped, not passed', () => {
  const r = runner([`run_suite native ctest bash -c 'printf "100%% tests passed, 0 tests failed out of 4\\n\\nThe following tests did not run:\\n\\t  3 - needs a browser (Skipped)\\n"'`]);
  assert.equal(r.status, 0, r.out);
  assert.equal(lastLine(r.out), 'athena test: 3 passed, 0 failed, 1 skipped');
});

test('the summary line matches what CI reads, and has no skipped part when nothing was skipped', () => {
  const r = runner([`run_suite a plain true`]);
  assert.equal(lastLine(r.out), 'athena test: 1 passed, 0 failed');
  assert.match(lastLine(r.out), SUMMARY_RE);
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
    assert.match(bad.stderr, /unknown suite 'nosuchsuite' \(suites: native asan node node18 typecheck lint e2e release fuzz cross\)/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('./athena test after a failed setup (apt) and a failed build still ends with the summary line', () => {
  // A copy of ./athena and its runner in a temp folder (its build/ is there too), with fakes first
  // on PATH: dpkg-query knows no package, apt-get fails, cmake fails.
  const dir = mkdtempSync(path.join(os.tmpdir(), 'athena-setup-'));
  try {
    const bin = path.join(dir, 'bin'), repo = path.join(dir, 'repo');
    mkdirSync(bin);
    mkdirSync(path.join(repo, 'tests/runner'), { recursive: true });
    copyFileSync(path.join(root, 'athena'), path.join(repo, 'athena'));
    copyFileSync(path.join(root, 'tests/runner/suites.sh'), path.join(repo, 'tests/runner/suites.sh'));
    chmodSync(path.join(repo, 'athena'), 0o755);
    const fake = (name, body) => { writeFileSync(path.join(bin, name), `#!/bin/sh\n${body}\n`); chmodSync(path.join(bin, name), 0o755); };
    fake('dpkg-query', 'exit 1');
    fake('apt-get', 'echo "E: Unable to locate package libclang-rt-14-dev" >&2; exit 100');
    fake('sudo', 'exec "$@"');
    fake('cmake', 'echo "CMake Error: the fake cmake of runner.test.mjs"; exit 1');
    const r = spawnSync(path.join(repo, 'athena'), ['test', 'fuzz'], {
      encoding: 'utf8', cwd: repo, env: { ...process.env, PATH: `${bin}:${process.env.PATH}`, ATHENA_TEST_LOGS: path.join(dir, 'logs') },
    });
    const out = r.stdout + r.stderr;
    assert.notEqual(r.status, 0, out);
    assert.match(out, /apt-get could not install: .*libclang-rt-14-dev/);
    assert.match(out, /suite build-setup failed/);
    assert.match(out, /suite build-fuzz failed/);
    assert.match(out, /suite fuzz skipped: it needs build fuzz, which failed/);
    assert.equal(lastLine(r.stdout), 'athena test: 0 passed, 2 failed, 1 skipped');
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
