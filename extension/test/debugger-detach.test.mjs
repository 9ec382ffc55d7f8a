// Chrome takes the debugger away from a tab that lives on (chrome.debugger.onDetach: the user
// cancelled the "is debugging this browser" bar, or the tab went where an extension may not
// debug): the call in flight answers at once, and the next call on the tab attaches again under
// the same tab name when the user's policy still allows where the tab is; a refusal says why and
// what to do. Fake CDP page (fake-page.mjs); the real chain is tests/e2e/browser-life.test.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setup } from './fake-page.mjs';
import { until } from '../../tests/support/wait.mjs';

/** A fake page whose debugger Chrome can take away (`take`) and that attaches again unless `refuse` says why not. */
async function detachablePage() {
  const state = { attached: true, attaches: 0, refused: 0, refuse: /** @type {string | null} */ (null), url: 'https://a.test/' };
  const s = await setup({
    answer: () => {
      if (!state.attached) { state.refused++; throw new Error('Debugger is not attached to the tab with id: 5.'); }
      return undefined;
    },
  });
  s.chrome.debugger.attach = async () => {
    if (state.refuse) throw new Error(state.refuse);
    state.attaches++;
    state.attached = true;
  };
  const get = s.chrome.tabs.get;
  s.chrome.tabs.get = async (/** @type {number} */ id) => ({ ...await get(id), url: state.url });
  /** @type {string[]} */
  const warnings = [];
  for (const m of ['snapshot', 'finishAction']) {
    const f = s.engine[m];
    s.engine[m] = (/** @type {any} */ key, /** @type {any} */ cap, /** @type {any} */ info) => { warnings.push(...(info?.warnings ?? [])); return f(key, cap, info); };
  }
  /** Chrome takes the debugger: onDetach with `reason`. @param {string} reason */
  const take = (reason) => { state.attached = false; s.agent.onDebuggerDetach({ tabId: 5 }, reason); };
  return { ...s, state, warnings, take };
}

test('the user cancels the debugging bar during a wait_for: it answers at once; the next click attaches again under the same tab name and runs', async () => {
  const { agent, chrome, engine, name, state, warnings, take } = await detachablePage();
  const tab = name();
  const polls = () => chrome.sent.filter((c) => c.method === 'Runtime.evaluate' && /innerText/.test(c.params.expression)).length;
  const waiting = agent.dispatch({ session: 'a', tool: 'wait_for', args: { text: 'never on this page', ms: 30_000 } });
  await until('the wait_for polling the page', () => polls() > 0);
  take('canceled_by_user');
  const r = await waiting;
  assert.equal(r.ok, false, JSON.stringify(r));
  assert.equal(r.error.code, 'debugger_detached');
  assert.equal(r.error.message, `the debugger was detached from tab ${tab} (the user cancelled the "is debugging this browser" bar): the call in flight stopped and nothing more was done; the next call on ${tab} attaches it again (the user sees the debugging bar again), or use tabs new to go on in a new tab`);
  assert.equal(state.attaches, 0, 'nothing attaches again before the agent calls');
  // The wait's own loop learns it at its next poll, which Chrome refuses: it ends there.
  await until('the wait_for\'s next poll refused by Chrome', () => state.refused > 0);
  const click = await agent.dispatch({ session: 'a', tool: 'click', args: { ref: 'e1', version: engine.delivered } });
  assert.equal(click.ok, true, JSON.stringify(click));
  assert.equal(state.attaches, 1);
  assert.equal(name(), tab, 'the tab keeps its name: the engine kept its page');
  assert.deepEqual(warnings.filter((w) => /attached again/.test(w)), [`the debugger was detached from tab ${tab} (the user cancelled the "is debugging this browser" bar) and is attached again: events meanwhile were missed, so this FactPack compares the page as it is now with what you were shown; your refs of ${tab} hold where the page did not change`]);
  // The session of the new attach gets the tab's setup again (events, requests, console, the page's watcher).
  const setupAfter = chrome.sent.slice(chrome.sent.findLastIndex((c) => c.method === 'Page.enable')).map((c) => c.method);
  assert.deepEqual(setupAfter.slice(0, 6), ['Page.enable', 'Network.enable', 'Runtime.enable', 'Log.enable', 'Page.addScriptToEvaluateOnNewDocument', 'Target.setAutoAttach']);
});

test('attaching again refused by Chrome: the answer says why and what to do, and a later call attaches once Chrome allows it', async () => {
  const { agent, name, state, take } = await detachablePage();
  const tab = name();
  take('canceled_by_user');
  state.refuse = 'Cannot attach to this target.';
  const r = await agent.dispatch({ session: 'a', tool: 'snapshot' });
  assert.equal(r.ok, false, JSON.stringify(r));
  assert.equal(r.error.code, 'debugger_detached');
  assert.equal(r.error.message, `the debugger was detached from tab ${tab} (the user cancelled the "is debugging this browser" bar) and Chrome refused to attach it again (Cannot attach to this target.): ask the user to share the tab again from the extension popup, or use tabs new to go on in a new tab`);
  state.refuse = null;
  const again = await agent.dispatch({ session: 'a', tool: 'snapshot' });
  assert.equal(again.ok, true, JSON.stringify(again));
  assert.equal(name(), tab);
});

test('a tab Chrome detached from on its way to a page the policy refuses is not attached again there; back on an allowed page it is', async () => {
  const { agent, name, state, take } = await detachablePage();
  const tab = name();
  state.url = 'chrome://settings/';
  take('target_closed');
  await until('the tab marked as having lost its debugger', () => agent.tabs.get(5)?.lostDebugger !== null);
  const r = await agent.dispatch({ session: 'a', tool: 'snapshot' });
  assert.equal(r.ok, false, JSON.stringify(r));
  assert.equal(r.error.code, 'debugger_detached');
  assert.match(r.error.message, new RegExp(`^the debugger was detached from tab ${tab} \\(Chrome: target_closed\\) and is not attached again: chrome:// pages .*; once the tab is back on a page the agent may use, the next call attaches again; meanwhile use tabs new to go on in a new tab$`));
  assert.equal(state.attaches, 0, 'never attached on a page the policy refuses');
  state.url = 'https://a.test/back';
  const again = await agent.dispatch({ session: 'a', tool: 'snapshot' });
  assert.equal(again.ok, true, JSON.stringify(again));
  assert.equal(state.attaches, 1);
  assert.equal(name(), tab);
});

test('navigate after Chrome took the debugger goes on in the same tab (it answered debugger_detached for ever)', async () => {
  /** @type {any} */
  let agentRef;
  const { agent, name, state, take, chrome } = await detachablePage();
  agentRef = agent;
  const answer = chrome.debugger.sendCommand;
  chrome.debugger.sendCommand = async (/** @type {any} */ target, /** @type {string} */ method, /** @type {any} */ params) => {
    const r = await answer(target, method, params);
    if (method === 'Page.navigate') setTimeout(() => agentRef.onDebuggerEvent({ tabId: 5 }, 'Page.frameStoppedLoading', { frameId: 'MAIN' }), 0);
    return r;
  };
  const tab = name();
  take('canceled_by_user');
  const nav = await agent.dispatch({ session: 'a', tool: 'navigate', args: { url: 'https://a.test/next' } });
  assert.equal(nav.ok, true, JSON.stringify(nav));
  assert.equal(state.attaches, 1);
  assert.equal(name(), tab);
});
