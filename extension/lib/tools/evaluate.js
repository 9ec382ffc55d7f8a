// evaluate: a function of the agent's run in the page (or, given a ref, in that element's frame,
// called with the element), answered with its JSON result. Off by default: it runs only where the
// user listed the site in the extension's options (policy.js checkEvaluate), never on a page or in a
// frame the policy withholds, only in tabs the agent holds (the dispatcher's tab rule).
//
// It runs in the page's own world (the function sees the page's globals, as DevTools' console
// does), in the very execution context whose origin was checked: a navigation in between ends the
// call (the context is gone) instead of running it on another site. A function that throws is
// answered with its error; one that runs or waits longer than LIMITS.evaluateWaitMs is answered
// eval_timeout, and stopped by V8 when it runs that long (Runtime.evaluate's timeout).
// The result is page-controlled text: it is cut to LIMITS.evaluateResultMaxChars and escaped as
// read's blocks are (quote.js escapeBlock), so it can never close its block or open a tag.
import { LIMITS } from '../limits.js';
import { pageGate } from '../page-gate.js';
import { checkEvaluate } from '../policy.js';
import { escapeBlock, quoteValue } from '../quote.js';
import { ToolError } from '../tab-state.js';
import { arg, defineTool, msg, ref, str } from './define.js';
import { pageFunction } from '../page-code.js';
import { handOverElement, runAgentFunction } from '../../page/evaluate.js';

/** @typedef {import('./define.js').ToolContext} ToolContext @typedef {import('../tab-session.js').TabSession} TabSession */

/** Page code (extension/page/evaluate.js), as the text CDP runs. */
const RUN_FN = pageFunction(runAgentFunction, { LIMITS });
const HAND_OVER_FN = pageFunction(handOverElement);

/**
 * Sends a command bounded by `ms` (an AbortSignal: the tab's own CDP bound never fires for it, so a
 * script left running is not taken for a busy page later). Null when the bound passed first.
 * @param {TabSession} t @param {string} method @param {any} params @param {string | undefined} sid @param {number} ms
 */
async function bounded(t, method, params, sid, ms) {
  const stop = new AbortController();
  const timer = setTimeout(() => stop.abort(), ms);
  try {
    return { r: await t.send(method, params, sid, stop.signal) };
  } catch (e) {
    if (stop.signal.aborted && e instanceof ToolError && e.code === 'capture_abandoned') return null;
    throw e;
  } finally {
    clearTimeout(timer);
  }
}

/** The first line of a thrown value as the page described it. @param {any} details */
function thrown(details) {
  const ex = details?.exception;
  return String(ex?.description ?? ex?.value ?? details?.text ?? 'an exception').split('\n')[0].slice(0, 300);
}

export const evaluate = defineTool({
  name: 'evaluate',
  title: 'Run a script in the page',
  // A script can do anything the page's own code can.
  hints: { readOnly: false, destructive: true, idempotent: false, openWorld: true },
  description: 'Run a JS function in the page (with ref: given that element); JSON result. Only on sites the user allows.',
  args: { function: arg('string', '() => document.title'), ref: ref() },
  required: ['function'],
  group: 'debug',
  precheck(args) {
    const fn = str(args, 'function', true);
    if (fn.length > LIMITS.evaluateFunctionMaxChars) throw new ToolError('bad_arguments', `evaluate: the function is ${fn.length} characters, over the ${LIMITS.evaluateFunctionMaxChars} allowed`);
  },
  async handler(t, args, ctx) {
    await ctx.attach(t);
    const tree = await pageGate(ctx, t);
    /** @type {any} */ let target = null;
    let frameId = String(tree?.frame?.id ?? t.mainFrameId ?? '');
    /** @type {string | undefined} */ let sid;
    if (args.ref !== undefined) {
      await ctx.loadEngine();
      target = ctx.flow.resolve(t, 'evaluate', str(args, 'ref', true), false);
      frameId = target.frameId;
      sid = ctx.driver.sessionOf(t, frameId);
    }
    const world = t.consoleLog.mainWorld(frameId, sid);
    if (!world) throw new ToolError('no_context', `evaluate: the ${target ? `frame of ${args.ref}` : 'page'} has no script context yet (it is loading, or was just replaced): call wait_for or snapshot, then again; nothing was run`);
    const may = checkEvaluate(ctx.policy, world.origin);
    if (!may.ok) throw new ToolError(may.code, may.message);

    // Run by Runtime.evaluate in the checked context, whose `timeout` lets V8 itself stop a
    // function that runs too long (Chrome refuses Runtime.terminateExecution to an extension's
    // debugger: "not allowed for untrusted clients"). The element of a ref is handed over under a
    // one-time key the evaluation takes back before the function runs.
    const key = `__athena_${globalThis.crypto.randomUUID().replace(/-/g, '')}`;
    if (target) {
      const node = await t.send('DOM.resolveNode', { backendNodeId: target.backendNodeId, executionContextId: world.id }, sid).catch((e) => {
        if (e instanceof ToolError) throw e;
        throw new ToolError('not_attached', `evaluate: ${args.ref} is no longer in its frame's document (${msg(e).slice(0, 80)}): take a snapshot; nothing was run`);
      });
      await t.send('Runtime.callFunctionOn', { objectId: node.object.objectId, functionDeclaration: HAND_OVER_FN, arguments: [{ value: key }], silent: true }, sid);
    }
    // The agent's text goes in on lines of its own (a trailing // comment cannot eat what follows),
    // evaluated inside runAgentFunction, after the element is taken back.
    const expression = `(${RUN_FN}).call(null, () => (\n${args.function}\n), ${target ? JSON.stringify(key) : 'null'})`;
    const params = { expression, contextId: world.id, awaitPromise: true, returnByValue: true, silent: true, timeout: LIMITS.evaluateWaitMs };
    /** @type {any} */ let answer;
    const started = Date.now();
    try {
      answer = await bounded(t, 'Runtime.evaluate', params, sid, LIMITS.evaluateWaitMs + LIMITS.evaluateGraceMs);
    } catch (e) {
      if (e instanceof ToolError) throw e;
      // V8 stopping it at its timeout is answered as a bare "Internal error" (Chromium 156), at the timeout.
      if (/terminated/i.test(msg(e)) || (/Internal error/i.test(msg(e)) && Date.now() - started >= LIMITS.evaluateWaitMs)) throw new ToolError('eval_timeout', `evaluate: the function ran for ${LIMITS.evaluateWaitMs} ms without returning (a loop?) and was stopped; the page goes on`);
      // The context checked is gone: the page navigated (or the frame went) before it ran.
      if (/context|not found|Cannot find/i.test(msg(e))) throw new ToolError('no_context', `evaluate: the ${target ? 'frame' : 'page'} was replaced before the function ran (it navigated): nothing was run; call again on the new page`);
      throw new ToolError('eval_error', `evaluate: Chrome refused the call: ${quoteValue(msg(e).slice(0, 200))}`);
    }
    if (!answer) {
      if (t.dialog) throw new ToolError('eval_timeout', `evaluate: the function opened a JavaScript ${t.dialog.type} and waits on it: answer it with dialog; its result is lost`);
      // V8 stops a function that runs too long; past that, its promise is what has not settled.
      throw new ToolError('eval_timeout', `evaluate: the function's promise did not settle within ${LIMITS.evaluateWaitMs} ms; it was left waiting in the page (its result, if any, is lost): make it settle sooner, or wait for the page's state with wait_for`);
    }
    const r = answer.r;
    if (r.exceptionDetails) {
      const e = thrown(r.exceptionDetails);
      if (/Execution was terminated/i.test(e) || /terminated/i.test(String(r.exceptionDetails.text ?? ''))) throw new ToolError('eval_timeout', `evaluate: the function ran for ${LIMITS.evaluateWaitMs} ms without returning (a loop?) and was stopped; the page goes on`);
      if (/^SyntaxError/.test(e)) throw new ToolError('bad_arguments', `evaluate: the function does not parse: ${quoteValue(e)}; give one function, e.g. () => document.title`);
      throw new ToolError('eval_error', `evaluate: the function threw ${quoteValue(e)}`);
    }
    const v = r.result?.value;
    const kind = typeof v?.kind === 'string' ? v.kind : '';
    const text = typeof v?.text === 'string' ? v.text.slice(0, LIMITS.evaluateResultMaxChars) : '';
    if (kind === 'not_function') throw new ToolError('bad_arguments', `evaluate: "function" must be a function, e.g. () => document.title (it was ${quoteValue(text)})`);
    if (kind === 'unserializable') throw new ToolError('eval_error', `evaluate: the result is not JSON (${quoteValue(text)}): return plain data, e.g. el.textContent instead of an element`);
    const length = kind === 'json' && Number.isInteger(v.length) ? v.length : text.length;
    const more = length > text.length ? `\n(${length - text.length} more characters not shown)` : '';
    const body = kind === 'json' || kind === 'other' ? escapeBlock(text) : 'undefined';
    return { ok: true, text: `<evaluate tab="${t.name}"${target ? ` ref="${target.ref ?? args.ref}"` : ''} origin=${quoteValue(world.origin)}>\n${body}${more}\n</evaluate>` };
  },
});
