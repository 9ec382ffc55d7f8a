// Page code of evaluate (lib/tools/evaluate.js): the agent's function run in the page, its result
// made JSON in the page and cut there, so that a huge result never crosses chrome.debugger. What
// comes back is checked again on the extension's side: the page can redefine JSON.stringify, and
// only ever lies about its own result.
import { LIMITS } from '../lib/limits.js';

/**
 * Hands the element (`this`) to the evaluation under a one-time key on globalThis; runAgentFunction
 * takes it back before the agent's function runs. @this {any} @param {string} key
 */
export function handOverElement(key) {
  Object.defineProperty(globalThis, key, { value: this, configurable: true });
}

/**
 * Runs the agent's function: `make` answers it (the agent's text, evaluated only here, so a throw
 * is the function's), called with the element handed over under `key` (and as `this`), or with
 * nothing when `key` is null. Answers {kind, text, length?}.
 * @param {() => unknown} make @param {string | null} key
 */
export async function runAgentFunction(make, key) {
  const g = /** @type {any} */ (globalThis);
  const el = key === null ? undefined : g[key];
  if (key !== null) delete g[key];
  const f = make();
  if (typeof f !== 'function') return { kind: 'not_function', text: typeof f };
  const v = await f.apply(el, el === undefined ? [] : [el]);
  if (v === undefined) return { kind: 'undefined', text: '' };
  if (typeof v === 'bigint' || typeof v === 'symbol' || typeof v === 'function' || (typeof v === 'number' && !Number.isFinite(v))) {
    return { kind: 'other', text: String(v).slice(0, LIMITS.evaluateResultMaxChars) };
  }
  let s;
  try { s = JSON.stringify(v); } catch (e) { return { kind: 'unserializable', text: String(e && /** @type {any} */ (e).message).slice(0, 200) }; }
  if (typeof s !== 'string') return { kind: 'undefined', text: '' };
  return { kind: 'json', text: s.slice(0, LIMITS.evaluateResultMaxChars), length: s.length };
}
