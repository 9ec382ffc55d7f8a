// The tab driver (extension/lib/tab-driver.js) with a fake CDP: a node in a nested out-of-process
// iframe is clicked at its real main-viewport position (the owners' offsets added up, each asked
// in the session that holds it); an element without a box is refused, never clicked at 0,0.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TabDriver } from '../lib/tab-driver.js';
import { TabSession } from '../lib/tab-session.js';

const quad = (x, y, w, h) => [x, y, x + w, y, x + w, y + h, x, y + h];

/** A page with an out-of-process iframe F1 (session S1) at (100, 50), itself holding F2 (session S2) at (10, 20). */
function nested() {
  const t = new TabSession(5, { context: 0, page: 1 }, 'a');
  t.frameAttached('S1', 'F1');
  t.frameAttached('S2', 'F2');
  t.captured({ oopifs: [{ frameId: 'F1', frameTree: { frame: { id: 'F1' } } }, { frameId: 'F2', frameTree: { frame: { id: 'F2' }, childFrames: [{ frame: { id: 'F2a' } }] } }] });
  const calls = [];
  const owners = { F1: { session: undefined, node: 11, at: [100, 50] }, F2: { session: 'S1', node: 22, at: [10, 20] } };
  const send = async (_t, method, params, sid) => {
    calls.push([method, sid]);
    if (method === 'DOM.getFrameOwner') {
      const o = owners[params.frameId];
      if (o.session !== sid) throw new Error('Frame with the given id was not found.');
      return { backendNodeId: o.node };
    }
    if (method === 'DOM.getBoxModel') {
      const o = Object.values(owners).find((x) => x.node === params.backendNodeId);
      if (o) return { model: { content: quad(o.at[0], o.at[1], 300, 200), border: quad(o.at[0], o.at[1], 300, 200) } };
      if (params.backendNodeId === 99) return { model: { border: quad(5, 5, 40, 10), content: quad(5, 5, 40, 10) } };
      throw new Error('Could not compute box model.');
    }
    return {};
  };
  return { t, calls, driver: new TabDriver(send) };
}

test('a frame is found in the session that holds it, a child frame of an OOPIF too', () => {
  const { t, driver } = nested();
  assert.equal(driver.sessionOf(t, 'F1'), 'S1');
  assert.equal(driver.sessionOf(t, 'F2a'), 'S2');
  assert.equal(driver.sessionOf(t, 'MAIN'), undefined, 'the page\'s own frames use its own session');
});

test('a node two out-of-process frames deep is clicked where it really is', async () => {
  const { t, driver, calls } = nested();
  const p = await driver.point(t, { ref: 'e1', frameId: 'F2', backendNodeId: 99, role: 'button', name: 'Pay' });
  // 5 + 10 (F2 in F1) + 100 (F1 in the page), centre of a 40x10 box.
  assert.deepEqual([p.x, p.y], [5 + 10 + 100 + 20, 5 + 20 + 50 + 5]);
  assert.ok(calls.some(([m, sid]) => m === 'DOM.scrollIntoViewIfNeeded' && sid === 'S2'));
});

test('an element without a box is refused with the reason', async () => {
  const { t, driver } = nested();
  await assert.rejects(driver.point(t, { ref: 'e3', frameId: 'MAIN', backendNodeId: 7, role: 'button', name: 'Ghost' }),
    (e) => e.code === 'not_visible' && /Ghost.*no box on screen/.test(e.message));
});
