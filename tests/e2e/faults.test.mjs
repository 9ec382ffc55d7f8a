// Faults through the whole chain (MCP SDK client -> athena-bridge mcp -> native host spawned by
// Chromium -> the extension -> chrome.debugger), each answered within its named bound, nothing
// corrupted, other agents unaffected: a client that never reads, 33 clients, a page that mutates
// forever, a 50,000-node page, the native host killed mid-call, the extension reloaded mid-action.
// The bounds are those of bridge/src/limits.h and extension/lib/limits.js.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { EXTENSION_ID } from './lib/chain.mjs';
import { useChain } from './lib/use-chain.mjs';
import { connect, frame, reader } from '../../bridge/test/helpers.mjs';
import { LIMITS } from '../../extension/lib/limits.js';

// bridge/src/limits.h
const MAX_CLIENTS = 32, MAX_CLIENT_QUEUE_BYTES = 8 << 20, DEFAULT_CALL_DEADLINE_MS = 60_000;
/** How long a reconnect may take after the host or the extension went away: the extension's
 * first backoff, Chromium spawning a host, the MCP server reconnecting; generous, never a hang. */
const RECONNECT_MS = 20_000;

let sites;
let chain;

useChain((s, c) => { sites = s; chain = c; });

/** Runs fn and returns [its result, milliseconds]. */
async function timed(fn) {
  const t0 = Date.now();
  const r = await fn();
  return [r, Date.now() - t0];
}

/** Calls a tool until it stops failing (the chain reconnecting), within RECONNECT_MS. */
async function callWhenBack(name, args, client) {
  const end = Date.now() + RECONNECT_MS;
  for (;;) {
    const r = await chain.call(name, args, client);
    if (!r.isError || Date.now() > end) return r;
    await sleep(250);
  }
}

test('a client that never reads is cut off at its queue bound; the agent is served all along', async (t) => {
  const nav = await chain.call('navigate', { url: sites.url('/sites/big.html') });
  assert.equal(nav.isError, false, nav.text);
  const stuck = await connect(chain.env);
  stuck.pause();  // never reads
  let cut = false;
  stuck.on('error', () => { cut = true; });
  stuck.on('close', () => { cut = true; });
  stuck.write(frame({ type: 'hello', protocol: 1, client: 'stuck' }));
  stuck.write(frame({ type: 'call', id: 'nav', tool: 'navigate', args: { url: sites.url('/sites/big.html') } }));
  // Screenshots of a busy page (~0.1-0.5 MB each) pile up unread until the host cuts the client.
  let sent = 0;
  const served = [];
  for (let round = 0; round < 20 && !cut; round++) {
    for (let i = 0; i < 10; i++) stuck.write(frame({ type: 'call', id: `shot${sent++}`, tool: 'screenshot', args: {} }), () => {});
    const [r, ms] = await timed(() => chain.call('snapshot', {}));
    assert.equal(r.isError, false, r.text);
    served.push(ms);
    await sleep(500);
  }
  assert.ok(cut, `the host never cut a client that left ${sent} screenshots unread`);
  // Everything it still receives is what was queued before the cut: bounded.
  let bytes = 0;
  stuck.on('data', (d) => { bytes += d.length; });
  stuck.resume();
  await sleep(200);
  assert.ok(bytes < MAX_CLIENT_QUEUE_BYTES + (4 << 20), `${bytes} bytes were still queued for the cut client`);
  stuck.destroy();
  // The agent was answered every time meanwhile, well inside a call's deadline.
  assert.ok(Math.max(...served) < DEFAULT_CALL_DEADLINE_MS / 4, `agent answers took ${served.join(', ')} ms`);
  t.diagnostic(`cut after ${sent} unread screenshots; ${bytes} bytes left for it; the agent's ${served.length} snapshots meanwhile: max ${Math.max(...served)} ms`);
  const after = await chain.call('snapshot', {});
  assert.equal(after.isError, false, after.text);
});

test(`${MAX_CLIENTS + 1} clients: the one over the limit is told why; the others keep working`, async () => {
  // The chain's own agent holds one slot; 31 more clients say hello and stay.
  const others = [];
  try {
    for (let i = 1; i < MAX_CLIENTS; i++) {
      const s = await connect(chain.env);
      const r = reader(s);
      s.write(frame({ type: 'hello', protocol: 1, client: `c${i}` }));
      await r.next((m) => m.type === 'status');
      others.push({ s, r });
    }
    const late = await chain.connectClient('late-agent');
    const refused = await chain.call('tabs', { action: 'list' }, late);
    assert.equal(refused.isError, true);
    assert.match(refused.text, /already serves 32 agents, its limit/);
    // Everyone inside is still served, the chain's agent and a socket client alike.
    const mine = await chain.call('snapshot', {});
    assert.equal(mine.isError, false, mine.text);
    others[5].s.write(frame({ type: 'call', id: 'x', tool: 'tabs', args: { action: 'list' } }));
    const res = await others[5].r.next((m) => m.type === 'result' && m.id === 'x', 10_000);
    assert.equal(res.ok, true, JSON.stringify(res));
    // A slot frees: the late agent gets in on its next call.
    others.pop().s.destroy();
    const now = await callWhenBack('tabs', { action: 'list' }, late);
    assert.equal(now.isError, false, now.text);
    await late.close();
  } finally {
    for (const o of others) o.s.destroy();
  }
});

test('a page that mutates forever: every answer comes within the stabilization cap, with a warning', async (t) => {
  const nav = await chain.call('navigate', { url: sites.url('/sites/ext/busy.html') });
  assert.equal(nav.isError, false, nav.text);
  const go = nav.fp.elements.find((e) => e.name === 'Go');
  assert.ok(go, nav.text);
  const [r, ms] = await timed(() => chain.call('click', { ref: go.ref, version: nav.fp.version }));
  assert.equal(r.isError, false, r.text);
  assert.match(r.text, /did not settle/);
  assert.ok(ms < LIMITS.stabilizeCapMs * 2, `click on a page that never settles took ${ms} ms (cap ${LIMITS.stabilizeCapMs})`);
  t.diagnostic(`click on a page that never settles: ${ms} ms`);
});

test('a 50,000-node page: the FactPack stays within its token budget and a click is a small delta', async (t) => {
  const url = sites.url('/sites/big.html?rows=6300');
  const [nav, ms] = await timed(() => chain.call('navigate', { url }));
  assert.equal(nav.isError, false, nav.text);
  const page = chain.context.pages().find((p) => p.url() === url);
  const nodes = await page.evaluate(() => document.createTreeWalker(document, NodeFilter.SHOW_ALL).currentNode && (() => {
    const w = document.createTreeWalker(document, NodeFilter.SHOW_ALL);
    let n = 0;
    while (w.nextNode()) n++;
    return n;
  })());
  assert.ok(nodes >= 50_000, `the page has ${nodes} nodes`);
  assert.ok(ms < LIMITS.navigationCapMs + LIMITS.stabilizeCapMs, `navigate took ${ms} ms`);
  // The default budget is 2,000 tokens (core/include/athena/limits.h), ~3 bytes a token.
  assert.ok(nav.text.length < 2_000 * 3 * 1.5, `the full FactPack is ${nav.text.length} characters`);
  assert.match(nav.text, /more here/, 'what was trimmed is named, with the call that finds it');
  const rename = nav.fp.elements.find((e) => e.name === 'Rename row 5000');
  assert.ok(rename, nav.text);
  const click = await chain.call('click', { ref: rename.ref, version: nav.fp.version });
  assert.equal(click.isError, false, click.text);
  assert.match(click.text, /^<delta /);
  assert.match(click.text, /"Reorder"/);
  assert.ok(click.text.length < 2_000, click.text);
  t.diagnostic(`${nodes} nodes: navigate ${ms} ms, ${nav.text.length} characters; click delta ${click.text.length} characters`);
});

test('the native host killed mid-call: the call fails at once with the reason, the agent goes on in its own tab', async (t) => {
  const nav = await chain.call('navigate', { url: sites.url('/sites/login.html') });
  assert.equal(nav.isError, false, nav.text);
  const waiting = timed(() => chain.call('wait_for', { text: 'never on this page', ms: 20_000 }));
  await sleep(500);
  execFileSync('pkill', ['-KILL', '-f', `athena-bridge chrome-extension://${EXTENSION_ID}`]);
  const [r, ms] = await waiting;
  assert.equal(r.isError, true, r.text);
  assert.ok(ms < 10_000, `the interrupted call took ${ms} ms`);
  // The tab is free at once: the call nobody can answer any more does not hold it for its 20 s.
  const [again, back] = await timed(() => callWhenBack('snapshot', {}));
  assert.equal(again.isError, false, again.text);
  assert.ok(back < 10_000, `the agent waited ${back} ms for its tab after the host came back`);
  t.diagnostic(`interrupted call answered in ${ms} ms; the agent served again ${back} ms later`);
  assert.match(again.text, /Sign in/, 'the same session, in the same tab');
});

test('the extension reloaded mid-action: the call fails with the reason, the agent starts again', async (t) => {
  const nav = await chain.call('navigate', { url: sites.url('/sites/login.html') });
  assert.equal(nav.isError, false, nav.text);
  const waiting = timed(() => chain.call('wait_for', { text: 'never on this page', ms: 20_000 }));
  await sleep(500);
  // As a user does it: chrome://extensions, developer mode on (Chromium disables a reloaded
  // unpacked extension without it), Reload.
  const page = await chain.context.newPage();
  await page.goto('chrome://extensions/');
  await page.evaluate(() => chrome.developerPrivate.updateProfileConfiguration({ inDeveloperMode: true }));
  await page.evaluate((id) => chrome.developerPrivate.reload(id, { failQuietly: true }), EXTENSION_ID);
  const [r, ms] = await waiting;
  assert.equal(r.isError, true, r.text);
  assert.ok(ms < 10_000, `the interrupted call took ${ms} ms`);
  const back = await callWhenBack('navigate', { url: sites.url('/sites/login.html') });
  assert.equal(back.isError, false, back.text);
  assert.equal(back.fp.type, 'full');
  t.diagnostic(`interrupted call answered in ${ms} ms`);
  await page.close();
});
