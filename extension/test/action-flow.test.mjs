// The action flow (extension/lib/action-flow.js) alone, with the fake engine of fake-page.mjs
// (which keeps the core's call-order rules) and a fake FlowIO: the order of engine calls for a
// snapshot and an action, a stale agent, a failing action, a disabled element, a blocked page, a
// JS dialog holding an action until it is answered, one call at a time per tab.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ActionFlow, CALL_ID, reply } from '../lib/action-flow.js';
import { LIMITS } from '../lib/limits.js';
import { TabSession } from '../lib/tab-session.js';
import { strictEngine } from './fake-page.mjs';

function setup(o = {}) {
  const engine = strictEngine();
  const log = [];
  const io = {
    engine: async () => engine,
    engineIfLoaded: () => engine,
    capture: async (t) => { log.push('capture'); const capture = { v: 1, n: log.length, ...(io.frames ? { frameTree: io.frames } : {}) }; t.captured(capture); return { capture, warnings: [] }; },
    /** The page's frame tree as a capture gives it (none: left out). @type {any} */
    frames: null,
    stabilize: async (t, so) => { log.push(so?.navigation ? 'stabilize:navigation' : 'stabilize'); t.settled(io.page); return o.stabilizeWarnings ?? []; },
    attach: async () => { log.push('attach'); },
    watch: async (t) => { log.push('watch'); t.watched(0); if (io.page) t.watchMarked(io.page); },
    /** The page's change mark as its watcher would give it. */
    page: 'doc1:0',
    tab: async () => ({ url: o.url ?? 'https://a.test/' }),
    pageAllowed: (url) => (url.includes('bank.test') ? { ok: false, code: 'blocked_origin', message: 'bank.test is on the block-list' } : { ok: true }),
    openedNotes: async () => [],
    send: async (t, method, params) => { log.push(`send:${method}`); return {}; },
    sleep: (ms) => new Promise((r) => setTimeout(r, Math.min(ms, 5))),
  };
  const flow = new ActionFlow(io);
  const t = new TabSession(5, { context: 0, page: 1 }, 'a');
  return { flow, engine, io, log, t };
}

test('the first call on a tab is a baseline; an action then goes begin -> resolve -> act -> stabilize -> finish', async () => {
  const { flow, engine, log, t } = setup();
  const first = await flow.run(t, 'snapshot', {}, null);
  assert.match(first.text, /^<full /);
  assert.deepEqual(engine.calls, ['openPage', 'snapshot']);
  assert.equal(t.hasBaseline, true);
  engine.calls.length = 0;
  log.length = 0;
  let acted = null;
  const r = await flow.run(t, 'click', { ref: 'e1', version: engine.delivered, [CALL_ID]: 'h1' }, async (target) => { acted = target; }, { ref: true });
  assert.match(r.text, /^<delta /);
  assert.equal(acted.backendNodeId, 7);
  assert.deepEqual(engine.calls, ['beginAction', 'resolve', 'finishAction']);
  assert.deepEqual(log, ['attach', 'watch', 'capture', 'stabilize', 'capture']);
  assert.equal(t.callId, 'h1');
  // Where the time went, for the benchmark: every phase of the action, summing to at most its total.
  const last = flow.timings.at(-1);
  assert.equal(last.tool, 'click');
  assert.deepEqual(Object.keys(last.phases).sort(), ['act', 'attach', 'capture', 'engine', 'queue', 'stabilize']);
  assert.ok(Object.values(last.phases).reduce((a, b) => a + b, 0) <= last.ms + 1);
});

test('an action on a tab the engine holds nothing for is not executed: a full snapshot says why', async () => {
  const { flow, t } = setup();
  let acted = false;
  const r = await flow.run(t, 'click', { ref: 'e1' }, async () => { acted = true; }, { ref: true });
  assert.equal(acted, false);
  assert.match(r.text, /click was not executed: the extension holds no state for tab c0p1/);
});

test('a stale agent is not acted for: the current page instead', async () => {
  const { flow, engine, t } = setup();
  await flow.run(t, 'snapshot', {}, null);
  let acted = false;
  const r = await flow.run(t, 'click', { ref: 'e1', version: 0 }, async () => { acted = true; }, { ref: true });
  assert.equal(acted, false);
  assert.match(r.text, /^<not_executed reason="stale_version" yours="0"/);
  assert.ok(!engine.calls.includes('finishAction'));
});

test('a failing action or a disabled element aborts the action; the next one works', async () => {
  const { flow, engine, t } = setup();
  await flow.run(t, 'snapshot', {}, null);
  await assert.rejects(flow.run(t, 'click', { ref: 'e1' }, async () => { throw new Error('the node went away'); }, { ref: true }), /went away/);
  assert.equal(engine.calls.at(-1), 'abortAction');
  const orig = engine.resolve;
  engine.resolve = (key, ref) => ({ ...orig(key, ref), disabled: true });
  await assert.rejects(flow.run(t, 'click', { ref: 'e1' }, async () => {}, { ref: true }), (e) => e.code === 'element_disabled');
  assert.equal(engine.calls.at(-1), 'abortAction');
  engine.resolve = orig;
  const ok = await flow.run(t, 'click', { ref: 'e1', version: engine.delivered }, async () => {}, { ref: true });
  assert.match(ok.text, /^<delta /);
});

test('a page the user does not allow: refused before anything is attached or captured', async () => {
  const { flow, log, t } = setup({ url: 'https://bank.test/' });
  await assert.rejects(flow.run(t, 'snapshot', {}, null), (e) => e.code === 'blocked_origin');
  assert.deepEqual(log, []);
});

test('a JS dialog holds the action; answering it finishes the action with a note', async () => {
  const { flow, engine, t } = setup();
  await flow.run(t, 'snapshot', {}, null);
  /** @type {() => void} */
  let release = () => {};
  const r = await flow.run(t, 'click', { ref: 'e1', version: engine.delivered }, async () => {
    t.dialogOpened({ type: 'confirm', message: 'Really delete?' });
    await new Promise((res) => { release = res; });
  }, { ref: true });
  assert.match(r.text, /^<dialog tab="c0p1" type="confirm" message="Really delete\?"/);
  assert.ok(!engine.calls.includes('finishAction'));
  let info = null;
  const finish = engine.finishAction;
  engine.finishAction = (key, cap, i) => { info = i; return finish(key, cap, i); };
  const answered = flow.answerDialog(t, { accept: true });
  release();
  const done = await answered;
  assert.match(done.text, /^<delta /);
  assert.equal(info.kind, 'click');
  assert.match(info.warnings.join('\n'), /answered the confirm "Really delete\?" with accept/);
  assert.equal(engine.calls.at(-1), 'finishAction');
});

test('calls on one tab run one at a time, in order', async () => {
  const { t } = setup();
  const order = [];
  const slow = t.run(async () => { order.push('slow:start'); await new Promise((r) => setTimeout(r, 20)); order.push('slow:end'); });
  const fast = t.run(async () => { order.push('fast'); });
  await Promise.all([slow, fast]);
  assert.deepEqual(order, ['slow:start', 'slow:end', 'fast']);
});

test('an action on a page unchanged since the last capture reuses it instead of capturing before acting', async () => {
  const { flow, engine, io, log, t } = setup();
  await flow.run(t, 'navigate', { url: 'https://a.test/' }, async () => {});
  const act = () => flow.run(t, 'click', { ref: 'e1', version: engine.delivered }, async () => {}, { ref: true });
  const navCapture = t.lastCapture;
  const began = [];
  const beginAction = engine.beginAction;
  engine.beginAction = (key, capture, version) => { began.push(capture); return beginAction(key, capture, version); };
  log.length = 0;
  await act();
  assert.deepEqual(log, ['attach', 'watch', 'stabilize', 'capture'], 'unchanged since the navigation: no capture before');
  assert.equal(flow.timings.at(-1).captures, 1);
  assert.equal(began.at(-1), navCapture, 'the action began on the navigation\'s capture');
  // The page changed since (a mutation, an input, a scroll): captured again before acting.
  io.page = 'doc1:7';
  log.length = 0;
  await act();
  assert.deepEqual(log, ['attach', 'watch', 'capture', 'stabilize', 'capture']);
  // An out-of-process frame, whose changes the page's watcher cannot see: always captured.
  t.onEvent('Target.attachedToTarget', { sessionId: 's1', targetInfo: { type: 'iframe', targetId: 'F1' } });
  log.length = 0;
  await act();
  assert.deepEqual(log, ['attach', 'watch', 'capture', 'stabilize', 'capture']);
  t.onEvent('Target.detachedFromTarget', { sessionId: 's1' });
  // A snapshot's capture carries no mark: the next action captures.
  await flow.run(t, 'snapshot', {}, null);
  log.length = 0;
  await act();
  assert.deepEqual(log, ['attach', 'watch', 'capture', 'stabilize', 'capture']);
  // A page without the watcher gives no mark: always captured.
  io.page = null;
  await act();
  log.length = 0;
  await act();
  assert.deepEqual(log, ['attach', 'watch', 'capture', 'stabilize', 'capture']);
});

test('a page with a same-site cross-origin iframe (in-process, out of its watcher\'s reach) is captured before every action', async () => {
  const { flow, engine, io, log, t } = setup();
  const frame = (id, url, securityOrigin, childFrames = []) => ({ frame: { id, url, securityOrigin }, childFrames });
  const act = () => flow.run(t, 'click', { ref: 'e1', version: engine.delivered }, async () => {}, { ref: true });
  // Same-origin frames and an about:blank one (its origin inherited) are the watcher's: reused.
  io.frames = frame('MAIN', 'https://shop.a.test/', 'https://shop.a.test', [frame('F1', 'https://shop.a.test/cart', 'https://shop.a.test'), frame('F2', 'about:blank', 'https://shop.a.test')]);
  await flow.run(t, 'navigate', { url: 'https://shop.a.test/' }, async () => {});
  log.length = 0;
  await act();
  assert.deepEqual(log, ['attach', 'watch', 'stabilize', 'capture'], 'every frame watched: the capture is reused');
  // A frame of pay.a.test (same site, another origin) in the page's process: captured again.
  io.frames = frame('MAIN', 'https://shop.a.test/', 'https://shop.a.test', [frame('F3', 'https://pay.a.test/widget', 'https://pay.a.test')]);
  await flow.run(t, 'navigate', { url: 'https://shop.a.test/' }, async () => {});
  log.length = 0;
  await act();
  assert.deepEqual(log, ['attach', 'watch', 'capture', 'stabilize', 'capture'], 'a frame the watcher cannot see: captured before acting');
  // The same under a same-origin frame, and a sandboxed (opaque) frame: captured too.
  for (const child of [frame('F4', 'https://shop.a.test/x', 'https://shop.a.test', [frame('F5', 'https://pay.a.test/', 'https://pay.a.test')]), frame('F6', 'https://shop.a.test/s', 'null')]) {
    io.frames = frame('MAIN', 'https://shop.a.test/', 'https://shop.a.test', [child]);
    await flow.run(t, 'navigate', { url: 'https://shop.a.test/' }, async () => {});
    log.length = 0;
    await act();
    assert.deepEqual(log, ['attach', 'watch', 'capture', 'stabilize', 'capture'], JSON.stringify(child));
  }
});

test('a FactPack answer carries its JSON up to LIMITS.structuredFactpackMaxBytes, and past it says how large it was', () => {
  const small = { type: 'delta', version: 3, added: [{ ref: 'e1', role: 'button', name: 'Go' }] };
  assert.deepEqual(reply({ text: '<delta v="3">…', json: JSON.stringify(small), type: 'delta', version: 3 }),
    { ok: true, text: '<delta v="3">…', factpack: small, version: 3 });
  // Links with long addresses: a FactPack whose text is bounded, and whose JSON is not.
  const big = JSON.stringify({ type: 'full', version: 4, regions: [{ elements: Array.from({ length: 3000 }, (_, i) => ({ ref: `e${i}`, href: 'é'.repeat(800) })) }] });
  const bytes = Buffer.byteLength(big, 'utf8');
  assert.ok(bytes > LIMITS.structuredFactpackMaxBytes && big.length <= LIMITS.structuredFactpackMaxBytes, 'over the bound in bytes, not in UTF-16 units');
  const r = reply({ text: '<full v="4">…', json: big, type: 'full', version: 4 });
  assert.deepEqual(r.factpack, {
    type: 'full', version: 4,
    omitted: `this FactPack's JSON is ${bytes} bytes, over the ${LIMITS.structuredFactpackMaxBytes}-byte bound of structured results: the text content is the FactPack (trimmed to the token budget; its gap lines name the find calls that list the rest)`,
  });
  assert.equal(r.text, '<full v="4">…');
});
