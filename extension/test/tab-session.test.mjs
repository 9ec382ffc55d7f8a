// One TabSession per tab (extension/lib/tab-session.js), through the agent's dispatcher with a fake
// CDP page and a fake engine that keeps the core's call-order rules (fake-page.mjs): every tool
// runs in the tab's queue, the dialog tool and tabs close included, and a dialog closed by the page
// or the user leaves no held action behind. Each case failed before its fix.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setup } from './fake-page.mjs';
import { until } from '../../tests/support/wait.mjs';
import { TabSession } from '../lib/tab-session.js';

/** A promise and its resolver. */
function gate() {
  /** @type {(v?: any) => void} */
  let open = () => {};
  const p = new Promise((r) => { open = r; });
  return { p, open };
}

/** The engine calls made since `from` (an index into engine.calls). @param {any} engine @param {number} from */
const since = (engine, from) => engine.calls.slice(from);

test('a dialog answer runs in the tab\'s queue: a click sent with it waits for the held action to finish', async () => {
  /** @type {any} */
  let agent;
  const answered = gate();
  const settle = gate();
  let afterAnswer = false;
  let gated = false;
  const s = await setup({
    answer: (/** @type {string} */ method, /** @type {any} */ params) => {
      // The click's press raises a confirm; the press returns once the agent answered it.
      if (method === 'Input.dispatchMouseEvent' && params.type === 'mousePressed' && !afterAnswer) {
        agent.onDebuggerEvent({ tabId: 5 }, 'Page.javascriptDialogOpening', { type: 'confirm', message: 'Delete?', url: 'https://a.test/' });
        return answered.p.then(() => ({}));
      }
      if (method === 'Page.handleJavaScriptDialog') { afterAnswer = true; answered.open(); return {}; }
      // The held click's settle wait after the answer is held until the second click was sent.
      if (method === 'Runtime.evaluate' && params.awaitPromise && afterAnswer && !gated) {
        gated = true;
        return settle.p.then(() => ({ result: { value: { quiet: true, ms: 0, mutations: 0 } } }));
      }
      return undefined;
    },
  });
  agent = s.agent;
  const { engine, tab } = s;
  const ref = 'e1';
  const held = await agent.dispatch({ session: 'a', tool: 'click', args: { ref, version: engine.delivered } });
  assert.match(held.text, /^<dialog tab="c0p\d+" type="confirm" message="Delete\?"/);
  const from = engine.calls.length;
  const answer = agent.dispatch({ session: 'a', tool: 'dialog', args: { accept: true } });
  let done = false;
  const second = agent.dispatch({ session: 'a', tool: 'click', args: { ref } }).then((r) => { done = true; return r; });
  // Either the second click waits behind the answer (two calls on the tab), or it ran past it.
  await until('the second click queued behind the answer, begun or answered', () => tab().calls >= 2 || done || since(engine, from).includes('beginAction'));
  settle.open();
  const [a, b] = await Promise.all([answer, second]);
  assert.equal(a.ok, true, JSON.stringify(a));
  assert.match(a.text, /^<delta /);
  assert.equal(b.ok, true, JSON.stringify(b));
  assert.match(b.text, /^<delta /);
  assert.deepEqual(since(engine, from), ['finishAction', 'beginAction', 'resolve', 'finishAction'], 'the held click finishes before the next one begins');
});

/**
 * A click that holds at its press until `release()`: the tab has a call running. Returns the
 * setup, the click's answer, the engine calls index before it, and the tab.
 */
async function clickHeldAtPress() {
  const pressed = gate();
  const s = await setup({
    answer: (/** @type {string} */ method, /** @type {any} */ params) => {
      if (method === 'Input.dispatchMouseEvent' && params.type === 'mousePressed') return pressed.p.then(() => ({}));
      return undefined;
    },
  });
  const { agent, engine, tab, chrome } = s;
  const from = engine.calls.length;
  const click = agent.dispatch({ session: 'a', tool: 'click', args: { ref: 'e1', version: engine.delivered } });
  await until('the click pressing', () => chrome.sent.some((c) => c.method === 'Input.dispatchMouseEvent' && c.params.type === 'mousePressed'));
  return { ...s, t: tab(), from, click, release: pressed.open };
}

test('tabs close runs in the tab\'s queue: the click running on it finishes with its FactPack first', async () => {
  const { agent, engine, name, t, from, click, release } = await clickHeldAtPress();
  let closed = false;
  const close = agent.dispatch({ session: 'a', tool: 'tabs', args: { action: 'close', tab: name() } }).then((r) => { closed = true; return r; });
  await until('tabs close queued behind the click, or done', () => t.calls >= 2 || closed);
  release();
  const [c, x] = await Promise.all([click, close]);
  assert.equal(c.ok, true, JSON.stringify(c));
  assert.match(c.text, /^<delta /);
  assert.equal(x.ok, true, JSON.stringify(x));
  assert.match(x.text, /^<tabs closed="c0p\d+"\/>$/);
  assert.deepEqual(since(engine, from), ['beginAction', 'resolve', 'finishAction', 'closePage']);
});

test('tabs close stops a wait_for running on the tab: it answers what it waited for, then the tab is closed', async () => {
  const s = await setup({
    // The text waited for never shows.
    answer: (/** @type {string} */ method, /** @type {any} */ params) => (method === 'Runtime.evaluate' && /innerText/.test(params.expression) ? { result: { value: false } } : undefined),
  });
  const { agent, engine, name, tab } = s;
  /** @type {string[]} */
  const warnings = [];
  const finish = engine.finishAction;
  engine.finishAction = (/** @type {any} */ key, /** @type {any} */ cap, /** @type {any} */ info) => { warnings.push(...info.warnings); return finish(key, cap, info); };
  const from = engine.calls.length;
  const wait = agent.dispatch({ session: 'a', tool: 'wait_for', args: { text: 'never there', ms: 30000 } });
  await until('the wait_for under way', () => tab().acting);
  const close = agent.dispatch({ session: 'a', tool: 'tabs', args: { action: 'close', tab: name() } });
  const [w, x] = await Promise.all([wait, close]);
  assert.equal(w.ok, true, JSON.stringify(w));
  assert.match(w.text, /^<delta /);
  assert.match(warnings.join('\n'), /wait_for: stopped \(the agent closed this tab\) while waiting for text "never there" to appear/);
  assert.match(x.text, /^<tabs closed="c0p\d+"\/>$/);
  assert.deepEqual(since(engine, from), ['beginAction', 'finishAction', 'closePage']);
});

test('a dialog the page or the user closed ends the action it held: the next dialog the agent answers works', async () => {
  /** @type {any} */
  let agent;
  const closed = gate();
  let first = true;
  const s = await setup({
    answer: (/** @type {string} */ method, /** @type {any} */ params) => {
      // The first click's press raises an alert that the user closes (not the agent).
      if (method === 'Input.dispatchMouseEvent' && params.type === 'mousePressed' && first) {
        first = false;
        agent.onDebuggerEvent({ tabId: 5 }, 'Page.javascriptDialogOpening', { type: 'alert', message: 'Saved', url: 'https://a.test/' });
        return closed.p.then(() => ({}));
      }
      return undefined;
    },
  });
  agent = s.agent;
  const { engine } = s;
  const ref = 'e1';
  /** @type {string[]} */
  const warnings = [];
  const finish = engine.finishAction;
  engine.finishAction = (/** @type {any} */ key, /** @type {any} */ cap, /** @type {any} */ info) => { warnings.push(...info.warnings); return finish(key, cap, info); };
  const held = await agent.dispatch({ session: 'a', tool: 'click', args: { ref, version: engine.delivered } });
  assert.match(held.text, /^<dialog tab="c0p\d+" type="alert" message="Saved"/);
  agent.onDebuggerEvent({ tabId: 5 }, 'Page.javascriptDialogClosed', { result: true });
  closed.open();
  const from = engine.calls.length;
  const next = await agent.dispatch({ session: 'a', tool: 'click', args: { ref } });
  assert.equal(next.ok, true, JSON.stringify(next));
  // The page raises a confirm by itself; the agent answers it.
  agent.onDebuggerEvent({ tabId: 5 }, 'Page.javascriptDialogOpening', { type: 'confirm', message: 'Leave?', url: 'https://a.test/' });
  const answered = await agent.dispatch({ session: 'a', tool: 'dialog', args: { accept: false } });
  assert.equal(answered.ok, true, JSON.stringify(answered));
  assert.match(answered.text, /^<delta /);
  assert.match(warnings.join('\n'), /the alert "Saved" that held your click was closed by the page or the user, not by a dialog answer/);
  assert.deepEqual(since(engine, from), ['abortAction', 'beginAction', 'resolve', 'finishAction', 'beginAction', 'finishAction'], 'the held click aborted first, then two whole actions');
});

test('a call cancelled while it waits in the tab\'s queue does nothing when its turn comes', async () => {
  const pressed = gate();
  let presses = 0;
  const s = await setup({
    answer: (/** @type {string} */ method, /** @type {any} */ params) => {
      if (method === 'Input.dispatchMouseEvent' && params.type === 'mousePressed') { presses++; if (presses === 1) return pressed.p.then(() => ({})); }
      return undefined;
    },
  });
  const { agent, engine, name, tab } = s;
  const ref = 'e1';
  const from = engine.calls.length;
  const first = agent.dispatch({ id: 1, session: 'a', tool: 'click', args: { ref, version: engine.delivered } });
  await until('the first click pressing', () => presses === 1);
  const second = agent.dispatch({ id: 2, session: 'a', tool: 'click', args: { ref } });
  await until('the second click queued behind the first', () => tab().calls >= 2);
  // Its deadline came (the native client cancels it so) while it still waited.
  agent.cancel(2, 'the call reached its deadline (10 ms)');
  pressed.open();
  const [a, b] = await Promise.all([first, second]);
  assert.equal(a.ok, true, JSON.stringify(a));
  assert.deepEqual(b, { ok: false, error: { code: 'cancelled', message: `click did nothing: the call reached its deadline (10 ms) while it waited for the call before it on tab ${name()}` } });
  assert.equal(presses, 1, 'the cancelled click pressed nothing');
  assert.deepEqual(since(engine, from), ['beginAction', 'resolve', 'finishAction'], 'no action begun for the cancelled call');
});

test('a session that ends releases its tab in the tab\'s queue: the click running on it finishes first', async () => {
  const { agent, engine, t, from, click, release } = await clickHeldAtPress();
  let closed = false;
  const close = agent.closeSession('a').then(() => { closed = true; });
  await until('the release queued behind the click, or done', () => t.calls >= 2 || closed);
  release();
  const [c] = await Promise.all([click, close]);
  assert.equal(c.ok, true, JSON.stringify(c));
  assert.match(c.text, /^<delta /);
  assert.deepEqual(since(engine, from), ['beginAction', 'resolve', 'finishAction', 'closePage']);
  assert.equal(agent.tabs.has(5), false);
});

test('the frames a capture left out, and frames attached inside them, are known: the core is not told of them', () => {
  const t = new TabSession(5, { context: 0, page: 1 }, 's');
  assert.equal(t.aboutLeftOutFrame('Page.frameNavigated', { frame: { id: 'F2', parentId: 'M' } }), false, 'nothing left out yet');
  t.captured({ frameTree: { frame: { id: 'M' } } }, undefined, new Set(['F2']));
  assert.equal(t.aboutLeftOutFrame('Page.frameNavigated', { frame: { id: 'F2', parentId: 'M', loaderId: 'L2' } }), true);
  assert.equal(t.aboutLeftOutFrame('Page.frameAttached', { frameId: 'F3', parentFrameId: 'F2' }), true, 'a frame inside one left out');
  assert.equal(t.aboutLeftOutFrame('Page.frameDetached', { frameId: 'F3' }), true);
  assert.equal(t.aboutLeftOutFrame('Page.frameAttached', { frameId: 'F4', parentFrameId: 'M' }), false, 'a new frame of the page');
  assert.equal(t.aboutLeftOutFrame('Page.lifecycleEvent', { frameId: 'M', name: 'load' }), false);
  t.captured({ frameTree: { frame: { id: 'M' } } });
  assert.equal(t.aboutLeftOutFrame('Page.frameDetached', { frameId: 'F2' }), false, 'the next capture decides again');
});

test('a frame session that goes takes every session attached through it: shop -> cdn -> bank leaves none behind (#53.5)', () => {
  const t = new TabSession(5, { context: 0, page: 1 }, 'a');
  t.frameAttached('CDN', 'F1');
  t.frameAttached('BANK', 'F2', 'CDN');
  t.frameAttached('INNER', 'F3', 'BANK');
  t.frameAttached('ADS', 'F4');
  // Chrome says the cdn frame's session ended, and nothing of the sessions attached through it.
  t.onEvent('Target.detachedFromTarget', { sessionId: 'CDN' });
  assert.deepEqual(t.frameSessions().map((s) => s.sessionId), ['ADS']);
  // A capture that found a session dead lets it go the same way.
  t.frameGone('ADS');
  assert.deepEqual(t.frameSessions(), []);
});
