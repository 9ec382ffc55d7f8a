// States of the extension's service worker the e2e tests wait for, read through its globals
// (extension/sw.js: athenaAgent, athenaNative) instead of sleeping while the worker catches up.
import { normalizePolicy } from '../../../extension/lib/policy.js';
import { until } from '../../support/wait.mjs';

/**
 * Resolves once the worker's agent follows the policy now in chrome.storage.local (the worker
 * reads it from storage.onChanged, after the write that triggered it has resolved).
 * @param {import('playwright-core').Worker} worker
 */
export async function policyApplied(worker) {
  let seen = '';
  await until('the service worker following the stored policy', async () => {
    const { stored, applied } = await worker.evaluate(async () => ({
      stored: (await chrome.storage.local.get('policy')).policy ?? null,
      // @ts-ignore the worker's own global (extension/sw.js)
      applied: globalThis.athenaAgent.policy,
    }));
    seen = JSON.stringify({ stored, applied });
    return JSON.stringify(normalizePolicy(stored).policy) === JSON.stringify(applied);
  }, { last: () => seen });
}

/**
 * The call ids of the worker's tabs (extension/lib/action-flow.js sets a tab's callId when an
 * action starts), to tell when a new call is under way.
 * @param {import('playwright-core').Worker} worker
 * @returns {Promise<string[]>}
 */
export function tabCallIds(worker) {
  // @ts-ignore the worker's own global (extension/sw.js)
  return worker.evaluate(() => [...globalThis.athenaAgent.tabs.values()].map((t) => String(t.callId)));
}

/**
 * Resolves once an action with a call id not in `before` is under way in one of the worker's tabs.
 * @param {import('playwright-core').Worker} worker @param {string[]} before @param {string} what
 */
export async function newCallUnderWay(worker, before, what) {
  let ids = before;
  await until(`${what} under way in the extension`, async () => {
    ids = await tabCallIds(worker);
    return ids.some((id) => id !== 'null' && !before.includes(id));
  }, { last: () => ids.join(', ') });
}
