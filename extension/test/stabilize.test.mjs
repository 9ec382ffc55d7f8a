// Stabilization (extension/lib/stabilize.js) with a fake clock and a fake CDP session whose page
// watcher answers as told: how long it waits for the page and for the requests the action
// started, what it ignores, its caps and warnings, and what ends it early (a dialog, a cancel,
// the tab's death). What the watcher itself sees in a real page: tests/e2e/delayed.test.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { stabilize, watch } from '../lib/stabilize.js';
import { ToolError } from '../lib/tab-state.js';
import { TabSession } from '../lib/tab-session.js';
import { LIMITS } from '../lib/limits.js';

/** Virtual time: sleep(ms) wakes when run() advances the clock to it; nothing really waits. */
function fakeClock() {
  let t = 0;
  /** @type {{at: number, wake: () => void}[]} */
  const timers = [];
  const flush = () => new Promise((r) => setImmediate(r));
  return {
    now: () => t,
    sleep: (ms) => new Promise((wake) => { timers.push({ at: t + ms, wake }); }),
    /** Runs `p` to its end, advancing time from timer to timer; `at(ms, f)` hooks run on the way. */
    async run(p, hooks = []) {
      let done = false;
      p.then(() => { done = true; }, () => { done = true; });
      const pending = [...hooks].sort((a, b) => a[0] - b[0]);
      for (;;) {
        await flush();
        if (done) return p;
        timers.sort((a, b) => a.at - b.at);
        const next = timers.shift();
        assert.ok(next, 'stabilization waits for nothing the clock can advance');
        while (pending.length && pending[0][0] <= next.at) { const [at, f] = pending.shift(); t = Math.max(t, at); f(); }
        t = Math.max(t, next.at);
        next.wake();
      }
    },
  };
}

/**
 * A page whose watcher settles `domMs` (virtual) after each settle call, answering `value` (or
 * values[i] for the i-th call), or throwing what `throws[i]` holds.
 */
function page(clock, { domMs = LIMITS.settleQuietMs, value = null, values = [], throws = [] } = {}) {
  const sent = [];
  let calls = 0;
  return {
    sent,
    send: async (method, params) => {
      sent.push(method);
      assert.equal(method, 'Runtime.evaluate');
      if (params.expression.includes('beginAll')) return { result: { value: true } };
      const i = calls++;
      await clock.sleep(domMs);
      if (throws[i]) throw throws[i];
      return { result: { value: values[i] ?? value ?? { quiet: true, ms: domMs, mutations: 0, timers: 0, animations: 0, laterMs: 0 } } };
    },
  };
}

const tab = () => new TabSession(5, { context: 0, page: 1 }, 's');

/** Runs stabilize on a fresh tab: [warnings, virtual ms it took, CDP methods sent]. */
async function settle(setup = () => {}, { hooks = [], dom = {}, navigation = false } = {}) {
  const clock = fakeClock();
  const t = tab();
  setup(t, clock);
  const p = page(clock, dom);
  const warnings = await clock.run(stabilize(t, { send: p.send, now: clock.now, sleep: clock.sleep, key: 'k' }, { navigation }), hooks.map(([at, f]) => [at, () => f(t, clock)]));
  return [warnings, clock.now(), p.sent];
}

const TICK = LIMITS.settleTickMs;

test('watch: requests from now on are the action\'s, and the page\'s watcher begins', async () => {
  const clock = fakeClock();
  const t = tab();
  t.inflight.set('/before', 0);
  const p = page(clock);
  await clock.run((async () => { await clock.sleep(500); await watch(t, { send: p.send, now: clock.now, sleep: clock.sleep, key: 'k' }); })());
  assert.equal(t.watchSince, 500);
  assert.equal(t.inflight.size, 0);
  assert.deepEqual(p.sent, ['Runtime.evaluate']);
});

test('a page the action left quiet: done after one quiet window, nothing else waited for', async () => {
  const [w, ms, sent] = await settle();
  assert.deepEqual(w, []);
  assert.deepEqual(sent, ['Runtime.evaluate']);
  assert.equal(ms, LIMITS.settleQuietMs);
});

test('a request the action started is waited for, then the page settles again', async () => {
  const [w, ms, sent] = await settle(() => {}, {
    hooks: [[50, (t) => { t.inflight.set('/r1', 50); }], [700, (t) => { t.inflight.delete('/r1'); }]],
  });
  assert.deepEqual(w, []);
  assert.equal(sent.length, 2);
  assert.ok(ms >= 700 + LIMITS.settleQuietMs && ms <= 700 + TICK + LIMITS.settleQuietMs, `${ms} ms`);
});

test('requests from before the action (a long poll, a slow image) are not waited for', async () => {
  const [w, ms] = await settle((t) => { t.watched(10); t.inflight.set('/poll', 5); });
  assert.deepEqual(w, []);
  assert.equal(ms, LIMITS.settleQuietMs);
  const [w2, ms2] = await settle(() => {}, { hooks: [[50, (t) => { t.inflight.set('/stream', -LIMITS.longRequestMs); }]] });
  assert.deepEqual(w2, []);
  assert.equal(ms2, LIMITS.settleQuietMs);
});

test('a request of the action that never ends: capped, with a warning', async () => {
  const [w, ms] = await settle(() => {}, { hooks: [[50, (t) => { t.inflight.set('/forever', 50); }]] });
  assert.ok(ms >= LIMITS.stabilizeCapMs && ms <= LIMITS.stabilizeCapMs + TICK, `${ms} ms`);
  assert.match(w.join('\n'), /network was still busy after 4000 ms \(1 requests of the action in flight\)/);
});

test('a page that does not settle: the watcher\'s verdict becomes a warning naming why', async () => {
  const [w] = await settle(() => {}, { dom: { domMs: LIMITS.stabilizeCapMs, value: { quiet: false, ms: 4000, mutations: 812, timers: 1, animations: 0, laterMs: 0 } } });
  assert.match(w.join('\n'), /did not settle within 4000 ms \(1 timer it set still pending, its DOM kept changing \(812 mutations\)\)/);
});

test('a page whose watcher does not answer (its main thread is busy): page_busy, never a wait for another document', async () => {
  const busy = () => new ToolError('page_busy', 'the page in tab c0p1 is busy');
  await assert.rejects(settle(() => {}, { dom: { domMs: LIMITS.stabilizeCapMs, throws: [busy(), busy()] } }), (e) => e instanceof ToolError && e.code === 'page_busy');
});

test('a timer longer than the ones waited for is reported as work for later', async () => {
  const [w, ms] = await settle(() => {}, { dom: { value: { quiet: true, ms: 100, mutations: 0, timers: 0, animations: 0, laterMs: 1490 } } });
  assert.equal(ms, LIMITS.settleQuietMs);
  assert.match(w.join('\n'), /scheduled more work 1490 ms from now/);
});

test('a document replaced mid-wait (the action navigated): the new one is waited for', async () => {
  const [w, ms, sent] = await settle(() => {}, {
    dom: { throws: [new Error('Execution context was destroyed.')] },
    hooks: [[LIMITS.settleQuietMs, (t) => { t.onEvent('Page.frameStartedLoading', { frameId: 'M' }); }], [600, (t) => { t.onEvent('Page.frameStoppedLoading', { frameId: 'M' }); }]],
  });
  assert.deepEqual(w, []);
  assert.equal(sent.length, 2);
  assert.ok(ms >= 600 + LIMITS.settleQuietMs && ms <= 600 + TICK + LIMITS.settleQuietMs, `${ms} ms`);
});

test('a navigation waits for loading to finish first', async () => {
  const [w, ms] = await settle((t) => { t.onEvent('Page.frameStartedLoading', { frameId: 'M' }); }, { navigation: true, hooks: [[1000, (t) => { t.onEvent('Page.frameStoppedLoading', { frameId: 'M' }); }]] });
  assert.deepEqual(w, []);
  assert.ok(ms >= 1000 + LIMITS.settleQuietMs && ms <= 1000 + TICK + LIMITS.settleQuietMs, `${ms} ms`);
});

test('a page that never finishes loading: capped at navigationCapMs, said', async () => {
  const [w, ms] = await settle((t) => { t.onEvent('Page.frameStartedLoading', { frameId: 'M' }); }, { navigation: true });
  assert.ok(ms >= LIMITS.navigationCapMs, `${ms} ms`);
  assert.match(w.join('\n'), /still loading after 15000 ms/);
});

test('a dialog or a cancel ends the wait early', async () => {
  const busy = (t) => { t.beginCall('c'); t.inflight.set('/forever', 0); };
  const [w1, ms1] = await settle(busy, { hooks: [[200, (t) => { t.dialogOpened({ type: 'alert', message: 'x' }); }]] });
  assert.ok(ms1 < 400, `${ms1} ms`);
  assert.deepEqual(w1, []);
  const [w2, ms2] = await settle(busy, { hooks: [[200, (t) => { t.cancel('c'); }]] });
  assert.ok(ms2 < 400, `${ms2} ms`);
  assert.match(w2.join('\n'), /cancelled the call/);
  const [w3] = await settle(busy, { hooks: [[200, (t) => { t.cancel('c', 'the call reached its deadline (58000 ms)'); }]] });
  assert.deepEqual(w3, ['the call reached its deadline (58000 ms): stopped waiting for the page to settle'], 'a deadline is not said to be the agent\'s cancel');
});

test('the tab dying mid-wait rejects with why', async () => {
  const clock = fakeClock();
  const t = tab();
  const p = page(clock, { domMs: 1000 });
  const run = clock.run(stabilize(t, { send: p.send, now: clock.now, sleep: clock.sleep, key: 'k' }), [[300, () => {
    t.kill({ code: 'tab_closed', message: 'tab c0p1 was closed' });
  }]]);
  await assert.rejects(run, (e) => e instanceof ToolError && e.code === 'tab_closed');
});

/**
 * A navigation whose page attaches `frames` child frames while it loads and goes on loading: the
 * page answers Page.stopLoading by stopping, its requests cancelled (told, or with `silent`, never
 * told, as Chrome does for a frame's document request it stopped). [warnings, virtual ms, CDP
 * methods sent, requests followed before the wait].
 */
async function loadFrames(frames, { silent = false } = {}) {
  const clock = fakeClock();
  const t = tab();
  t.onEvent('Page.frameNavigated', { frame: { id: 'M', loaderId: 'L' } });
  t.onEvent('Page.frameStartedLoading', { frameId: 'M' });
  for (let i = 0; i < frames; i++) {
    t.onEvent('Page.frameAttached', { frameId: `F${i}`, parentFrameId: 'M' });
    t.onEvent('Network.requestWillBeSent', { requestId: `r${i}`, frameId: `F${i}` });
  }
  const followed = t.inflight.size;
  const p = page(clock);
  const send = async (method, params) => {
    if (method !== 'Page.stopLoading') return p.send(method, params);
    p.sent.push(method);
    if (!silent) for (let i = 0; i < frames; i++) t.onEvent('Network.loadingFailed', { requestId: `r${i}` });
    t.onEvent('Page.frameStoppedLoading', { frameId: 'M' });
    return {};
  };
  const warnings = await clock.run(stabilize(t, { send, now: clock.now, sleep: clock.sleep, key: 'k' }, { navigation: true }));
  return [warnings, clock.now(), p.sent, followed];
}

test(`a load that attaches more than framesCapturedMax (${LIMITS.framesCapturedMax}) frames is stopped there, said, and their requests are not waited for`, async () => {
  const [w, ms, sent, requests] = await loadFrames(LIMITS.framesCapturedMax + 1);
  assert.deepEqual(sent, ['Page.stopLoading', 'Runtime.evaluate']);
  assert.deepEqual(w, [`the page attached more than ${LIMITS.framesCapturedMax} frames while loading: its loading was stopped there, as the browser's Stop button does, so frames and content it had not loaded yet are missing`]);
  assert.ok(ms < LIMITS.stabilizeCapMs, `${ms} ms`);
  assert.equal(requests, LIMITS.framesCapturedMax, 'the requests of the frames past the cap are not the action\'s');
});

test('the requests a stopped load cut are not waited for, though Chrome never tells their end', async () => {
  const [w, ms, sent] = await loadFrames(LIMITS.framesCapturedMax + 1, { silent: true });
  assert.deepEqual(sent, ['Page.stopLoading', 'Runtime.evaluate']);
  assert.deepEqual(w, [`the page attached more than ${LIMITS.framesCapturedMax} frames while loading: its loading was stopped there, as the browser's Stop button does, so frames and content it had not loaded yet are missing`]);
  assert.ok(ms < LIMITS.stabilizeCapMs, `${ms} ms`);
});

test(`a load of up to framesCapturedMax frames is waited for, never stopped`, async () => {
  const [w, ms, sent] = await loadFrames(LIMITS.framesCapturedMax);
  assert.ok(!sent.includes('Page.stopLoading'), sent.join(' '));
  assert.ok(ms >= LIMITS.navigationCapMs, `${ms} ms`);
  assert.match(w.join('\n'), /still loading after 15000 ms/);
});

test(`a load after a page of more than framesCapturedMax frames counts only its own: up to the cap, it is waited for, never stopped`, async () => {
  const clock = fakeClock();
  const t = tab();
  t.onEvent('Page.frameStartedLoading', { frameId: 'M' });
  t.onEvent('Page.frameNavigated', { frame: { id: 'M', loaderId: 'L1' } });
  for (let i = 0; i < LIMITS.framesCapturedMax + 50; i++) t.onEvent('Page.frameAttached', { frameId: `A${i}`, parentFrameId: 'M' });
  t.onEvent('Page.frameStoppedLoading', { frameId: 'M' });
  // The next navigation starts while the last page's frames are still there; it commits later,
  // attaches exactly framesCapturedMax frames and finishes loading.
  t.onEvent('Page.frameStartedLoading', { frameId: 'M' });
  const p = page(clock);
  const send = async (method, params) => {
    if (method === 'Page.stopLoading') { p.sent.push(method); return {}; }
    return p.send(method, params);
  };
  const commitMs = 10 * LIMITS.settleTickMs, loadedMs = 20 * LIMITS.settleTickMs;
  const warnings = await clock.run(stabilize(t, { send, now: clock.now, sleep: clock.sleep, key: 'k' }, { navigation: true }), [
    [commitMs, () => {
      t.onEvent('Page.frameNavigated', { frame: { id: 'M', loaderId: 'L2' } });
      for (let i = 0; i < LIMITS.framesCapturedMax; i++) t.onEvent('Page.frameAttached', { frameId: `B${i}`, parentFrameId: 'M' });
    }],
    [loadedMs, () => t.onEvent('Page.frameStoppedLoading', { frameId: 'M' })],
  ]);
  assert.deepEqual([warnings, p.sent], [[], ['Runtime.evaluate']]);
  assert.ok(clock.now() >= loadedMs, `${clock.now()} ms: the load was waited for`);
});
