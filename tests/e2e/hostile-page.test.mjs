// Pages that stop answering or crash their own renderer, through the real chain (MCP SDK client ->
// athena-bridge mcp -> native host -> extension -> chrome.debugger): a page whose main thread is
// held by its own script is `page_busy` with the next step, and answers again once the script ends;
// a renderer that is gone is `renderer_crashed`; a document too deep for Chromium's own layout
// crashes its renderer by itself (tests/sites/ext/deep.html: `chromium --headless --dump-dom` of it
// with no debugger at all crashes at 2,500 levels on this Chromium), and navigate says so at once.
// The bounds are extension/lib/limits.js cdpCommandMs and pageBusyWaitMs; how fast the page comes
// back is a diagnostic, not asserted.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useChain } from './lib/use-chain.mjs';
import { until, within } from '../support/wait.mjs';

let chain, sites;
useChain((s, c) => { sites = s; chain = c; });

/** How long tests/sites/ext/hang.html holds its main thread at most after Freeze: the tests open its gate when they have seen what they wait for; this only ends a page a failed test left hung. */
const HANG_MS = 240_000;
/** The page answering again once its gate is open. */
const BACK_MS = 60_000;

/** The agent's tab in Playwright, by a part of its URL. */
function pageOf(part) {
  const page = chain.context.pages().find((p) => p.url().includes(part));
  assert.ok(page, `the agent's tab shows ${part}`);
  return page;
}

test('a page whose script holds its main thread is busy, not crashed; the next call after it answers works', { timeout: 180_000 }, async (t) => {
  t.after(() => sites.openGate('case1'));  // a failed test leaves no page spinning
  const nav = await chain.call('navigate', { url: sites.url(`/sites/ext/hang.html?ms=${HANG_MS}&gate=case1&case=1`) });
  assert.equal(nav.isError, false, nav.text);
  const freeze = nav.fp.elements.find((e) => e.name === 'Freeze');
  const hung = Date.now();
  const click = await chain.call('click', { ref: freeze.ref, version: nav.fp.version });
  assert.equal(click.isError, true, click.text);
  assert.match(click.text, /^error page_busy: click was begun and the page may still act on it: the page in tab c0p\d+ is busy: its main thread did not answer Input\.dispatchMouseEvent within 15000 ms, so a script of the page is still running; wait, then call snapshot to see the page once it answers; or navigate \(it leaves the page through about:blank, a renderer of its own\), or open what you need in a new tab with tabs \{action: "new", url\}$/);
  // Still held: the next call says so within its own bound, sending nothing more to the page.
  const again = await chain.call('snapshot', {});
  assert.equal(again.isError, true, again.text);
  assert.match(again.text, /^error page_busy: the page in tab c0p\d+ is still busy: its main thread has answered nothing for \d+ s \(since Input\.dispatchMouseEvent; waited 5000 ms more for Page\.getFrameTree\)/);
  // Once the script ends, the agent's next snapshot is the page, and acting on it works.
  sites.openGate('case1');
  const opened = Date.now();
  let snap;
  await until('a snapshot of the page once its script ended', async () => { snap = await chain.call('snapshot', {}); return !snap.isError; }, { ms: BACK_MS, last: () => snap?.text ?? '' });
  t.diagnostic(`first good answer ${Date.now() - opened} ms after the page's script ended (it held the page ${opened - hung} ms)`);
  assert.equal(snap.fp.type, 'full');
  assert.match(snap.text, /status "thawed"/, 'the click the page was busy with took effect');
  const count = snap.fp.elements.find((e) => e.name === 'Count');
  const next = await chain.call('click', { ref: count.ref, version: snap.fp.version });
  assert.equal(next.isError, false, next.text);
  assert.match(next.text, /^<delta /);
  assert.match(next.text, /"1 clicks"/);
});

test('a busy page: navigate leaves it, even for a page of its own site, through about:blank', { timeout: 180_000 }, async (t) => {
  t.after(() => sites.openGate('case2'));  // the busy renderer's script ends with the test
  const nav = await chain.call('navigate', { url: sites.url(`/sites/ext/hang.html?ms=${HANG_MS}&gate=case2&case=2`) });
  assert.equal(nav.isError, false, nav.text);
  const freeze = nav.fp.elements.find((e) => e.name === 'Freeze');
  const click = await chain.call('click', { ref: freeze.ref, version: nav.fp.version });
  assert.match(click.text, /^error page_busy: /);
  // Chrome would load a page of the same site in the busy renderer: about:blank gets its own.
  const started = Date.now();
  const same = await within('navigate to the busy page\'s own site', chain.call('navigate', { url: sites.url('/sites/login.html?same=1') }));
  t.diagnostic(`navigate left the busy page in ${Date.now() - started} ms`);
  assert.equal(same.isError, false, same.text);
  assert.match(same.text, /^<full [^>]*url="[^"]*\/sites\/login\.html\?same=1"/, same.text);
  assert.match(same.text, /heading "Sign in"/);
  assert.match(same.text, /navigate left the page through about:blank \(a renderer of its own, which the page could not hold\): back now leads to about:blank/);
});

test('a renderer that is gone is renderer_crashed; navigate goes on', { timeout: 120_000 }, async () => {
  const nav = await chain.call('navigate', { url: sites.url('/sites/ext/hang.html?case=3') });
  assert.equal(nav.isError, false, nav.text);
  // (Its lines may be ones the agent held on an earlier visit of the same page, `seen_in`: find lists them.)
  const found = await chain.call('find', { name: 'Count' });
  assert.equal(found.isError, false, found.text);
  const count = found.fp.elements[0];
  const page = pageOf('case=3');
  const crashed = new Promise((resolve) => page.once('crash', resolve));
  const cdp = await chain.context.newCDPSession(page);
  cdp.send('Page.crash').catch(() => {});  // never answered: the renderer is gone
  await within('the renderer crashing', crashed);
  // The extension learns of the crash by its own event (Inspector.targetCrashed): until then the click may still be sent.
  let click;
  await until('the click refused as crashed', async () => { click = await chain.call('click', { ref: count.ref, version: nav.fp.version }); return /renderer_crashed/.test(click.text); }, { last: () => click?.text ?? '' });
  assert.match(click.text, /^error renderer_crashed: /);
  const back = await chain.call('navigate', { url: sites.url('/sites/login.html?case=3') });
  assert.equal(back.isError, false, back.text);
  assert.match(back.text, /heading "Sign in"/);
});

test('a document deeper than Chromium lays out crashes its own renderer: navigate says so, the next navigate works', { timeout: 120_000 }, async (t) => {
  const started = Date.now();
  const deep = await chain.call('navigate', { url: sites.url('/sites/ext/deep.html?depth=5000') });
  t.diagnostic(`navigate to a 5,000-level document answered in ${Date.now() - started} ms`);
  assert.equal(deep.isError, true, deep.text);
  assert.match(deep.text, /^error renderer_crashed: navigate: the page crashed its renderer as it loaded \(the browser gave up on it; nothing of it can be shown\); navigate elsewhere to go on in tab c0p\d+$/);
  const next = await chain.call('navigate', { url: sites.url('/sites/login.html?case=4') });
  assert.equal(next.isError, false, next.text);
  assert.match(next.text, /heading "Sign in"/);
});

test('a 20,000-level document the page never lays out: a full FactPack, and the page settles (the watcher\'s walk is bounded)', { timeout: 120_000 }, async (t) => {
  const started = Date.now();
  const deep = await chain.call('navigate', { url: sites.url('/sites/ext/deep.html?hidden=1&depth=20000') });
  t.diagnostic(`navigate to a hidden 20,000-level document answered in ${Date.now() - started} ms`);
  assert.equal(deep.isError, false, deep.text);
  assert.doesNotMatch(deep.text, /did not settle/);
  assert.match(deep.text, /button "Count"/);
  const count = deep.fp.elements.find((e) => e.name === 'Count');
  const click = await chain.call('click', { ref: count.ref, version: deep.fp.version });
  assert.equal(click.isError, false, click.text);
  assert.match(click.text, /"1 clicks"/);
  // The renderer that answered the click still answers: the tab is alive.
  const snap = await chain.call('snapshot', {});
  assert.equal(snap.isError, false, snap.text);
  assert.match(snap.text, /status "1 clicks"/);
});
