// wasm/athena.d.ts is checked in; this fails when it and the wrapper drift apart: exported names,
// class methods and properties, and the keys of every object the API returns, read from real calls.
// The .d.ts is parsed with the TypeScript compiler (node_modules) and must type-check, together
// with a small program using the API the way the extension does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, copyFileSync } from 'node:fs';
import { tempDir } from '../support/tmp.mjs';
import path from 'node:path';
import ts from 'typescript';
import { capture } from './capture.mjs';
import { loadAthena, root, wasmDir } from './load.mjs';

const dtsPath = path.join(root, 'wasm/athena.d.ts');
const source = ts.createSourceFile(dtsPath, readFileSync(dtsPath, 'utf8'), ts.ScriptTarget.ES2022, true);

const exported = (node) => node.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
const isPrivate = (m) => m.modifiers?.some((x) => x.kind === ts.SyntaxKind.PrivateKeyword);

// Everything the .d.ts declares: runtime values (classes, functions), and shapes (interfaces).
const decl = { values: new Map(), shapes: new Map() };
for (const node of source.statements) {
  if (!exported(node)) continue;
  if (ts.isClassDeclaration(node) || ts.isFunctionDeclaration(node)) {
    const methods = new Set(), props = new Set();
    for (const m of node.members ?? []) {
      if (isPrivate(m) || ts.isConstructorDeclaration(m)) continue;
      if (ts.isMethodDeclaration(m)) methods.add(m.name.getText(source));
      else if (ts.isPropertyDeclaration(m)) props.add(m.name.getText(source));
    }
    decl.values.set(node.name.getText(source), { kind: ts.isClassDeclaration(node) ? 'class' : 'function', methods, props });
  } else if (ts.isVariableStatement(node)) {
    for (const d of node.declarationList.declarations) decl.values.set(d.name.getText(source), { kind: 'const' });
  } else if (ts.isInterfaceDeclaration(node)) {
    const required = new Set(), optional = new Set();
    for (const m of node.members) (m.questionToken ? optional : required).add(m.name.getText(source));
    decl.shapes.set(node.name.getText(source), { required, optional });
  }
}

const { athena, mod } = await loadAthena();

function sameSet(actual, expected, what) {
  assert.deepEqual([...actual].sort(), [...expected].sort(), `${what}: wrapper vs athena.d.ts`);
}

function matchesShape(obj, shapeName) {
  const shape = decl.shapes.get(shapeName);
  assert.ok(shape, `athena.d.ts declares no interface ${shapeName}`);
  const keys = new Set(Object.keys(obj));
  for (const k of shape.required) assert.ok(keys.has(k), `${shapeName}.${k} is declared but the wrapper returns no such key`);
  for (const k of keys) assert.ok(shape.required.has(k) || shape.optional.has(k), `${shapeName}: the wrapper returns "${k}", athena.d.ts does not declare it`);
}

test('athena.d.ts type-checks on its own and with a program using the API', () => {
  const dir = tempDir('athena-dts-');
  copyFileSync(dtsPath, path.join(dir, 'athena.d.ts'));
  writeFileSync(path.join(dir, 'use.ts'), `
import { loadAthena, AthenaError, type FactPackResult, type Target, type ErrorCode } from './athena.js';
async function main(bytes: Uint8Array, capture: string): Promise<string> {
  const athena = await loadAthena({ wasmBinary: bytes });
  const engine = athena.createEngine({ maxChangeRatio: 0.4 });
  const key = { context: 0, page: 1 };
  engine.openPage(key);
  const full: FactPackResult = engine.snapshot(key, capture);
  const pre = engine.beginAction(key, capture, full.version);
  if (pre.freshness === 'stale_no_history') return pre.pack!.text;
  try {
    const t: Target = engine.resolve(key, engine.find(key, { role: 'button' })[0].ref);
    void t.bbox.x;
  } catch (e) {
    if (e instanceof AthenaError) { const c: ErrorCode = e.code; return c; }
  }
  const pack = engine.finishAction(key, capture, { kind: 'click', warnings: [], forceFull: false });
  const n: number = engine.stats(key).liveElements + athena.limits.maxInputBytes;
  engine.dispose();
  return pack.type + pack.factpack.type + n;
}
void main;
`);
  const program = ts.createProgram([path.join(dir, 'athena.d.ts'), path.join(dir, 'use.ts')], {
    strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext, lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'], types: [],
  });
  const diags = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  assert.deepEqual(diags, []);
});

test('exported names and class members match', () => {
  sameSet(Object.keys(mod), decl.values.keys(), 'exported values');
  for (const [name, d] of decl.values) {
    if (d.kind !== 'class') continue;
    const proto = mod[name].prototype;
    const methods = Object.getOwnPropertyNames(proto).filter((k) => k !== 'constructor' && typeof Object.getOwnPropertyDescriptor(proto, k).value === 'function');
    sameSet(methods, d.methods, `${name} methods`);
  }
  // Instance properties, from real instances.
  sameSet(Object.keys(athena), decl.values.get('Athena').props, 'Athena properties');
  const engine = athena.createEngine();
  sameSet(Object.keys(engine), decl.values.get('Engine').props, 'Engine properties');
  const err = new mod.AthenaError('internal', 'x');
  sameSet(Object.keys(err), decl.values.get('AthenaError').props, 'AthenaError own properties');
  assert.equal(err.name, 'AthenaError');
  assert.ok(err instanceof Error);
});

test('every returned object has exactly the declared keys', () => {
  matchesShape(athena.limits, 'Limits');
  // The ErrorCode union lists exactly the core's codes.
  const union = source.statements.find((s) => ts.isTypeAliasDeclaration(s) && s.name.text === 'ErrorCode');
  const codes = union.type.types.map((t) => t.literal.text);
  sameSet(codes, athena.errorCodes, 'ErrorCode union vs the core\'s error codes');

  const engine = athena.createEngine();
  const key = { context: 0, page: 1 };
  engine.openPage(key);
  const c0 = capture(), c1 = capture({ dialog: { name: 'Added' } });
  const full = engine.snapshot(key, c0);
  matchesShape(full, 'FactPackResult');
  const el = engine.find(key, { role: 'button' })[0];
  matchesShape(el, 'Element');
  // state is there only when something is set (the FactPack JSON's element shape).
  for (const e of engine.find(key, {})) if (e.state) matchesShape(e.state, 'ElementState');
  const target = engine.resolve(key, el.ref);
  matchesShape(target, 'Target');
  matchesShape(target.element, 'Element');
  const pre = engine.beginAction(key, c0, full.version);
  matchesShape(pre, 'PreCheck');
  engine.finishAction(key, c1, { kind: 'click' });
  const stale = engine.beginAction(key, c0, full.version);  // the agent is one version behind
  assert.notEqual(stale.freshness, 'current');
  matchesShape(stale, 'PreCheck');
  matchesShape(stale.pack, 'FactPackResult');
  matchesShape(engine.stats(key), 'PageStats');
  engine.dispose();
});

test('the .d.ts next to the built module is the checked-in one', () => {
  assert.equal(readFileSync(path.join(wasmDir, 'athena.d.ts'), 'utf8'), readFileSync(dtsPath, 'utf8'));
  assert.equal(readFileSync(path.join(wasmDir, 'athena.mjs'), 'utf8'), readFileSync(path.join(root, 'wasm/athena.mjs'), 'utf8'));
});
