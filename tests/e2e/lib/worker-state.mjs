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
 * The call id of each of the worker's tabs (extension/lib/action-flow.js sets a tab's callId when
 * an action starts), to tell when a new call is under way.
 * @param {import('playwright-core').Worker} worker
 * @returns {Promise<Record<string, string>>} tab id -> call id ("null" when none)
 */
export function tabCallIds(worker) {
  // @ts-ignore the worker's own global (extension/sw.js)
  return worker.evaluate(() => Object.fromEntries([...globalThis.athenaAgent.tabs.entries()].map(([id, t]) => [String(id), String(t.callId)])));
}

/**
 * Resolves once a tab's call id differs from what it was in `before` (tabCallIds): a new action
 * is under way there. Per tab, since a restarted host numbers its calls from h1 again.
 * @param {import('playwright-core').Worker} worker @param {Record<string, string>} before @param {string} what
 */
export async function newCallUnderWay(worker, before, what) {
  let ids = before;
  await until(`${what} under way in the extension`, async () => {
    ids = await tabCallIds(worker);
    return Object.entries(ids).some(([tab, id]) => id !== 'null' && id !== before[tab]);
  }, { last: () => JSON.stringify(ids) });
}
