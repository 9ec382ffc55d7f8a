// Stabilization (extension/lib/stabilize.js) with a fake clock and a fake CDP session: how long
// it waits for requests the action started, what it ignores, its caps and warnings, and what
// ends it early (a dialog, a cancel, the tab's death).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { stabilize } from '../lib/stabilize.js';
import { TabState, ToolError } from '../lib/tab-state.js';
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

/** A page whose DOM-quiet script answers after `domMs` (virtual) with `value`. */
function page(clock, { domMs = LIMITS.domQuietMs, value = null } = {}) {
  const sent = [];
  return {
    sent,
    send: async (method, params) => {
      sent.push(method);
      assert.equal(method, 'Runtime.evaluate');
      await clock.sleep(domMs);
      return { result: { value: value ?? { quiet: true, ms: domMs, mutations: 0 } } };
    },
  };
}

const tab = () => new TabState(5, { context: 0, page: 1 }, 's');

/** Runs stabilize on a fresh tab: [warnings, virtual ms it took]. */
async function settle(setup = () => {}, { hooks = [], dom = {}, navigation = false } = {}) {
  const clock = fakeClock();
  const t = tab();
  setup(t, clock);
  const p = page(clock, dom);
  const warnings = await clock.run(stabilize(t, { send: p.send, now: clock.now, sleep: clock.sleep }, { navigation }), hooks.map(([at, f]) => [at, () => f(t, clock)]));
  return [warnings, clock.now(), p.sent];
}

test('a quiet page: done once the network has been idle since the action', async () => {
  const [w, ms, sent] = await settle();
  assert.deepEqual(w, []);
  assert.deepEqual(sent, ['Runtime.evaluate']);
  assert.ok(ms >= LIMITS.networkIdleMs && ms < LIMITS.networkIdleMs + 100, `${ms} ms`);
});

test('a request the action started is waited for, then the idle window', async () => {
  const [w, ms] = await settle(() => {}, {
    hooks: [[100, (t) => { t.inflight.set('/r1', 100); t.lastNetwork = 100; }],
      [700, (t) => { t.inflight.delete('/r1'); t.lastNetwork = 700; }]],
  });
  assert.deepEqual(w, []);
  assert.ok(ms >= 700 + LIMITS.networkIdleMs && ms < 700 + LIMITS.networkIdleMs + 100, `${ms} ms`);
});

test('a long-lived request from before the action (a long poll) is not waited for', async () => {
  const [w, ms] = await settle((t) => { t.inflight.set('/poll', -LIMITS.longRequestMs - 1); });
  assert.deepEqual(w, []);
  assert.ok(ms < LIMITS.networkIdleMs + 100, `${ms} ms`);
});

test('a request that never ends: capped, with a warning', async () => {
  const [w, ms] = await settle(() => {}, { hooks: [[50, (t) => { t.inflight.set('/forever', 50); }]] });
  assert.ok(ms >= LIMITS.stabilizeCapMs && ms < LIMITS.stabilizeCapMs + 100, `${ms} ms`);
  assert.match(w.join('\n'), /network was still busy after 4000 ms \(1 requests in flight\)/);
});

test('a DOM that keeps changing: the page script\'s verdict becomes a warning', async () => {
  const [w] = await settle(() => {}, { dom: { domMs: LIMITS.stabilizeCapMs, value: { quiet: false, ms: 4000, mutations: 812 } } });
  assert.match(w.join('\n'), /did not settle: its DOM kept changing for 4000 ms \(812 mutations/);
});

test('a navigation waits for loading to finish first', async () => {
  const [w, ms] = await settle((t) => { t.loading = true; }, { navigation: true, hooks: [[1000, (t) => { t.loading = false; }]] });
  assert.deepEqual(w, []);
  assert.ok(ms >= 1000 && ms < 1000 + LIMITS.networkIdleMs + 100, `${ms} ms`);
});

test('a page that never finishes loading: capped at navigationCapMs, said', async () => {
  const [w, ms] = await settle((t) => { t.loading = true; }, { navigation: true });
  assert.ok(ms >= LIMITS.navigationCapMs, `${ms} ms`);
  assert.match(w.join('\n'), /still loading after 15000 ms/);
});

test('a dialog or a cancel ends the wait early', async () => {
  const busy = (t) => { t.inflight.set('/forever', 0); };
  const [w1, ms1] = await settle(busy, { hooks: [[200, (t) => { t.dialog = { type: 'alert', message: 'x' }; }]] });
  assert.ok(ms1 < 400, `${ms1} ms`);
  assert.deepEqual(w1, []);
  const [w2, ms2] = await settle(busy, { hooks: [[200, (t) => { t.cancelled = true; }]] });
  assert.ok(ms2 < 400, `${ms2} ms`);
  assert.match(w2.join('\n'), /cancelled the call/);
});

test('the tab dying mid-wait rejects with why', async () => {
  const clock = fakeClock();
  const t = tab();
  const p = page(clock, { domMs: 1000 });
  const run = clock.run(stabilize(t, { send: p.send, now: clock.now, sleep: clock.sleep }), [[300, () => {
    t.dead = { code: 'tab_closed', message: 'tab c0p1 was closed' };
    for (const w of [...t.deathWaiters]) w(new ToolError('tab_closed', 'tab c0p1 was closed'));
  }]]);
  await assert.rejects(run, (e) => e instanceof ToolError && e.code === 'tab_closed');
});
