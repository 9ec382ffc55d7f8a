// Waiting in tests: for the state, the event or the message a step stands for, never for a fixed
// time. Every wait is bounded by one of the figures below and fails with a message that names
// what did not happen. Timing targets (how fast something should be) belong to bench/, not here:
// a bound in a test only tells a slow machine from a hang.

/** The bounds, in one place. */
export const WAIT = Object.freeze({
  /** A state a test caused shows within this: a socket is listening, a file is written, a process ended, a setting arrived. */
  stateMs: 15_000,
  /** How often a state with no event of its own is polled. */
  pollMs: 20,
  /** A call that must end by itself (a cap, a cancel, an interrupted call): longer means it hung. */
  hangMs: 60_000,
});

/**
 * Resolves with the first truthy value of `check()` (sync or async), polled every WAIT.pollMs;
 * rejects with "<what> did not happen within N ms" after `ms`.
 * @template T
 * @param {string} what  the state awaited, in words ("the page shows 'Rendered after 1500 ms'")
 * @param {() => T | Promise<T>} check
 * @param {{ms?: number, pollMs?: number, last?: () => string}} [opts]  last(): what was seen instead, for the message
 * @returns {Promise<T>}
 */
export async function until(what, check, { ms = WAIT.stateMs, pollMs = WAIT.pollMs, last } = {}) {
  const end = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > end) throw new Error(`${what} did not happen within ${ms} ms${last ? `; last seen: ${last()}` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}

/** `promise`, or a rejection with `message` after `ms`. @template T @param {Promise<T>} promise @param {number} ms @param {string} message @returns {Promise<T>} */
async function bounded(promise, ms, message) {
  let timer;
  const late = new Promise((_, reject) => { timer = setTimeout(() => reject(new Error(message)), ms); });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * `promise`, or a rejection "<what> did not finish within N ms (hung?)" after `ms`: a guard that
 * a call ends, not a measure of how fast.
 * @template T
 * @param {string} what
 * @param {Promise<T>} promise
 * @param {number} [ms]
 * @returns {Promise<T>}
 */
export function within(what, promise, ms = WAIT.hangMs) {
  return bounded(promise, ms, `${what} did not finish within ${ms} ms (hung?)`);
}

/**
 * The next `event` of an EventEmitter (its arguments as an array); rejects with "<what> did not
 * happen within N ms" after `ms`.
 * @param {import('node:events').EventEmitter} emitter
 * @param {string} event
 * @param {string} what
 * @param {number} [ms]
 * @returns {Promise<unknown[]>}
 */
export function nextEvent(emitter, event, what, ms = WAIT.stateMs) {
  return bounded(new Promise((resolve) => emitter.once(event, (...args) => resolve(args))), ms, `${what} did not happen within ${ms} ms`);
}

/** Runs fn and returns [its result, milliseconds] (for a test's diagnostic line, never an assertion). */
export async function timed(fn) {
  const t0 = Date.now();
  const r = await fn();
  return [r, Date.now() - t0];
}
