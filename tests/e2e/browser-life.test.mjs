// The browser's own life through the whole chain (MCP SDK client -> athena-bridge mcp -> native
// host spawned by Chromium -> the extension -> chrome.debugger): an alert loop from page load, a
// beforeunload prompt on navigate, a renderer crash, the user closing the agent's tab, the
// debugger taken away during a call (by the extension's own worker, and by Chrome when the tab
// goes to a chrome:// page), and an allowed page embedding a frame from a blocked site. Each is
// caused for real (CDP from the test, or chrome.* in the extension's worker) and waited for by its
// event, never by a sleep; each asserts the one answer the agent gets. Times are diagnostics only.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CHAIN_LIMITS, resultText } from './lib/chain.mjs';
import { useChain } from './lib/use-chain.mjs';
import { policyApplied } from './lib/worker-state.mjs';
import { until, timed } from '../support/wait.mjs';

/** The wait_for the interrupted calls make: the longest the extension allows (extension/lib/limits.js waitForMaxMs), so an answer that is not at once is plain. */
const WAIT_FOR_MS = 30_000;
/** Dialog answers the alert loop is followed through. */
const LOOP_ANSWERS = 3;

let sites;
let chain;
useChain((s, c) => { sites = s; chain = c; });

/** A call whose answer may be a JavaScript dialog instead of a FactPack: its text, and whether it is an error. */
async function dialogCall(name, args = {}) {
  const r = await chain.client.callTool({ name, arguments: args }, undefined, { timeout: CHAIN_LIMITS.toolCallMs });
  return { text: resultText(r), isError: !!r.isError };
}

/** A call that must succeed. */
async function ok(name, args = {}) {
  const r = await chain.call(name, args);
  assert.equal(r.isError, false, `${name} ${JSON.stringify(args)}: ${r.text}`);
  return r;
}

/** The agent's current tab's name (c0p3), from tabs list: refs name no tab. */
async function currentTab() {
  const list = await ok('tabs', { action: 'list' });
  const m = /<tab id="(c\d+p\d+)" current="true"/.exec(list.text);
  assert.ok(m, list.text);
  return m[1];
}

/** navigate, then snapshot: every region shown (a navigation collapses regions the page before had the same). */
async function open(url) {
  await ok('navigate', { url });
  return ok('snapshot', {});
}

/** The Chrome tab id of the agent's current tab (the chain's one session). */
function agentTabId() {
  // @ts-ignore the worker's own global (extension/sw.js)
  return chain.worker.evaluate(() => [...globalThis.athenaAgent.sessions.values()][0]?.current ?? null);
}

/** The Playwright page showing a URL that contains `marker`. */
function pageWith(marker) {
  const page = chain.context.pages().find((p) => p.url().includes(marker));
  assert.ok(page, `a page at ${marker}`);
  return page;
}

/** The ref of the element named `name` in a FactPack. */
function refOf(fp, name) {
  const e = fp.elements.find((x) => x.name === name);
  assert.ok(e, `no element "${name}" in the FactPack`);
  return e.ref;
}

/** The agent's current tab in the extension: its call id and whether an action runs there. */
function callState() {
  // @ts-ignore the worker's own global (extension/sw.js)
  return chain.worker.evaluate(() => { const a = globalThis.athenaAgent; const t = a.tabs.get([...a.sessions.values()][0]?.current); return { id: String(t?.callId), acting: !!t?.acting }; });
}

/** Starts a wait_for that never ends by itself, and resolves once it runs in the extension: {answered}, its answer and how long it took (wrapped, so that awaiting this does not await the answer). */
async function waitForUnderWay() {
  const before = (await callState()).id;
  const answered = timed(() => chain.call('wait_for', { text: 'never on this page', ms: WAIT_FOR_MS }));
  let seen;
  await until('the wait_for under way in the extension', async () => { seen = await callState(); return seen.acting && seen.id !== before; },
    { last: () => JSON.stringify(seen) });
  return { answered };
}

test('a beforeunload prompt on navigate is accepted on the way, the agent is told, and the next call works', async (t) => {
  const nav = await ok('navigate', { url: sites.url('/sites/ext/leave-prompt.html') });
  // Chrome prompts only on a page the user interacted with: the agent's click is that.
  const edit = await ok('click', { ref: refOf(nav.fp, 'Edit'), version: nav.fp.version });
  assert.match(edit.text, /Edited, not saved/);
  const [away, ms] = await timed(() => chain.call('navigate', { url: sites.url('/sites/ext/actions.html?after=unload') }));
  assert.equal(away.isError, false, away.text);
  assert.equal(away.fp.type, 'full', away.text);
  assert.match(away.text, /url="[^"]*\/sites\/ext\/actions\.html\?after=unload"/);
  assert.match(away.text, /<warning>the beforeunload \\"\\" was accepted so that navigate could leave the page<\/warning>/);
  const inc = await ok('click', { ref: refOf(away.fp, 'Increment'), version: away.fp.version });
  assert.match(inc.text, /^<delta /);
  t.diagnostic(`navigate through the beforeunload prompt ${ms} ms`);
});

test('a renderer crash: navigate leaves the crashed page and the click after it runs', async (t) => {
  await ok('navigate', { url: sites.url('/sites/ext/actions.html?crash=life') });
  const cdp = await chain.context.newCDPSession(pageWith('crash=life'));
  const crashed = Date.now();
  cdp.send('Page.crash').catch(() => { /* never answered: the renderer is gone */ });
  await until('the extension learning that the renderer crashed (Inspector.targetCrashed)',
    // @ts-ignore the worker's own global (extension/sw.js)
    () => chain.worker.evaluate(() => [...globalThis.athenaAgent.tabs.values()].some((x) => x.crashed)));
  const nav = await chain.call('navigate', { url: sites.url('/sites/ext/actions.html?after=crash') });
  const ms = Date.now() - crashed;
  assert.equal(nav.isError, false, nav.text);
  assert.equal(nav.fp.type, 'full', nav.text);
  assert.match(nav.text, /the page crashed and was reloaded: tab c0p\d+ is now c0p\d+, refs from before are invalid/);
  const inc = await ok('click', { ref: refOf(nav.fp, 'Increment'), version: nav.fp.version });
  assert.match(inc.text, /^<delta /);
  assert.match(inc.text, /status "1"/);
  t.diagnostic(`first good answer ${ms} ms after the crash`);
});

test('the user closes the agent\'s only tab during a call: it answers tab_closed at once; navigate opens a new tab and says so', async (t) => {
  await ok('navigate', { url: sites.url('/sites/ext/actions.html?close=life') });
  const tabId = await agentTabId();
  const { answered: waiting } = await waitForUnderWay();
  const closed = Date.now();
  await chain.worker.evaluate((id) => chrome.tabs.remove(id), tabId);
  const [r] = await waiting;
  const answeredMs = Date.now() - closed;
  assert.equal(r.isError, true, r.text);
  assert.match(r.text, /^error tab_closed: tab (c0p\d+) was closed: its state was dropped; navigate to a URL to go on in a new tab, or use tabs list to see the others$/);
  const old = /tab (c0p\d+) was closed/.exec(r.text)[1];
  const nav = await chain.call('navigate', { url: sites.url('/sites/ext/actions.html?after=close') });
  const ms = Date.now() - closed;
  assert.equal(nav.isError, false, nav.text);
  assert.match(nav.text, new RegExp(`tab ${old} was closed, so this is a new tab, c0p\\d+: refs of the closed one are invalid`));
  assert.notEqual(await agentTabId(), tabId, 'a new Chrome tab');
  const inc = await ok('click', { ref: refOf(nav.fp, 'Increment'), version: nav.fp.version });
  assert.match(inc.text, /^<delta /);
  t.diagnostic(`the call in flight answered ${answeredMs} ms after the close; first good answer ${ms} ms after it`);
});

test('the debugger detached during a call: it answers debugger_detached at once; the next call attaches again in the same tab', async (t) => {
  const nav = await open(sites.url('/sites/ext/actions.html?detach=life'));
  const tab = await currentTab();
  const tabId = await agentTabId();
  const { answered: waiting } = await waitForUnderWay();
  const detached = Date.now();
  await chain.worker.evaluate((id) => chrome.debugger.detach({ tabId: id }), tabId);
  const [r] = await waiting;
  const answeredMs = Date.now() - detached;
  assert.equal(r.isError, true, r.text);
  // The command in flight is the wait's poll (Runtime.evaluate) or a capture's (Page.getFrameTree): whichever Chrome cut.
  assert.match(r.text, new RegExp(`^error debugger_detached: the debugger was detached from tab ${tab} during [A-Za-z]+\\.[A-Za-z]+ \\(the user closed the "is debugging this browser" bar, or Chrome took it\\): nothing more was done; call again to attach again, or ask the user to share the tab$`));
  const snap = await chain.call('snapshot', {});
  const ms = Date.now() - detached;
  assert.equal(snap.isError, false, snap.text);
  assert.equal(snap.fp.type, 'full', snap.text);
  assert.match(snap.text, new RegExp(`the debugger was detached from tab ${tab} \\(Chrome answered that it was no longer attached\\) and is attached again`));
  assert.equal(refOf(snap.fp, 'Increment'), refOf(nav.fp, 'Increment'), 'the same tab name and the same ref for the same button');
  const inc = await ok('click', { ref: refOf(nav.fp, 'Increment'), version: snap.fp.version });
  assert.match(inc.text, /^<delta /);
  t.diagnostic(`the call in flight answered ${answeredMs} ms after the detach; first good answer ${ms} ms after it`);
});

test('Chrome takes the debugger when the user takes the tab to a chrome:// page: said at once; back on the page, the next call attaches again under the same name', async (t) => {
  await open(sites.url('/sites/ext/actions.html?away=life'));
  const tab = await currentTab();
  const page = pageWith('away=life');
  await page.goto('chrome://version').catch(() => { /* Playwright may lose the page's session there */ });
  await until('the extension told by chrome.debugger.onDetach',
    // @ts-ignore the worker's own global (extension/sw.js)
    () => chain.worker.evaluate(() => [...globalThis.athenaAgent.tabs.values()].some((x) => x.lostDebugger !== null)));
  const there = await chain.call('snapshot', {});
  assert.equal(there.isError, true, there.text);
  assert.equal(there.text, `error debugger_detached: the debugger was detached from tab ${tab} (Chrome: target_closed) and is not attached again: chrome:// pages (browser settings, extensions, files) are never touched by the agent; once the tab is back on a page the agent may use, the next call attaches again; meanwhile use tabs new to go on in a new tab`);
  await page.goto(sites.url('/sites/ext/actions.html?back=life'));
  const back = await ok('snapshot', {});
  assert.equal(back.fp.type, 'full', back.text);
  assert.match(back.text, /url="[^"]*\/sites\/ext\/actions\.html\?back=life"/);
  assert.match(back.text, new RegExp(`the debugger was detached from tab ${tab} \\(Chrome: target_closed\\) and is attached again`));
  // The regions the agent was shown before are collapsed as unchanged: find lists them.
  const found = await ok('find', { name: 'Increment' });
  const inc0 = refOf(found.fp, 'Increment');
  assert.equal(await currentTab(), tab, 'the agent\'s tab keeps its name');
  const inc = await ok('click', { ref: inc0, version: back.fp.version });
  assert.match(inc.text, /^<delta /);
  t.diagnostic('attached again under the same name once the tab was back on an allowed page');
});

test('an allowed page embedding a frame from a blocked site: navigate does not wait for the blocked frame\'s requests', async (t) => {
  const other = new URL(sites.otherOrigin).hostname;
  await chain.worker.evaluate((p) => chrome.storage.local.set({ policy: p }), { block: [other] });
  await policyApplied(chain.worker);
  try {
    const url = sites.url(`/sites/ext/blocked-frame.html?other=${encodeURIComponent(sites.otherOrigin)}`);
    const [nav, ms] = await timed(() => chain.call('navigate', { url }));
    assert.equal(nav.isError, false, nav.text);
    assert.equal(nav.fp.type, 'full', nav.text);
    assert.match(nav.text, new RegExp(`a frame from ${other.replace(/\./g, '\\.')}:\\d+ was left out: the user's policy does not let the agent see or act there`));
    // The blocked frame keeps a request open past the settle cap: it is not the navigation's.
    assert.doesNotMatch(nav.text, /the network was still busy/);
    assert.doesNotMatch(nav.text, /did not settle/);
    t.diagnostic(`navigate ${ms} ms`);
  } finally {
    await chain.worker.evaluate(() => chrome.storage.local.set({ policy: {} }));
    await policyApplied(chain.worker);
  }
});

test('an alert loop from page load: each dialog answer comes back at once with the next alert', async (t) => {
  const nav = await dialogCall('navigate', { url: sites.url('/sites/ext/alert-loop.html') });
  assert.equal(nav.isError, false, nav.text);
  assert.match(nav.text, /^<dialog tab="c0p\d+" type="alert" message="loop 0">/, nav.text);
  const ms = [];
  for (let i = 1; i <= LOOP_ANSWERS; i++) {
    const [r, took] = await timed(() => dialogCall('dialog', { accept: true }));
    assert.equal(r.isError, false, r.text);
    assert.match(r.text, new RegExp(`^<dialog tab="c0p\\d+" type="alert" message="loop ${i}">`), r.text);
    ms.push(took);
  }
  t.diagnostic(`dialog answers ${ms.join(', ')} ms`);
});

/**
 * navigate out of an alert loop: a full FactPack of the new page that says which alert it
 * dismissed and that it went through about:blank (extension/lib/action-flow.js leaveDialog: a page
 * of the same site would load in the looping renderer). The tab is closed after, as a user would.
 * @param {import('node:test').TestContext} t
 */
async function leaveLoop(t) {
  try {
    const [away, navMs] = await timed(() => dialogCall('navigate', { url: sites.url('/sites/ext/actions.html?after=loop') }));
    t.diagnostic(`navigate out of the loop: ${navMs} ms: ${away.text.slice(0, 200)}`);
    assert.equal(away.isError, false, away.text);
    assert.match(away.text, /^<full [^>]*url="[^"]*\/sites\/ext\/actions\.html\?after=loop"/, away.text);
    assert.match(away.text, /the alert \\"loop \d+\\" was dismissed so that navigate could leave the page/, away.text);
    assert.match(away.text, /navigate left the page through about:blank \(a renderer of its own, which the page could not hold\): back now leads to about:blank/, away.text);
  } finally {
    await closeAgentTab();
  }
}

test('navigate leaves an alert loop of timers and says it dismissed the alert', (t) => leaveLoop(t));

test('navigate leaves an alert loop in one script that never returns', async (t) => {
  const nav = await dialogCall('navigate', { url: sites.url('/sites/ext/alert-loop.html?sync=1') });
  assert.match(nav.text, /^<dialog tab="c0p\d+" type="alert" message="loop 0">/, nav.text);
  const next = await dialogCall('dialog', { accept: true });
  assert.match(next.text, /^<dialog tab="c0p\d+" type="alert" message="loop 1">/, next.text);
  await leaveLoop(t);
});

/** The agent's tab closed by the user, and the extension releasing it. */
async function closeAgentTab() {
  const tabId = await agentTabId();
  await chain.worker.evaluate((id) => chrome.tabs.remove(id), tabId);
  await until('the extension releasing the closed tab',
    // @ts-ignore the worker's own global (extension/sw.js)
    () => chain.worker.evaluate((id) => globalThis.athenaAgent.tabs.get(id)?.dead?.code === 'tab_closed', tabId));
}

// back out of a loop goes through about:blank too, then loads the previous entry's address: going
// through history would take it back to the renderer the loop holds (tools/navigation.js).
for (const [loop, query] of [['of timers', ''], ['in one script that never returns', '?sync=1']]) {
  test(`back leaves an alert loop ${loop} for the page before it`, async (t) => {
    try {
      await ok('navigate', { url: sites.url('/sites/ext/actions.html?before=loop') });
      const into = await dialogCall('navigate', { url: sites.url(`/sites/ext/alert-loop.html${query}`) });
      assert.match(into.text, /^<dialog tab="c0p\d+" type="alert" message="loop 0">/, into.text);
      const [back, ms] = await timed(() => dialogCall('back'));
      t.diagnostic(`back out of the loop: ${ms} ms`);
      assert.equal(back.isError, false, back.text);
      assert.match(back.text, /^<full [^>]*url="[^"]*\/sites\/ext\/actions\.html\?before=loop"/, back.text);
      assert.match(back.text, /the alert \\"loop 0\\" was dismissed so that back could leave the page/, back.text);
      assert.match(back.text, /back left the page through about:blank \(a renderer of its own, which the page could not hold\) and loaded the previous page's address as a new page: back now leads to about:blank/, back.text);
    } finally {
      await closeAgentTab();
    }
  });
}
