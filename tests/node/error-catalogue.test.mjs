// The error catalogue (rules/errors.json) is the code's: every code the core, the wasm wrapper,
// the extension and athena-bridge report is in it, every code in it is reported somewhere, the
// core's are exactly ErrorCode's names, and docs/errors.md is generated from it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ERRORS, docsWithErrors } from '../../rules/errors.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const read = (/** @type {string} */ f) => readFileSync(path.join(root, f), 'utf8');
const tracked = execFileSync('git', ['ls-files'], { cwd: root, encoding: 'utf8' }).split('\n').filter(Boolean);

/** code -> the files that report it. @type {Map<string, Set<string>>} */
function codesInCode() {
  const found = new Map();
  const add = (/** @type {string} */ code, /** @type {string} */ file) => {
    if (!found.has(code)) found.set(code, new Set());
    found.get(code).add(file);
  };
  // JavaScript: new ToolError('code' (or `why?.code ?? 'code'`), new AthenaError('code', an error
  // object's code: 'code', and a code compared with e.code === 'code'.
  for (const f of tracked.filter((f) => /^extension\/(lib\/.*\.js|sw\.js)$|^wasm\/athena\.mjs$/.test(f))) {
    const t = read(f);
    for (const re of [/ToolError\((?:[^'`()]*?\?\?\s*)?'([a-z_]+)'/g, /AthenaError\('([a-z_]+)'/g, /\bcode: '([a-z_]+)'/g,
      /\.code === '([a-z_]+)'/g]) {
      for (const m of t.matchAll(re)) add(m[1], f);
    }
  }
  // athena-bridge: error_msg("code", …), call_error(id, "code", …) and {"code", "code"} in a frame.
  for (const f of tracked.filter((f) => /^bridge\/src\/.*\.cpp$/.test(f))) {
    const t = read(f);
    for (const re of [/\berror_msg\(\s*"([a-z_]+)"/g, /\bcall_error\([^,]*,\s*"([a-z_]+)"/g, /\{"code", "([a-z_]+)"\}/g]) {
      for (const m of t.matchAll(re)) add(m[1], f);
    }
  }
  for (const code of coreNames()) add(code, 'core/src/names.cpp');
  return found;
}

/** The names error_code_name gives ErrorCode's values, but kOk's. */
function coreNames() {
  const src = read('core/src/names.cpp');
  const start = src.indexOf('const char* error_code_name(');
  assert.ok(start >= 0, 'core/src/names.cpp has error_code_name');
  const body = src.slice(start, src.indexOf('\n}\n', start));
  // The switch's fallback after it says "internal" again: each name once.
  return [...new Set([...body.matchAll(/return "([a-z_]+)";/g)].map((m) => m[1]))].filter((c) => c !== 'ok');
}

test('the catalogue: one entry per code, each with where it comes from, who sees it, its meaning and what to do', () => {
  const codes = ERRORS.map((e) => e.code);
  assert.deepEqual(codes.filter((c, i) => codes.indexOf(c) !== i), [], 'codes listed twice');
  for (const e of ERRORS) {
    assert.match(e.code, /^[a-z]+(_[a-z]+)*$/, `${e.code}: a snake_case code`);
    assert.ok(['core', 'extension', 'bridge'].includes(e.from), `${e.code}: from is core, extension or bridge`);
    assert.ok(['agent', 'wire'].includes(e.to), `${e.code}: to is agent or wire`);
    assert.ok(e.meaning.length > 10 && e.do.length > 5, `${e.code}: says what it means and what to do`);
  }
});

test('every code reported in the core, the wasm wrapper, the extension and athena-bridge is in the catalogue', () => {
  const listed = new Set(ERRORS.map((e) => e.code));
  const missing = [...codesInCode()].filter(([c]) => !listed.has(c)).map(([c, files]) => `${c} (${[...files].join(', ')})`);
  assert.deepEqual(missing, [], 'add these to rules/errors.json, then run node rules/errors.mjs --docs');
});

test('every code in the catalogue is reported somewhere (no entry outlives its code)', () => {
  const used = codesInCode();
  assert.deepEqual(ERRORS.map((e) => e.code).filter((c) => !used.has(c)), []);
});

test("the core's codes are exactly ErrorCode's names, in error_code_name and in wasm/athena.d.ts", () => {
  const core = ERRORS.filter((e) => e.from === 'core').map((e) => e.code).sort();
  assert.deepEqual(coreNames().sort(), core);
  const dts = read('wasm/athena.d.ts');
  const union = dts.slice(dts.indexOf('export type ErrorCode ='), dts.indexOf(';', dts.indexOf('export type ErrorCode =')));
  assert.deepEqual([...union.matchAll(/'([a-z_]+)'/g)].map((m) => m[1]).sort(), core);
});

test('docs/errors.md holds the tables generated from the catalogue', () => {
  const text = read('docs/errors.md');
  assert.equal(text, docsWithErrors(text), 'run: node rules/errors.mjs --docs');
});
