// Dialogs never trap the agent: a page that raises the next alert as soon as one is answered gets
// each answer back promptly with the next dialog (a capture under way never waits for a blocked
// renderer), and navigate leaves a page whatever dialog is open, saying what it answered. Fake CDP
// page (fake-page.mjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setup } from './fake-page.mjs';

/** A page whose every dialog answer raises the next alert while the page is captured (the capture then never returns, as with a blocked renderer). */
async function alertLoop() {
  /** @type {any} */
  let agentRef;
  let raised = 0;
  let looping = false;
  /** @type {string[]} the URLs Page.navigate was sent, in order */
  const navigated = [];
  const s = await setup({
    answer: (/** @type {string} */ method, /** @type {any} */ params) => {
      if (method === 'Page.handleJavaScriptDialog') { looping = true; return {}; }
      if (looping && method === 'DOMSnapshot.captureSnapshot') {
        agentRef.onDebuggerEvent({ tabId: 5 }, 'Page.javascriptDialogOpening', { type: 'alert', message: `loop ${++raised}`, url: 'https://a.test/' });
        return new Promise(() => {});  // the renderer is blocked by the alert: no answer
      }
      if (method === 'Page.navigate') {
        navigated.push(params.url);
        looping = false;
        // about:blank, navigated to by the browser, commits in a renderer of its own.
        if (params.url === 'about:blank') setTimeout(() => agentRef.onDebuggerEvent({ tabId: 5 }, 'Page.frameNavigated', { frame: { id: 'MAIN', url: 'about:blank' } }), 0);
        setTimeout(() => agentRef.onDebuggerEvent({ tabId: 5 }, 'Page.frameStoppedLoading', { frameId: 'MAIN' }), 0);
      }
      return undefined;
    },
  });
  agentRef = s.agent;
  s.agent.onDebuggerEvent({ tabId: 5 }, 'Page.javascriptDialogOpening', { type: 'alert', message: 'loop 0', url: 'https://a.test/' });
  return { ...s, navigated };
}

test('an alert loop: each answer comes back with the next alert, not after the capture\'s bound', async () => {
  const { agent } = await alertLoop();
  for (let i = 1; i <= 3; i++) {
    const r = await agent.dispatch({ session: 'a', tool: 'dialog', args: { accept: true } });
    assert.equal(r.ok, true, JSON.stringify(r));
    assert.match(r.text, new RegExp(`^<dialog tab="c0p\\d+" type="alert" message="loop ${i}">`), r.text);
  }
});

test('navigate leaves a page whose alert loop is open through about:blank: the alert is dismissed and the FactPack says so', async () => {
  const { agent, engine, navigated } = await alertLoop();
  /** @type {string[]} */
  const warnings = [];
  const snap = engine.snapshot;
  engine.snapshot = (key, cap, info) => { warnings.push(...(info?.warnings ?? [])); return snap(key, cap, info); };
  const r = await agent.dispatch({ session: 'a', tool: 'navigate', args: { url: 'https://a.test/elsewhere' } });
  assert.equal(r.ok, true, JSON.stringify(r));
  assert.match(r.text, /^<full /);
  assert.ok(warnings.includes('the alert "loop 0" was dismissed so that navigate could leave the page'), JSON.stringify(warnings));
  assert.ok(warnings.includes('navigate left the page through about:blank (a renderer of its own, which the page could not hold): back now leads to about:blank'), JSON.stringify(warnings));
  assert.deepEqual(navigated, ['about:blank', 'https://a.test/elsewhere']);
});

test('navigate on a beforeunload prompt accepts it, so the page may go', async () => {
  /** @type {any[]} */
  const answers = [];
  /** @type {any} */
  let agentRef;
  const s = await setup({
    answer: (/** @type {string} */ method, /** @type {any} */ params) => {
      if (method === 'Page.handleJavaScriptDialog') { answers.push(params); return {}; }
      if (method === 'Page.navigate') setTimeout(() => agentRef.onDebuggerEvent({ tabId: 5 }, 'Page.frameStoppedLoading', { frameId: 'MAIN' }), 0);
      return undefined;
    },
  });
  agentRef = s.agent;
  s.agent.onDebuggerEvent({ tabId: 5 }, 'Page.javascriptDialogOpening', { type: 'beforeunload', message: '', url: 'https://a.test/' });
  const r = await s.agent.dispatch({ session: 'a', tool: 'navigate', args: { url: 'https://a.test/next' } });
  assert.equal(r.ok, true, JSON.stringify(r));
  assert.deepEqual(answers, [{ accept: true }]);
});
