// The dispatch entry's refusals and the state rebuilt after a service-worker restart, with a
// fake chrome (the real browser paths are in tests/e2e/extension.test.mjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Agent } from '../lib/agent.js';
import { fakeChrome } from './fake-chrome.mjs';
import { setup } from './fake-page.mjs';

const noCore = Promise.reject(new Error('the engine must not be needed here'));
noCore.catch(() => {});
const make = (o) => { const chrome = fakeChrome(o); return { chrome, agent: new Agent({ chrome, athena: noCore }) }; };

test('malformed calls get a clear error', async () => {
  const { agent } = make();
  assert.equal((await agent.dispatch(/** @type {any} */ (null))).error.code, 'bad_call');
  assert.equal((await agent.dispatch(/** @type {any} */ ({ tool: 'snapshot' }))).error.code, 'bad_call');
  assert.equal((await agent.dispatch({ session: 's', tool: 'snapshot', args: [] })).error.code, 'bad_arguments');
  const u = await agent.dispatch({ session: 's', tool: 'teleport' });
  assert.equal(u.error.code, 'unknown_tool');
  assert.match(u.error.message, /navigate, back/);
  assert.equal((await agent.dispatch({ session: 's', tool: 'click', args: { ref: 'nonsense' } })).error.code, 'bad_arguments');
  assert.equal((await agent.dispatch({ session: 's', tool: 'press', args: { keys: 'Hyper+x' } })).error.code, 'bad_arguments');
  assert.equal((await agent.dispatch({ session: 's', tool: 'wait_for', args: { ms: 10 ** 9 } })).error.code, 'bad_arguments');
  assert.equal((await agent.dispatch({ session: 's', tool: 'upload', args: { ref: 'e1', files: ['relative.txt'] } })).error.code, 'bad_arguments');
});

test('no tab yet: acting tools say how to get one', async () => {
  const { agent } = make();
  const r = await agent.dispatch({ session: 's', tool: 'press', args: { keys: 'Enter' } });
  assert.equal(r.error.code, 'no_tab');
  assert.match(r.error.message, /navigate/);
});

test('blocked origins and browser pages are refused before any tab is touched', async () => {
  const { agent, chrome } = make({ local: { policy: { block: ['https://bank.test'] } } });
  const r = await agent.dispatch({ session: 's', tool: 'navigate', args: { url: 'https://bank.test/login' } });
  assert.equal(r.error.code, 'blocked_origin');
  assert.match(r.error.message, /block-list/);
  assert.equal((await agent.dispatch({ session: 's', tool: 'navigate', args: { url: 'chrome://extensions' } })).error.code, 'forbidden_page');
  assert.equal((await agent.dispatch({ session: 's', tool: 'tabs', args: { action: 'new', url: 'https://bank.test/' } })).error.code, 'blocked_origin');
  assert.equal(chrome.sent.length, 0);
  assert.equal((await chrome.tabs.query()).length, 0);
});

test('new tabs and screenshots follow the user options', async () => {
  const { agent } = make({ local: { policy: { allowNewTabs: false, allowScreenshots: false } } });
  assert.equal((await agent.dispatch({ session: 's', tool: 'navigate', args: { url: 'https://a.test/' } })).error.code, 'new_tabs_disabled');
  assert.equal((await agent.dispatch({ session: 's', tool: 'tabs', args: { action: 'new' } })).error.code, 'new_tabs_disabled');
  assert.equal((await agent.dispatch({ session: 's', tool: 'screenshot' })).error.code, 'screenshots_disabled');
});

test('stop refuses every call until resumed', async () => {
  const { agent } = make();
  await agent.stop();
  assert.equal((await agent.dispatch({ session: 's', tool: 'tabs', args: { action: 'list' } })).error.code, 'stopped_by_user');
  await agent.resume();
  assert.equal((await agent.dispatch({ session: 's', tool: 'tabs', args: { action: 'list' } })).ok, true);
});

test('after a worker restart: tabs renumbered, dead tabs dropped, old names explained', async () => {
  const session = {
    athenaState: {
      tabMap: { nextPage: { 0: 2 }, tabs: [{ tabId: 5, key: { context: 0, page: 1 }, session: 'a' }, { tabId: 6, key: { context: 0, page: 2 }, session: 'a' }] },
      sessions: { a: { client: 'claude', current: 5 } }, shared: [], stopped: false,
    },
  };
  const { agent, chrome } = make({ tabs: [{ id: 5, url: 'https://a.test/', title: 'A', incognito: false }], session });
  await agent.restored;
  const st = agent.status();
  assert.deepEqual(st.tabs.map((t) => [t.tab, t.tabId]), [['c0p3', 5]]);
  const list = await agent.dispatch({ session: 'a', tool: 'tabs', args: { action: 'list' } });
  assert.match(list.text, /id="c0p3" current="true"/);
  assert.doesNotMatch(list.text, /c0p2/);
  // the renumbering is persisted: a second restart goes on counting
  assert.equal(chrome.storage.session.data.athenaState.tabMap.nextPage[0], 3);
  const other = await agent.dispatch({ session: 'b', tool: 'snapshot', args: { tab: 'c0p3' } });
  assert.equal(other.error.code, 'unknown_tab');
  assert.match(other.error.message, /another agent session/);
});

test('session_close releases the session tabs', async () => {
  const session = { athenaState: { tabMap: { nextPage: { 0: 1 }, tabs: [{ tabId: 5, key: { context: 0, page: 1 }, session: 'a' }] }, sessions: { a: { client: 'c', current: 5 } } } };
  const { agent } = make({ tabs: [{ id: 5, url: 'https://a.test/' }], session });
  await agent.restored;
  await agent.closeSession('a');
  assert.equal(agent.status().tabs.length, 0);
  assert.equal(agent.tabMap.byTab.size, 0);
});

test('tabs close of another tab keeps the agent on its current one', async () => {
  const session = { athenaState: { tabMap: { nextPage: { 0: 2 }, tabs: [{ tabId: 5, key: { context: 0, page: 1 }, session: 'a' }, { tabId: 6, key: { context: 0, page: 2 }, session: 'a' }] }, sessions: { a: { client: 'c', current: 6 } } } };
  const { agent, chrome } = make({ tabs: [{ id: 5, url: 'https://a.test/' }, { id: 6, url: 'https://b.test/' }], session });
  await agent.restored;
  const before = (await agent.dispatch({ session: 'a', tool: 'tabs', args: { action: 'list' } })).text;
  const nameOf = (/** @type {string} */ url) => new RegExp(`<tab id="(c0p\\d+)"[^>]* url="${url}"`).exec(before)?.[1] ?? '';
  const [other, current] = [nameOf('https://a.test/'), nameOf('https://b.test/')];
  assert.match(before, new RegExp(`<tab id="${current}" current="true"`), before);
  const closed = await agent.dispatch({ session: 'a', tool: 'tabs', args: { action: 'close', tab: other } });
  assert.equal(closed.ok, true, JSON.stringify(closed));
  assert.deepEqual((await chrome.tabs.query()).map((t) => t.id), [6]);
  const list = await agent.dispatch({ session: 'a', tool: 'tabs', args: { action: 'list' } });
  assert.match(list.text, new RegExp(`<tab id="${current}" current="true"`), list.text);
  // Closing the current one leaves none current: the next navigate opens a tab.
  await agent.dispatch({ session: 'a', tool: 'tabs', args: { action: 'close', tab: current } });
  assert.doesNotMatch((await agent.dispatch({ session: 'a', tool: 'tabs', args: { action: 'list' } })).text, /current="true"/);
});

test('cancel marks only the tab acting for that call id', async () => {
  const session = { athenaState: { tabMap: { nextPage: { 0: 2 }, tabs: [{ tabId: 5, key: { context: 0, page: 1 }, session: 'a' }, { tabId: 6, key: { context: 0, page: 2 }, session: 'a' }] }, sessions: {} } };
  const { agent } = make({ tabs: [{ id: 5, url: 'https://a.test/' }, { id: 6, url: 'https://a.test/' }], session });
  await agent.restored;
  const [t5, t6] = [agent.tabs.get(5), agent.tabs.get(6)];
  t5.beginCall(41); t6.beginCall(42);
  agent.cancel(42);
  assert.deepEqual([t5.cancelled, t6.cancelled], [false, true]);
  agent.cancel(undefined);
  assert.equal(t5.cancelled, false);
  assert.equal(t6.cancelWhy, null, 'the agent\'s own cancel needs no reason');
  agent.cancel(41, 'the call reached its deadline (58000 ms)');
  assert.deepEqual([t5.cancelled, t5.cancelWhy], [true, 'the call reached its deadline (58000 ms)'], 'a deadline says so');
});

// find and read: the answers are FactPack text (find: element lines, paging by `after`), errors are tool errors.
const oneTab = () => ({ athenaState: { tabMap: { nextPage: { 0: 2 }, tabs: [{ tabId: 5, key: { context: 0, page: 1 }, session: 'a' }] }, sessions: { a: { client: 'c', current: 5 } } } });

async function withEngine(engine) {
  const chrome = fakeChrome({ tabs: [{ id: 5, url: 'https://a.test/' }], session: oneTab() });
  const agent = new Agent({ chrome, athena: Promise.resolve({ createEngine: () => engine }) });
  await agent.restored;
  agent.tabs.get(5).baselineTaken();
  // Every ref is the one tab's; no ref is new.
  Object.assign(engine, { owner: () => agent.tabs.get(5).key, nextRef: () => 1 });
  return { agent, chrome };
}

test('find: the core\'s findText answer is the reply; its errors become tool errors', async () => {
  const calls = [];
  const text = '<find v="3" total="209" shown="1" next="e31">\ne31 link "Data Types" href="datatypes.html"\n... 208 more: find region=main after=e31\n</find>\n';
  const engine = {
    findText: (key, q) => {
      calls.push(q);
      if (q.region === 'nowhere') throw Object.assign(new Error('find: no region "nowhere" (regions: main, nav "related navigation")'), { name: 'AthenaError', code: 'unknown_region' });
      return { text, total: 209, shown: 1, next: 'e31', version: 3 };
    },
  };
  const { agent } = await withEngine(engine);
  const r = await agent.dispatch({ session: 'a', tool: 'find', args: { region: 'related navigation', after: 'e20', frame: 'f0', limit: 1, name: 'Data' } });
  assert.deepEqual(r, { ok: true, text, version: 3 });
  assert.deepEqual(calls[0], { limit: 1, name: 'Data', region: 'related navigation', frame: 'f0', after: 'e20' });
  const bad = await agent.dispatch({ session: 'a', tool: 'find', args: { region: 'nowhere' } });
  assert.equal(bad.ok, false);
  assert.equal(bad.error.code, 'unknown_region');
  assert.match(bad.error.message, /^find: .*nowhere.*regions: main/);
  assert.equal((await agent.dispatch({ session: 'a', tool: 'find', args: { after: 'p1e20' } })).error.code, 'bad_arguments');
  assert.equal((await agent.dispatch({ session: 'a', tool: 'find', args: { frame: 'frame1' } })).error.code, 'bad_arguments');
  assert.equal((await agent.dispatch({ session: 'a', tool: 'find', args: { limit: 0 } })).error.code, 'bad_arguments');
});

test('read: one of ref or region; a cut text says truncated="true" shown="N" and where the next part starts', async () => {
  const chrome = fakeChrome({ tabs: [{ id: 5, url: 'https://a.test/' }], session: oneTab() });
  const long = 'x'.repeat(30);
  chrome.debugger.sendCommand = async (target, method, params) => {
    chrome.sent.push({ target, method, params });
    if (method === 'Runtime.evaluate' && params.expression.includes('function readRegion(') && params.expression.includes('.call(null, "main",')) return { result: { value: { text: long.slice(0, 12), length: long.length } } };
    if (method === 'Runtime.evaluate') return { result: { value: null } };
    return {};
  };
  // An engine that holds no page: read only takes its token budget (the answer's bound).
  const budgetOnly = { tokenBudget: 2_000, limits: Object.freeze({ bytesPerToken: 3, maxFindLimit: 1_000 }), owner: () => agent.tabs.get(5).key, nextRef: () => 1 };
  const agent = new Agent({ chrome, athena: Promise.resolve({ createEngine: () => budgetOnly }) });
  await agent.restored;
  const r = await agent.dispatch({ session: 'a', tool: 'read', args: { region: 'main' } });
  assert.equal(r.ok, true, JSON.stringify(r));
  assert.equal(r.text, `<read region="main" chars="30" truncated="true" shown="12" next="12">\n${long.slice(0, 12)}\n</read>`);
  assert.equal(r.factpack, undefined);
  assert.equal((await agent.dispatch({ session: 'a', tool: 'read', args: { region: 'aside' } })).error.code, 'no_such_region');
  assert.equal((await agent.dispatch({ session: 'a', tool: 'read', args: { region: 'Some label' } })).error.code, 'no_such_region');
  assert.equal((await agent.dispatch({ session: 'a', tool: 'read', args: { ref: 'e1', region: 'main' } })).error.code, 'bad_arguments');
  assert.equal((await agent.dispatch({ session: 'a', tool: 'read', args: { region: 'main', frame: 'x' } })).error.code, 'bad_arguments');
});

test('a request is known by its id alone: an iframe\'s document request starts in the page\'s session and ends in the frame\'s', async () => {
  const { agent, tab } = await setup();
  const t = tab();
  agent.onDebuggerEvent({ tabId: 5 }, 'Network.requestWillBeSent', { requestId: 'L7', frameId: 'F2' });
  assert.equal(t.inflight.size, 1);
  agent.onDebuggerEvent({ tabId: 5, sessionId: 'S2' }, 'Network.loadingFinished', { requestId: 'L7' });
  assert.equal(t.inflight.size, 0);
  // A frame the policy withholds: its requests never hold an answer.
  t.captured(null, { owners: new Set(), frames: new Set(['F9']) });
  agent.onDebuggerEvent({ tabId: 5, sessionId: 'S9' }, 'Network.requestWillBeSent', { requestId: 'r1', frameId: 'F9' });
  assert.equal(t.inflight.size, 0);
});

test('a cross-site frame\'s document request ends, for the page, when the frame\'s own process is attached', async () => {
  // Its end is told to the frame's session, which runs before the extension enables Network
  // there: waiting for it held every load of a page with such a frame for the whole settle cap.
  const { agent, tab } = await setup();
  const t = tab();
  agent.onDebuggerEvent({ tabId: 5 }, 'Network.requestWillBeSent', { requestId: 'D3', frameId: 'F3', type: 'Document' });
  agent.onDebuggerEvent({ tabId: 5 }, 'Network.requestWillBeSent', { requestId: 'X1', frameId: 'F3', type: 'XHR' });
  agent.onDebuggerEvent({ tabId: 5 }, 'Network.requestWillBeSent', { requestId: 'D4', frameId: 'F4', type: 'Document' });
  assert.deepEqual([...t.inflight.keys()], ['D3', 'X1', 'D4']);
  agent.onDebuggerEvent({ tabId: 5 }, 'Target.attachedToTarget', { sessionId: 'S3', targetInfo: { type: 'iframe', targetId: 'F3' } });
  // The frame's document is no longer waited for; its other requests and another frame's are.
  assert.deepEqual([...t.inflight.keys()], ['X1', 'D4']);
  agent.onDebuggerEvent({ tabId: 5, sessionId: 'S3' }, 'Network.requestWillBeSent', { requestId: 'I1', frameId: 'F3', type: 'Image' });
  assert.deepEqual([...t.inflight.keys()], ['X1', 'D4', 'I1']);
});

test('the page watcher keeps its name across a service-worker restart: tabs keep the scripts registered before', async () => {
  const chrome = fakeChrome();
  const noEngine = Promise.reject(new Error('no engine'));
  noEngine.catch(() => {});
  const first = new Agent({ chrome, athena: noEngine });
  await first.restored;
  const again = new Agent({ chrome, athena: noEngine });
  await again.restored;
  assert.equal(again.watchKey, first.watchKey);
  assert.match(again.watcherSource, new RegExp(first.watchKey));
  // A new browser session (storage.session empty): a new name.
  const other = new Agent({ chrome: fakeChrome(), athena: noEngine });
  await other.restored;
  assert.notEqual(other.watchKey, first.watchKey);
});

test('the session\'s current tab is saved: a worker Chrome stopped and started again finds the agent in it', async () => {
  const chrome = fakeChrome({ tabs: [{ id: 5, url: 'https://a.test/' }, { id: 6, url: 'https://a.test/' }], session: { athenaState: { tabMap: { nextPage: { 0: 3 }, tabs: [{ tabId: 5, key: { context: 0, page: 1 }, session: 'a' }, { tabId: 6, key: { context: 0, page: 2 }, session: 'a' }] }, sessions: { a: { client: 'c', current: null } } } } });
  const first = new Agent({ chrome, athena: noCore });
  await first.restored;
  // The agent picks a tab (tabs select): that is its current one from now on.
  const picked = await first.tabFor('a', { tab: first.status().tabs.find((x) => x.tabId === 6).tab });
  assert.equal(picked.tabId, 6);
  // The worker is stopped; a new one restores from storage.session.
  const second = new Agent({ chrome, athena: noCore });
  await second.restored;
  assert.equal(second.sessions.get('a')?.current, 6);
});

test('sessions: as many as the bridge serves agents; past it the one idle the longest makes room, its tabs let go', async () => {
  const { agent } = make();
  const { LIMITS } = await import('../lib/limits.js');
  assert.equal(LIMITS.maxSessions, 32, 'athena-bridge serves 32 agents (bridge/src/limits.h kMaxClients)');
  // Every session holds a tab, as every agent that navigated does: no session is free of one.
  for (let i = 0; i < LIMITS.maxSessions; i++) {
    agent.openSession(`s${i}`, 'agent');
    agent.tabMap.add(1000 + i, 0, `s${i}`);
  }
  agent.openSession('s5', 'agent');  // s5 called again: s0 is now the one idle the longest
  agent.openSession('newcomer', 'agent');
  assert.equal(agent.sessions.size, LIMITS.maxSessions);
  assert.ok(agent.sessions.has('newcomer'));
  assert.ok(!agent.sessions.has('s0'), 'the session idle the longest made room');
  assert.ok(agent.sessions.has('s5'));
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(agent.tabMap.ofSession('s0').length, 0, 'its tab let go');
});

test('sessions: one with a call under way is let go last, whatever its last call\'s age', async () => {
  const { agent } = make();
  const { LIMITS } = await import('../lib/limits.js');
  for (let i = 0; i < LIMITS.maxSessions; i++) {
    agent.openSession(`s${i}`, 'agent');
    agent.tabMap.add(2000 + i, 0, `s${i}`);
  }
  // s0's call (the oldest) is still finding its tab when a newcomer needs room.
  let release = () => {};
  const held = new Promise((resolve) => { release = resolve; });
  const tabFor = agent.tabFor.bind(agent);
  agent.tabFor = async (/** @type {any[]} */ ...a) => { await held; return tabFor(...a); };
  const running = agent.dispatch({ session: 's0', tool: 'snapshot', args: {} });
  await new Promise((resolve) => setImmediate(resolve));
  // The others call (and finish) a second later: s0's last call is now the oldest.
  const realNow = Date.now;
  Date.now = () => realNow() + 1000;
  try {
    for (let i = 1; i < LIMITS.maxSessions; i++) agent.openSession(`s${i}`, 'agent');
    agent.openSession('newcomer', 'agent');
  } finally {
    Date.now = realNow;
  }
  assert.ok(agent.sessions.has('s0'), 'the session at work keeps its place');
  assert.ok(!agent.sessions.has('s1'), 'the oldest between its calls made room');
  release();
  await running;
});
