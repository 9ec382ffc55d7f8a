// Page code is code (docs/design.md, "Page code"): the functions that run in the page live in
// extension/page/ and reach CDP through lib/page-code.js pageFunction, from their own source.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import vm from 'node:vm';
import { callExpression, pageFunction } from '../lib/page-code.js';

const lib = new URL('../lib/', import.meta.url);
/** Every .js file under extension/lib, with its text. */
function libFiles(dir = lib) {
  /** @type {Array<{name: string, text: string}>} */
  const out = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const u = new URL(e.name + (e.isDirectory() ? '/' : ''), dir);
    if (e.isDirectory()) out.push(...libFiles(u));
    else if (e.name.endsWith('.js')) out.push({ name: u.pathname.slice(lib.pathname.length), text: readFileSync(u, 'utf8') });
  }
  return out;
}

test('no page code is written as a string in extension/lib: each lives as a function in extension/page', () => {
  for (const { name, text } of libFiles()) {
    if (name === 'page-code.js') continue;  // the wrapper it writes around a page function
    // A template or quoted string that starts a function or an arrow is code for the page.
    assert.doesNotMatch(text, /[`'"]\s*(async\s+)?function\s*[\w$]*\s*\(/, `${name} holds a page function as a string`);
    assert.doesNotMatch(text, /[`'"]\(\s*\(\)\s*=>/, `${name} holds page code as a string`);
  }
});

test('a page function without scope is its own source; with scope, the names it uses are declared before it', () => {
  function plain(a) { return a + 1; }
  assert.equal(pageFunction(plain), String(plain));
  const LIMITS = { used: 3, other: 9 };
  function twice(x) { return x * 2; }
  function user(a) { return twice(a) + LIMITS.used + (this?.k ?? 0); }
  const text = pageFunction(user, { twice, LIMITS });
  // Only the limit the code reads travels with it.
  assert.match(text, /const LIMITS = \{"used":3\};/);
  const fn = vm.runInNewContext(`(${text})`);
  assert.equal(fn.call({ k: 100 }, 5), 113, 'arguments and this reach the function');
  assert.equal(vm.runInNewContext(callExpression(pageFunction(user, { twice, LIMITS }), 1)), 5);
});

test('a page function that reads a limit the table does not have is refused at load', () => {
  const LIMITS = { used: 3 };
  function typo() { return LIMITS.usd; }
  assert.throws(() => pageFunction(typo, { LIMITS }), /reads LIMITS\.usd/);
});

test('a value used whole (passed on, not read by field) goes whole', () => {
  const table = { a: 1, b: 2 };
  function keys(t) { return Object.keys(t).length; }
  function user() { return keys(table); }
  assert.equal(vm.runInNewContext(`(${pageFunction(user, { table, keys })})()`), 2);
});

test('every CDP text the extension builds from extension/page parses as a function', async () => {
  const mods = ['actionability.js', 'input-guard.js', 'page-scripts.js', 'tools/input.js', 'tools/form.js'];
  let n = 0;
  for (const m of mods) {
    for (const [k, v] of Object.entries(await import(new URL(m, lib).href))) {
      if (!/_FN$/.test(k)) continue;
      assert.equal(typeof vm.runInNewContext(`(${v})`), 'function', `${m} ${k}`);
      n++;
    }
  }
  assert.ok(n >= 15, `found ${n} page functions`);
});
