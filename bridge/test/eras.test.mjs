// Both eras of MCP from the one `athena-bridge mcp`, each through its official client: the
// TypeScript SDK 1.x (`@modelcontextprotocol/sdk`, opens with initialize, 2025-11-25) and the SDK
// 2.x (`@modelcontextprotocol/client`, pinned to 2026-07-28: server/discover, the per-request
// `_meta`, resultType). Each starts the real binary over stdio. The extension's side, where a call
// must reach it, is played by FakeChrome (a test double of Chrome, not of the bridge); the whole
// chain with the real extension is tests/e2e/chain.test.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { CONTRACT } from '../../rules/tools.mjs';
import { until } from '../../tests/support/wait.mjs';
import { FakeChrome, mcpClient, modernClient, sandbox, text } from './helpers.mjs';

/** What a client reads from a tool's annotations: MCP's default for each hint that is absent. */
function hintsRead(annotations = {}) {
  return {
    readOnlyHint: annotations.readOnlyHint ?? false, destructiveHint: annotations.destructiveHint ?? true,
    idempotentHint: annotations.idempotentHint ?? false, openWorldHint: annotations.openWorldHint ?? true,
  };
}

/**
 * Every tool as a client sees it has the title and the hints of the tool contract
 * (rules/tools.json, which each tool's declaration agrees with). Hints that MCP ignores for a read-only tool are not compared.
 */
function assertToolsAsDeclared(tools) {
  const served = CONTRACT.filter((t) => t.group === 'core');  // athena-bridge mcp's default (--tools core)
  assert.deepEqual(tools.map((t) => t.name), served.map((t) => t.name));
  for (const [i, t] of tools.entries()) {
    const d = served[i].hints;
    assert.equal(t.title, served[i].title, `${t.name}: title`);
    const read = hintsRead(t.annotations);
    const got = d.readOnly ? { readOnly: read.readOnlyHint, openWorld: read.openWorldHint }
      : { readOnly: read.readOnlyHint, destructive: read.destructiveHint, idempotent: read.idempotentHint, openWorld: read.openWorldHint };
    assert.deepEqual(got, d, `${t.name}: the hints a client reads are the declared ones`);
  }
  // What the hints say, where a client acts on them: reading tools need no confirmation, a click may destroy.
  const byName = Object.fromEntries(tools.map((t) => [t.name, hintsRead(t.annotations)]));
  for (const n of ['snapshot', 'find', 'read', 'screenshot', 'wait_for']) assert.equal(byName[n].readOnlyHint, true, n);
  assert.deepEqual(byName.click, { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true });
}

test('initialize era (SDK 1.x): tools with titles and hints; a call without Chrome gets the bridge\'s own clear error', async () => {
  const { env } = sandbox();
  const client = await mcpClient(env, 'legacy-agent');
  try {
    // The SDK connects only if initialize answered a version it speaks: it asked for its newest.
    assert.equal(LATEST_PROTOCOL_VERSION, '2025-11-25');
    assert.deepEqual(client.getServerCapabilities(), { tools: { listChanged: false } });  // no logging: nothing sends it
    assert.equal(client.getServerVersion().name, 'athena-delta');
    const { tools } = await client.listTools();
    assertToolsAsDeclared(tools);
    const r = await client.callTool({ name: 'snapshot', arguments: {} });
    assert.equal(r.isError, true);
    assert.match(text(r), /^Chrome with the Athena Delta extension is not connected: /);
    assert.match(text(r), /run `athena-bridge doctor`/);
    assert.equal(r.resultType, undefined, 'a 2026-07-28 field, not sent to a legacy client');
  } finally {
    await client.close();
  }
});

test('2026-07-28 (SDK 2.x pinned): server/discover, tools with titles and hints; a call without Chrome gets the bridge\'s own clear error', async () => {
  const { env } = sandbox();
  // Pinned: it connects only if server/discover offers 2026-07-28, and it refuses any result
  // without resultType or any list without ttlMs and cacheScope.
  const client = await modernClient(env);
  try {
    assert.equal(client.getNegotiatedProtocolVersion(), '2026-07-28');
    assert.equal(client.getProtocolEra(), 'modern');
    const discover = client.getDiscoverResult();
    assert.deepEqual(discover.supportedVersions, ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05', '2024-10-07']);
    assert.deepEqual(discover.capabilities, { tools: { listChanged: false } });
    assert.equal(client.getServerVersion().name, 'athena-delta');
    assert.match(client.getInstructions(), /FactPacks/);
    const { tools } = await client.listTools();
    assertToolsAsDeclared(tools);
    const r = await client.callTool({ name: 'snapshot', arguments: {} });
    assert.equal(r.isError, true);
    assert.match(text(r), /^Chrome with the Athena Delta extension is not connected: /);
    assert.match(text(r), /run `athena-bridge doctor`/);
    // A bad call is refused before it goes anywhere, as in the other era.
    await assert.rejects(client.callTool({ name: 'click', arguments: {} }), /missing required argument 'ref'/);
  } finally {
    await client.close();
  }
});

test('2026-07-28: a call travels to the extension and back; a long one reports progress on the way', async () => {
  const { env } = sandbox();
  const chrome = new FakeChrome(env);
  await chrome.hello();
  const client = await modernClient(env, { name: 'modern-agent' });
  try {
    const progress = [];
    const pending = client.callTool({ name: 'click', arguments: { ref: 'e3', version: 4 } }, { onprogress: (p) => progress.push(p) });
    // The per-request clientInfo names the agent to the native host, as initialize's does.
    const open = await chrome.next((m) => m.type === 'session_open');
    assert.equal(open.client, 'modern-agent');
    const call = await chrome.next((m) => m.type === 'call');
    assert.deepEqual(call.args, { ref: 'e3', version: 4 });
    assert.ok(call.deadline_ms > 0);
    await until('two progress notifications of the pending click', () => progress.length >= 2, { last: () => JSON.stringify(progress) });
    assert.ok(progress[1].progress > progress[0].progress, JSON.stringify(progress));
    assert.match(progress[0].message, /^click running for \d+ ms \(answered by \d+ ms\)$/);
    chrome.send({ type: 'result', id: call.id, ok: true, text: '<delta v="5">\n</delta>\n', factpack: { type: 'delta', version: 5 }, version: 5 });
    const r = await pending;
    assert.deepEqual(r.content, [{ type: 'text', text: '<delta v="5">\n</delta>\n' }]);
    assert.equal(r.structuredContent, undefined);
  } finally {
    await client.close();
    await chrome.close();
  }
});

test('SDK 2.x unpinned: auto negotiation chooses 2026-07-28, the legacy mode opens with initialize; both served', async () => {
  const { env } = sandbox();
  const auto = await modernClient(env, { negotiation: { mode: 'auto' } });
  const legacy = await modernClient(env, { negotiation: { mode: 'legacy' } });
  try {
    assert.equal(auto.getNegotiatedProtocolVersion(), '2026-07-28');
    assert.equal(legacy.getNegotiatedProtocolVersion(), '2025-11-25');
    assert.equal(legacy.getProtocolEra(), 'legacy');
    for (const c of [auto, legacy]) assertToolsAsDeclared((await c.listTools()).tools);
  } finally {
    await auto.close();
    await legacy.close();
  }
});

test('a client pinned to a revision we do not speak is answered -32022 with the revisions we do', async () => {
  const { env } = sandbox();
  const refused = await modernClient(env, { negotiation: { mode: { pin: '2027-01-01' } } }).then(
    (c) => { c.close(); return null; }, (e) => e);
  assert.ok(refused, 'the connection must fail');
  assert.equal(refused.code, -32022);
  assert.deepEqual(refused.supported, ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05', '2024-10-07']);
  assert.equal(refused.requested, '2027-01-01');
});
