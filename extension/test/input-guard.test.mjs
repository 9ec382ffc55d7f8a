// The input guard (extension/lib/input-guard.js) with a fake CDP page: where the next key goes is
// followed from the top document through frames into an out-of-process frame's session, and a
// withheld frame on the way refuses, naming it, also inside a closed shadow root (resolved through
// CDP) and when nested past the bound; a page with nothing withheld costs no call; the
// iframes of withheld frames are hidden for a press, in the session that holds them, and given
// back what they had even when the press fails. The real chain is tests/e2e/input-policy.test.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FOCUS_FN, HIDE_FN, InputGuard, UNHIDE_FN } from '../lib/input-guard.js';
import { TabDriver } from '../lib/tab-driver.js';
import { TabSession } from '../lib/tab-session.js';
import { ToolError } from '../lib/tab-state.js';
import { LIMITS } from '../lib/limits.js';

/**
 * A tab whose top document focuses `focus.main` (a list of {backendNodeId, frameId?, name}: the
 * focused element, or the iframes crossed then what is focused inside) and, in the session of an
 * out-of-process frame, `focus[sid]`. `withheld` frames are the policy's; frame OOP is in session S1.
 */
function tab({ focus = {}, withheld = [], owners = {} } = {}) {
  const t = new TabSession(5, { context: 0, page: 1 }, 'a');
  t.captured({ frameTree: { frame: { id: 'MAIN', url: 'https://shop.test/' }, childFrames: [{ frame: { id: 'BANK', url: 'https://bank.test/transfer' } }] },
    oopifs: [{ frameId: 'OOP', frameTree: { frame: { id: 'OOP', url: 'https://cdn.test/' } } }] }, { owners: new Set(), frames: new Set(withheld) });
  t.frameAttached('S1', 'OOP');
  const calls = [];
  /** @type {Map<string, any>} */
  const objects = new Map();
  const send = async (_t, method, params = {}, sid) => {
    calls.push({ method, params, sid });
    switch (method) {
      case 'Runtime.evaluate': {
        assert.ok(params.expression.startsWith(`(${FOCUS_FN})`));
        objects.set(`chain@${sid ?? 'main'}`, focus[sid ?? 'main'] ?? []);
        return { result: { objectId: `chain@${sid ?? 'main'}` } };
      }
      case 'Runtime.getProperties':
        return { result: objects.get(params.objectId).map((e, i) => ({ name: String(i), value: { objectId: `el${e.backendNodeId}@${sid ?? 'main'}` } })).concat([{ name: 'length', value: { value: 1 } }]) };
      case 'DOM.describeNode': {
        const bn = Number(/el(\d+)/.exec(params.objectId)[1]);
        const e = Object.values(focus).flat().find((x) => x.backendNodeId === bn);
        // A host of a closed shadow root ({closedRoot: its backendNodeId}): CDP lists the root.
        return { node: { backendNodeId: bn, ...(e.frameId ? { frameId: e.frameId } : {}), ...(e.closedRoot ? { shadowRoots: [{ backendNodeId: e.closedRoot, shadowRootType: 'closed' }] } : {}) } };
      }
      case 'DOM.getFrameOwner': {
        const o = owners[params.frameId];
        if (!o || o.sid !== sid) throw new Error('Frame with the given id was not found.');
        return { backendNodeId: o.node };
      }
      case 'DOM.resolveNode': return { object: { objectId: `el${params.backendNodeId}@${sid ?? 'main'}` } };
      case 'Page.getFrameTree': throw new Error('no such session');
      case 'Runtime.releaseObject': return {};
      case 'Runtime.callFunctionOn': {
        if (params.functionDeclaration === HIDE_FN) return { result: { value: { value: 'visible', priority: '' } } };
        if (params.functionDeclaration === UNHIDE_FN) return { result: {} };
        if (params.functionDeclaration === FOCUS_FN) {
          // The chain again from a closed shadow root (focus[`root<backendNodeId>`]).
          const key = `root${/el(\d+)/.exec(params.objectId)[1]}`;
          objects.set(`chain@${key}`, focus[key] ?? []);
          return { result: { objectId: `chain@${key}` } };
        }
        throw new Error('unexpected function');
      }
      default: throw new Error(`unexpected ${method}`);
    }
  };
  // The core names the owner (engine.describeNode): the iframe titled "Partner offers" is node 8.
  const describe = (/** @type {any} */ _t, /** @type {number} */ bn) => (bn === 8 ? { ref: 'e3', role: 'iframe', name: 'Partner offers' } : null);
  return { t, calls, guard: new InputGuard(new TabDriver(send), describe) };
}

test('nothing withheld: the focus is not looked for, no call', async () => {
  const { t, calls, guard } = tab({ focus: { main: [{ backendNodeId: 3 }] } });
  await guard.checkFocus(t, 'press', '');
  assert.deepEqual(calls, []);
});

test('the focus in an allowed field: the keys go on', async () => {
  const { t, guard } = tab({ withheld: ['BANK'], focus: { main: [{ backendNodeId: 3 }] } });
  assert.equal(await guard.withheldFocus(t), null);
});

test('the focus in the iframe of a withheld frame: refused as the policy\'s, naming the iframe and its host', async () => {
  const { t, guard } = tab({ withheld: ['BANK'], focus: { main: [{ backendNodeId: 8, frameId: 'BANK' }] } });
  await assert.rejects(guard.checkFocus(t, 'press', '1 of 2 key events were sent before the focus moved'), (e) => {
    assert.ok(e instanceof ToolError);
    assert.equal(e.code, 'blocked_origin');
    assert.equal(e.message, 'the focus is in iframe "Partner offers" from bank.test, a frame the user\'s policy withholds (the page put it there): press stopped, nothing was sent there; 1 of 2 key events were sent before the focus moved');
    return true;
  });
});

test('the focus through an allowed out-of-process frame into a withheld one: followed into its session, refused', async () => {
  const { t, calls, guard } = tab({ withheld: ['BANK'], focus: { main: [{ backendNodeId: 4, frameId: 'OOP' }], S1: [{ backendNodeId: 9, frameId: 'BANK' }] } });
  await assert.rejects(guard.checkFocus(t, 'type', ''), { code: 'blocked_origin' });
  assert.ok(calls.some((c) => c.method === 'Runtime.evaluate' && c.sid === 'S1'), 'asked the frame\'s own session');
  const allowed = tab({ withheld: ['BANK'], focus: { main: [{ backendNodeId: 4, frameId: 'OOP' }], S1: [{ backendNodeId: 10 }] } });
  assert.equal(await allowed.guard.withheldFocus(allowed.t), null);
});

test('the focus at the host of a closed shadow root: followed into the root through CDP, refused when a withheld frame in it has it', async () => {
  const { t, calls, guard } = tab({ withheld: ['BANK'], focus: { main: [{ backendNodeId: 5, closedRoot: 50 }], root50: [{ backendNodeId: 8, frameId: 'BANK' }] } });
  await assert.rejects(guard.checkFocus(t, 'press', ''), (e) => {
    assert.equal(e.message, 'the focus is in iframe "Partner offers" from bank.test, a frame the user\'s policy withholds (the page put it there): press stopped, nothing was sent there');
    return true;
  });
  assert.ok(calls.some((c) => c.method === 'DOM.resolveNode' && c.params.backendNodeId === 50), 'resolved the closed root');
  const allowed = tab({ withheld: ['BANK'], focus: { main: [{ backendNodeId: 5, closedRoot: 50 }], root50: [{ backendNodeId: 6 }] } });
  assert.equal(await allowed.guard.withheldFocus(allowed.t), null);
});

test('closed shadow roots nested past the bound: refused, where the keys would go is not known', async () => {
  const focus = { main: [{ backendNodeId: 100, closedRoot: 1000 }] };
  for (let i = 0; i <= LIMITS.actionFrameDepth + 1; i++) focus[`root${1000 + i}`] = [{ backendNodeId: 101 + i, closedRoot: 1001 + i }];
  const { t, guard } = tab({ withheld: ['BANK'], focus });
  await assert.rejects(guard.checkFocus(t, 'type', ''), (e) => {
    assert.equal(e.code, 'blocked_origin');
    assert.equal(e.message, `the focus is nested deeper than ${LIMITS.actionFrameDepth} frames or closed shadow roots, past where it is checked against the user's policy: type stopped, nothing was sent`);
    return true;
  });
});

test('for a press, the iframe of each withheld frame is hidden in the session that holds it, and given back after, also when the press fails', async () => {
  const { t, calls, guard } = tab({ withheld: ['BANK'], owners: { BANK: { sid: 'S1', node: 12 } } });
  const seen = [];
  await assert.rejects(guard.withWithheldHidden(t, async () => {
    seen.push(calls.filter((c) => c.params.functionDeclaration === HIDE_FN).map((c) => `${c.params.objectId}`));
    throw new ToolError('covered', 'x');
  }), { code: 'covered' });
  assert.deepEqual(seen, [['el12@S1']], 'hidden before the press');
  const back = calls.filter((c) => c.params.functionDeclaration === UNHIDE_FN);
  assert.deepEqual(back.map((c) => [c.params.objectId, c.params.arguments.map((a) => a.value)]), [['el12@S1', ['visible', '']]], 'its own inline visibility back');
});
