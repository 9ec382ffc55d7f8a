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
  static re = /^\s*- (?<role>[\w-]+) "(?<name>(?:[^"\\]|\\.)*)".*\[ref=(?<ref>e\d+)\]/;
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
