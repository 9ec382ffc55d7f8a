// wait_for's view of a ref's state (page-scripts.js LIVE_STATE_FN), run here on stand-in DOM nodes:
// visible and hidden as the core has them (core/src/compiler/visibility.cpp), so a ref the
// FactPack stops showing because it or an ancestor went to opacity 0 is hidden for wait_for too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import vm from 'node:vm';
import { LIVE_STATE_FN } from '../lib/page-scripts.js';

/** A context with a tiny DOM: nodes carry their computed style in `style`. */
function page() {
  const ctx = vm.createContext({});
  vm.runInContext(`
    const view = { getComputedStyle: (n) => ({ opacity: '1', visibility: 'visible', display: 'block', ...n.style }) };
    globalThis.getComputedStyle = view.getComputedStyle;
    globalThis.window = view;
    const doc = { nodeType: 9, parentNode: null, defaultView: view };
    view.frameElement = null;
    view.document = doc;
    globalThis.el = (tag, parent, style = {}) => ({
      nodeType: 1, localName: tag, parentNode: parent ?? doc, ownerDocument: doc, style, isConnected: true,
      getBoundingClientRect: () => ({ width: 10, height: 10 }), getClientRects: () => [{}], getAttribute: () => null,
    });
    globalThis.shadowOf = (host) => ({ nodeType: 11, host, parentNode: null });
    globalThis.state = ${LIVE_STATE_FN};`, ctx);
  return (/** @type {string} */ code) => vm.runInContext(code, ctx);
}

test('opacity 0 on the element or an ancestor (also across a shadow root) is hidden; 0.5 is not', () => {
  const run = page();
  assert.equal(run(`state.call(el('button', el('div'))).visible`), true);
  assert.equal(run(`state.call(el('button', el('div'), { opacity: '0' })).visible`), false, 'its own opacity 0');
  assert.equal(run(`state.call(el('button', el('section', el('div', null, { opacity: '0' })))).visible`), false, 'an ancestor\'s opacity 0');
  assert.equal(run(`state.call(el('button', shadowOf(el('x-card', null, { opacity: '0' })))).visible`), false, 'the shadow host\'s opacity 0');
  assert.equal(run(`state.call(el('button', el('div', null, { opacity: '0.5' }))).visible`), true);
  assert.equal(run(`state.call(el('button', el('div'), { visibility: 'collapse' })).visible`), false, 'visibility collapse');
});

test('a native control transparent on its own is visible (its styled stand-in is shown), not under a transparent ancestor', () => {
  const run = page();
  assert.equal(run(`state.call(el('input', el('label'), { opacity: '0' })).visible`), true);
  assert.equal(run(`state.call(el('input', el('label', null, { opacity: '0' }))).visible`), false);
});
