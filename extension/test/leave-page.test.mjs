// What the real chain showed about leaving a page (tests/e2e/browser-life.test.mjs), on the fake
// CDP page (fake-page.mjs): a beforeunload prompt that navigate itself raises is accepted on the
// way (Page.navigate waited for it until its CDP bound); the next alert of a loop, opened before
// the answer's reply came, stays open (the answer cleared it, and the capture after waited for a
// dialog already there); navigate after a crash does not wait on the dead renderer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setup } from './fake-page.mjs';

test('a beforeunload prompt raised by navigate itself is accepted on the way, and the agent is told', async () => {
  /** @type {any} */
  let agentRef;
  /** @type {any[]} */
  const answers = [];
  /** @type {() => void} */
  let proceed = () => {};
  const s = await setup({
    answer: (/** @type {string} */ method, /** @type {any} */ params) => {
      if (method === 'Page.navigate') {
        // Chrome asks the page first; Page.navigate answers once the prompt was accepted.
        setTimeout(() => agentRef.onDebuggerEvent({ tabId: 5 }, 'Page.javascriptDialogOpening', { type: 'beforeunload', message: '', url: 'https://a.test/' }), 0);
        return new Promise((resolve) => { proceed = () => { resolve({ frameId: 'MAIN' }); setTimeout(() => agentRef.onDebuggerEvent({ tabId: 5 }, 'Page.frameStoppedLoading', { frameId: 'MAIN' }), 0); }; });
      }
      if (method === 'Page.handleJavaScriptDialog') {
        answers.push(params);
        setTimeout(() => { agentRef.onDebuggerEvent({ tabId: 5 }, 'Page.javascriptDialogClosed', {}); proceed(); }, 0);
        return {};
      }
      return undefined;
    },
  });
  agentRef = s.agent;
  /** @type {string[]} */
  const warnings = [];
  const snap = s.engine.snapshot;
  s.engine.snapshot = (/** @type {any} */ key, /** @type {any} */ cap, /** @type {any} */ info) => { warnings.push(...(info?.warnings ?? [])); return snap(key, cap, info); };
  const r = await s.agent.dispatch({ session: 'a', tool: 'navigate', args: { url: 'https://a.test/next' } });
  assert.equal(r.ok, true, JSON.stringify(r));
  assert.match(r.text, /^<full /);
  assert.deepEqual(answers, [{ accept: true }]);
  assert.ok(warnings.includes('the beforeunload "" was accepted so that navigate could leave the page'), JSON.stringify(warnings));
});

test('the next alert of a loop, opened before the answer\'s reply came, is the answer', async () => {
  /** @type {any} */
  let agentRef;
  let raised = 0;
  const s = await setup({
    answer: (/** @type {string} */ method) => {
      if (method === 'Page.handleJavaScriptDialog') {
        // Chrome says the dialog closed and the page opens the next one before the reply.
        agentRef.onDebuggerEvent({ tabId: 5 }, 'Page.javascriptDialogClosed', {});
        agentRef.onDebuggerEvent({ tabId: 5 }, 'Page.javascriptDialogOpening', { type: 'alert', message: `loop ${++raised}`, url: 'https://a.test/' });
        return {};
      }
      if (raised > 0 && method === 'DOMSnapshot.captureSnapshot') return new Promise(() => {});  // blocked by the alert
      return undefined;
    },
  });
  agentRef = s.agent;
  s.agent.onDebuggerEvent({ tabId: 5 }, 'Page.javascriptDialogOpening', { type: 'alert', message: 'loop 0', url: 'https://a.test/' });
  for (let i = 1; i <= 2; i++) {
    const r = await s.agent.dispatch({ session: 'a', tool: 'dialog', args: { accept: true } });
    assert.equal(r.ok, true, JSON.stringify(r));
    assert.match(r.text, new RegExp(`^<dialog tab="c0p\\d+" type="alert" message="loop ${i}">`), r.text);
  }
});

test('navigate after a crash does not ask the dead renderer anything before navigating', async () => {
  /** @type {any} */
  let agentRef;
  const s = await setup({
    answer: (/** @type {string} */ method) => {
      if (method === 'Page.navigate') setTimeout(() => agentRef.onDebuggerEvent({ tabId: 5 }, 'Page.frameStoppedLoading', { frameId: 'MAIN' }), 0);
      return undefined;
    },
  });
  agentRef = s.agent;
  s.agent.onDebuggerEvent({ tabId: 5 }, 'Inspector.targetCrashed', {});
  const from = s.chrome.sent.length;
  const nav = await s.agent.dispatch({ session: 'a', tool: 'navigate', args: { url: 'https://a.test/again' } });
  assert.equal(nav.ok, true, JSON.stringify(nav));
  const before = s.chrome.sent.slice(from).map((/** @type {any} */ c) => c.method);
  assert.deepEqual(before.slice(0, before.indexOf('Page.navigate')).filter((m) => m === 'Runtime.evaluate'), [], 'nothing evaluated in the crashed page');
});
