// A heading's level is one rule (rules/headings.json, read off Chrome): every case through
// extension/lib/headings.js, the page side's copy of it (tests/unit/compiler/heading_rule_test.cpp
// runs the same cases through the core), and through read's section rule in the page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import vm from 'node:vm';
import { headingLevel } from '../lib/headings.js';
import { READ_FN } from '../lib/page-scripts.js';

const rule = JSON.parse(readFileSync(new URL('../../rules/headings.json', import.meta.url), 'utf8'));

test('heading level: every case of rules/headings.json', () => {
  for (const c of rule.cases) assert.equal(headingLevel(c.tag, c.ariaLevel), c.level, JSON.stringify(c));
  // The table's own constants are the rule's.
  assert.equal(headingLevel('div', null), rule.defaultLevel);
  assert.equal(headingLevel('div', String(rule.maxLevel)), rule.maxLevel);
  assert.equal(headingLevel('div', String(rule.maxLevel + 1)), rule.defaultLevel);
  assert.equal(headingLevel('div', 'none'), rule.invalidLevel);
});

test("read's section of a heading ends at the next heading of its level or higher, by the same rule", () => {
  // aria-level 10 is no level (Chrome ignores it): the <h3 aria-level=10> is a level-3 heading,
  // and the <h2 aria-level=0> is level 1, so the h3's section ends there.
  const ctx = vm.createContext({});
  vm.runInContext(`
    globalThis.Node = { DOCUMENT_POSITION_FOLLOWING: 4 };
    globalThis.Element = function Element() {};
    globalThis.HTMLElement = Element;
    globalThis.getComputedStyle = () => ({ display: 'block' });
    const doc = { body: null, documentElement: null };
    const kids = [];
    const mk = (tag, attrs, text) => {
      const e = Object.create(Element.prototype);
      Object.assign(e, { localName: tag, ownerDocument: doc, innerText: text, textContent: text, firstChild: null,
        getAttribute: (n) => attrs[n] ?? null, contains: (n) => n === e, querySelectorAll: () => [],
        compareDocumentPosition: (n) => (kids.indexOf(n) > kids.indexOf(e) ? 4 : 2) });
      return e;
    };
    const body = mk('body', {}, '');
    doc.body = body;
    for (const [t, a, x] of [['h3', { 'aria-level': '10' }, 'Title'], ['p', {}, 'one'], ['h4', {}, 'Sub'], ['p', {}, 'two'], ['h2', { 'aria-level': '0' }, 'Next'], ['p', {}, 'three']]) kids.push(mk(t, a, x));
    kids.forEach((k, i) => { k.parentElement = body; k.nextSibling = kids[i + 1] ?? null; });
    body.parentElement = null;
    globalThis.first = kids[0];
    globalThis.read = ${READ_FN};`, ctx);
  const r = vm.runInContext('read.call(first, 1000, 0)', ctx);
  assert.equal(r.text, 'Title\none\nSub\ntwo');
});
