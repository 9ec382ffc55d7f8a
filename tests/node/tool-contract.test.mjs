// The one tool contract (rules/tools.json, rules/tools.mjs): the built athena-bridge serves exactly
// its tool list and alone checks arguments: every bad call is refused with the one message that
// names what is wrong, every valid one passes; the
// wire-protocol doc's table is the generated one; every declared tool has a handler in the
// extension and nothing else is dispatched.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { findTool, TOOLS } from '../../extension/lib/tool-contract.js';
import { GROUPS, inputSchema, mcpTools, wireTable } from '../../rules/tools.mjs';
import { docsWithTable } from '../../bridge/gen-tools.mjs';
import { bridgeBinary, root, sandbox } from '../../bridge/test/helpers.mjs';
import { Agent } from '../../extension/lib/agent.js';
import { defineTool } from '../../extension/lib/tools/define.js';
import { fakeChrome } from '../../extension/test/fake-chrome.mjs';
import { until } from '../support/wait.mjs';

/**
 * Sends JSON-RPC lines to a fresh `athena-bridge mcp` (no Chrome) and returns the answers by id.
 * Every tool group is served unless `flags` say otherwise.
 */
async function mcp(requests, flags = ['--tools', 'all']) {
  const { env } = sandbox();
  const p = spawn(bridgeBinary(), ['mcp', ...flags], { env, stdio: ['pipe', 'pipe', 'ignore'] });
  let out = '';
  p.stdout.on('data', (d) => { out += d; });
  const init = { jsonrpc: '2.0', id: 'init', method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } };
  for (const r of [init, ...requests]) p.stdin.write(`${JSON.stringify(r)}\n`);
  const ids = new Set(requests.map((r) => r.id));
  const answers = new Map();
  try {
    await until(`athena-bridge answering all ${ids.size} calls`, () => {
      for (const line of out.split('\n').slice(0, -1)) {  // complete lines only
        if (!line.trim()) continue;
        const m = JSON.parse(line);
        if (ids.has(m.id)) answers.set(m.id, m);
      }
      return answers.size === ids.size;
    }, { last: () => `${answers.size} answered` });
  } finally {
    p.kill();
  }
  return answers;
}

/**
 * Bad arguments for every tool, each with the one refusal athena-bridge gives it
 * (bridge/src/tools.cpp check_arguments): each required one missing, an unknown one (also names
 * every object inherits), each one of the wrong type or value.
 */
function badCalls() {
  const calls = [];
  const wrongValue = { string: 7, boolean: 'yes', integer: 1.5, number: 'far', array: 'x' };
  for (const t of TOOLS) {
    const schema = inputSchema(t);
    const known = Object.keys(schema.properties).sort().join(', ');
    const valid = Object.fromEntries(t.required.map((k) => [k, sample(schema.properties[k])]));
    for (const k of t.required) { const a = { ...valid }; delete a[k]; calls.push([t, a, `${t.name}: missing required argument '${k}'`]); }
    for (const k of ['bogus', 'constructor', '__proto__', 'toString', 'hasOwnProperty'])
      calls.push([t, { ...valid, ...JSON.parse(`{${JSON.stringify(k)}: 1}`) }, `${t.name}: unknown argument '${k}' (known: ${known})`]);
    for (const [k, p] of Object.entries(schema.properties)) {
      calls.push([t, { ...valid, [k]: wrongValue[p.type] }, `${t.name}: argument '${k}' must be ${p.type}`]);
      if (p.enum) calls.push([t, { ...valid, [k]: 'sideways' }, `${t.name}: argument '${k}' must be one of ${JSON.stringify(p.enum)}`]);
      if (p.items) calls.push([t, { ...valid, [k]: [1] }, `${t.name}: every item of '${k}' must be ${p.items.type}`]);
    }
    calls.push([t, [], `${t.name}: arguments must be an object`]);
  }
  return calls;
}
function sample(p) {
  return p.enum ? p.enum[0] : p.items ? [sample(p.items)] : { string: 'e1', boolean: true, integer: 1, number: 1, object: {} }[p.type];
}
/** A valid value for argument `k` of tool `t` that the handler gets past its own checks with (press needs a key). */
function sampleFor(t, k, p) {
  if (t.name === 'press' && k === 'keys') return 'Enter';
  if (t.name === 'upload' && k === 'files') return ['/tmp/a.txt'];
  if (t.name === 'fill_form' && k === 'fields') return [{ ref: 'e1', value: 'x' }];
  return sample(p);
}

test('athena-bridge serves the contract\'s tool list, byte for byte', async () => {
  const answers = await mcp([{ jsonrpc: '2.0', id: 1, method: 'tools/list' }]);
  assert.deepEqual(answers.get(1).result.tools, mcpTools());
});

test('athena-bridge serves the core group by default, the groups --tools names, and refuses a tool of another group by its group', async () => {
  const list = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
  const drag = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'drag', arguments: { ref: 'e1', to: 'e2' } } };
  const byDefault = await mcp([list, drag], []);
  assert.deepEqual(byDefault.get(1).result.tools, mcpTools(['core']));
  assert.deepEqual(byDefault.get(2).error, { code: -32602, message: "drag is in the tool group 'input', which this server does not serve (--tools core): the user can add it, e.g. athena-bridge mcp --tools core,input" });
  const chosen = await mcp([list], ['--tools', 'core,debug']);
  assert.deepEqual(chosen.get(1).result.tools, mcpTools(['core', 'debug']));
  assert.deepEqual(GROUPS, ['core', 'input', 'debug']);
  const { env } = sandbox();
  const bad = spawnSync(bridgeBinary(), ['mcp', '--tools', 'core,evil'], { env, input: '', encoding: 'utf8' });
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /^athena-bridge mcp: --tools: 'evil' is not a tool group \(groups: core, input, debug, or all\)\n/);
});

test('athena-bridge refuses every bad call with the one message that names what is wrong', async () => {
  const calls = badCalls();
  assert.ok(calls.length > 80, `${calls.length} bad calls`);
  const answers = await mcp(calls.map(([t, args], i) => ({ jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: t.name, arguments: args } })));
  calls.forEach(([t, args, why], i) => {
    const a = answers.get(i);
    assert.deepEqual(a.error, { code: -32602, message: why }, `${t.name} ${JSON.stringify(args)}: ${JSON.stringify(a)}`);
  });
});

test('athena-bridge passes every valid call on to the extension (here: none is connected)', async () => {
  const calls = TOOLS.map((t) => {
    const schema = inputSchema(t);
    return [t, Object.fromEntries(Object.entries(schema.properties).map(([k, p]) => [k, sample(p)]))];
  });
  const answers = await mcp(calls.map(([t, args], i) => ({ jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: t.name, arguments: args } })));
  calls.forEach(([t, args], i) => {
    const a = answers.get(i);
    // Past the check, the call goes to the extension: here there is none, which is what it says.
    assert.equal(a.result?.isError, true, `${t.name} ${JSON.stringify(args)}: ${JSON.stringify(a)}`);
    assert.match(a.result.content[0].text, /^Chrome with the Athena Delta extension is not connected: /, t.name);
  });
});

test('a tool is declared with a title and every hint that applies, or not at all', () => {
  const base = { name: 'x', title: 'X', description: 'd', handler: async () => ({ ok: true, text: '' }) };
  assert.throws(() => defineTool({ ...base, title: '', hints: { readOnly: true, openWorld: true } }), /^Error: tool x: a title \(what a client shows a person\) is required$/);
  assert.throws(() => defineTool(/** @type {any} */ ({ ...base })), /^Error: tool x: hints must state exactly readOnly, destructive, idempotent, openWorld \(booleans\); wrong: readOnly, destructive, idempotent, openWorld$/);
  assert.throws(() => defineTool(/** @type {any} */ ({ ...base, hints: { readOnly: false, destructive: true, openWorld: true } })), /wrong: idempotent$/);
  // A read-only tool destroys nothing and is trivially idempotent: MCP ignores those hints for it, so it may not state them.
  assert.throws(() => defineTool(/** @type {any} */ ({ ...base, hints: { readOnly: true, openWorld: true, destructive: false } })), /hints must state exactly readOnly, openWorld \(booleans\); wrong: destructive$/);
  assert.deepEqual(defineTool({ ...base, hints: { readOnly: true, openWorld: false } }).hints, { readOnly: true, openWorld: false });
});

test('docs/wire-protocol.md holds the generated tool table', () => {
  const text = readFileSync(path.join(root, 'docs/wire-protocol.md'), 'utf8');
  assert.equal(text, docsWithTable(text, wireTable()), 'run: node bridge/gen-tools.mjs --docs');
});

test('every declared tool has a handler in the extension; an undeclared one is refused', async () => {
  const chrome = fakeChrome();
  const noEngine = Promise.reject(new Error('no engine'));
  noEngine.catch(() => {});
  const agent = new Agent({ chrome, athena: noEngine });
  for (const t of TOOLS) {
    const schema = inputSchema(t);
    // drag and resize need one of their optional arguments (to or dx/dy; device or width/height).
    const args = { ...Object.fromEntries(t.required.map((k) => [k, sampleFor(t, k, schema.properties[k])])), ...({ drag: { to: 'e2' }, resize: { device: 'phone' } })[t.name] };
    const r = await agent.dispatch({ session: 's', tool: t.name, args });
    assert.notEqual(r.error?.code, 'internal', `${t.name}: ${JSON.stringify(r)}`);
    assert.notEqual(r.error?.code, 'unknown_tool', t.name);
    assert.notEqual(r.error?.code, 'bad_arguments', `${t.name}: ${JSON.stringify(r)}`);
  }
  assert.equal((await agent.dispatch({ session: 's', tool: 'teleport', args: {} })).error.code, 'unknown_tool');
  assert.equal(findTool('teleport'), undefined);
});

test('each tool is declared once, with its handler, in extension/lib/tools/*.js, and every declaration is served', async () => {
  const dir = path.join(root, 'extension/lib/tools');
  /** @type {Map<string, string>} tool name -> file declaring it */
  const declaredIn = new Map();
  for (const f of (await import('node:fs')).readdirSync(dir).filter((n) => n.endsWith('.js') && n !== 'define.js')) {
    for (const v of Object.values(await import(path.join(dir, f)))) {
      if (!v || typeof v !== 'object' || typeof v.handler !== 'function') continue;
      assert.ok(!declaredIn.has(v.name), `${v.name} is declared in ${declaredIn.get(v.name)} and in ${f}`);
      declaredIn.set(v.name, f);
      assert.ok(TOOLS.includes(v), `${v.name} (tools/${f}) is declared but not in tool-contract.js's TOOLS`);
    }
  }
  for (const t of TOOLS) {
    assert.equal(typeof t.handler, 'function', `${t.name} has no handler`);
    assert.ok(declaredIn.has(t.name), `${t.name} is not declared in extension/lib/tools/`);
  }
  assert.equal(declaredIn.size, TOOLS.length);
});
