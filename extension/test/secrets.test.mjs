// The secret-field rule of the extension against the table the core's Catch2 test also runs
// (tests/support/secret-fields.json), through every extension path that can emit a value: the
// rule itself, `read` (READ_FN, run here on stand-in DOM elements) and trace export (scrubSecrets).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { fileURLToPath } from 'node:url';
import { isSecretField } from '../lib/secrets.js';
import { READ_FN } from '../lib/page-scripts.js';
import { scrubSecrets } from '../lib/trace.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const table = JSON.parse(readFileSync(path.join(root, 'tests/support/secret-fields.json'), 'utf8'));

test('the rule gives the table\'s answer for every case', () => {
  for (const c of table.cases) assert.equal(isSecretField('input', (n) => c.attrs[n]), c.secret, JSON.stringify(c));
  assert.equal(isSecretField('div', (n) => (n === 'name' ? 'password' : null)), false, 'name/id only speak for inputs');
});

test('read never returns a secret value, and returns a plain one', () => {
  // Stand-ins for the page's DOM classes: READ_FN checks instanceof and reads attributes.
  const ctx = vm.createContext({});
  vm.runInContext(`
    class Element { constructor(tag, attrs, value) { this.localName = tag; this.attrs = attrs; this.value = value; }
      getAttribute(n) { return Object.prototype.hasOwnProperty.call(this.attrs, n) ? this.attrs[n] : null; } }
    class HTMLInputElement extends Element {}
    class HTMLTextAreaElement extends Element {}
    class HTMLSelectElement extends Element {}
    globalThis.Element = Element; globalThis.HTMLInputElement = HTMLInputElement;
    globalThis.HTMLTextAreaElement = HTMLTextAreaElement; globalThis.HTMLSelectElement = HTMLSelectElement;
    globalThis.read = ${READ_FN};`, ctx);
  for (const c of table.cases) {
    const r = vm.runInContext(`read.call(new HTMLInputElement('input', ${JSON.stringify(c.attrs)}, ${JSON.stringify(table.value)}), 1000)`, ctx);
    assert.equal(r.text.includes(table.value), !c.secret, JSON.stringify(c));
    if (c.secret) assert.match(r.text, /^\[redacted: /);
  }
});

test('trace export scrubs exactly the secret values', () => {
  for (const c of table.cases) {
    const strings = ['#document', 'INPUT', table.value];
    const attrs = [];
    for (const [k, v] of Object.entries(c.attrs)) attrs.push(strings.push(k) - 1, strings.push(v) - 1);
    const capture = {
      snapshot: { strings, documents: [{ nodes: { nodeName: [0, 1], attributes: [[], attrs], inputValue: { index: [1], value: [2] } } }] },
    };
    const out = scrubSecrets(capture);
    assert.equal(out.includes(table.value), !c.secret, JSON.stringify(c));
    assert.ok(JSON.stringify(capture).includes(table.value), 'the live capture object is never changed');
  }
});
