// Issue 18, with a fake chrome and a fake engine that keeps the core's call-order rules:
// read/screenshot of a ref go through the tab's queue and never begin an action, Stop -> Resume
// gives the agent its tabs back, and the waiters a tab holds do not pile up.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Agent } from '../lib/agent.js';
import { fakeChrome } from './fake-chrome.mjs';

const oneTab = () => ({ athenaState: { tabMap: { nextPage: { 0: 2 }, tabs: [{ tabId: 5, key: { context: 0, page: 1 }, session: 'a' }] }, sessions: { a: { client: 'c', current: 5 } } } });

/**
 * The core's rules that matter here (core/include/athena/engine.h): finishAction/abortAction
 * only after beginAction (else wrong_call_order); every beginAction on a changing page commits a
 * version; as the core was before issue 18, an agent version is accepted only while it is among
 * the last `history` + 1 committed versions. Every call is logged.
 */
function strictEngine(history = 3) {
  const calls = [];
  let committed = [0];
  let delivered = 0;
  let pending = false;
  const commit = () => {
    committed.push(committed[committed.length - 1] + 1);
    committed = committed.slice(-(history + 1));
    return committed[committed.length - 1];
  };
  const err = (code, message) => Object.assign(new Error(message), { name: 'AthenaError', code });
  const pack = (type, v, body = '') => ({ type, version: v, text: `<${type} v="${v}">${body}</${type}>`, json: JSON.stringify({ type, version: v }) });
  const target = (ref) => ({ ref, backendNodeId: 7, frameId: 'MAIN', loaderId: 'L', role: 'button', name: 'Go', disabled: false, bbox: { x: 0, y: 0, width: 10, height: 10 } });
  return {
    calls,
    openPage: (key) => { calls.push('openPage'); },
    closePage: (key) => { calls.push('closePage'); },
    onEvent: () => {},
    snapshot: (key, capture, info) => { calls.push('snapshot'); pending = false; delivered = commit(); return pack('full', delivered, (info?.warnings ?? []).join('|')); },
    beginAction: (key, capture, version) => {
      calls.push('beginAction');
      const v = commit();  // the page changes under every capture
      if (version !== null && version !== undefined && (version !== delivered || !committed.includes(delivered))) {
        pending = false;
        delivered = v;
        return { freshness: 'stale_no_history', currentVersion: v, pack: pack('full', v) };
      }
      pending = true;
      return { freshness: 'current', currentVersion: v, pack: null };
    },
    resolve: (key, ref) => { calls.push('resolve'); return target(ref); },
    resolveNow: (key, capture, ref) => { calls.push('resolveNow'); return target(ref); },
    finishAction: (key, capture, info) => {
      calls.push('finishAction');
      if (!pending) throw err('wrong_call_order', 'finish_action without begin_action');
      pending = false;
      delivered = commit();
      return pack('delta', delivered);
    },
    abortAction: () => {
      calls.push('abortAction');
      if (!pending) throw err('wrong_call_order', 'abort_action without begin_action');
      pending = false;
    },
    stats: () => ({ deliveredVersion: delivered }),
    get delivered() { return delivered; },
  };
}

/** A fake chrome whose page answers what click, read and screenshot ask. */
function pageChrome(o = {}) {
  const chrome = fakeChrome({ tabs: [{ id: 5, url: 'https://a.test/' }], session: oneTab(), ...o });
  chrome.debugger.sendCommand = async (target, method, params) => {
    chrome.sent.push({ target, method, params });
    await new Promise((r) => setTimeout(r, 1));
    switch (method) {
      case 'DOM.getBoxModel': return { model: { border: [10, 10, 60, 10, 60, 30, 10, 30], content: [10, 10, 60, 10, 60, 30, 10, 30] } };
      case 'DOM.resolveNode': return { object: { objectId: 'obj1' } };
      case 'Runtime.callFunctionOn': return { result: { value: { text: 'Hello', length: 5 } } };
      case 'Runtime.evaluate': return { result: { value: { quiet: true, ms: 0, mutations: 0 } } };
      case 'Page.getLayoutMetrics': return { cssVisualViewport: { pageX: 0, pageY: 0, clientWidth: 800, clientHeight: 600 } };
      case 'Page.captureScreenshot': return { data: 'AAAA' };
      default: return {};
    }
  };
  return chrome;
}

async function setup(o = {}) {
  const chrome = pageChrome(o);
  const engine = strictEngine();
  const agent = new Agent({ chrome, athena: Promise.resolve({ createEngine: () => engine }) });
  await agent.restored;
  const first = await agent.dispatch({ session: 'a', tool: 'snapshot' });
  assert.equal(first.ok, true, JSON.stringify(first));
  return { chrome, engine, agent, tab: () => /** @type {any} */ (agent.tabs.get(5)), name: () => agent.status().tabs[0].tab };
}

test('read {ref} and screenshot {ref} racing a click wait for it and never begin an action of their own', async () => {
  const { engine, agent, name } = await setup();
  const ref = `${name()}f0e1`;
  const version = engine.delivered;
  engine.calls.length = 0;
  const click = agent.dispatch({ session: 'a', tool: 'click', args: { ref, version } });
  await new Promise((r) => setTimeout(r, 20));  // the click is under way (stabilizing)
  const [read, shot] = await Promise.all([
    agent.dispatch({ session: 'a', tool: 'read', args: { ref } }),
    agent.dispatch({ session: 'a', tool: 'screenshot', args: { ref } }),
  ]);
  const clicked = await click;
  assert.equal(clicked.ok, true, JSON.stringify(clicked));
  assert.match(clicked.text, /^<delta /);
  assert.equal(read.ok, true, JSON.stringify(read));
  assert.match(read.text, /Hello/);
  assert.equal(shot.ok, true, JSON.stringify(shot));
  // The click's begin..finish is never interleaved with anything, and reads commit nothing.
  assert.deepEqual(engine.calls, ['beginAction', 'resolve', 'finishAction', 'resolveNow', 'resolveNow']);
});

test('three reads of a ref, then an action with the current version is not stale', async () => {
  const { engine, agent, name } = await setup();
  const ref = `${name()}f0e1`;
  const version = engine.delivered;
  for (let i = 0; i < 3; i++) {
    const r = await agent.dispatch({ session: 'a', tool: i === 1 ? 'screenshot' : 'read', args: { ref } });
    assert.equal(r.ok, true, JSON.stringify(r));
  }
  const clicked = await agent.dispatch({ session: 'a', tool: 'click', args: { ref, version } });
  assert.equal(clicked.ok, true, JSON.stringify(clicked));
  assert.doesNotMatch(clicked.text, /not_executed|stale_version/);
  assert.match(clicked.text, /^<delta /);
});

test('Stop -> Resume: the agent\'s existing tabs work again (renamed, with a full snapshot)', async () => {
  const { agent, name } = await setup();
  const before = name();
  await agent.stop();
  assert.equal((await agent.dispatch({ session: 'a', tool: 'snapshot' })).error.code, 'stopped_by_user');
  assert.equal(agent.status().tabs[0].dead, 'stopped_by_user');
  await agent.resume();
  assert.equal(agent.status().tabs[0].dead, null);
  const after = name();
  assert.notEqual(after, before);  // the engine forgot the page: refs from before must not alias
  const snap = await agent.dispatch({ session: 'a', tool: 'snapshot' });
  assert.equal(snap.ok, true, JSON.stringify(snap));
  assert.match(snap.text, /^<full /);
  assert.match(snap.text, new RegExp(`stopped the agent and resumed it: tab ${before} is now ${after}`));
  // A ref from before the stop finds the tab and gets the current page, not an action on another element.
  const old = await agent.dispatch({ session: 'a', tool: 'click', args: { ref: `${before}f0e1` } });
  assert.equal(old.ok, true, JSON.stringify(old));
  const clicked = await agent.dispatch({ session: 'a', tool: 'click', args: { ref: `${after}f0e1` } });
  assert.equal(clicked.ok, true, JSON.stringify(clicked));
  assert.match(clicked.text, /^<delta /);
  // Listed as the agent's tab again
  const list = await agent.dispatch({ session: 'a', tool: 'tabs', args: { action: 'list' } });
  assert.match(list.text, new RegExp(`id="${after}" current="true"`));
});

test('Stop -> Resume: a tab closed while stopped stays gone; one lost before the stop keeps its reason', async () => {
  const { chrome, agent } = await setup();
  await agent.stop();
  await chrome.tabs.remove(5);
  await agent.resume();
  assert.equal(agent.status().tabs.length, 0);
  assert.equal((await agent.dispatch({ session: 'a', tool: 'snapshot' })).error.code, 'no_tab');
  const b = await setup();
  b.agent.onTabRemoved(5);
  await new Promise((r) => setTimeout(r, 5));
  await b.agent.stop();
  await b.agent.resume();
  assert.equal(b.agent.status().tabs[0].dead, 'tab_closed');
});

test('waiters do not pile up: after many commands and actions a tab holds none', async () => {
  const { agent, engine, tab, name } = await setup();
  const count = (/** @type {any} */ w) => w.size ?? w.length;
  const t = tab();
  for (let i = 0; i < 200; i++) await agent.send(t, 'Runtime.evaluate', { expression: '1' });
  assert.equal(count(t.deathWaiters), 0);
  for (let i = 0; i < 3; i++) {
    const r = await agent.dispatch({ session: 'a', tool: 'click', args: { ref: `${name()}f0e1`, version: engine.delivered } });
    assert.equal(r.ok, true, JSON.stringify(r));
  }
  assert.equal(count(t.deathWaiters), 0);
  assert.equal(count(t.dialogWaiters), 0);
  // While commands are in flight they are there, and the tab's death still rejects them.
  const pending = agent.send(t, 'Runtime.evaluate', { expression: '1' });
  assert.equal(count(t.deathWaiters), 1);
  await pending;
  assert.equal(count(t.deathWaiters), 0);
  const hung = pageChrome();
  hung.debugger.sendCommand = () => new Promise(() => {});
  const h = new Agent({ chrome: hung, athena: Promise.resolve({ createEngine: () => strictEngine() }) });
  await h.restored;
  const ht = /** @type {any} */ (h.tabs.get(5));
  const waiting = h.send(ht, 'Runtime.evaluate', {});
  h.onTabRemoved(5);
  await assert.rejects(waiting, { code: 'tab_closed' });
  assert.equal(count(ht.deathWaiters), 0);
});
