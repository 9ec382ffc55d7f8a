// slimSnapshot and capture: what the capture asks for and drops before it is serialized, and what it must keep.
import test from 'node:test';
import assert from 'node:assert/strict';
import { gunzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { capture, slimSnapshot } from '../lib/capture.js';

const snapshot = () => ({
  strings: ['#document', 'HTML', 'IFRAME', 'DIV'],
  documents: [{
    nodes: { nodeName: [0, 1, 2, 3], parentIndex: [-1, 0, 1, 1] },
    layout: {
      nodeIndex: [1, 2, 3], bounds: [[0, 0, 9, 9], [1, 1, 5, 5], [2, 2, 3, 3]],
      clientRects: [[0, 0, 9, 9], [3, 4, 5, 5], [0, 0, 3, 3]],
      offsetRects: [[], [], []], scrollRects: [[], [], []], stackingContexts: { index: [0] }, paintOrders: [1, 2, 3],
    },
    textBoxes: { layoutIndex: [], bounds: [], start: [], length: [] },
  }],
});

test('slimSnapshot drops what the compiler never reads and keeps frame owners\' border widths', () => {
  const s = slimSnapshot(snapshot());
  const d = s.documents[0];
  for (const k of ['offsetRects', 'scrollRects', 'stackingContexts', 'paintOrders']) assert.equal(k in d.layout, false, k);
  assert.equal('textBoxes' in d, false);
  assert.deepEqual(d.layout.clientRects, [[], [3, 4, 5, 5], []]);
  assert.deepEqual(d.layout.bounds, snapshot().documents[0].layout.bounds);
  assert.deepEqual(d.nodes, snapshot().documents[0].nodes);
});

test('slimSnapshot leaves what it cannot read alone', () => {
  assert.equal(slimSnapshot(undefined), undefined);
  assert.deepEqual(slimSnapshot({ documents: [{ nodes: {} }] }), { documents: [{ nodes: {} }] });
});

test('the recorded corpus is slim (it is recorded through the same capture code)', () => {
  const c = JSON.parse(gunzipSync(readFileSync(new URL('../../tests/cases/frames/00-load/capture.json.gz', import.meta.url))).toString());
  for (const snap of [c.snapshot, ...c.oopifs.map((o) => o.snapshot)])
    for (const d of snap.documents) {
      assert.equal('offsetRects' in d.layout, false);
      assert.equal('textBoxes' in d, false);
    }
});

test('a capture sends its small calls before the snapshot, and asks only for the styles the compiler reads', async () => {
  // Answers come back in the order the calls were sent: behind the snapshot, the frame tree and
  // the layout metrics would wait for chrome.debugger to convert it (docs/design.md, "Capture").
  const sent = [];
  const answers = {
    'Page.getFrameTree': { frameTree: { frame: { id: 'F0', url: 'https://example.test/' } } },
    'Page.getLayoutMetrics': { cssVisualViewport: { pageX: 0, pageY: 40, clientWidth: 800, clientHeight: 600 } },
    'DOMSnapshot.captureSnapshot': { strings: [], documents: [] },
  };
  const send = async (method, params) => { sent.push([method, params]); return answers[method]; };
  const r = await capture(send);
  assert.deepEqual(sent.map(([m]) => m), ['Page.getFrameTree', 'Page.getLayoutMetrics', 'DOMSnapshot.captureSnapshot']);
  assert.deepEqual(sent[2][1], { computedStyles: ['display', 'visibility', 'opacity', 'z-index', 'position', 'overflow', 'content'], includeDOMRects: false });
  assert.deepEqual(r.capture.styles, ['display', 'visibility', 'opacity', 'z-index', 'position', 'overflow', 'content']);
  assert.deepEqual(r.capture.viewport, { x: 0, y: 40, width: 800, height: 600 });
  assert.equal(r.capture.frameTree.frame.id, 'F0');
});

test('a frame session that does not answer is reported lost, with one warning, and its frame left out (#53.5: said once, then let go)', async () => {
  const answers = {
    'Page.getFrameTree': { frameTree: { frame: { id: 'F0', url: 'https://shop.test/' } } },
    'Page.getLayoutMetrics': { cssVisualViewport: { pageX: 0, pageY: 0, clientWidth: 800, clientHeight: 600 } },
    'DOMSnapshot.captureSnapshot': { strings: [], documents: [] },
  };
  // The session of DEAD went with its frame: every command to it fails, as Chrome answers one.
  const send = async (method, _params, sid) => {
    if (sid === 'DEAD') throw new Error('No session with given id');
    return answers[method];
  };
  const r = await capture(send, { oopifs: [{ frameId: 'F9', sessionId: 'DEAD' }] });
  assert.deepEqual(r.lost, ['DEAD']);
  assert.deepEqual(r.warnings, ['out-of-process frame F9 could not be captured: No session with given id']);
  assert.deepEqual(r.capture.oopifs, []);
});
