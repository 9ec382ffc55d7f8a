// The user closes the agent's tab, or its page crashes: the agent always has a next step. navigate
// starts over in a new tab (and says so), a crashed page is left by navigating, and a call that
// was running on a tab the user closed answers tab_closed, not the engine's own wording. Fake CDP
// page (fake-page.mjs); the real chain is in tests/e2e.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setup } from './fake-page.mjs';
import { until } from '../../tests/support/wait.mjs';

/** A fake page whose navigations finish loading (Chrome says so after Page.navigate), so navigate does not wait out its cap. */
async function loadingPage() {
  /** @type {any} */
  let agentRef;
  const s = await setup({
    answer: (/** @type {string} */ method) => {
      if (method === 'Page.navigate') setTimeout(() => { for (const id of agentRef.tabs.keys()) agentRef.onDebuggerEvent({ tabId: id }, 'Page.frameStoppedLoading', { frameId: 'MAIN' }); }, 0);
      return undefined;
    },
  });
  agentRef = s.agent;
  return s;
}

test('navigate after the user closed the agent\'s only tab opens a new tab and says so', async () => {
  const { agent, chrome, engine, name } = await loadingPage();
  const old = name();
  /** @type {string[]} */
  const warnings = [];
  const snap = engine.snapshot;
  engine.snapshot = (key, cap, info) => { warnings.push(...(info?.warnings ?? [])); return snap(key, cap, info); };
  await chrome.tabs.remove(5);
  agent.onTabRemoved(5);
  await until('the closed tab released', () => agent.status().tabs.some((x) => x.dead === 'tab_closed'));
  const click = await agent.dispatch({ session: 'a', tool: 'click', args: { ref: 'e1' } });
  assert.equal(click.ok, false);
  assert.equal(click.error.code, 'tab_closed');
  assert.equal(click.error.message, `tab ${old} was closed: its state was dropped; navigate to a URL to go on in a new tab, or use tabs list to see the others`);
  const nav = await agent.dispatch({ session: 'a', tool: 'navigate', args: { url: 'https://a.test/next' } });
  assert.equal(nav.ok, true, JSON.stringify(nav));
  const tabs = agent.status().tabs;
  assert.equal(tabs.length, 1, JSON.stringify(tabs));
  assert.notEqual(tabs[0].tabId, 5);
  assert.notEqual(tabs[0].tab, old, 'a new page index: refs of the closed tab never alias');
  assert.deepEqual(warnings.filter((w) => /closed/.test(w)), [`tab ${old} was closed, so this is a new tab, ${tabs[0].tab}: refs of the closed one are invalid`]);
});

test('navigate leaves a crashed page: the next action runs', async () => {
  const { agent, engine } = await loadingPage();
  agent.onDebuggerEvent({ tabId: 5 }, 'Inspector.targetCrashed', {});
  const refused = await agent.dispatch({ session: 'a', tool: 'click', args: { ref: 'e1' } });
  assert.equal(refused.error?.code, 'renderer_crashed');
  const nav = await agent.dispatch({ session: 'a', tool: 'navigate', args: { url: 'https://a.test/again' } });
  assert.equal(nav.ok, true, JSON.stringify(nav));
  const click = await agent.dispatch({ session: 'a', tool: 'click', args: { ref: 'e1', version: engine.delivered } });
  assert.equal(click.ok, true, JSON.stringify(click));
});

test('a call whose engine page went with its closed tab answers tab_closed, naming the next step, not the engine\'s wording', async () => {
  /** @type {any} */
  let agentRef;
  const { agent, chrome, engine } = await setup();
  agentRef = agent;
  // The user closes the tab while the engine finishes the action: the release forgets the page
  // under it, and the engine answers unknown_page in its own (C++ API) words.
  const finish = engine.finishAction;
  engine.finishAction = (key, cap, info) => {
    chrome.tabs.remove(5);
    agentRef.onTabRemoved(5);
    finish(key, cap, info);
    throw Object.assign(new Error('no page c0p1 is open; call open_page first (or use a page the agent was given)'), { name: 'AthenaError', code: 'unknown_page' });
  };
  const r = await agent.dispatch({ session: 'a', tool: 'click', args: { ref: 'e1', version: engine.delivered } });
  assert.equal(r.ok, false, JSON.stringify(r));
  assert.equal(r.error.code, 'tab_closed');
  assert.match(r.error.message, /was closed: its state was dropped; navigate to a URL to go on in a new tab, or use tabs list to see the others$/);
});

test('the debugger taken away during a call: answered debugger_detached at once, not after waiting out a navigation', async () => {
  let detached = false;
  const { agent, engine, chrome } = await setup({
    answer: (/** @type {string} */ method, /** @type {any} */ params) => {
      if (method === 'Input.dispatchMouseEvent' && params.type === 'mouseReleased') { detached = true; return {}; }
      if (detached) throw new Error('Debugger is not attached to the tab with id: 5.');
      return undefined;
    },
  });
  const started = chrome.sent.length;
  const r = await agent.dispatch({ session: 'a', tool: 'click', args: { ref: 'e1', version: engine.delivered } });
  assert.equal(r.ok, false, JSON.stringify(r));
  assert.equal(r.error.code, 'debugger_detached');
  assert.match(r.error.message, /^the debugger was detached from tab c0p\d+ during [A-Za-z.]+ \(the user closed the "is debugging this browser" bar, or Chrome took it\): nothing more was done; call again to attach again, or ask the user to share the tab$/);
  // Nothing was sent after the first refusal but what the answer needed (no loading waits, no capture retries).
  const after = chrome.sent.slice(started).findIndex((c) => c.method === 'Input.dispatchMouseEvent' && c.params.type === 'mouseReleased');
  assert.ok(chrome.sent.length - started - after <= 3, `${chrome.sent.length - started - after} commands after the detach`);
});
