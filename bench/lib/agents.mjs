// The same abstract agent, three ways: against Athena Delta, Playwright MCP and
// chrome-devtools-mcp. Each adapter turns abstract steps (navigate, click the element whose
// visible text is X, type into the field named X, press, back, look) into that server's tool
// calls, the way an agent would use it: an agent using a peer takes a snapshot after each
// action whose result it needs to see; with Athena the action's FactPack is the look.
import { connectPeer, resultText } from './peers.mjs';

/** @typedef {{op: 'navigate', url: string} | {op: 'click', text: string, role?: string} |
 *            {op: 'type', field: string, text: string, submit?: boolean} | {op: 'press', key: string} |
 *            {op: 'back'} | {op: 'snapshot'}} Step */

/** @typedef {{texts: string[], calls: number, ok: boolean, error?: string}} StepResult */

const norm = (s) => s.replace(/\s+/g, ' ').trim().toLowerCase();

/** Finds the ref of the element whose line in `view` carries role and visible text. */
function findInLines(lines, re, text, role) {
  const want = norm(text);
  let fallback = null;
  for (const line of lines) {
    const m = re.exec(line);
    if (!m) continue;
    const { ref, role: r, name } = m.groups;
    if (role && r !== role) continue;
    if (norm(name) === want) return ref;
    if (!fallback && norm(name).includes(want)) fallback = ref;
  }
  return fallback;
}

class BaseAgent {
  constructor(key) { this.key = key; this.view = ''; }
  async start() {
    const { client, close, spec } = await connectPeer(this.key);
    this.client = client; this.close = close; this.name = spec.name;
  }
  async toolList() { return (await this.client.listTools()).tools; }
  async call(name, args) {
    const r = await this.client.callTool({ name, arguments: args });
    const text = resultText(r);
    if (r.isError) throw Object.assign(new Error(`${name}: ${text.slice(0, 300)}`), { text });
    return text;
  }
  /** @param {Step} step @returns {Promise<StepResult>} */
  async run(step) {
    const texts = [];
    const call = async (name, args) => { const t = await this.call(name, args); texts.push(t); return t; };
    try {
      await this.do(step, call);
      return { texts, calls: texts.length, ok: true };
    } catch (e) {
      if (e.text) texts.push(e.text);
      return { texts, calls: texts.length, ok: false, error: String(e.message ?? e) };
    }
  }
}

export class PlaywrightAgent extends BaseAgent {
  constructor() { super('playwright'); }
  static re = /^\s*- (?<role>[\w-]+) "(?<name>(?:[^"\\]|\\.)*)".*\[ref=(?<ref>(?:f\d+)?e\d+)\]/;
  async look(call) { this.view = await call('browser_snapshot', {}); }
  ref(text, role) {
    const ref = findInLines(this.view.split('\n'), PlaywrightAgent.re, text, role);
    if (!ref) throw new Error(`no element "${text}" in the last snapshot`);
    return ref;
  }
  async do(step, call) {
    switch (step.op) {
      case 'navigate': await call('browser_navigate', { url: step.url }); break;
      case 'click': await call('browser_click', { target: this.ref(step.text, step.role), element: step.text }); break;
      case 'type': await call('browser_type', { target: this.ref(step.field, step.role), element: step.field, text: step.text, submit: !!step.submit }); break;
      case 'press': await call('browser_press_key', { key: step.key }); break;
      case 'back': await call('browser_navigate_back', {}); break;
      case 'snapshot': break;
    }
    // Playwright MCP's action replies link to a snapshot file: the agent must look.
    await this.look(call);
  }
}

export class DevtoolsAgent extends BaseAgent {
  constructor() { super('devtools'); }
  static re = /^\s*uid=(?<ref>\S+) (?<role>[\w-]+) "(?<name>(?:[^"\\]|\\.)*)"/;
  async look(call) { this.view = await call('take_snapshot', { pageId: 1 }); }
  ref(text, role) {
    const ref = findInLines(this.view.split('\n'), DevtoolsAgent.re, text, role);
    if (!ref) throw new Error(`no element "${text}" in the last snapshot`);
    return ref;
  }
  async do(step, call) {
    const pageId = 1;
    switch (step.op) {
      case 'navigate': await call('navigate_page', { pageId, type: 'url', url: step.url }); break;
      case 'click': await call('click', { pageId, uid: this.ref(step.text, step.role) }); break;
      case 'type':
        await call('click', { pageId, uid: this.ref(step.field, step.role) });
        await call('type_text', { pageId, text: step.text, ...(step.submit ? { submitKey: 'Enter' } : {}) });
        break;
      case 'press': await call('press_key', { pageId, key: step.key }); break;
      case 'back': await call('navigate_page', { pageId, type: 'back' }); break;
      case 'snapshot': break;
    }
    await this.look(call);
  }
}

export const AGENTS = { playwright: PlaywrightAgent, devtools: DevtoolsAgent };

/**
 * Athena Delta through the whole chain (MCP SDK client -> athena-bridge mcp -> native host ->
 * extension -> chrome.debugger). The agent keeps the page it was shown: the full FactPack of a
 * navigation, then each action's FactPack applied to it (JSON view: structuredContent), and finds
 * refs there by visible text like the others. An element the text trimmed is looked up with the
 * `find` tool, whose reply counts like any other.
 */
export class AthenaAgent extends BaseAgent {
  constructor(chain) { super('athena'); this.chain = chain; this.elements = new Map(); this.version = 0; }
  async start() { this.client = this.chain.client; this.close = async () => {}; this.name = 'Athena Delta'; }
  apply(fp) {
    if (!fp || typeof fp !== 'object') return;
    for (const b of fp.before_action ?? []) this.apply(b);
    if (fp.type === 'full') this.elements.clear();
    for (const i of fp.invalidated ?? []) this.elements.delete(i.ref);
    for (const r of fp.regions ?? []) for (const e of r.elements ?? []) this.elements.set(e.ref, e);
    for (const e of fp.added ?? []) this.elements.set(e.ref, e);
    for (const m of fp.modified ?? []) this.elements.set(m.ref, m.after);
    if (typeof fp.version === 'number') this.version = fp.version;
  }
  async act(call, name, args) {
    const r = await this.client.callTool({ name, arguments: args });
    const text = resultText(r);
    call.texts.push(text);
    if (r.isError) throw Object.assign(new Error(`${name}: ${text.slice(0, 300)}`), { text });
    this.apply(r.structuredContent);
    return r;
  }
  async ref(call, text, role) {
    const want = norm(text);
    let fallback = null;
    for (const e of this.elements.values()) {
      if (role && e.role !== role) continue;
      if (norm(e.name) === want) return e.ref;
      if (!fallback && norm(e.name).includes(want)) fallback = e.ref;
    }
    if (fallback) return fallback;
    const r = await this.act(call, 'find', { name: text, ...(role ? { role } : {}) });
    const m = /(c\d+p\d+f\d+e\d+)/.exec(resultText(r));
    if (!m) throw new Error(`no element "${text}" in the FactPacks nor through find`);
    return m[1];
  }
  async run(step) {
    const call = { texts: [] };
    try {
      await this.do(step, call);
      return { texts: call.texts, calls: call.texts.length, ok: true };
    } catch (e) {
      return { texts: call.texts, calls: call.texts.length, ok: false, error: String(e.message ?? e) };
    }
  }
  async do(step, call) {
    const v = { version: this.version };
    switch (step.op) {
      case 'navigate': await this.act(call, 'navigate', { url: step.url }); break;
      case 'click': await this.act(call, 'click', { ref: await this.ref(call, step.text, step.role), ...v }); break;
      case 'type': await this.act(call, 'type', { ref: await this.ref(call, step.field, step.role), text: step.text, ...(step.submit ? { submit: true } : {}), ...v }); break;
      case 'press': await this.act(call, 'press', { keys: step.key, ...v }); break;
      case 'back': await this.act(call, 'back', v); break;
      case 'snapshot': await this.act(call, 'snapshot', {}); break;
    }
  }
}
AGENTS.athena = AthenaAgent;
