// The whole chain for an agent whose client speaks MCP 2026-07-28 (the official TypeScript SDK
// 2.x, pinned: server/discover, every request with its own version in _meta, resultType in every
// result) -> athena-bridge mcp -> native host (spawned by Chromium) -> the extension -> a real
// page; and an agent of the initialize era served beside it by the same browser. Nothing is mocked.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useChain } from './lib/use-chain.mjs';

let sites;
let chain;
useChain((s, c) => { sites = s; chain = c; }, { era: 'modern', clientName: 'agent-2026' });

test('a 2026-07-28 agent navigates, clicks and reads FactPacks through the whole chain', async () => {
  assert.equal(chain.client.getNegotiatedProtocolVersion(), '2026-07-28');
  const { tools } = await chain.client.listTools();
  assert.equal(tools.find((t) => t.name === 'click').title, 'Click');
  assert.deepEqual(tools.find((t) => t.name === 'snapshot').annotations, { readOnlyHint: true });
  const nav = await chain.call('navigate', { url: sites.url('/sites/bootstrap.html') });
  assert.equal(nav.isError, false, nav.text);
  assert.equal(nav.fp.type, 'full');
  const add = nav.fp.elements.find((e) => e.role === 'button' && e.name === 'Add to cart');
  assert.ok(add, nav.text);
  const open = await chain.call('click', { ref: add.ref, version: nav.fp.version });
  assert.equal(open.isError, false, open.text);
  assert.equal(open.fp.type, 'overlay_opened');
  assert.equal(open.fp.overlay.name, 'Added to cart');
  // The model gets the FactPack text only: resultType and serverInfo are protocol, lifted by the client.
  assert.deepEqual(Object.keys(open.raw).sort(), ['_meta', 'content']);
  assert.equal(open.raw._meta['io.modelcontextprotocol/serverInfo'].name, 'athena-delta');
});

test('an agent of the initialize era is served beside it by the same browser, in its own session', async () => {
  const legacy = await chain.connectClient('agent-2025', [], 'legacy');
  const own = await chain.call('navigate', { url: sites.url('/sites/login.html') }, legacy);
  assert.equal(own.isError, false, own.text);
  assert.equal(own.fp.type, 'full');
  assert.equal(own.raw._meta, undefined, 'no 2026-07-28 fields for a client of the initialize era');
  // The 2026-07-28 agent still has its own tab, with the dialog it opened.
  const mine = await chain.call('snapshot', {});
  assert.equal(mine.isError, false, mine.text);
  assert.doesNotMatch(mine.text, /Sign in/);
  assert.match(mine.text, /Added to cart/);
});
