// engine.findText through the wasm wrapper: paging in the FactPack element grammar, the shape
// extension/lib/agent.js relies on ({text, total, shown, next, version}), and errors as AthenaError
// codes whose messages name what the page has.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bigCapture } from './capture.mjs';
import { loadAthena } from './load.mjs';
import { REF_SOURCE } from '../../extension/lib/ref.js';

const { athena, AthenaError } = await loadAthena();
const KEY = { context: 0, page: 1 };

function page() {
  const engine = athena.createEngine();
  engine.openPage(KEY);
  const full = engine.snapshot(KEY, bigCapture(300));
  return { engine, full };
}

test('findText pages through every match exactly once with after = next', () => {
  const { engine, full } = page();
  const seen = [];
  let after;
  for (let i = 0; i < 20; i++) {
    const r = engine.findText(KEY, { role: 'link', region: 'main', limit: 40, ...(after ? { after } : {}) });
    assert.deepEqual(Object.keys(r).sort(), ['next', 'shown', 'text', 'total', 'version']);
    assert.equal(r.version, full.version);
    const lines = r.text.split('\n').filter((l) => new RegExp(`^${REF_SOURCE} link `).test(l));
    assert.equal(lines.length, r.shown);
    seen.push(...lines.map((l) => l.split(' ')[0]));
    assert.match(r.text, new RegExp(`^<find v="${full.version}" total="${r.total}" shown="${r.shown}"`));
    if (r.next === null) break;
    assert.equal(r.next, seen.at(-1));
    assert.ok(r.text.includes(`more: find role=link region=main after=${r.next}\n</find>\n`));
    after = r.next;
  }
  const total = engine.findText(KEY, { role: 'link', region: 'main' }).total;
  assert.equal(seen.length, total);
  assert.equal(new Set(seen).size, total);
  engine.dispose();
});

test('findText: region by label, and errors with codes', () => {
  const { engine } = page();
  assert.equal(engine.findText(KEY, { region: 'Primary' }).total, 20);
  assert.throws(() => engine.findText(KEY, { region: 'sidebar' }),
    (e) => e instanceof AthenaError && e.code === 'no_such_region' && /^find: this page has no region "sidebar"; regions: nav "Primary", main$/.test(e.message));
  assert.throws(() => engine.findText(KEY, { role: 'slider' }),
    (e) => e instanceof AthenaError && e.code === 'invalid_argument' && /no role "slider"; roles: link, /.test(e.message));
  assert.throws(() => engine.findText(KEY, { after: 'e999999' }), (e) => e.code === 'invalid_argument');
  assert.throws(() => engine.findText(KEY, { limit: 0 }), (e) => e.code === 'invalid_argument');
  assert.throws(() => engine.findText(KEY, { name: 5 }), (e) => e.code === 'invalid_argument');
  assert.ok(athena.errorCodes.includes('no_such_region') && athena.errorCodes.includes('invalid_argument'));
  // The old find keeps its shape.
  assert.ok(Array.isArray(engine.find(KEY, { role: 'link', limit: 3 })));
  engine.dispose();
});

test('createEngine({tokenBudget}) sets how much of a long page a baseline shows', () => {
  const shown = (config) => {
    const engine = athena.createEngine(config);
    engine.openPage(KEY);
    const text = engine.snapshot(KEY, bigCapture(300)).text;
    engine.dispose();
    return { lines: text.split('\n').filter((l) => new RegExp(`^${REF_SOURCE} `).test(l)).length, gaps: (text.match(/^\.\.\. \d+ more here: /gm) ?? []).length };
  };
  const small = shown({ tokenBudget: 1 }), normal = shown({}), huge = shown({ tokenBudget: athena.limits.maxTokenBudget });
  assert.equal(athena.limits.defaultTokenBudget > 0, true);
  assert.ok(small.lines < normal.lines && normal.lines < huge.lines, JSON.stringify({ small, normal, huge }));
  assert.equal(huge.gaps, 0);
  assert.ok(small.gaps > 0);
  assert.throws(() => athena.createEngine({ tokenBudget: 0 }), (e) => e instanceof AthenaError && e.code === 'invalid_argument');
});

test('findText passes within= through: a ref the page does not have is the core\'s error naming it', () => {
  const { engine } = page();
  assert.throws(() => engine.findText(KEY, { within: 'e99999' }), (e) => e instanceof AthenaError && e.code === 'invalid_argument' && /within="e99999" is not a ref/.test(e.message));
  assert.throws(() => engine.findText(KEY, { within: 7 }), /query\.within must be a string/);
});
