// The landmark rule against its shared table (rules/landmarks.json): every case through the page
// side (extension/lib/landmarks.js regionOf over the element's chain; the core runs the same cases
// in tests/unit/compiler/landmark_rule_test.cpp), then the page scripts that embed the rule
// (page-scripts.js READ_LANDMARK_FN, READ_REGION_JS) run on stand-in DOM nodes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import vm from 'node:vm';
import { LANDMARKS, REGION_NAMES, landmarkOf, regionOf } from '../lib/landmarks.js';
import { READ_LANDMARK_FN, READ_REGION_JS } from '../lib/page-scripts.js';

const rule = JSON.parse(readFileSync(new URL('../../rules/landmarks.json', import.meta.url), 'utf8'));

/** @param {{tag: string, attrs: Record<string, string>}} e */
const element = (e) => ({ tag: e.tag, attr: (/** @type {string} */ n) => (Object.prototype.hasOwnProperty.call(e.attrs, n) ? e.attrs[n] : null) });

test('the extension\'s landmark table is rules/landmarks.json\'s, the one source (the core\'s is generated from it)', () => {
  assert.deepEqual(JSON.parse(JSON.stringify(LANDMARKS)), rule.table);
});

test('landmarks: every case of rules/landmarks.json, by the page side\'s regionOf', () => {
  assert.ok(rule.cases.length > 30);
  for (const c of rule.cases) {
    const chain = [{ tag: 'body', attrs: {} }, ...c.ancestors, { tag: c.tag, attrs: c.attrs }, { tag: 'button', attrs: {} }].map(element);
    assert.equal(regionOf(LANDMARKS, chain, landmarkOf), c.region, JSON.stringify(c));
  }
});

test('every region name of the table is a case\'s answer, and read knows exactly those names', () => {
  assert.deepEqual([...new Set(rule.cases.map((/** @type {any} */ c) => c.region))].sort(), [...REGION_NAMES].sort());
});

/** A context with stand-in DOM nodes (tag, attributes, text) and a document holding them in order. */
function page() {
  const ctx = vm.createContext({});
  vm.runInContext(`
    const all = [];
    globalThis.ShadowRoot = class {};
    globalThis.Element = Object;  // READ_FN's secret-field check: every stand-in is an element
    globalThis.HTMLInputElement = globalThis.HTMLTextAreaElement = globalThis.HTMLSelectElement = class {};
    globalThis.document = { URL: 'https://example.test/', body: null, querySelectorAll: (sel) => all.filter((n) => n.matches(sel)) };
    globalThis.el = (tag, parent, attrs = {}, text = tag, shown = true) => {
      const n = { nodeType: 1, localName: tag, parentNode: parent ?? null, parentElement: parent ?? null, ownerDocument: document,
        innerText: text, getAttribute: (a) => (a in attrs ? attrs[a] : null), getClientRects: () => (shown ? [{}] : []),
        matches: (sel) => sel.split(',').some((s) => s === tag || (s === '[role]' && 'role' in attrs)) };
      all.push(n);
      return n;
    };
    document.body = el('body', null, {}, 'the whole page');
    globalThis.readLandmark = ${READ_LANDMARK_FN};`, ctx);
  return (/** @type {string} */ code) => vm.runInContext(code, ctx);
}

test('read of a held element\'s region finds its landmark by the rule: a form needs a name', () => {
  const run = page();
  run(`const main = el('main', document.body, {}, 'main text');
       const anon = el('form', main, { 'aria-label': '  ' }, 'anonymous form');
       globalThis.b1 = el('button', anon, {}, 'Go');
       globalThis.b2 = el('button', el('form', main, { title: 'Sign up' }, 'sign-up form'), {}, 'Join');`);
  assert.equal(run(`readLandmark.call(b1, 'main', 100).text`), 'main text');
  assert.equal(run(`readLandmark.call(b2, 'form', 100).text`), 'sign-up form');
  assert.equal(run(`readLandmark.call(b2, 'page', 100).text`), 'the whole page');
});

test('read region= without a snapshot reads the first landmark of that region: a named form, a header outside dialogs and sections', () => {
  const run = page();
  run(`el('form', document.body, {}, 'search box form');
       el('form', document.body, { 'aria-label': 'Checkout' }, 'checkout form');
       el('header', el('div', document.body, { role: 'dialog' }), {}, 'dialog header');
       el('header', document.body, {}, 'closed header', false);
       el('header', el('section', document.body), {}, 'section header');
       el('header', el('div', document.body), {}, 'page header');`);
  assert.equal(run(READ_REGION_JS('form', 100)).text, 'checkout form');
  assert.equal(run(READ_REGION_JS('header', 100)).text, 'page header');
  assert.equal(run(READ_REGION_JS('page', 100)).text, 'the whole page');
  assert.equal(run(READ_REGION_JS('nav', 100)), null);
});
