// The goldens (tests/golden, written by the native core) replayed through the wasm module:
// byte-identical text and JSON on every recorded step, with the replay protocol of
// tests/golden/README.md, in each form a capture crosses the boundary: JSON text (the corpus
// as recorded), the capture object (what the extension passes; packed into the binary form) and
// the binary form's bytes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { loadAthena, root } from './load.mjs';
import { listCases, readStepFile } from '../support/corpus.mjs';

const { athena, mod } = await loadAthena();
const FORMS = {
  'JSON text': (text) => text,
  'capture object': (text) => JSON.parse(text),
  'binary form': (text) => mod.packCapture(JSON.parse(text)),
};
const goldenDir = path.join(root, 'tests/golden');

const cases = listCases();

test('there are recorded cases and goldens to compare', () => {
  assert.ok(cases.length > 0, 'tests/cases is empty: ./athena record');
  assert.ok(existsSync(goldenDir), 'tests/golden is missing: ./athena goldens');
});

for (const [form, as] of Object.entries(FORMS)) for (const { name: c, steps } of cases) {
  test(`wasm renders the goldens of ${c} byte for byte (${form})`, () => {
    const engine = athena.createEngine();
    const key = { context: 0, page: 1 };
    engine.openPage(key);
    let prevCapture = null;
    let version = 0;
    try {
      for (const [i, { name: s, dir: sdir }] of steps.entries()) {
        const capture = as(readStepFile(sdir, 'capture.json'));
        if (form === 'binary form') assert.ok(capture instanceof Uint8Array, `${c}/${s}: the packer refused a recorded capture`);
        const events = JSON.parse(readStepFile(sdir, 'events.json'));
        const op = JSON.parse(readStepFile(sdir, 'step.json')).action?.op ?? '';
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
