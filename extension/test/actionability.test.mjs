// Actionability (extension/lib/actionability.js) with a fake CDP page: before a press, the element
// must be attached, visible, still, enabled and be what the pointer lands on. A button under a
// cookie banner is not pressed and the error names the banner's button by its ref; a point clear of
// the banner, or a scroll that clears it, is used instead; a transparent iframe from a site the
// policy withholds is never pressed through; the hit test follows an out-of-process frame into its
// own session. Through the agent: a covered click sends no mouse press, and type replaces a field's
// value unless append is asked. The real chain is in tests/e2e/actionability.test.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import vm from 'node:vm';
import { Actionability, COVER_FN, HOVERED_FN, LABELS_FN, RECEIVES_FN, SCROLL_TO_FN, ACTIONABLE_STATE_FN, pointsIn } from '../lib/actionability.js';
import { LIMITS } from '../lib/limits.js';
import { TabDriver } from '../lib/tab-driver.js';
import { TabSession } from '../lib/tab-session.js';
import { FILL_FN } from '../lib/tools/input.js';
import { setup } from './fake-page.mjs';

const quad = (x, y, w, h) => [x, y, x + w, y, x + w, y + h, x, y + h];
const PLACE_ORDER = { ref: 'e4', backendNodeId: 7, frameId: 'MAIN', role: 'button', name: 'Place order' };
const BOX = { x: 100, y: 200, width: 80, height: 20 };

/**
 * A fake page: the target (node 7) at BOX in the main frame; `hit(x, y, sid)` says which node the
 * pointer lands on ({backendNodeId, frameId} or null for none). Node 9 is the banner's button
 * "Accept all cookies" (ref e9 when `refs` is on).
 */
function page(o = {}) {
  const t = new TabSession(5, { context: 0, page: 1 }, 'a');
  t.captured({ frameTree: { frame: { id: 'MAIN', url: 'https://shop.test/' }, childFrames: [{ frame: { id: 'EVIL', url: 'https://ads.blocked.test/frame' } }] } });
  const calls = [];
  const state = { scrolled: [], ...o.state };
  const send = async (_t, method, params = {}, sid) => {
    calls.push({ method, params, sid });
    switch (method) {
      case 'DOM.scrollIntoViewIfNeeded': case 'Runtime.releaseObject': return {};
      case 'DOM.resolveNode': return { object: { objectId: `node${params.backendNodeId}@${sid ?? 'main'}` } };
      case 'DOM.getBoxModel': {
        const b = o.boxOf?.(params.backendNodeId, sid, state) ?? BOX;
        return { model: { border: quad(b.x, b.y, b.width, b.height), content: quad(b.x, b.y, b.width, b.height) } };
      }
      case 'Page.getFrameTree': {
        const f = Object.entries(o.owners ?? {}).find(([, v]) => v.session === sid);
        if (!f) throw new Error('no such session');
        return { frameTree: { frame: { id: f[0], url: f[1].url } } };
      }
      case 'Page.getLayoutMetrics': return { cssLayoutViewport: { pageX: 0, pageY: o.scrollY ?? 0, clientWidth: 800, clientHeight: 600 } };
      case 'DOM.getNodeForLocation': {
        const h = o.hit(params.x, params.y, sid, state);
        if (!h) throw new Error('No node found at given location');
        return h;
      }
      case 'DOM.getFrameOwner': {
        const owner = o.owners?.[params.frameId];
        if (!owner || owner.sid !== sid) throw new Error('Frame with the given id was not found.');
        return { backendNodeId: owner.node };
      }
      case 'DOM.describeNode': return { node: { backendNodeId: Number(/node(\d+)/.exec(params.objectId)?.[1] ?? 0), localName: o.tag ?? 'div' } };
      case 'Runtime.callFunctionOn': {
        const fn = params.functionDeclaration;
        if (fn === ACTIONABLE_STATE_FN) return { result: { value: o.stateOf?.(state) ?? { state: 'ok', stable: true, disabled: false, readonly: false } } };
        if (fn === SCROLL_TO_FN) { state.scrolled.push(params.arguments[0].value); return { result: {} }; }
        if (fn === RECEIVES_FN) return { result: { value: !!o.receives?.(params.objectId, params.arguments[0].objectId) } };
        if (fn === COVER_FN) return { result: { objectId: params.objectId } };
        if (fn === HOVERED_FN) return { result: { value: !!o.hovered?.(state) } };
        if (fn === LABELS_FN) return { result: { value: o.labels ?? { x: BOX.x, y: BOX.y, labels: [] } } };
        throw new Error(`unexpected function ${fn.slice(0, 40)}`);
      }
      default: throw new Error(`unexpected ${method}`);
    }
  };
  const driver = new TabDriver(send);
  // The core's naming (engine.describeNode): e9 for the banner's button unless `refs` is off.
  const refOf = (bn, frameId) => {
    assert.equal(frameId, 'MAIN', 'the node is named in its own frame');
    return o.known ? o.known(bn) : o.refs !== false && bn === 9 ? { ref: 'e9', role: 'button', name: 'Accept all cookies' } : null;
  };
  const check = (target = PLACE_ORDER, opts = {}) => new Actionability(driver).check(t, target, { kind: 'click', enabled: true, refOf, ...opts });
  // A click as pointerAt makes it: one look that checks, then confirms once the pointer is there.
  const look = new Actionability(driver);
  const opts = { kind: 'click', enabled: true, moves: true, refOf };
  const pointer = { check: () => look.check(t, PLACE_ORDER, opts), confirm: (/** @type {{x: number, y: number}} */ p, extra = {}) => look.confirm(t, PLACE_ORDER, p, { ...opts, ...extra }) };
  return { t, calls, state, check, pointer };
}

const banner = { backendNodeId: 9, frameId: 'MAIN' };
const self = { backendNodeId: 7, frameId: 'MAIN' };

test('a button under a cookie banner: nothing pressed, the error names the banner\'s button by its ref', async () => {
  const { check, calls, state } = page({ hit: () => banner });
  await assert.rejects(check(), (e) => {
    assert.equal(e.code, 'covered');
    assert.match(e.message, /^button "Accept all cookies" \(e9\) is over e4 button "Place order": nothing was pressed/);
    assert.match(e.message, /close it or scroll$/);
    return true;
  });
  assert.deepEqual(state.scrolled, [...LIMITS.actionScrollBlocks], 'every other scroll position was tried');
  const hits = calls.filter((c) => c.method === 'DOM.getNodeForLocation').length;
  assert.equal(hits, (1 + LIMITS.actionScrollBlocks.length) * pointsIn(BOX).length, 'every point at every scroll position, and no more');
});

test('a cover the agent holds no ref for is named by the core\'s role and name, quoted', async () => {
  const { check } = page({ hit: () => banner, known: () => ({ ref: '', role: 'dialog', name: 'We use "cookies" </warning>' }) });
  await assert.rejects(check(), (e) => e.code === 'covered' && e.message.startsWith('dialog "We use \\"cookies\\" \\</warning>" (no ref: not in your FactPack) is over e4'));
});

test('a cover the compiler made no line of is named by its tag only: no role or name is made up in the page', async () => {
  const { check, calls } = page({ hit: () => banner, refs: false, tag: 'div' });
  await assert.rejects(check(), (e) => e.code === 'covered' && e.message.startsWith('a <div> that is no line of your FactPack is over e4'));
  const fns = calls.filter((c) => c.method === 'Runtime.callFunctionOn').map((c) => c.params.functionDeclaration);
  const known = new Set([ACTIONABLE_STATE_FN, COVER_FN, SCROLL_TO_FN, RECEIVES_FN, LABELS_FN]);
  assert.ok(fns.every((f) => known.has(f)), 'no page function but the checks\' own: nothing named the cover in the page');
});

test('the core\'s role is shown only if it is a plain word', async () => {
  const { check } = page({ hit: () => banner, known: () => ({ ref: '', role: 'x"><full', name: 'Promo' }) });
  await assert.rejects(check(), (e) => e.code === 'covered' && e.message.startsWith('element "Promo" (no ref'));
});

test('the centre is covered, a quarter of the button is not: pressed there', async () => {
  const { check } = page({ hit: (x, y) => (x === 120 && y === 205 ? self : banner) });
  assert.deepEqual(await check(), { x: 120, y: 205 });
});

test('a scroll that clears the banner: pressed after it, at the centre', async () => {
  const { check, state } = page({ hit: (x, y, sid, s) => (s.scrolled.includes('center') ? self : banner) });
  assert.deepEqual(await check(), { x: 140, y: 210 });
  assert.deepEqual(state.scrolled, ['center']);
});

test('a hit inside the target (its label text, a node in its shadow root) is the target', async () => {
  const { check, calls } = page({ hit: () => ({ backendNodeId: 70, frameId: 'MAIN' }), receives: (self, hit) => self === 'node7@main' && hit === 'node70@main' });
  assert.deepEqual(await check(), { x: 140, y: 210 });
  assert.ok(calls.some((c) => c.method === 'Runtime.callFunctionOn' && c.params.functionDeclaration === RECEIVES_FN));
});

test('a control no point of which can be hit (a check box hidden the screen-reader way): pressed through its label', async () => {
  // The target's box model says x 100; in its frame it is at x 60: the frame lies 40 px right.
  const labels = { x: 60, y: 200, labels: [{ x: 300, y: 200, width: 120, height: 30 }] };
  const label = { backendNodeId: 30, frameId: 'MAIN' };
  const { check } = page({ labels, hit: (x) => (x >= 340 ? label : banner), receives: (me, hit) => me === 'node7@main' && hit === 'node30@main' });
  assert.deepEqual(await check(), { x: 400, y: 215 }, 'the centre of the label, in main-viewport px');
  const { check: none } = page({ labels: { x: 100, y: 200, labels: [] }, hit: () => banner });
  await assert.rejects(none(), (e) => e.code === 'covered' && e.message.startsWith('button "Accept all cookies" (e9) is over e4'), 'no label: refused as before, naming the cover');
  const { check: coveredLabel } = page({ labels, hit: () => banner });
  await assert.rejects(coveredLabel(), (e) => e.code === 'covered' && e.message.includes(`tried ${(1 + LIMITS.actionScrollBlocks.length) * 10} points`), 'a label under the banner is no way through');
});

/**
 * A page of elements small enough to run RECEIVES_FN on in Node: h(tag, attrs, ...children) with
 * children elements or strings; attrs `hidden: true` for an element with no box.
 */
function fakeDom() {
  const ctx = vm.createContext({ getComputedStyle: (n) => ({ display: n.fake.display ?? 'block' }) });
  /** @param {string} sel */
  const simple = (el, sel) => {
    const m = /^([a-z]*)((?:\[[a-z-]+(?:=[a-z]+)?\])*)$/.exec(sel.trim());
    if (!m) throw new Error(`selector ${sel}`);
    if (m[1] && m[1] !== el.localName) return false;
    return [...m[2].matchAll(/\[([a-z-]+)(?:=([a-z]+))?\]/g)].every(([, a, v]) => (v === undefined ? a in el.fake.attrs : el.fake.attrs[a] === v));
  };
  const link = (parent, kids) => {
    kids.forEach((k, i) => { k.parentNode = parent; k.nextSibling = kids[i + 1] ?? null; });
    parent.firstChild = kids[0] ?? null;
  };
  const h = (tag, attrs = {}, ...children) => {
    const el = {
      nodeType: 1, localName: tag, fake: { attrs, display: attrs.display }, parentNode: null, nextSibling: null, labels: [], control: null,
      matches: (list) => list.split(',').some((sel) => simple(el, sel)),
      getClientRects: () => (attrs.hidden || attrs.display === 'contents' ? [] : [{}]),
    };
    link(el, children.map((c) => (typeof c === 'string' ? { nodeType: 3, data: c, parentNode: null, nextSibling: null } : c)));
    return el;
  };
  const receives = vm.runInContext(`(${RECEIVES_FN})`, ctx);
  return { h, receives: (target, hit, max = LIMITS.actionContentNodes) => receives.call(target, hit, max) };
}

test('what forwards the press is the target: a tab\'s own link, a row\'s cell, a control\'s label, an icon\'s ::before', () => {
  const { h, receives } = fakeDom();
  // jQuery UI tabs: <li role=tab> around <a role=presentation href>, its whole content.
  const text = h('span', {}, 'Settings');
  const a = h('a', { href: '#panel', role: 'presentation' }, text);
  const tab = h('li', { role: 'tab' }, '\n  ', a, '\n');
  assert.equal(receives(tab, a), true, 'the tab\'s own link');
  assert.equal(receives(tab, text), true, 'a span inside it');
  // A tooltip that is not drawn is not content beside the link; a wrapper of display:contents is looked into.
  const tipped = h('li', { role: 'tab' }, a, h('span', { hidden: true }, 'Opens the settings'));
  assert.equal(receives(tipped, a), true, 'an undrawn tooltip beside it');
  const a2 = h('a', { href: '#b' }, 'Billing');
  const wrapped = h('li', { role: 'tab' }, h('span', { display: 'contents' }, a2, h('span', {}, '3 unpaid')));
  assert.equal(receives(wrapped, a2), false, 'text in a display:contents wrapper is beside the link');
  // A row's cell forwards to the row.
  const cell = h('td', {}, 'Order 1002');
  const row = h('tr', {}, cell, h('td', {}, '74.99'));
  assert.equal(receives(row, cell), true, 'a row\'s cell');
  // A label of the control, away from it.
  const box = h('input', { type: 'checkbox' });
  const caption = h('span', {}, 'Weekly newsletter');
  const label = h('label', {}, caption);
  label.control = box;
  h('div', {}, label, box);
  assert.equal(receives(box, caption), true, 'text in its label');
  // AG Grid's sort arrow is an icon font's ::before: CDP hits the pseudo-element.
  const icon = h('span', { class: 'ag-icon' });
  const header = h('div', { role: 'columnheader' }, h('span', {}, 'Total'), icon);
  assert.equal(receives(header, { type: '::before', element: icon }), true, 'a ::before of a part of it');
});

test('a cover that is not part of the target is refused: a child tree item, a row\'s Edit button, a sibling, a second control', () => {
  const { h, receives } = fakeDom();
  // An open tree item: its centre is its first child item, which would take the press.
  const apple = h('li', { role: 'treeitem' }, 'Apple');
  const fruits = h('li', { role: 'treeitem' }, h('span', {}, 'Fruits'), h('ul', { role: 'group' }, apple, h('li', { role: 'treeitem' }, 'Pear')));
  assert.equal(receives(fruits, apple), false, 'a child tree item');
  // A row whose centre is its Edit button.
  const edit = h('button', {}, 'Edit');
  const row = h('tr', {}, h('td', {}, 'Order 1002'), h('td', {}, edit));
  assert.equal(receives(row, edit), false, 'a row\'s Edit button');
  // A tab with a close button beside its link: the link is one part of two.
  const link = h('a', { href: '#p' }, 'Report');
  const closable = h('li', { role: 'tab' }, link, h('span', { role: 'button' }));
  assert.equal(receives(closable, link), false, 'a link beside a close button');
  // A ribbon over a tab, a sibling of it.
  const ribbon = h('div', { role: 'note' }, 'New plans');
  const billing = h('li', { role: 'tab' }, h('a', { href: '#b' }, 'Billing'));
  h('div', {}, billing, ribbon);
  assert.equal(receives(billing, ribbon), false, 'a ribbon beside the tab');
  assert.equal(receives(billing, { type: '::after', element: ribbon }), false, 'the ribbon\'s ::after');
  // Past the named bound of nodes looked at, a nested control counts as a part.
  const big = h('li', { role: 'tab' }, ...Array.from({ length: 10 }, () => ' '), link);
  assert.equal(receives(big, link, 5), false, 'more nodes than the bound');
  assert.equal(receives(big, link), true, 'within the bound');
});

test('the fast path: a hit on the target itself costs one hit test and no node lookup', async () => {
  const { check, calls } = page({ hit: () => self });
  await check();
  assert.equal(calls.filter((c) => c.method === 'DOM.getNodeForLocation').length, 1);
  assert.ok(!calls.some((c) => c.method === 'DOM.resolveNode' && c.params.backendNodeId !== 7));
});

test('hit tests use document coordinates: the viewport point plus the page\'s scroll', async () => {
  const { check, calls } = page({ scrollY: 1000, hit: () => self });
  await check();
  const h = calls.find((c) => c.method === 'DOM.getNodeForLocation');
  assert.deepEqual([h.params.x, h.params.y], [140, 1210]);
});

test('a transparent iframe from a withheld site over the button: refused as the policy\'s, never pressed', async () => {
  const { check, t } = page({ hit: () => ({ backendNodeId: 50, frameId: 'MAIN' }), owners: { EVIL: { sid: undefined, node: 50, session: 'S9', url: 'https://ads.blocked.test/frame' } } });
  t.captured(t.lastCapture, { owners: new Set([50]), frames: new Set(['EVIL']) });
  t.frameAttached('S9', 'EVIL');
  await assert.rejects(check(), (e) => {
    assert.equal(e.code, 'blocked_origin');
    assert.match(e.message, /^a frame from ads\.blocked\.test that the user's policy withholds is over e4 button "Place order": a press there would land in a frame the user's policy withholds, so nothing was pressed/);
    return true;
  });
});

test('a withheld frame over half the button, a banner elsewhere: the policy is what the error names', async () => {
  const { check, t } = page({ hit: (x) => (x < 140 ? { backendNodeId: 50, frameId: 'MAIN' } : banner) });
  t.captured(t.lastCapture, { owners: new Set([50]), frames: new Set() });
  await assert.rejects(check(), (e) => e.code === 'blocked_origin' && /^a frame that the user's policy withholds is over/.test(e.message));
});

test('a node in a same-process frame the policy withholds: refused', async () => {
  const { check, t } = page({ hit: () => ({ backendNodeId: 3, frameId: 'EVIL' }) });
  t.captured(t.lastCapture, { owners: new Set(), frames: new Set(['EVIL']) });
  await assert.rejects(check(), (e) => e.code === 'blocked_origin' && /from ads\.blocked\.test/.test(e.message));
});

test('a target in an out-of-process frame: the hit test follows the frame into its own session', async () => {
  // Frame F1 (session S1) is at (100, 50) in the page; the target (node 99) is at (5, 5) in it.
  const target = { ref: 'e2', backendNodeId: 99, frameId: 'F1', role: 'button', name: 'Pay' };
  const { check, t, calls } = page({
    owners: { F1: { sid: undefined, node: 11 } },
    boxOf: (bn, sid) => (bn === 11 ? { x: 100, y: 50, width: 300, height: 200 } : sid === 'S1' ? { x: 5, y: 5, width: 40, height: 10 } : undefined),
    hit: (x, y, sid) => (sid === 'S1' ? { backendNodeId: 99, frameId: 'F1' } : { backendNodeId: 11, frameId: 'MAIN' }),
  });
  t.frameAttached('S1', 'F1');
  t.captured({ ...t.lastCapture, oopifs: [{ frameId: 'F1', frameTree: { frame: { id: 'F1', url: 'https://pay.test/' } } }] });
  assert.deepEqual(await check(target), { x: 125, y: 60 });
  const inFrame = calls.find((c) => c.method === 'DOM.getNodeForLocation' && c.sid === 'S1');
  assert.deepEqual([inFrame.params.x, inFrame.params.y], [25, 10], 'the point in the frame\'s own coordinates');
});

test('an element that keeps moving is refused after the named number of checks', async () => {
  let checks = 0;
  const { check, calls } = page({ hit: () => self, stateOf: () => { checks++; return { state: 'ok', stable: false, disabled: false }; } });
  await assert.rejects(check(), (e) => e.code === 'not_stable' && /kept moving/.test(e.message));
  assert.equal(checks, LIMITS.actionStableAttempts);
  assert.ok(!calls.some((c) => c.method === 'DOM.getNodeForLocation'), 'no point is looked for on a moving element');
});

test('an element that settles on the second check is pressed', async () => {
  let checks = 0;
  const { check } = page({ hit: () => self, stateOf: () => ({ state: 'ok', stable: ++checks > 1, disabled: false }) });
  assert.deepEqual(await check(), { x: 140, y: 210 });
});

test('hidden, detached, disabled and read-only elements are refused before any point is looked for', async () => {
  for (const [st, code, opts] of [
    [{ state: 'hidden' }, 'not_visible', {}],
    [{ state: 'detached' }, 'not_attached', {}],
    [{ state: 'ok', stable: true, disabled: true }, 'element_disabled', {}],
    [{ state: 'ok', stable: true, readonly: true }, 'not_editable', { kind: 'type', editable: true }],
  ]) {
    const { check, calls } = page({ hit: () => self, stateOf: () => st });
    await assert.rejects(check(PLACE_ORDER, opts), (e) => e.code === code && e.message.includes('e4 button "Place order"'), code);
    assert.ok(!calls.some((c) => c.method === 'DOM.getNodeForLocation'), code);
  }
});

/**
 * The page's answer of ACTIONABLE_STATE_FN (run here on a stand-in button in a stand-in document) for a
 * button of computed style `own` under a div of computed style `parent`.
 * @param {Record<string, string>} own @param {Record<string, string>} parent
 */
function stateInPage(own, parent) {
  const ctx = vm.createContext({ setTimeout, clearTimeout });
  return vm.runInContext(`
    const view = { getComputedStyle: (n) => ({ opacity: '1', visibility: 'visible', display: 'block', ...n.style }), frameElement: null };
    globalThis.getComputedStyle = view.getComputedStyle;
    globalThis.window = view;
    globalThis.requestAnimationFrame = (f) => { Promise.resolve().then(f); };
    const doc = { nodeType: 9, parentNode: null, defaultView: view };
    const el = (tag, parentNode, style) => ({ nodeType: 1, localName: tag, parentNode, ownerDocument: doc, style, isConnected: true,
      matches: () => false, closest: () => null, getAttribute: () => null,
      getBoundingClientRect: () => ({ x: 0, y: 0, width: 80, height: 20 }), getClientRects: () => [{}] });
    (${ACTIONABLE_STATE_FN}).call(el('button', el('div', doc, ${JSON.stringify(parent)}), ${JSON.stringify(own)}), 50);`, ctx);
}

test('an element at opacity 0 (its own or an ancestor\'s, any spelling of 0) is refused as not visible, naming it', async () => {
  for (const [own, parent] of [[{ opacity: '0' }, {}], [{}, { opacity: '0.00' }]]) {
    const st = await stateInPage(own, parent);
    assert.deepEqual({ state: st.state, why: st.why }, { state: 'hidden', why: 'opacity' });
    const { check, calls } = page({ hit: () => self, stateOf: () => st });
    await assert.rejects(check(), { code: 'not_visible', message: 'e4 button "Place order" is not visible (opacity 0, on it or an ancestor): click refused, nothing was done' });
    assert.ok(!calls.some((c) => c.method === 'DOM.getNodeForLocation'), 'nothing is pressed');
  }
  const shown = await stateInPage({ opacity: '0.5' }, {});
  assert.equal(shown.state, 'ok', 'opacity 0.5 is pressed');
});

test('hover does not ask for an enabled element; upload asks for no point at all', async () => {
  const disabled = () => ({ state: 'ok', stable: true, disabled: true });
  assert.deepEqual(await page({ hit: () => self, stateOf: disabled }).check(PLACE_ORDER, { kind: 'hover', enabled: false }), { x: 140, y: 210 });
  const up = page({ hit: () => banner, stateOf: () => ({ state: 'hidden', disabled: false }) });
  assert.equal(await up.check(PLACE_ORDER, { kind: 'upload', visible: false }), null, 'a hidden file input behind its label takes files');
  await assert.rejects(page({ hit: () => self, stateOf: () => ({ state: 'hidden', disabled: true }) }).check(PLACE_ORDER, { kind: 'upload', visible: false }), (e) => e.code === 'element_disabled');
});

test('an element outside the visible page at every point: not_visible, nothing pressed', async () => {
  const { check } = page({ hit: () => null });
  await assert.rejects(check(), (e) => e.code === 'not_visible' && /outside the visible page/.test(e.message));
});

// ------------------------------------------------------------------ through the agent

test('click on a covered button: an error, and no mouse button is pressed', async () => {
  const { agent, chrome, engine } = await setup({
    answer: (method, params) => {
      if (method === 'DOM.getNodeForLocation') return { backendNodeId: 9, frameId: 'MAIN' };
      if (method === 'Runtime.callFunctionOn' && params.functionDeclaration === COVER_FN) return { result: { objectId: 'cover9' } };
      if (method === 'DOM.describeNode') return { node: { backendNodeId: 9 } };
      return undefined;
    },
  });
  const resolve = engine.resolve;
  engine.describeNode = (key, bn, frameId) => (bn === 9 && frameId === 'MAIN' ? { ref: 'e9', role: 'button', name: 'Accept all cookies' } : null);
  engine.resolve = (key, ref) => ({ ...resolve(key, ref), name: 'Place order' });
  const r = await agent.dispatch({ session: 'a', tool: 'click', args: { ref: 'e4', version: engine.delivered } });
  assert.equal(r.ok, false, JSON.stringify(r));
  assert.equal(r.error.code, 'covered');
  assert.match(r.error.message, /^button "Accept all cookies" \(e9\) is over e4 button "Place order"/);
  assert.ok(!chrome.sent.some((c) => c.method === 'Input.dispatchMouseEvent'), 'the pointer never moved, nothing was pressed');
  assert.equal(engine.calls.at(-1), 'abortAction', 'the action was aborted, no FactPack claims it happened');
});

/** The CDP calls type made, from its actionability check on. @param {any[]} sent */
const typed = (sent) => sent.filter((c) => ['DOM.focus', 'Input.insertText', 'Input.dispatchKeyEvent'].includes(c.method) ||
  (c.method === 'Runtime.callFunctionOn' && c.params.functionDeclaration === FILL_FN));

test('type replaces the value by default: the field\'s text is selected, then the new text typed over it', async () => {
  const { agent, chrome, engine } = await setup();
  const r = await agent.dispatch({ session: 'a', tool: 'type', args: { ref: 'e1', text: '25', version: engine.delivered } });
  assert.equal(r.ok, true, JSON.stringify(r));
  const calls = typed(chrome.sent);
  assert.deepEqual(calls.map((c) => c.method), ['DOM.focus', 'Runtime.callFunctionOn', 'Input.insertText', 'Input.dispatchKeyEvent', 'Input.dispatchKeyEvent']);
  assert.deepEqual(calls[1].params.arguments.map((a) => a.value), [false, '25'], 'FILL_FN asked to replace');
  // The last character is a key, so keyup listeners hear the typing end.
  assert.equal(calls[2].params.text, '2');
  assert.deepEqual(calls.slice(3).map((c) => [c.params.type, c.params.key, c.params.text ?? null]), [['keyDown', '5', '5'], ['keyUp', '5', null]]);
});

test('type ends with a key only for a character a key types the same way: a last line break is inserted, never Enter', async () => {
  const { agent, chrome, engine } = await setup();
  const r = await agent.dispatch({ session: 'a', tool: 'type', args: { ref: 'e1', text: 'Dear Ada,\n', version: engine.delivered } });
  assert.equal(r.ok, true, JSON.stringify(r));
  const calls = typed(chrome.sent);
  assert.deepEqual(calls.map((c) => c.method), ['DOM.focus', 'Runtime.callFunctionOn', 'Input.insertText']);
  assert.equal(calls[2].params.text, 'Dear Ada,\n');
  // One character, and one outside the basic plane: a key each, nothing inserted.
  for (const text of ['x', '😀']) {
    const one = await setup();
    await one.agent.dispatch({ session: 'a', tool: 'type', args: { ref: 'e1', text, version: one.engine.delivered } });
    assert.deepEqual(typed(one.chrome.sent).filter((c) => c.method.startsWith('Input.')).map((c) => [c.params.type ?? 'insert', c.params.text ?? null]),
      [['keyDown', text], ['keyUp', null]]);
  }
});

test('type with append: true puts the caret at the end and keeps the value', async () => {
  const { agent, chrome, engine } = await setup();
  const r = await agent.dispatch({ session: 'a', tool: 'type', args: { ref: 'e1', text: '0', append: true, version: engine.delivered } });
  assert.equal(r.ok, true, JSON.stringify(r));
  const fill = typed(chrome.sent).find((c) => c.method === 'Runtime.callFunctionOn');
  assert.deepEqual(fill.params.arguments.map((a) => a.value), [true, '0']);
});

test('type "" replaces the value with nothing: Delete over the selection', async () => {
  const { agent, chrome, engine } = await setup();
  const r = await agent.dispatch({ session: 'a', tool: 'type', args: { ref: 'e1', text: '', version: engine.delivered } });
  assert.equal(r.ok, true, JSON.stringify(r));
  const keys = typed(chrome.sent).filter((c) => c.method === 'Input.dispatchKeyEvent').map((c) => `${c.params.type}:${c.params.key}`);
  assert.deepEqual(keys, ['rawKeyDown:Delete', 'keyUp:Delete']);
});

test('type refuses append with clear, and a ref that takes no text', async () => {
  const both = await (await setup()).agent.dispatch({ session: 'a', tool: 'type', args: { ref: 'e1', text: 'x', append: true, clear: true } });
  assert.equal(both.error.code, 'bad_arguments');
  const { agent, chrome, engine } = await setup({
    answer: (method, params) => (method === 'Runtime.callFunctionOn' && params.functionDeclaration === FILL_FN ? { result: { value: { error: 'not a text field' } } } : undefined),
  });
  const r = await agent.dispatch({ session: 'a', tool: 'type', args: { ref: 'e1', text: 'x', version: engine.delivered } });
  assert.equal(r.error.code, 'not_editable');
  assert.ok(!chrome.sent.some((c) => c.method === 'Input.insertText'));
});

test('type and press on a ref that cannot take the focus (a heading) are refused by name, and nothing goes to the page', async () => {
  for (const [tool, args, nothing] of [['type', { text: 'x' }, 'typed'], ['press', { keys: 'Enter' }, 'pressed']]) {
    const { agent, chrome, engine } = await setup({
      // What Chrome answers DOM.focus on an element that takes no focus.
      answer: (method) => { if (method === 'DOM.focus') throw new Error('{"code":-32000,"message":"Element is not focusable"}'); return undefined; },
    });
    const r = await agent.dispatch({ session: 'a', tool, args: { ref: 'e1', ...args, version: engine.delivered } });
    assert.equal(r.error?.code, 'not_focusable', JSON.stringify(r));
    assert.match(r.error.message, new RegExp(`^${tool}: e1 .* cannot take the focus: nothing was ${nothing}; `), r.error.message);
    assert.ok(!chrome.sent.some((c) => c.method === 'Input.insertText' || c.method === 'Input.dispatchKeyEvent'), tool);
  }
});

test('press on a ref: looked at and focused first, then the keys', async () => {
  const { agent, chrome, engine } = await setup();
  const r = await agent.dispatch({ session: 'a', tool: 'press', args: { ref: 'e1', keys: 'Enter', version: engine.delivered } });
  assert.equal(r.ok, true, JSON.stringify(r));
  const order = chrome.sent.map((c) => c.method).filter((m) => ['DOM.getNodeForLocation', 'DOM.focus', 'Input.dispatchKeyEvent'].includes(m));
  assert.deepEqual(order, ['DOM.getNodeForLocation', 'DOM.focus', 'Input.dispatchKeyEvent', 'Input.dispatchKeyEvent']);
});

test('a click waits one frame before the pointer moves, the move\'s frame being the second; keys wait both', async () => {
  const frames = (calls) => calls.filter((c) => c.params.functionDeclaration === ACTIONABLE_STATE_FN).map((c) => c.params.arguments[1].value);
  const a = page({ hit: () => self });
  await a.pointer.check();
  assert.deepEqual(frames(a.calls), [LIMITS.actionStableFrames - 1]);
  const b = page({ hit: () => self });
  await b.check(PLACE_ORDER, { kind: 'type', enabled: true, editable: true });
  assert.deepEqual(frames(b.calls), [LIMITS.actionStableFrames]);
});

test('once the pointer is there: the same box is pressed; a box that moved is refused unless the pointer\'s arrival moved it (a :hover style)', async () => {
  const moved = { ...BOX, y: BOX.y - 3 };
  // Still: confirmed.
  const still = page({ hit: () => self });
  await still.pointer.confirm(await still.pointer.check());
  // It moved in the pointer's frame and the pointer is not over it: refused, named.
  const away = page({ hit: () => self, boxOf: (_bn, _sid, st) => (st.arrived ? moved : BOX), hovered: () => false });
  const p = await away.pointer.check();
  away.state.arrived = true;
  await assert.rejects(away.pointer.confirm(p), { code: 'not_stable', message: 'e4 button "Place order" moved as the pointer reached it (its box changed in the animation frame the pointer arrived in): nothing was pressed; wait_for it to settle, then retry' });
  // It came under the pointer with this move and lifted on :hover: the hit test decides, and it holds.
  const lift = page({ hit: () => self, boxOf: (_bn, _sid, st) => (st.arrived ? moved : BOX), hovered: (st) => !!st.arrived });
  const q = await lift.pointer.check();
  lift.state.arrived = true;
  await lift.pointer.confirm(q);
  // The pointer was over it already: a change is its own motion, not the pointer's doing.
  const over = page({ hit: () => self, boxOf: (_bn, _sid, st) => (st.arrived ? moved : BOX), hovered: () => true,
    stateOf: () => ({ state: 'ok', stable: true, disabled: false, readonly: false, hovered: true }) });
  const r = await over.pointer.check();
  over.state.arrived = true;
  await assert.rejects(over.pointer.confirm(r), { code: 'not_stable' });
  // Hover presses nothing: only the box is looked at again, no hit test.
  const hover = page({ hit: () => banner });
  const h = await hover.pointer.check().catch(() => ({ x: 140, y: 210 }));
  const before = hover.calls.length;
  await hover.pointer.confirm(h, { hit: false });
  assert.ok(!hover.calls.slice(before).some((c) => c.method === 'DOM.getNodeForLocation'), 'no hit test for hover');
});

test('once the pointer is there, what took the point is named before that the target moved', async () => {
  const moved = { ...BOX, x: BOX.x + 200 };
  const swap = page({ hit: (_x, _y, _sid, st) => (st.arrived ? banner : self), boxOf: (bn, _sid, st) => (bn === 7 && st.arrived ? moved : BOX) });
  const p = await swap.pointer.check();
  swap.state.arrived = true;
  await assert.rejects(swap.pointer.confirm(p), (e) => e.code === 'covered' && e.message.startsWith('button "Accept all cookies" (e9) came over e4 button "Place order" as the pointer reached it'));
});
