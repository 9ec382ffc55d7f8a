// The secret-field rule of the extension against the table the core's Catch2 test also runs
// (rules/secret-fields.json), through every extension path that can emit a value: the
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
const table = JSON.parse(readFileSync(path.join(root, 'rules/secret-fields.json'), 'utf8'));

test('the rule gives the table\'s answer for every case', () => {
  assert.ok(table.cases.length >= 40);
  for (const c of table.cases) assert.equal(isSecretField(c.tag ?? 'input', (n) => c.attrs[n], c.label ?? ''), c.secret, JSON.stringify(c));
  assert.equal(isSecretField('div', (n) => (n === 'name' ? 'password' : null)), false, 'name/id only speak for inputs');
});

test('read never returns a secret value, and returns a plain one', () => {
  // Stand-ins for the page's DOM classes: READ_FN checks instanceof and reads attributes.
  const ctx = vm.createContext({});
  vm.runInContext(`
    class Element { constructor(tag, attrs, value, label) { this.localName = tag; this.attrs = attrs; this.value = value;
        // A case's label: a <label> of an input or textarea, else the target of its aria-labelledby.
        if (label !== undefined && (tag === 'input' || tag === 'textarea')) this.labels = [{ textContent: label }];
        else if (label !== undefined) { this.attrs = { ...attrs, 'aria-labelledby': 'lbl' }; this.getRootNode = () => ({ getElementById: (id) => (id === 'lbl' ? { textContent: label } : null) }); } }
      getAttribute(n) { return Object.prototype.hasOwnProperty.call(this.attrs, n) ? this.attrs[n] : null; } }
    class HTMLInputElement extends Element {}
    class HTMLTextAreaElement extends Element {}
    class HTMLSelectElement extends Element {}
    globalThis.Element = Element; globalThis.HTMLInputElement = HTMLInputElement;
    globalThis.HTMLTextAreaElement = HTMLTextAreaElement; globalThis.HTMLSelectElement = HTMLSelectElement;
    globalThis.read = ${READ_FN};`, ctx);
  for (const c of table.cases) {
    const cls = c.tag === 'textarea' ? 'HTMLTextAreaElement' : 'HTMLInputElement';
    const r = vm.runInContext(`read.call(new ${cls}(${JSON.stringify(c.tag ?? 'input')}, ${JSON.stringify(c.attrs)}, ${JSON.stringify(table.value)}, ${JSON.stringify(c.label)}), 1000)`, ctx);
    assert.equal(r.text.includes(table.value), !c.secret, JSON.stringify(c));
    if (c.secret) assert.match(r.text, /^\[redacted: /);
  }
});

test('trace export scrubs exactly the secret values', () => {
  // A label's text is read in the live page, where the watcher marks the field (data-athena-secret):
  // the capture the trace holds carries that mark (tests/e2e/secrets.test.mjs shows it end to end).
  for (const c of table.cases.filter((x) => x.label === undefined)) {
    const strings = ['#document', (c.tag ?? 'input').toUpperCase(), table.value];
    const attrs = [];
    for (const [k, v] of Object.entries(c.attrs)) attrs.push(strings.push(k) - 1, strings.push(v) - 1);
    const capture = {
      snapshot: { strings, documents: [{ nodes: { nodeName: [0, 1], attributes: [[], attrs], [c.tag === 'textarea' ? 'textValue' : 'inputValue']: { index: [1], value: [2] } } }] },
    };
    const out = scrubSecrets(capture);
    assert.equal(out.includes(table.value), !c.secret, JSON.stringify(c));
    assert.ok(JSON.stringify(capture).includes(table.value), 'the live capture object is never changed');
  }
});

test('trace export: a secret field\'s value attribute and a textarea\'s own text go too, an empty one is left alone', () => {
  // document > body > input type=password value="hunter2-SECRET" ; textarea one-time-code > text "123456" ;
  // input type=text (switched from password) value="" ; a plain input whose value is "plain".
  const strings = ['#document', 'BODY', 'INPUT', 'type', 'password', 'value', table.value, 'TEXTAREA', 'autocomplete', 'one-time-code',
    '#text', '123456', 'text', 'data-athena-was-password', '', 'plain', 'required'];
  const capture = {
    snapshot: {
      strings,
      documents: [{
        nodes: {
          parentIndex: [-1, 0, 1, 1, 3, 1, 1],
          nodeType: [9, 1, 1, 1, 3, 1, 1],
          nodeName: [0, 1, 2, 7, 10, 2, 2],
          nodeValue: [-1, -1, -1, -1, 11, -1, -1],
          attributes: [[], [], [3, 4, 5, 6], [8, 9], [], [3, 12, 13, 14, 5, 14], [16, 14, 5, 15]],
          inputValue: { index: [2, 5, 6], value: [6, 14, 15] },
          textValue: { index: [3], value: [11] },
        },
      }],
    },
  };
  const out = JSON.parse(scrubSecrets(capture));
  const s = out.snapshot.strings;
  const n = out.snapshot.documents[0].nodes;
  assert.ok(!JSON.stringify(out).includes(table.value), 'the password, as value attribute and as live value');
  assert.ok(!JSON.stringify(out).includes('123456'), 'the one-time code, as the textarea\'s text and its value');
  assert.equal(s[n.attributes[6][3]], 'plain', 'a plain field keeps its value attribute');
  assert.equal(s[n.inputValue.value[2]], 'plain');
  assert.equal(s[n.attributes[6][1]], '', 'empty attribute values stay empty (required="")');
  assert.equal(s[n.inputValue.value[1]], '', 'an empty secret value stays empty');
});
