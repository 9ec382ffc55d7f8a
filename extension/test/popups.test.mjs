// What one action opens (agent.js onTabCreated, extension/lib/limits.js popupsAdoptedMax): the
// first tabs become the agent's, the rest are counted and left open, and a tab Chrome says was
// opened by one the action opened (it names the tab active at that moment) is the action's too;
// tabs nobody's action opened are never taken. Fake chrome and engine (extension/test/fake-page.mjs);
// the real chain is in tests/e2e/many.test.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LIMITS } from '../lib/limits.js';
import { setup } from './fake-page.mjs';

test(`a click whose page opens ${LIMITS.popupsAdoptedMax + 3} tabs, each named the opener of the next: ${LIMITS.popupsAdoptedMax} adopted and named, 3 counted; a tab opened from elsewhere is not the action's`, async () => {
  const n = LIMITS.popupsAdoptedMax + 3;
  let agentRef;
  const { agent, engine } = await setup({
    answer: (method, params) => {
      if (method === 'Input.dispatchMouseEvent' && params.type === 'mouseReleased') {
        for (let i = 0; i < n; i++) agentRef.onTabCreated({ id: 900 + i, openerTabId: i === 0 ? 5 : 900 + i - 1 });
        agentRef.onTabCreated({ id: 990, openerTabId: 77 });  // the user's, in another window
      }
      return undefined;
    },
  });
  agentRef = agent;
  let said = '';
  const finish = engine.finishAction;
  engine.finishAction = (key, capture, info) => { said = info.warnings.join('\n'); return finish(key, capture, info); };
  const r = await agent.dispatch({ session: 'a', tool: 'click', args: { ref: 'e1', version: engine.delivered } });
  assert.equal(r.ok, true, JSON.stringify(r));
  const adopted = [...agent.tabs.keys()].filter((id) => id !== 5).sort();
  assert.deepEqual(adopted, Array.from({ length: LIMITS.popupsAdoptedMax }, (_, i) => 900 + i));
  const named = said.split('\n').filter((l) => /^this action opened tab c0p\d+: use tabs select to act there$/.test(l));
  assert.equal(named.length, LIMITS.popupsAdoptedMax, said);
  assert.ok(said.split('\n').includes(`this action opened 3 more tabs, left open and not controlled: the agent takes over at most ${LIMITS.popupsAdoptedMax} of the tabs one action opens, and closes none of them (they stay in the user's browser); tabs list shows the tabs you control`), said);
  // The next action starts afresh: a tab opened now by one of those is nobody's action's.
  agent.onTabCreated({ id: 995, openerTabId: 904 });
  assert.ok(!agent.tabs.has(995));
});
