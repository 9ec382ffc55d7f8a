// wait_for: wait, inside the action flow, until text appears or goes, a ref reaches a state, or
// time passes; then answer with what changed, as any action does.
import { LIMITS } from '../limits.js';
import { HAS_TEXT_JS, LIVE_STATE_FN } from '../page-scripts.js';
import { checkUrl } from '../policy.js';
import { ToolError } from '../tab-state.js';
import { arg, CALL_ID, defineTool, oneOf, ref, sleep } from './define.js';

const STATES = ['visible', 'hidden', 'enabled', 'disabled', 'checked', 'unchecked', 'attached', 'detached'];

export const waitFor = defineTool({
  name: 'wait_for',
  title: 'Wait for',
  hints: { readOnly: true, openWorld: true },
  description: 'Wait until text appears or goes, a ref reaches a state, or time passes.',
  args: { text: arg('string'), gone: arg('string', 'text to disappear'), ref: ref(), state: oneOf(STATES), ms: arg('integer') },
  mutating: true, factpack: true,
  // How long it may wait is the agent's to say, within a bound the bridge's call deadline holds.
  deadline: { arg: 'ms', maxMs: LIMITS.waitForMaxMs },
  precheck(args) {
    const ms = args.ms === undefined ? LIMITS.waitForDefaultMs : args.ms;
    if (!(typeof ms === 'number' && ms >= 0 && ms <= LIMITS.waitForMaxMs)) throw new ToolError('bad_arguments', `wait_for: ms is 0..${LIMITS.waitForMaxMs}`);
    if (args.state !== undefined && !STATES.includes(args.state)) throw new ToolError('bad_arguments', `wait_for: state is one of ${STATES.join(', ')}`);
    if (args.state !== undefined && typeof args.ref !== 'string') throw new ToolError('bad_arguments', 'wait_for: state needs a ref');
    const text = args.text ?? args.gone;
    if (text !== undefined && typeof text !== 'string') throw new ToolError('bad_arguments', 'wait_for: text/gone must be a string');
  },
  async handler(t, args, ctx) {
    const ms = args.ms === undefined ? LIMITS.waitForDefaultMs : args.ms;
    const text = args.text ?? args.gone;
    const condition = args.text !== undefined ? `text ${JSON.stringify(args.text)} to appear` : args.gone !== undefined ? `text ${JSON.stringify(args.gone)} to disappear` : args.ref ? `${args.ref} to be ${args.state ?? 'visible'}` : null;
    return ctx.flow.run(t, 'wait_for', { version: args.version, ref: args.ref, [CALL_ID]: args[CALL_ID] }, async (target) => {
      const end = Date.now() + ms;
      if (!condition) { await sleep(ms); return; }
      for (;;) {
        let met = false;
        if (text !== undefined) {
          const r = await ctx.send(t, 'Runtime.evaluate', { expression: HAS_TEXT_JS(text), returnByValue: true }).catch((e) => { if (e instanceof ToolError) throw e; return null; });
          // A page the policy does not allow answers nothing, not even by when the wait ends:
          // the capture after the wait refuses it (agent.js captureTab).
          if (typeof r?.result?.value?.url === 'string' && !checkUrl(ctx.policy, r.result.value.url).ok) return;
          const has = !!r?.result?.value?.has;
          met = args.text !== undefined ? has : !has;
        } else {
          met = await refState(ctx, t, target, args.state ?? 'visible');
        }
        if (met) return;
        if (t.cancelled) { t.actNote(`wait_for: ${t.cancelWhy ? `stopped (${t.cancelWhy})` : 'cancelled by the agent'} while waiting for ${condition}`); return; }
        if (Date.now() >= end) { t.actNote(`wait_for: gave up waiting for ${condition} after ${ms} ms`); return; }
        await sleep(LIMITS.waitForPollMs);
      }
    }, { ref: typeof args.ref === 'string' });
  },
});

/**
 * Whether the live node behind target is in state (a node gone from the page is detached).
 * @param {import('./define.js').ToolContext} ctx @param {import('../tab-session.js').TabSession} t @param {any} target @param {string} state
 */
async function refState(ctx, t, target, state) {
  let v;
  try {
    v = await ctx.driver.callOn(t, target, LIVE_STATE_FN);
  } catch (e) {
    if (e instanceof ToolError && e.code !== 'page_error') throw e;
    v = { attached: false, visible: false, disabled: false, checked: false };
  }
  switch (state) {
    case 'visible': return v.visible;
    case 'hidden': return !v.visible;
    case 'enabled': return !v.disabled;
    case 'disabled': return v.disabled;
    case 'checked': return v.checked;
    case 'unchecked': return !v.checked;
    case 'attached': return v.attached;
    default: return !v.attached;
  }
}
