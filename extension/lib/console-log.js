// What a tab the agent holds logged since its last navigation, for the console tool: what the
// Console panel of DevTools shows (console calls, uncaught exceptions and rejections, and the
// browser's own messages such as a failed load), kept from the Runtime and Log events the tab's
// sessions receive once TabSession enables those domains, when the agent first touches the tab.
// Both domains replay what the page logged before they were enabled: that is not recorded (every
// message carries its time, and only those from `begin` on are kept). Bounded (LIMITS.consoleLogMax
// messages: the oldest go first, and the tool says how many), a message repeated at once counted
// on its line as DevTools groups it, and emptied when the main frame commits a new document.
// Messages of a document the user's policy withholds never get here (`visible` judges the origin
// of the context that logged, known from Runtime.executionContextCreated). Raw text is kept;
// redaction happens when the tool renders it (extension/lib/redact.js), as for network.
//
// The execution contexts are kept here too (frame, origin, whether it is the page's own world):
// the evaluate tool runs its function in the frame's own world by that context's id, so that a
// navigation between the policy check and the run ends the call instead of running it elsewhere.
import { LIMITS } from './limits.js';
import { REDACTED, secretName } from './redact.js';

/**
 * One line of the log. `level` is DevTools' (error, warning, info, debug); `source` what said it:
 * console (console.* calls), exception (uncaught), or the browser's source (network, violation…).
 * @typedef {{n: number, level: 'error' | 'warning' | 'info' | 'debug', source: string, text: string,
 *            url: string, line?: number, col?: number, times: number}} ConsoleEntry
 * @typedef {{frameId: string, origin: string, main: boolean}} ContextInfo
 * What the log asks of its tab: the frame of an out-of-process frame's session, whether the policy
 * lets the agent see a document of this origin, whether the network log holds a request.
 * @typedef {{frameOfSession: (sid: string) => string | undefined, visible: (url: string) => boolean, request: (id: string) => boolean}} ConsoleTab
 */

/** console.* types by DevTools' level. */
const LEVELS = /** @type {Record<string, ConsoleEntry['level']>} */ ({ error: 'error', assert: 'error', warning: 'warning', debug: 'debug', verbose: 'debug' });

/** One argument of a console call as DevTools prints it (a string bare, objects by their preview). @param {any} a @returns {string} */
function argText(a) {
  if (!a || typeof a !== 'object') return String(a);
  if (a.type === 'string') return String(a.value ?? '');
  if (a.unserializableValue !== undefined) return String(a.unserializableValue);
  if (a.type === 'undefined') return 'undefined';
  if ('value' in a && (a.value === null || typeof a.value !== 'object')) return String(a.value);
  const p = a.preview;
  if (p && Array.isArray(p.properties) && (p.subtype === 'array' || p.type === 'object') && p.subtype !== 'error' && p.subtype !== 'node') {
    // A property whose name says it is a secret is redacted here: once printed, its name and value are one text.
    const value = (/** @type {any} */ x) => (p.subtype !== 'array' && secretName(String(x.name)) ? REDACTED : x.type === 'string' ? JSON.stringify(String(x.value ?? '')) : String(x.value ?? x.type));
    const props = p.properties.map((/** @type {any} */ x) => (p.subtype === 'array' ? '' : `${x.name}: `) + value(x));
    const body = props.join(', ') + (p.overflow ? ', …' : '');
    return p.subtype === 'array' ? `[${body}]` : `{${body}}`;
  }
  return String(a.description ?? a.className ?? a.type ?? '');
}

/** The text of a console call, its format string applied (%s %d %i %f %o %O %c). @param {any[]} args */
function callText(args) {
  const rest = [...args];
  let head = '';
  const formatted = rest[0]?.type === 'string' && /%[sdifoOc]/.test(String(rest[0].value));
  if (formatted) {
    head = String(rest.shift().value).replace(/%([sdifoOc%])/g, (m, c) => {
      if (c === '%') return '%';
      if (!rest.length) return m;
      const a = rest.shift();
      if (c === 'c') return '';
      if (c === 'd' || c === 'i') return String(Math.trunc(Number(a.value ?? NaN)));
      if (c === 'f') return String(Number(a.value ?? NaN));
      return argText(a);
    });
  }
  const parts = rest.map(argText);
  return formatted ? [head, ...parts].join(' ') : parts.join(' ');
}

export class ConsoleLog {
  /** @type {ConsoleEntry[]} */
  #entries = [];
  #next = 1;
  /** Epoch ms from which messages are the agent's (0: not recording yet). */
  #from = 0;
  /** Execution contexts by `${session}|${id}` (session '' is the page's). @type {Map<string, ContextInfo>} */
  #contexts = new Map();
  /** Objects CDP wrapped for the console calls heard since their group was let go. */
  #wrapped = 0;
  /** Messages dropped past LIMITS.consoleLogMax since the navigation. */
  dropped = 0;
  /** The URL of the navigation they follow. */
  since = '';

  /** Recording starts (the agent touched the tab): what was logged before is not the agent's. @param {number} now epoch ms */
  begin(now) { if (!this.#from) this.#from = now; }

  /** @returns {ConsoleEntry[]} */
  list() { return [...this.#entries]; }

  /**
   * The page's own world in a frame (not an isolated world of ours or of another extension), or
   * undefined when none is known (the frame navigated, or the tab was not attached yet).
   * @param {string} frameId @param {string | undefined} sid
   * @returns {{id: number, origin: string} | undefined}
   */
  mainWorld(frameId, sid) {
    for (const [k, c] of this.#contexts) {
      const [s, id] = k.split('|');
      if (c.main && c.frameId === frameId && s === (sid ?? '')) return { id: Number(id), origin: c.origin };
    }
    return undefined;
  }

  /**
   * An event of the tab (its page session, or an out-of-process frame's `sid`); the ones this log
   * does not read are ignored. True when the objects CDP holds for console calls of that session
   * should be let go (Runtime.releaseObjectGroup "console": they are never read, and a page that
   * logs all day would otherwise keep every object it logged alive).
   * @param {string} method @param {any} params @param {string | undefined} sid @param {ConsoleTab} tab
   */
  onEvent(method, params, sid, tab) {
    const s = sid ?? '';
    switch (method) {
      case 'Runtime.executionContextCreated': {
        const c = params.context ?? {};
        const frameId = String(c.auxData?.frameId ?? (sid ? tab.frameOfSession(sid) ?? '' : ''));
        if (this.#contexts.size < LIMITS.consoleContextsMax) this.#contexts.set(`${s}|${c.id}`, { frameId, origin: String(c.origin ?? ''), main: c.auxData?.isDefault === true });
        return false;
      }
      case 'Runtime.executionContextDestroyed': this.#contexts.delete(`${s}|${params.executionContextId}`); return false;
      case 'Runtime.executionContextsCleared':
        for (const k of [...this.#contexts.keys()]) if (k.startsWith(`${s}|`)) this.#contexts.delete(k);
        return false;
      case 'Page.frameNavigated':
        if (!sid && !params.frame?.parentId) {
          this.#entries = [];
          this.dropped = 0;
          this.since = String(params.frame?.url ?? '');
        }
        return false;
      case 'Runtime.consoleAPICalled': {
        if (!this.#heard(params.timestamp, params.executionContextId, s, tab)) return false;
        if (params.type === 'clear' || params.type === 'endGroup') return false;
        const top = params.stackTrace?.callFrames?.[0];
        const level = LEVELS[params.type] ?? 'info';
        const args = Array.isArray(params.args) ? params.args : [];
        const text = params.type === 'assert' ? `Assertion failed: ${callText(args)}` : callText(args);
        this.#add({ level, source: 'console', text, url: String(top?.url ?? ''), line: top ? top.lineNumber + 1 : undefined, col: top ? top.columnNumber + 1 : undefined });
        this.#wrapped += args.length;
        if (this.#wrapped < LIMITS.consoleReleaseEvery) return false;
        this.#wrapped = 0;
        return true;
      }
      case 'Runtime.exceptionThrown': {
        const d = params.exceptionDetails ?? {};
        if (!this.#heard(params.timestamp, d.executionContextId, s, tab)) return false;
        // "Uncaught" and the error's own first line (its message); the stack stays in the page.
        const ex = d.exception;
        const what = ex ? String(ex.description ?? ex.value ?? '').split('\n')[0] : '';
        const text = what && !String(d.text ?? '').includes(what) ? `${d.text ?? 'Uncaught'} ${what}` : String(d.text ?? what);
        const top = d.stackTrace?.callFrames?.[0];
        const url = String(d.url ?? top?.url ?? '');
        this.#add({ level: 'error', source: 'exception', text, url, line: d.lineNumber !== undefined ? d.lineNumber + 1 : undefined, col: d.columnNumber !== undefined ? d.columnNumber + 1 : undefined });
        return false;
      }
      case 'Log.entryAdded': {
        const e = params.entry ?? {};
        if (!this.#from || Number(e.timestamp ?? 0) < this.#from) return false;
        // The browser's messages name no context: a failed load is the agent's when the network
        // log holds its request (it drops those of withheld frames); any other when its URL is a
        // page the agent may see, or it names none.
        if (e.networkRequestId ? !tab.request(String(e.networkRequestId)) : (e.url && !tab.visible(String(e.url)))) return false;
        if (sid && !tab.visible(this.#frameOrigin(s))) return false;
        this.#add({ level: LEVELS[e.level] ?? (e.level === 'warning' ? 'warning' : 'info'), source: String(e.source ?? 'other'), text: String(e.text ?? ''), url: String(e.url ?? ''), line: e.lineNumber !== undefined ? e.lineNumber + 1 : undefined });
        return false;
      }
      default: return false;
    }
  }

  /** The origin of a frame session's documents, from its page world. @param {string} s */
  #frameOrigin(s) {
    for (const [k, c] of this.#contexts) if (k.startsWith(`${s}|`) && c.main) return c.origin;
    return '';
  }

  /**
   * Whether a message is the agent's: logged after recording began, by a context of a document the
   * policy lets the agent see (an unknown context counts as the page's only in the page's session).
   * @param {any} timestamp @param {any} contextId @param {string} s @param {ConsoleTab} tab
   */
  #heard(timestamp, contextId, s, tab) {
    if (!this.#from || Number(timestamp ?? 0) < this.#from) return false;
    const c = this.#contexts.get(`${s}|${contextId}`);
    // An isolated world (our capture's, another extension's) is not the page speaking.
    if (c && !c.main) return false;
    const origin = c ? c.origin : s ? this.#frameOrigin(s) : '';
    return !origin || origin === 'null' ? !s : tab.visible(origin);
  }

  /** @param {Omit<ConsoleEntry, 'n' | 'times'>} e */
  #add(e) {
    const last = this.#entries.at(-1);
    if (last && last.level === e.level && last.source === e.source && last.text === e.text && last.url === e.url && last.line === e.line && last.col === e.col) {
      last.times++;
      return;
    }
    this.#entries.push({ ...e, n: this.#next++, times: 1 });
    if (this.#entries.length > LIMITS.consoleLogMax) {
      this.#entries.shift();
      this.dropped++;
    }
  }
}
