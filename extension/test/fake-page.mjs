// A fake page for the agent's unit tests: a fake chrome whose debugger answers what the tools
// ask (extension/test/fake-chrome.mjs underneath) and a fake engine that keeps the core's
// call-order rules, so a test drives Agent.dispatch as the bridge does.
import assert from 'node:assert/strict';
import { ACTIONABLE_STATE_FN, GUARD_DONE_FN, GUARD_FN } from '../lib/actionability.js';
import { Agent } from '../lib/agent.js';
import { FILL_FN } from '../lib/tools/input.js';
import { fakeChrome } from './fake-chrome.mjs';

export const oneTab = () => ({ athenaState: { tabMap: { nextPage: { 0: 2 }, tabs: [{ tabId: 5, key: { context: 0, page: 1 }, session: 'a' }] }, sessions: { a: { client: 'c', current: 5 } } } });

/**
 * The core's rules that matter here (core/include/athena/engine.h): finishAction/abortAction
 * only after beginAction (else wrong_call_order); every beginAction on a changing page commits a
 * version; stricter than the core (which accepts exactly the delivered version, however many
 * versions failed actions committed since), an agent version is accepted only while it is also
 * among the last `history` + 1 committed versions, so a read or a wait that committed versions
 * would make the agent stale here. Every call is logged.
 */
export function strictEngine(history = 3) {
  const calls = [];
  let committed = [0];
  let delivered = 0;
  let pending = false;
  /** @type {{context: number, page: number} | null} */
  let opened = null;
  const commit = () => {
    committed.push(committed[committed.length - 1] + 1);
    committed = committed.slice(-(history + 1));
    return committed[committed.length - 1];
  };
  const err = (code, message) => Object.assign(new Error(message), { name: 'AthenaError', code });
  const pack = (type, v, body = '') => ({ type, version: v, text: `<${type} v="${v}">${body}</${type}>`, json: JSON.stringify({ type, version: v }) });
  const target = (ref) => ({ ref, backendNodeId: 7, frameId: 'MAIN', loaderId: 'L', role: 'button', name: 'Go', disabled: false, bbox: { x: 0, y: 0, width: 10, height: 10 } });
  return {
    calls,
    // The bounds read.js takes from the engine (the real ones are core/include/athena/limits.h's).
    limits: Object.freeze({ maxFindLimit: 1_000, bytesPerToken: 3 }),
    tokenBudget: 100,
    openPage: (key) => { calls.push('openPage'); opened = key; },
    // Refs name no tab: the engine says which one issued a ref (here: the tab opened last).
    owner: (ref) => {
      if (!/^e\d+$/.test(ref)) throw err('malformed_ref', `'${ref}' is not an element ref (like e17)`);
      if (!opened) throw err('unknown_ref', `ref ${ref} is not one any open tab remembers`);
      return opened;
    },
    nextRef: () => 1,
    closePage: (key) => { calls.push('closePage'); },
    onEvent: () => {},
    snapshot: (key, capture, info) => { calls.push('snapshot'); pending = false; delivered = commit(); return pack('full', delivered, (info?.warnings ?? []).join('|')); },
    beginAction: (key, capture, version) => {
      calls.push('beginAction');
      const v = commit();  // the page changes under every capture
      if (version !== null && version !== undefined && (version !== delivered || !committed.includes(delivered))) {
        pending = false;
        delivered = v;
        return { freshness: 'stale_no_history', currentVersion: v, pack: pack('full', v) };
      }
      pending = true;
      return { freshness: 'current', currentVersion: v, pack: null };
    },
    resolve: (key, ref) => { calls.push('resolve'); return target(ref); },
    resolveNow: (key, capture, ref) => { calls.push('resolveNow'); return target(ref); },
    // No node is known unless a test says so (engine.describeNode = ...).
    describeNode: () => { calls.push('describeNode'); return null; },
    finishAction: (key, capture, info) => {
      calls.push('finishAction');
      if (!pending) throw err('wrong_call_order', 'finish_action without begin_action');
      pending = false;
      delivered = commit();
      return pack('delta', delivered);
    },
    abortAction: () => {
      calls.push('abortAction');
      if (!pending) throw err('wrong_call_order', 'abort_action without begin_action');
      pending = false;
    },
    stats: () => ({ deliveredVersion: delivered }),
    get delivered() { return delivered; },
  };
}

/**
 * A fake chrome whose page answers what click, read and screenshot ask. `chrome.pageUrl` is where
 * the top frame is (a test moves it to play a redirect); `answer(method, params, sessionId)`
 * overrides any answer (undefined: the default one).
 * @param {any} [o] fakeChrome options, plus answer
 */
export function pageChrome(o = {}) {
  const { answer, ...rest } = o;
  const chrome = fakeChrome({ tabs: [{ id: 5, url: 'https://a.test/' }], session: oneTab(), ...rest });
  chrome.pageUrl = 'https://a.test/';
  chrome.debugger.sendCommand = async (target, method, params) => {
    chrome.sent.push({ target, method, params });
    await new Promise((r) => setTimeout(r, 1));
    const custom = answer?.(method, params, target.sessionId);
    if (custom !== undefined) return custom;
    switch (method) {
      case 'DOM.getBoxModel': return { model: { border: [10, 10, 60, 10, 60, 30, 10, 30], content: [10, 10, 60, 10, 60, 30, 10, 30] } };
      case 'DOM.resolveNode': return { object: { objectId: 'obj1' } };
      case 'Runtime.callFunctionOn':
        // Actionability (extension/lib/actionability.js): attached, visible, still, enabled.
        if (params.functionDeclaration === ACTIONABLE_STATE_FN) return { result: { value: { state: 'ok', stable: true, disabled: false, readonly: false } } };
        if (params.functionDeclaration === FILL_FN) return { result: { value: { done: false } } };
        // The guard over a press (guardPress): set, and at its end nothing was refused the press.
        if (params.functionDeclaration === GUARD_FN) return { result: { type: 'object', objectId: 'guard1' } };
        if (params.functionDeclaration === GUARD_DONE_FN) return { result: { type: 'object', subtype: 'null', value: null } };
        return { result: { value: { text: 'Hello', length: 5 } } };
      // The pointer lands on the element the engine resolves every ref to (backendNodeId 7).
      case 'DOM.getNodeForLocation': return { backendNodeId: 7, frameId: 'MAIN' };
      case 'Runtime.evaluate': return { result: { value: { quiet: true, ms: 0, mutations: 0 } } };
      case 'Page.getFrameTree': return { frameTree: { frame: { id: 'MAIN', url: chrome.pageUrl } } };
      case 'Page.getLayoutMetrics': return { cssVisualViewport: { pageX: 0, pageY: 0, clientWidth: 800, clientHeight: 600 }, cssLayoutViewport: { pageX: 0, pageY: 0, clientWidth: 800, clientHeight: 600 } };
      case 'Page.captureScreenshot': return { data: 'AAAA' };
      default: return {};
    }
  };
  return chrome;
}

export async function setup(o = {}) {
  const chrome = pageChrome(o);
  const engine = strictEngine();
  const agent = new Agent({ chrome, athena: Promise.resolve({ createEngine: () => engine }) });
  await agent.restored;
  const first = await agent.dispatch({ session: 'a', tool: 'snapshot' });
  assert.equal(first.ok, true, JSON.stringify(first));
  return { chrome, engine, agent, tab: () => /** @type {any} */ (agent.tabs.get(5)), name: () => agent.status().tabs[0].tab };
}

