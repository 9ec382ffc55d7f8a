// What a call that failed answers the agent: its error code and a message that passes the last
// guard of the quoting rule (quote.js safeMessage). The dispatcher's one catch (Agent.dispatch).
import { safeMessage } from './quote.js';
import { ToolError } from './tab-state.js';
import { TOO_LARGE_WAY_ON } from './tab-capture.js';
import { msg } from './tools/define.js';

/** @typedef {import('./tab-session.js').TabSession} TabSession @typedef {import('./agent.js').Reply} Reply */

/**
 * The reply to a call that threw `e` on tab `callTab` (null: it had none yet).
 * @param {unknown} e @param {TabSession | null} callTab @returns {Reply}
 */
export function errorReply(e, callTab) {
  // Every message passes the last guard of the quoting rule (quote.js safeMessage): one line,
  // no '<' unescaped, whatever page text a path put in it.
  if (e instanceof ToolError) return { ok: false, error: { code: e.code, message: safeMessage(e.message) } };
  // The engine forgot a page under a call because its tab went away meanwhile (closed, the
  // debugger detached): the agent is told that, not the core's own wording.
  if (e && typeof e === 'object' && 'code' in e && e.code === 'unknown_page' && callTab?.dead) return { ok: false, error: { code: callTab.dead.code, message: safeMessage(callTab.dead.message) } };
  // A capture that came back but is over the core's input bound: the same page too large to
  // capture (on a faster machine the snapshot answers in time, and is then too big to take).
  if (isAthenaError(e) && e.code === 'input_too_large' && /: capture is \d+ /.test(String(e.message))) {
    return { ok: false, error: { code: 'page_too_large', message: safeMessage(`the page is too large to capture: ${e.message}; it is the page's size, not a script of the page; ${TOO_LARGE_WAY_ON}`) } };
  }
  if (isAthenaError(e)) return { ok: false, error: { code: String(e.code), message: safeMessage(refMessage(e)) } };
  return { ok: false, error: { code: 'internal', message: safeMessage(msg(e)) } };
}

/** An error the core threw (AthenaError of wasm/athena.mjs). @param {unknown} e @returns {e is {name: string, code: string, message: string}} */
function isAthenaError(e) {
  return !!e && typeof e === 'object' && 'code' in e && 'name' in e && e.name === 'AthenaError';
}

/** The core's ref errors, worded for the agent. @param {any} e */
function refMessage(e) {
  const advice = /** @type {Record<string, string | undefined>} */ ({
    identity_changed: 'the element behind this ref changed (it is no longer what you were shown): nothing was done; use the refs of the FactPack that comes with your next snapshot',
    ref_removed: 'the element behind this ref is gone from the page: nothing was done',
    document_replaced: 'the page navigated since you got this ref: nothing was done; take a snapshot',
    unknown_ref: 'this ref was never issued for this tab: use a ref from your last FactPack',
    unknown_page: 'this tab has no state in the extension: take a snapshot',
    stale_version: 'your version is not the current one: take a snapshot',
  })[e.code];
  return advice ? `${e.message} — ${advice}` : e.message;
}
