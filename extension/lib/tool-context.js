// The narrow context a tool of one session acts through (the third argument of every handler,
// extension/lib/tools/define.js): the action flow, the frame driver, the engine, the user's policy,
// CDP on a tab, and the session's tabs; never the agent itself. Agent.dispatch builds one per call
// (extension/lib/agent.js).

/**
 * @typedef {import('./tab-session.js').TabSession} TabSession
 * @typedef {import('./agent.js').Agent} Agent
 * @typedef {ReturnType<typeof toolContext>} ToolContext
 */

/** @param {Agent} agent @param {string} session */
export function toolContext(agent, session) {
  const { chrome, owner } = agent;
  return {
    session,
    get policy() { return agent.policy; },
    flow: agent.flow,
    driver: agent.driver,
    loadEngine: () => agent.loadEngine(),
    /** The engine when loaded, else null. */
    get engine() { return agent.engine; },
    /** @param {TabSession} t @param {string} method @param {any} [params] @param {string} [sessionId] */
    send: (t, method, params = {}, sessionId = undefined) => t.send(method, params, sessionId),
    /** @param {TabSession} t */
    attach: (t) => t.attach(),
    /** @param {TabSession} t */
    captureTab: (t) => agent.captureTab(t),
    /** @param {TabSession} t */
    reload: (t) => chrome.tabs.reload(t.tabId),
    // The session's tabs (the tabs tool).
    /** @param {any} args @param {{keepCurrent?: boolean}} [o] */
    tabFor: (args, o = {}) => agent.tabFor(session, args, o),
    ownTabs: () => agent.tabMap.ofSession(session),
    /** Tabs the user shared that no agent controls yet. @returns {number[]} */
    sharedTabs: () => owner.sharedTabs(),
    /** @param {number} tabId */
    chromeTab: (tabId) => chrome.tabs.get(tabId).catch(() => null),
    currentTabId: () => agent.sessions.current(session),
    /** A new tab, the session's current one. */
    openTab: () => owner.openTab(session),
    /** @param {number} tabId */
    adoptShared: (tabId) => owner.adoptCurrent(session, tabId),
    /** @param {TabSession} t */
    activate: async (t) => { await chrome.tabs.update(t.tabId, { active: true }).catch(() => {}); },
    /** Released and closed (in its queue: nothing runs on it meanwhile). @param {TabSession} t */
    close: async (t) => {
      await agent.release(t.tabId, null);
      await chrome.tabs.remove(t.tabId).catch(() => {});
      if (agent.sessions.current(session) === t.tabId) agent.sessions.setCurrent(session, null);
    },
  };
}
