// Faults through the whole chain (MCP SDK client -> athena-bridge mcp -> native host spawned by
// Chromium -> the extension -> chrome.debugger), each answered within its named bound, nothing
// corrupted, other agents unaffected: a client that never reads, 33 clients, a page that mutates
// forever, a 50,000-node page, the native host killed mid-call, the extension reloaded mid-action.
// The bounds are those of bridge/src/limits.h and extension/lib/limits.js; how fast each answer
// comes is measured in bench/, not asserted here (a bound here only tells a hang).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { EXTENSION_ID } from './lib/chain.mjs';
import { useChain } from './lib/use-chain.mjs';
import { newCallUnderWay, tabCallIds } from './lib/worker-state.mjs';
import { nextEvent, until, within, timed } from '../support/wait.mjs';
import { connect, frame, reader } from '../../bridge/test/helpers.mjs';
import { loadAthena } from '../wasm/load.mjs';

// bridge/src/limits.h
const MAX_CLIENTS = 32, MAX_CLIENT_QUEUE_BYTES = 8 << 20;
/** Screenshots the never-reading client asks for: ~0.1-0.5 MB each, well past MAX_CLIENT_QUEUE_BYTES. */
const MAX_UNREAD_SHOTS = 200;
/** How long those may take to fill its queue: a busy page's screenshots come a few a second (one
 * run cut the client after 170 of them, in 56 s on 2 loaded cores); longer means it was never cut. */
const CUT_MS = 180_000;
/** How long a reconnect may take after the host or the extension went away: the extension's
 * first backoff, Chromium spawning a host, the MCP server reconnecting; generous, never a hang. */
const RECONNECT_MS = 20_000;
/** The wait_for the interrupted calls make, and the bound that tells it was interrupted, not left to run out. */
const WAIT_FOR_MS = 20_000, INTERRUPTED_MS = 15_000;

let sites;
let chain;

useChain((s, c) => { sites = s; chain = c; });

/** Calls a tool until it stops failing (the chain reconnecting), within RECONNECT_MS. */
async function callWhenBack(name, args, client) {
  let last;
  await until(`${name} answering again`, async () => { last = await chain.call(name, args, client); return !last.isError; },
    { ms: RECONNECT_MS, last: () => last?.text ?? '' });
  return last;
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
  // Screenshots of a busy page (~0.1-0.5 MB each) pile up unread until the host cuts the client;
  // meanwhile the agent is answered each time (a starved call would fail at its deadline).
  let sent = 0;
  const served = [];
  await until(`the host cutting a client that leaves its screenshots unread`, async () => {
    // At most MAX_UNREAD_SHOTS asked, as many as a busy page's screenshots need to pass the bound;
    // then a small call each round, since a paused socket learns of the cut only by writing.
    if (sent < MAX_UNREAD_SHOTS) for (let i = 0; i < 10; i++) stuck.write(frame({ type: 'call', id: `shot${sent++}`, tool: 'screenshot', args: {} }), () => {});
    else stuck.write(frame({ type: 'call', id: `probe${sent++}`, tool: 'tabs', args: { action: 'list' } }), () => {});
    const [r, ms] = await timed(() => chain.call('snapshot', {}));
    assert.equal(r.isError, false, r.text);
    served.push(ms);
    return cut;
  }, { ms: CUT_MS, last: () => `${sent} screenshots asked` }).catch((e) => { stuck.destroy(); throw e; });
  // Everything it still receives is what was queued before the cut: bounded.
  let bytes = 0;
  stuck.on('data', (d) => { bytes += d.length; });
  stuck.resume();
  if (!stuck.closed) await nextEvent(stuck, 'close', 'the cut client\'s socket closing once its queue was read');
  assert.ok(bytes < MAX_CLIENT_QUEUE_BYTES + (4 << 20), `${bytes} bytes were still queued for the cut client`);
  stuck.destroy();
  t.diagnostic(`cut after ${sent} unread screenshots; ${bytes} bytes left for it; the agent's ${served.length} snapshots meanwhile: max ${Math.max(...served)} ms`);
  const after = await chain.call('snapshot', {});
  assert.equal(after.isError, false, after.text);
});

test(`${MAX_CLIENTS + 1} clients: a newcomer is served; the one idle the longest gives its slot up and is served again on its next call`, async () => {
  // The chain's own agent holds one slot (idle since the test before); 31 more clients say hello and stay.
  const others = [];
  try {
    for (let i = 1; i < MAX_CLIENTS; i++) {
      const s = await connect(chain.env);
      const r = reader(s);
      s.write(frame({ type: 'hello', protocol: 1, client: `c${i}` }));
      await r.next((m) => m.type === 'status');
      others.push({ s, r });
    }
    // Every slot is taken: the late agent gets the slot of the one idle the longest (the chain's agent).
    const late = await chain.connectClient('late-agent');
    const served = await chain.call('tabs', { action: 'list' }, late);
    assert.equal(served.isError, false, served.text);
    // That agent is served again on its next call: it reconnects, and now c1 (idle the longest) makes room, told why.
    const mine = await chain.call('snapshot', {});
    assert.equal(mine.isError, false, mine.text);
    const told = await others[0].r.next((m) => m.type === 'error' && m.code === 'disconnected', 10_000);
    assert.match(told.message, /^athena-bridge disconnected this client: idle the longest while a new agent needed its slot \(at most 32 agents\); it reconnects on its next call$/);
    // The others inside are still served.
    others[5].s.write(frame({ type: 'call', id: 'x', tool: 'tabs', args: { action: 'list' } }));
    const res = await others[5].r.next((m) => m.type === 'result' && m.id === 'x', 10_000);
    assert.equal(res.ok, true, JSON.stringify(res));
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
  // A hidden tab's timers run at most once a second (Chrome's background throttling): its 40 ms
  // ticker would leave 100 ms quiet windows and the page would, rightly, settle. In front, it never does.
  const page = chain.context.pages().find((p) => p.url().includes('/sites/ext/busy.html'));
  assert.ok(page, 'the agent\'s tab shows busy.html');
  await page.bringToFront();
  assert.equal(await page.evaluate(() => document.visibilityState), 'visible');
  const [r, ms] = await within('a click on a page that never settles', timed(() => chain.call('click', { ref: go.ref, version: nav.fp.version })));
  assert.equal(r.isError, false, r.text);
  // The warning is the stabilization cap (extension/lib/limits.js stabilizeCapMs) ending the wait.
  assert.match(r.text, /did not settle/);
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
  // The default budget (core/include/athena/limits.h kDefaultBaselineTokenBudget), ~3 bytes a
  // token (kBytesPerToken), as the core the extension runs reads them: a bound.
  const { limits } = (await loadAthena()).athena;
  assert.ok(nav.text.length <= limits.defaultTokenBudget * limits.bytesPerToken, `the full FactPack is ${nav.text.length} characters`);
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
  const before = await tabCallIds(chain.worker);
  const waiting = timed(() => chain.call('wait_for', { text: 'never on this page', ms: WAIT_FOR_MS }));
  await newCallUnderWay(chain.worker, before, 'the wait_for');
  execFileSync('pkill', ['-KILL', '-f', `athena-bridge chrome-extension://${EXTENSION_ID}`]);
  // Both bounds are under the wait_for's own WAIT_FOR_MS: a call (or a tab) held until then hung.
  const [r, ms] = await within('the wait_for interrupted by the host\'s death', waiting, INTERRUPTED_MS);
  assert.equal(r.isError, true, r.text);
  // The tab is free at once: the call nobody can answer any more does not hold it for its 20 s.
  const [again, back] = await within('the agent\'s next call after the host came back', timed(() => callWhenBack('snapshot', {})), INTERRUPTED_MS);
  assert.equal(again.isError, false, again.text);
  t.diagnostic(`interrupted call answered in ${ms} ms; the agent served again ${back} ms later`);
  assert.match(again.text, /Sign in/, 'the same session, in the same tab');
});

test('the extension reloaded mid-action: the call fails with the reason, the agent starts again', async (t) => {
  const nav = await chain.call('navigate', { url: sites.url('/sites/login.html') });
  assert.equal(nav.isError, false, nav.text);
  const before = await tabCallIds(chain.worker);
  const waiting = timed(() => chain.call('wait_for', { text: 'never on this page', ms: WAIT_FOR_MS }));
  await newCallUnderWay(chain.worker, before, 'the wait_for');
  // As a user does it: chrome://extensions, developer mode on (Chromium disables a reloaded
  // unpacked extension without it), Reload.
  const page = await chain.context.newPage();
  await page.goto('chrome://extensions/');
  await page.evaluate(() => chrome.developerPrivate.updateProfileConfiguration({ inDeveloperMode: true }));
  await page.evaluate((id) => chrome.developerPrivate.reload(id, { failQuietly: true }), EXTENSION_ID);
  const [r, ms] = await within('the wait_for interrupted by the extension\'s reload', waiting, INTERRUPTED_MS);
  assert.equal(r.isError, true, r.text);
  const back = await callWhenBack('navigate', { url: sites.url('/sites/login.html') });
  assert.equal(back.isError, false, back.text);
  assert.equal(back.fp.type, 'full');
  t.diagnostic(`interrupted call answered in ${ms} ms`);
  await page.close();
});
