// The goldens (tests/golden, written by the native core) replayed through the wasm module:
// byte-identical text and JSON on every recorded step, with the replay protocol of
// tests/golden/README.md.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import path from 'node:path';
import { loadAthena, root } from './load.mjs';

const { athena } = await loadAthena();
const casesDir = path.join(root, 'tests/cases');
const goldenDir = path.join(root, 'tests/golden');

const cases = readdirSync(casesDir).filter((c) => statSync(path.join(casesDir, c)).isDirectory()).sort();

test('there are recorded cases and goldens to compare', () => {
  assert.ok(cases.length > 0, 'tests/cases is empty: ./athena record');
  assert.ok(existsSync(goldenDir), 'tests/golden is missing: ./athena goldens');
});

for (const c of cases) {
  test(`wasm renders the goldens of ${c} byte for byte`, () => {
    const dir = path.join(casesDir, c);
    const steps = readdirSync(dir).filter((s) => statSync(path.join(dir, s)).isDirectory()).sort();
    const engine = athena.createEngine();
    const key = { context: 0, page: 1 };
    engine.openPage(key);
    let prevCapture = null;
    let version = 0;
    try {
      for (const [i, s] of steps.entries()) {
        const sdir = path.join(dir, s);
        const capture = gunzipSync(readFileSync(path.join(sdir, 'capture.json.gz'))).toString('utf8');
        const events = JSON.parse(readFileSync(path.join(sdir, 'events.json'), 'utf8'));
        const op = JSON.parse(readFileSync(path.join(sdir, 'step.json'), 'utf8')).action?.op ?? '';
        let r;
        if (i === 0) {
          r = engine.snapshot(key, capture);
        } else {
          engine.beginAction(key, prevCapture, version);
          for (const e of events) engine.onEvent(key, JSON.stringify(e));
          r = engine.finishAction(key, capture, { kind: op });
        }
        version = r.version;
        prevCapture = capture;
        assert.equal(r.text, readFileSync(path.join(goldenDir, c, `${s}.txt`), 'utf8'), `${c}/${s} text`);
        assert.equal(r.json + '\n', readFileSync(path.join(goldenDir, c, `${s}.json`), 'utf8'), `${c}/${s} json`);
      }
    } finally {
      engine.dispose();
    }
  });
}
