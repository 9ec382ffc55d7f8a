// Reads never make the agent stale, with a fake chrome and a fake engine that keeps the core's
// call-order rules: read/screenshot of a ref go through the tab's queue and never begin an action, Stop -> Resume
// gives the agent its tabs back, and the waiters a tab holds do not pile up.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Agent } from '../lib/agent.js';
import { pageChrome, setup, strictEngine } from './fake-page.mjs';
import { until } from '../../tests/support/wait.mjs';

test('read {ref} and screenshot {ref} racing a click wait for it and never begin an action of their own', async () => {
  const { engine, agent } = await setup();
  const ref = 'e1';
  const version = engine.delivered;
  engine.calls.length = 0;
  const click = agent.dispatch({ session: 'a', tool: 'click', args: { ref, version } });
  await until('the click under way (its beginAction)', () => engine.calls.includes('beginAction'));
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
  const { engine, agent } = await setup();
  const ref = 'e1';
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
  const old = await agent.dispatch({ session: 'a', tool: 'click', args: { ref: 'e1' } });
  assert.equal(old.ok, true, JSON.stringify(old));
  const clicked = await agent.dispatch({ session: 'a', tool: 'click', args: { ref: 'e1' } });
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
  await until('the closed tab released as tab_closed', () => b.agent.status().tabs[0]?.dead === 'tab_closed');
  await b.agent.stop();
  await b.agent.resume();
  assert.equal(b.agent.status().tabs[0].dead, 'tab_closed');
});

test('waiters do not pile up: after many commands and actions a tab holds none', async () => {
  const { agent, engine, tab } = await setup();
    const t = tab();
  for (let i = 0; i < 200; i++) await t.send('Runtime.evaluate', { expression: '1' });
  assert.equal(t.waiters.death, 0);
  for (let i = 0; i < 3; i++) {
    const r = await agent.dispatch({ session: 'a', tool: 'click', args: { ref: 'e1', version: engine.delivered } });
    assert.equal(r.ok, true, JSON.stringify(r));
  }
  assert.deepEqual(t.waiters, { death: 0, dialog: 0 });
  // While commands are in flight they are there, and the tab's death still rejects them.
  const pending = t.send('Runtime.evaluate', { expression: '1' });
  assert.equal(t.waiters.death, 1);
  await pending;
  assert.equal(t.waiters.death, 0);
  const hung = pageChrome();
  hung.debugger.sendCommand = () => new Promise(() => {});
  const h = new Agent({ chrome: hung, athena: Promise.resolve({ createEngine: () => strictEngine() }) });
  await h.restored;
  const ht = /** @type {any} */ (h.tabs.get(5));
  const waiting = ht.send('Runtime.evaluate', {});
  h.onTabRemoved(5);
  await assert.rejects(waiting, { code: 'tab_closed' });
  assert.equal(ht.waiters.death, 0);
});
