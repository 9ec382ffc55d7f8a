// The visibility rule against its shared table (rules/visibility.json): every case through the
// page side's one implementation (extension/lib/visibility.js whyHidden, which wait_for and the
// check before pressing run in the page; tests/unit/compiler/visibility_rule_test.cpp runs the
// same cases through the core's Visibility).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { whyHidden } from '../lib/visibility.js';

const rule = JSON.parse(readFileSync(new URL('../../rules/visibility.json', import.meta.url), 'utf8'));

/** What the page reads of a case's element. @param {any} c @returns {import('../lib/visibility.js').VisibilityFacts} */
function facts(c) {
  const boxed = c.style.display !== 'none' && !c.ancestors.some((/** @type {any} */ a) => a.display === 'none');
  return {
    tag: c.tag, attr: (n) => (Object.prototype.hasOwnProperty.call(c.attrs, n) ? c.attrs[n] : null), boxed,
    display: c.style.display ?? 'block', visibility: c.style.visibility ?? 'visible', opacity: c.style.opacity ?? '1',
    overflow: c.style.overflow ?? 'visible', width: boxed ? c.size[0] : 0, height: boxed ? c.size[1] : 0,
    ancestorOpacities: c.ancestors.map((/** @type {any} */ a) => a.opacity ?? '1'),
    ancestorBoxes: c.ancestors.map((/** @type {any} */ a) => ({ overflow: a.overflow ?? 'visible', width: (a.size ?? [100, 20])[0], height: (a.size ?? [100, 20])[1] })),
  };
}

test('visibility: every case of rules/visibility.json, by the page side\'s whyHidden', () => {
  assert.ok(rule.cases.length > 30);
  for (const c of rule.cases) assert.equal(whyHidden(facts(c)) === null, c.visible, JSON.stringify(c));
});

test('whyHidden names what hides an element (actionability words its refusal by it)', () => {
  const base = rule.cases[0];
  assert.equal(whyHidden(facts(base)), null);
  assert.equal(whyHidden(facts({ ...base, style: { display: 'none' } })), 'display');
  assert.equal(whyHidden(facts({ ...base, style: { visibility: 'collapse' } })), 'visibility');
  assert.equal(whyHidden(facts({ ...base, style: { opacity: '0.00' } })), 'opacity');
  assert.equal(whyHidden(facts({ ...base, tag: 'div', size: [1, 1], style: { overflow: 'hidden' } })), 'clipped');
  assert.equal(whyHidden(facts({ ...base, tag: 'div', size: [0, 0] })), 'size');
});
