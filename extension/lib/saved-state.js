// What the agent keeps across service-worker restarts (Chrome stops an idle worker; its memory is
// gone, the tabs and storage are not): in storage.session its tabs' names, the sessions and their
// current tabs, the tabs shared, whether the user stopped it, the ref floor
// (extension/lib/browser-engine.js) and the page watcher's name; in storage.local the user's
// policy. The Agent reads it once when it starts and writes it whenever one of those changes
// (extension/lib/agent.js).

/**
 * @typedef {{tabMap: any, sessions: Record<string, {client: string, current: number | null}>, shared: number[], stopped: boolean, refFloor: number}} AgentState
 */

/** The watcher's name as the worker makes it: one a page's own script cannot guess. */
export const newWatchKey = () => `__athena${Math.random().toString(36).slice(2, 12)}`;

/**
 * What an earlier worker saved: the policy as stored, the watcher's name (this worker's own, saved
 * now, when none was: the tabs keep the watcher scripts registered by the worker before, so the
 * name lasts as long as the browser session), and the agent's state, if any.
 * @param {any} chrome @param {string} watchKey this worker's own
 * @returns {Promise<{policy: unknown, watchKey: string, state: AgentState | undefined}>}
 */
export async function loadSaved(chrome, watchKey) {
  const [local, sess] = await Promise.all([
    chrome.storage.local.get(['policy']).catch(() => ({})),
    chrome.storage.session.get(['athenaState', 'athenaWatchKey']).catch(() => ({})),
  ]);
  const saved = sess.athenaWatchKey;
  const known = typeof saved === 'string' && /^__athena[a-z0-9]+$/.test(saved);
  if (!known) await chrome.storage.session.set({ athenaWatchKey: watchKey }).catch(() => {});
  return { policy: local.policy, watchKey: known ? saved : watchKey, state: sess.athenaState };
}

/** @param {any} chrome @param {AgentState} state */
export async function save(chrome, state) {
  await chrome.storage.session.set({ athenaState: state }).catch(() => {});
}
