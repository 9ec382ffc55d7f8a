// fuzz/run.sh (the fuzz suite of `./athena test`) counts the crashes of its own run only: a crash
// file left by an earlier run must not fail a later clean run. A fake libFuzzer binary stands in
// for build/fuzz/fuzz/fuzz_framing (FUZZ_BIN), writing a crash file where -artifact_prefix says
// when FAKE_CRASH=1.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const FAKE_FUZZER = `#!/bin/sh
prefix=""
for a in "$@"; do case "$a" in -artifact_prefix=*) prefix="\${a#-artifact_prefix=}" ;; esac; done
echo "stat::number_of_executed_units: 42"
if [ "$FAKE_CRASH" = 1 ]; then echo "==1==ERROR: AddressSanitizer: heap-buffer-overflow"; echo x > "\${prefix}crash-0123"; exit 1; fi
exit 0
`;

test('fuzz/run.sh fails on a crash of this run and ignores the crash files of earlier runs', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'athena-fuzz-'));
  try {
    const bin = path.join(dir, 'bin');
    mkdirSync(bin);
    writeFileSync(path.join(bin, 'fuzz_framing'), FAKE_FUZZER);
    chmodSync(path.join(bin, 'fuzz_framing'), 0o755);
    const work = path.join(dir, 'work');
    const run = (crash) => spawnSync(path.join(root, 'fuzz/run.sh'), ['1'], {
      encoding: 'utf8',
      env: { ...process.env, FUZZ_BIN: bin, FUZZ_WORK: work, FUZZ_TARGETS: 'framing', FAKE_CRASH: crash ? '1' : '0' },
    });

    const crashed = run(true);
    assert.equal(crashed.status, 1, crashed.stdout + crashed.stderr);
    assert.match(crashed.stdout, /framing: 42 executions, exit 1, 1 crashing input\(s\) in this run \(kept in /);

    const clean = run(false);
    assert.equal(clean.status, 0, clean.stdout + clean.stderr);
    assert.match(clean.stdout, /framing: 42 executions, exit 0, 0 crashing input\(s\) in this run$/m);
    // The earlier run's crash is still kept, in its own run folder.
    const runs = readdirSync(path.join(work, 'crashes/framing'));
    assert.equal(runs.length, 1, `run folders: ${runs.join(', ')}`);
    assert.deepEqual(readdirSync(path.join(work, 'crashes/framing', runs[0])), ['crash-0123']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
