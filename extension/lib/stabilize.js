// Stabilization: after an action, how long to wait before the page is captured. It ends as soon
// as the page has settled, judged by what the action itself set going rather than by fixed quiet
// windows:
//   - in the page (the watcher of extension/page/watcher.js): the timers the action set and
//     the timers those set, CSS transitions about to end, and DOM changes;
//   - here, from CDP Network events: the requests the action started;
// then LIMITS.settleQuietMs with none of them changing anything. Bounded everywhere
// (extension/lib/limits.js); the clock and the CDP session are injected, so it runs under Node
// with fakes (extension/test/stabilize.test.mjs).
import { LIMITS } from './limits.js';
import { BEGIN_JS, SETTLE_JS } from './page-scripts.js';
import { ToolError } from './tab-state.js';

/** @typedef {import('./tab-session.js').TabSession} TabSession */
/**
 * The tab's CDP session, the clock, and the watcher's name in the page.
 * @typedef {{send: (method: string, params?: any) => Promise<any>, now: () => number, sleep: (ms: number) => Promise<void>, key: string}} SettleIO
 */

/**
 * Called just before an action: from now on the page's watcher follows what the action sets
 * going, and requests that start count as the action's.
 * @param {TabSession} t @param {SettleIO} io
 */
export async function watch(t, io) {
  t.watched(io.now());
  // A page that does not answer (busy, crashed) has nothing to watch: what comes next says so, or
  // leaves it (navigate, reload).
  if (t.busy || t.crashed) return;
  // A page without the watcher (it could not be installed) is judged by its DOM alone.
  const r = await io.send('Runtime.evaluate', { expression: BEGIN_JS(io.key), returnByValue: true }).catch((e) => { if (e instanceof ToolError && e.code !== 'page_busy') throw e; return null; });
  const mark = r?.result?.value;
  if (typeof mark === 'string' && mark) t.watchMarked(mark);
}

/** Requests the action started that are still in flight (long polls and streams aside). @param {TabSession} t @param {number} at */
export function actionRequests(t, at) {
  let n = 0;
  for (const started of t.inflight.values()) if (started >= t.watchSince && at - started < LIMITS.longRequestMs) n++;
  return n;
}

/**
 * Waits, within bounds, until the page of tab t has settled: loading finished (navigations), the
 * page's watcher settled (no timer of the action pending, no transition about to end, no DOM
 * change for LIMITS.settleQuietMs), and no request of the action in flight; the whole capped at
 * LIMITS.stabilizeCapMs. A JS dialog, the tab's death or the agent's cancel end it early. What was
 * not reached, and work the page scheduled for later, is said as a warning.
 * @param {TabSession} t @param {SettleIO} io @param {{navigation?: boolean}} [o]
 * @returns {Promise<string[]>} warnings
 */
export async function stabilize(t, io, o = {}) {
  const { now, sleep } = io;
  /** @type {string[]} */
  const warnings = [];
  const start = now();
  const end = start + LIMITS.stabilizeCapMs;
  t.settled(null);
  // A load that attaches more frames than a capture keeps is stopped there (as the browser's Stop
  // button does): the frames past LIMITS.framesCapturedMax are left out of the FactPack anyway,
  // and while Chrome loads them every CDP call of the capture waits (capture.js capFrames).
  let stopped = false;
  const loaded = async () => {
    const capEnd = now() + LIMITS.navigationCapMs;
    // A busy or crashed renderer never says it stopped loading: what follows answers for it.
    while (t.loading && now() < capEnd && !t.dialog && !t.dead && !t.busy && !t.crashed) {
      if (!stopped && t.frameCount > LIMITS.framesCapturedMax) {
        stopped = true;
        await io.send('Page.stopLoading').catch((e) => { if (e instanceof ToolError && e.code !== 'cdp_timeout') throw e; });
        t.loadStopped();
        warnings.push(`the page attached more than ${LIMITS.framesCapturedMax} frames while loading: its loading was stopped there, as the browser's Stop button does, so frames and content it had not loaded yet are missing`);
      }
      await sleep(LIMITS.settleTickMs);
    }
    if (t.busy || t.crashed) return;
    if (t.loading) warnings.push(`the page was still loading after ${LIMITS.navigationCapMs} ms; this is its state so far`);
  };
  if (o.navigation || t.loading) {
    await sleep(LIMITS.settleTickMs);
    await loaded();
  }
  let replaced = 0;
  /** @type {any} */
  let last = null;
  // The wait ran out without the page ever answering quiet (its watcher's calls may all have
  // timed out on a loaded machine): that is still a page that did not settle, and says so.
  let capped = false;
  for (;;) {
    if (t.dialog || t.dead) return warnings;
    if (t.cancelled) { warnings.push(`${t.cancelWhy ?? 'the agent cancelled the call'}: stopped waiting for the page to settle`); return warnings; }
    const left = end - now();
    if (left <= 0) { capped = true; break; }
    try {
      const r = await t.race(
        io.send('Runtime.evaluate', { expression: SETTLE_JS(io.key, LIMITS.settleQuietMs, Math.max(1, Math.round(left))), awaitPromise: true, returnByValue: true }),
        { dialog: null },
      );
      if (!r) return warnings; // a dialog opened
      last = r.result?.value ?? null;
      t.settled(typeof last?.mark === 'string' && last.mark ? last.mark : null);
    } catch (e) {
      // A busy page (its main thread did not answer) is said as such (page_busy), never waited out.
      if (e instanceof ToolError) throw e;
      // The document was replaced mid-wait (a navigation the action started): wait for the new
      // one, whose watcher began with it.
      if (++replaced > LIMITS.settleDocumentsMax) { capped = true; break; }
      await sleep(LIMITS.settleTickMs);
      await loaded();
      continue;
    }
    if (t.loading) { await loaded(); continue; }
    if (!last || !last.quiet) break;
    // The page is quiet; the requests the action started must be answered too, and whatever
    // their answers change gets its own quiet window (the loop settles again).
    if (actionRequests(t, now()) === 0) return [...warnings, ...later(last)];
    while (actionRequests(t, now()) > 0 && now() < end && !t.dialog && !t.dead && !t.cancelled) await sleep(LIMITS.settleTickMs);
  }
  if (t.dialog || t.dead) return warnings;
  const busy = actionRequests(t, now());
  if ((last && !last.quiet) || (capped && !busy && !last?.quiet)) {
    if (!last) last = {};
    const what = [
      last.timers ? `${last.timers} timer${last.timers > 1 ? 's' : ''} it set still pending` : '',
      last.animations ? `${last.animations} transition${last.animations > 1 ? 's' : ''} running` : '',
      last.mutations ? `its DOM kept changing (${last.mutations} mutations)` : '',
    ].filter(Boolean).join(', ') || 'it kept changing';
    warnings.push(`the page did not settle within ${LIMITS.stabilizeCapMs} ms (${what}), so this FactPack may already be outdated`);
  } else if (busy) {
    warnings.push(`the network was still busy after ${LIMITS.stabilizeCapMs} ms (${busy} requests of the action in flight), so this FactPack may already be outdated`);
  }
  return [...warnings, ...later(last)];
}

/** Work the page scheduled for after the wait (a timer longer than the ones waited for). @param {any} v */
function later(v) {
  if (!v || !(v.laterMs > 0)) return [];
  return [`the page scheduled more work ${Math.round(v.laterMs)} ms from now (a timer longer than the ${LIMITS.settleTimerMaxMs} ms waited for): what it changes will show in your next FactPack; wait_for can wait for it`];
}
