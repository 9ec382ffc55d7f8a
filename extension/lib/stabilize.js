// Stabilization: after an action, how long to wait before the page is captured. Bounded
// everywhere (extension/lib/limits.js); the clock and the CDP session are injected, so it runs
// under Node with fakes (extension/test/stabilize.test.mjs).
import { LIMITS } from './limits.js';
import { DOM_QUIET_JS } from './page-scripts.js';
import { ToolError } from './tab-state.js';

/** @typedef {import('./tab-state.js').TabState} TabState */

/**
 * Waits, within bounds, until the page of tab t has settled: loading finished (navigations), the
 * DOM quiet for LIMITS.domQuietMs (measured in the page), and no request in flight for
 * LIMITS.networkIdleMs, the whole capped at LIMITS.stabilizeCapMs. A JS dialog, the tab's death or
 * the agent's cancel end it early. What was not reached is said as a warning.
 * @param {TabState} t
 * @param {{send: (method: string, params?: any) => Promise<any>, now: () => number, sleep: (ms: number) => Promise<void>}} io
 *   the tab's CDP session and the clock (fakes in extension/test/stabilize.test.mjs)
 * @param {{navigation?: boolean}} [o]
 * @returns {Promise<string[]>} warnings
 */
export async function stabilize(t, io, o = {}) {
  const { now, sleep } = io;
  /** @type {string[]} */
  const warnings = [];
  const start = now();
  if (o.navigation || t.loading) {
    const capEnd = start + LIMITS.navigationCapMs;
    await sleep(50);
    while (t.loading && now() < capEnd && !t.dialog && !t.dead) await sleep(50);
    if (t.loading) warnings.push(`the page was still loading after ${LIMITS.navigationCapMs} ms; this is its state so far`);
  }
  if (t.dialog || t.dead) return warnings;
  const cap = LIMITS.stabilizeCapMs;
  const dom = (async () => {
    for (let i = 0; i < 2; i++) {
      try {
        const r = await t.race(
          io.send('Runtime.evaluate', { expression: DOM_QUIET_JS(LIMITS.domQuietMs, cap), awaitPromise: true, returnByValue: true }),
          { dialog: null },
        );
        if (!r) return;
        const v = r.result?.value;
        if (v && !v.quiet) warnings.push(`the page did not settle: its DOM kept changing for ${v.ms} ms (${v.mutations} mutations; cap ${cap} ms), so this FactPack may already be outdated`);
        return;
      } catch (e) {
        if (e instanceof ToolError && e.code !== 'cdp_timeout') throw e;
        // The document was replaced mid-wait (a navigation): wait for it once more.
        await sleep(100);
        const end = now() + LIMITS.navigationCapMs;
        while (t.loading && now() < end && !t.dialog) await sleep(50);
      }
    }
  })();
  const net = (async () => {
    const end = start + cap;
    for (;;) {
      const at = now();
      const busy = [...t.inflight.values()].filter((s) => at - s < LIMITS.longRequestMs).length;
      // idle counts from the action's start: a request the action triggers may not have been seen yet
      if (busy === 0 && at - Math.max(t.lastNetwork, start) >= LIMITS.networkIdleMs) return;
      if (at >= end) { if (busy) warnings.push(`the network was still busy after ${cap} ms (${busy} requests in flight)`); return; }
      if (t.dialog || t.dead) return;
      if (t.cancelled) { warnings.push('the agent cancelled the call: stopped waiting for the page to settle'); return; }
      await sleep(50);
    }
  })();
  await Promise.all([dom, net]);
  return warnings;
}
