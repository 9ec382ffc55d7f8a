// Which region the agent's region string names is one table (rules/region-match.json): every case
// through the wasm module's find, as extension/lib/tools/read.js asks it (tests/unit/engine/
// region_match_test.cpp runs the same cases through the core's region_matches).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { CaptureBuilder } from './capture.mjs';
import { loadAthena } from './load.mjs';

const rule = JSON.parse(readFileSync(new URL('../../rules/region-match.json', import.meta.url), 'utf8'));
const { athena } = await loadAthena();
const KEY = { context: 0, page: 1 };

test('region matching: every case of rules/region-match.json, through engine.find', () => {
  assert.ok(rule.cases.length > 10);
  for (const c of rule.cases) {
    const b = new CaptureBuilder();
    const body = b.el(0, 'body');
    const landmark = b.el(body, c.tag, c.label ? { 'aria-label': c.label } : {}, [0, 0, 800, 100]);
    b.text(b.el(landmark, 'button'), 'Go');
    const engine = athena.createEngine();
    engine.openPage(KEY);
    engine.snapshot(KEY, b.str());
    const found = engine.find(KEY, { region: c.query });
    assert.deepEqual(found.map((e) => e.name), c.match ? ['Go'] : [], JSON.stringify(c));
    engine.dispose();
  }
});
