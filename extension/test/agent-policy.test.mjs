// The user's policy wherever the page goes (README, "Install into your own Chrome"): a click or a redirect that lands on a site
// the user blocked gives blocked_origin and nothing of that page; a blocked frame's owner cannot
// be acted on and its dialog text is withheld; uploads come only from folders the user allowed;
// new tabs the page opens count against the agent's limit. Fake chrome and engine
// (extension/test/fake-page.mjs); the real chain is in tests/e2e/policy.test.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LIMITS } from '../lib/limits.js';
import { oneTab, setup } from './fake-page.mjs';

const block = (extra = {}) => ({ local: { policy: { block: ['bank.test'], ...extra } } });

test('a click that lands on a blocked site: blocked_origin, the action aborted, nothing compiled', async () => {
  let leadsTo = null;
  const { chrome, engine, agent, name } = await setup({
    ...block(),
    answer: (method, params) => { if (method === 'Input.dispatchMouseEvent' && params.type === 'mouseReleased') leadsTo = 'https://www.bank.test/account'; },
  });
  const ref = `${name()}f0e1`;
  const real = chrome.debugger.sendCommand;
  chrome.debugger.sendCommand = async (target, method, params) => {
    const r = await real(target, method, params);
    if (leadsTo) chrome.pageUrl = leadsTo;  // the link's page has loaded
    return r;
  };
  engine.calls.length = 0;
  const r = await agent.dispatch({ session: 'a', tool: 'click', args: { ref, version: engine.delivered } });
  assert.equal(r.ok, false);
  assert.equal(r.error.code, 'blocked_origin');
  assert.match(r.error.message, /www\.bank\.test\/account.*block-list.*back/);
  assert.deepEqual(engine.calls, ['beginAction', 'resolve', 'abortAction']);
  // The tab stays unusable there: a snapshot compiles nothing either.
  const snap = await agent.dispatch({ session: 'a', tool: 'snapshot' });
  assert.equal(snap.error.code, 'blocked_origin');
  assert.ok(!engine.calls.includes('snapshot'));
  // Back on an allowed page, the agent works again.
  leadsTo = null;
  chrome.pageUrl = 'https://a.test/';
  assert.equal((await agent.dispatch({ session: 'a', tool: 'snapshot' })).ok, true);
});

test('a navigation redirected to a blocked site: blocked_origin, never compiled', async () => {
  const { chrome, engine, agent } = await setup(block());
  engine.calls.length = 0;
  chrome.debugger.sendCommand = ((orig) => async (target, method, params) => {
    if (method === 'Page.navigate') chrome.pageUrl = 'http://BANK.test.:8080/login';  // the server redirected
    return orig(target, method, params);
  })(chrome.debugger.sendCommand);
  const r = await agent.dispatch({ session: 'a', tool: 'navigate', args: { url: 'https://a.test/go' } });
  assert.equal(r.error?.code, 'blocked_origin', JSON.stringify(r));
  assert.deepEqual(engine.calls, []);
});

test('a frame from a blocked site: left out with a note, its owner refused, its dialog text withheld', async () => {
  const OWNER = 7;  // the fake engine resolves every ref to backendNodeId 7
  const { chrome, engine, agent, name, tab } = await setup({
    ...block(),
    answer: (method, params, sid) => {
      if (sid === 'S2' && method === 'Page.getFrameTree') return { frameTree: { frame: { id: 'F2', url: 'https://bank.test/widget' } } };
      if (method === 'DOM.getFrameOwner') return { backendNodeId: OWNER };
      return undefined;
    },
  });
  agent.onDebuggerEvent({ tabId: 5 }, 'Target.attachedToTarget', { sessionId: 'S2', targetInfo: { type: 'iframe', targetId: 'F2' } });
  const snap = await agent.dispatch({ session: 'a', tool: 'snapshot' });
  assert.equal(snap.ok, true);
  assert.match(snap.text, /a frame from bank\.test was left out/);
  assert.deepEqual([...tab().withheldOwners], [OWNER]);
  const click = await agent.dispatch({ session: 'a', tool: 'click', args: { ref: `${name()}f0e1`, version: engine.delivered } });
  assert.equal(click.error?.code, 'blocked_origin');
  assert.match(click.error.message, /frame whose content the user's policy withholds/);
  assert.ok(!chrome.sent.some((c) => c.method === 'Input.dispatchMouseEvent'), 'nothing was clicked');
  agent.onDebuggerEvent({ tabId: 5 }, 'Page.javascriptDialogOpening', { type: 'alert', message: 'your balance is 1,234', url: 'https://bank.test/widget' });
  const blocked = await agent.dispatch({ session: 'a', tool: 'snapshot' });
  assert.equal(blocked.error.code, 'dialog_open');
  assert.doesNotMatch(blocked.error.message, /balance/);
  assert.match(blocked.error.message, /withheld: raised by bank\.test/);
});

test('uploads: only real paths inside a folder the user allowed (none by default)', async () => {
  const upload = async (agent, name, files) => agent.dispatch({ session: 'a', tool: 'upload', args: { ref: `${name()}f0e1`, files } });
  const none = await setup();
  const r0 = await upload(none.agent, none.name, ['/home/u/up/cv.pdf']);
  assert.equal(r0.error.code, 'upload_refused');
  assert.match(r0.error.message, /allows no folder/);
  const { chrome, agent, name } = await setup({ local: { policy: { uploadFolders: ['/home/u/up/'] } } });
  for (const bad of [['/home/u/.ssh/id_rsa'], ['/home/u/up/../.ssh/id_rsa'], ['/home/u/upload-other/x'], ['/home/u/up'], ['/home/u/up/a', '/etc/passwd']]) {
    const r = await upload(agent, name, bad);
    assert.equal(r.error?.code, 'upload_refused', `${bad}: ${JSON.stringify(r)}`);
  }
  assert.ok(!chrome.sent.some((c) => c.method === 'DOM.setFileInputFiles'));
  const ok = await upload(agent, name, ['/home/u/up/cv.pdf', '/home/u/up/sub/photo.png']);
  assert.equal(ok.ok, true, JSON.stringify(ok));
  assert.deepEqual(chrome.sent.find((c) => c.method === 'DOM.setFileInputFiles').params.files, ['/home/u/up/cv.pdf', '/home/u/up/sub/photo.png']);
});

test(`a tab the page opens is not adopted beyond ${LIMITS.maxTabsPerSession} tabs, nor on a blocked site`, async () => {
  // The agent already controls maxTabsPerSession tabs (tab 5 and others).
  const state = oneTab();
  const tabs = [{ id: 5, url: 'https://a.test/' }];
  for (let i = 1; i < LIMITS.maxTabsPerSession; i++) {
    state.athenaState.tabMap.tabs.push({ tabId: 200 + i, key: { context: 0, page: 1 + i }, session: 'a' });
    tabs.push({ id: 200 + i, url: 'https://a.test/' });
  }
  state.athenaState.tabMap.nextPage[0] = LIMITS.maxTabsPerSession + 1;
  let agentRef;
  const { agent, name, engine } = await setup({
    ...block(), session: state, tabs,
    answer: (method, params) => {
      if (method === 'Input.dispatchMouseEvent' && params.type === 'mouseReleased') {
        agentRef.onTabCreated({ id: 900, openerTabId: 5, pendingUrl: 'https://a.test/popup' });
        agentRef.onTabCreated({ id: 901, openerTabId: 5, pendingUrl: 'https://bank.test/' });
      }
      return undefined;
    },
  });
  agentRef = agent;
  const before = agent.status().tabs.length;
  assert.equal(before, LIMITS.maxTabsPerSession);
  const r = await agent.dispatch({ session: 'a', tool: 'click', args: { ref: `${name()}f0e1`, version: engine.delivered } });
  assert.equal(r.ok, true, JSON.stringify(r));
  assert.equal(agent.status().tabs.length, before, 'no tab adopted');
  assert.ok(!agent.tabs.has(900) && !agent.tabs.has(901));
});
