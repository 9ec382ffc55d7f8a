// The service worker: one wasm engine per browser, the agent's tools over chrome.debugger, the
// native port to athena-bridge. Listeners are registered synchronously at top level (a debugger
// event or a message wakes a stopped worker and must find them). The module is imported
// statically: import() is forbidden in service workers and a top-level await would leave the
// worker unusable (docs/design.md, "Platform facts").
import { loadAthena } from './core/athena.mjs';
import { Agent } from './lib/agent.js';
import { HOST_NAME, NativeClient } from './lib/native.js';
import { LIMITS } from './lib/limits.js';

const WAKE_ALARM = 'athena-wake';

const athena = loadAthena();
const agent = new Agent({ chrome, athena, log: (s) => console.warn(`[athena] ${s}`) });

chrome.debugger.onEvent.addListener((source, method, params) => agent.onDebuggerEvent(source, method, params));
chrome.debugger.onDetach.addListener((source, reason) => agent.onDebuggerDetach(source, reason));
chrome.tabs.onRemoved.addListener((tabId) => agent.onTabRemoved(tabId));
chrome.tabs.onCreated.addListener((tab) => agent.onTabCreated(tab));
chrome.alarms.onAlarm.addListener((alarm) => { if (alarm.name === WAKE_ALARM) native.wake(); });
chrome.storage.onChanged.addListener((changes, area) => {
  if (area === 'local' && changes.policy) agent.setPolicy(changes.policy.newValue);
});

/** @type {import('./lib/native.js').NativeStatus} */
let nativeStatus = { connected: false, bridge: null, error: null, attempts: 0, nextRetryMs: null };

/**
 * The browser this extension runs in, as its brand says ("Google Chrome 131", "Microsoft Edge 131",
 * "Chromium 156"): the host names it to a second browser it cannot serve, so its user knows where
 * the agent is.
 */
function browserName() {
  /** @type {{brand: string, version: string}[]} */
  const brands = /** @type {any} */ (navigator).userAgentData?.brands ?? [];
  const real = brands.filter((b) => !/not.?a.?brand/i.test(b.brand));
  const pick = real.find((b) => b.brand !== 'Chromium') ?? real[0];
  return pick ? `${pick.brand} ${pick.version}` : '';
}

const native = new NativeClient({
  connect: () => chrome.runtime.connectNative(HOST_NAME),
  lastError: () => chrome.runtime.lastError?.message,
  extensionVersion: chrome.runtime.getManifest().version,
  browser: browserName(),
  onCall: (call) => dispatch({ session: call.session, tool: call.tool, args: call.args, id: call.id }),
  onSessionOpen: (session, client) => { try { agent.openSession(session, client); } catch (e) { console.warn(`[athena] ${e}`); } },
  onSessionClose: (session) => { agent.closeSession(session); },
  onCancel: (id, why) => agent.cancel(id, why),
  onStatus: (s) => { nativeStatus = s; },
});

/**
 * The one dispatch entry: the native port and end-to-end tests (sw.evaluate) both use it.
 * @param {{session: string, tool: string, args?: any, id?: any}} call
 */
function dispatch(call) {
  return agent.dispatch(call);
}
globalThis.athenaDispatch = dispatch;
globalThis.athenaAgent = agent;
globalThis.athenaNative = native;
/** The trace of an agent tab ("c0p1"; default: the newest), for the web playground. */
globalThis.athenaExportTrace = (/** @type {string | undefined} */ tab) => agent.traces.export(tab ?? agent.traces.keys().at(-1) ?? 'none');

// Popup and options talk to the worker with runtime messages.
chrome.runtime.onMessage.addListener((m, sender, respond) => {
  if (sender.id !== chrome.runtime.id) return false;
  (async () => {
    await agent.restored;
    switch (m?.type) {
      case 'status': return { native: nativeStatus, sessions: [...native.sessions].map(([id, client]) => ({ id, client })), agent: agent.status() };
      case 'stop': await agent.stop(); return { ok: true };
      case 'resume': await agent.resume(); return { ok: true };
      case 'share': await agent.share(m.tabId); return { ok: true };
      // The same dispatch entry for the extension's own pages (sender checked above).
      case 'dispatch': return dispatch(m.call);
      case 'trace': return { traces: agent.traces.keys(), trace: agent.traces.keys().length ? globalThis.athenaExportTrace(m.tab) : null };
      default: return { error: `unknown request ${m?.type}` };
    }
  })().then(respond, (e) => respond({ error: String(e?.message ?? e) }));
  return true;
});

native.start();

// Chrome stops an idle service worker and starts it again only for an event; while it is stopped
// the native port is closed and agents cannot reach the browser. An alarm is such an event: it
// wakes the worker (whose start connects again, above) and reconnects a port that dropped.
chrome.alarms.create(WAKE_ALARM, { periodInMinutes: LIMITS.wakeAlarmMinutes });
