// The same abstract agent, three ways: against Athena Delta, Playwright MCP and
// chrome-devtools-mcp. Each adapter turns abstract steps (navigate, click the element whose
// visible text is X, type into the field named X, press, back, look) into that server's tool
// calls, the way an agent would use it: an agent using a peer takes a snapshot after each
// action whose result it needs to see; with Athena the action's FactPack is the look.
import { connectPeer, resultText } from './peers.mjs';
import { AgentView, normText, parseFactPack } from '../../tests/support/factpack-text.mjs';

/** @typedef {({op: 'navigate', url: string} | {op: 'click', text: string, role?: string} |
 *            {op: 'type', field: string, text: string, submit?: boolean} | {op: 'press', key: string} |
 *            {op: 'back'} | {op: 'snapshot'}) & {expect?: string}} Step
 *  expect: after the step, this text must be in what the agent was shown */

/** @typedef {{texts: string[], structured: string[], calls: number, ok: boolean, error?: string, withStructured: number}} StepResult
 *  texts: what a text client gives the model (the text content); structured: what Claude Code gives
 *  it (JSON.stringify(structuredContent) when the result has one, else the text) */

/** What a client that prefers structuredContent (Claude Code) shows the model. */
export function structuredView(result, text) {
  return result.structuredContent !== undefined && result.structuredContent !== null ? JSON.stringify(result.structuredContent) : text;
}

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
  /** @param {Step} step @returns {Promise<StepResult>} */
  async run(step) {
    const texts = [], structured = [];
    let withStructured = 0;
    const call = async (name, args) => {
      const r = await this.client.callTool({ name, arguments: args });
      const text = resultText(r);
      texts.push(text);
      structured.push(structuredView(r, text));
      if (r.structuredContent) withStructured++;
      if (r.isError) throw new Error(`${name}: ${text.slice(0, 300)}`);
      return text;
    };
    try {
      await this.do(step, call);
      if (step.expect && !normText(this.view).includes(normText(step.expect))) throw new Error(`expected text not in the last snapshot: "${step.expect}"`);
      return { texts, structured, withStructured, calls: texts.length, ok: true };
    } catch (e) {
      return { texts, structured, withStructured, calls: texts.length, ok: false, error: String(e.message ?? e) };
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
 * extension -> chrome.debugger). The agent keeps what it was shown, built from the FactPack TEXT
 * only (tests/support/factpack-text.mjs AgentView: the full FactPack of a navigation, then each
 * action's FactPack applied to it), and finds refs there by visible text like the others. What
 * it needs and does not see, it asks for like a sensible agent: an element a gap line says was
 * trimmed through `find` (by name; else walking the gap's `after` cursor), a sentence it expects
 * through `read` of the region it acted in (the dialog's when one is open). Those replies count.
 */
export class AthenaAgent extends BaseAgent {
  constructor(chain) { super('athena'); this.chain = chain; this.view = new AgentView(); this.problems = []; this.lastRegion = null; }
  async start() { this.client = this.chain.client; this.close = async () => {}; this.name = 'Athena Delta'; }
  /** One tool call; its reply (text) goes into the view. */
  async act(call, name, args) {
    const r = await this.client.callTool({ name, arguments: args });
    const text = resultText(r);
    call.texts.push(text);
    call.structured.push(structuredView(r, text));
    if (r.structuredContent) call.withStructured++;
    if (r.isError) throw Object.assign(new Error(`${name}: ${text.slice(0, 300)}`), { text });
    const fp = parseFactPack(text);
    if (fp.type === 'full') this.view.reads = [];  // a new page: what was read is of the old one
    const problems = this.view.apply(fp);
    if (problems.length) this.problems.push(...problems.map((p) => `${name}: ${p}`));
    return fp;
  }
  /** The element to act on: from the view, else through find (by name, then the gaps' cursors). */
  async target(call, text, role) {
    const exact = (e) => e && normText(e.name) === normText(text);
    let e = this.view.findElement(text, role);
    if (exact(e)) return e;
    const found = await this.act(call, 'find', { name: text, ...(role ? { role } : {}) });
    e = this.view.findElement(text, role);
    if (exact(e) || (e && !found.elements.length)) return e;
    if (found.elements.length) return found.elements.find(exact) ?? found.elements[0];
    // find by name knows nothing: walk what the gap lines say was left out, page by page.
    for (const gap of this.view.gaps.filter((g) => g.find)) {
      /** @type {Record<string, string> | null} */
      let args = { ...gap.find };
      for (let page = 0; args && page < 20; page++) {
        const fp = await this.act(call, 'find', args);
        e = fp.elements.find((x) => (!role || x.role === role) && normText(x.name) === normText(text));
        if (e) return e;
        args = fp.gaps.find((g) => g.find?.after)?.find ?? null;
      }
    }
    throw new Error(`no element "${text}" in the FactPacks nor through find`);
  }
  async ref(call, text, role) {
    const e = await this.target(call, text, role);
    this.lastRegion = e.region ? { region: e.label || e.region, frame: /f(\d+)e\d+$/.exec(e.ref)?.[1] } : null;
    return e.ref;
  }
  /** A sentence the agent expects to see: in its view, else read where it acted (the dialog first). */
  async see(call, text) {
    if (this.view.sees(text)) return;
    const tries = [];
    if (this.view.overlays.length) tries.push({ region: 'dialog' });
    if (this.lastRegion) tries.push({ region: this.lastRegion.region, ...(this.lastRegion.frame && this.lastRegion.frame !== '0' ? { frame: `f${this.lastRegion.frame}` } : {}) });
    tries.push({ region: 'main' }, {});
    const seen = new Set();
    for (const args of tries) {
      const k = JSON.stringify(args);
      if (seen.has(k)) continue;
      seen.add(k);
      try { await this.act(call, 'read', args); } catch { continue; }
      if (this.view.sees(text)) return;
    }
    throw new Error(`expected text not seen, even after reading: "${text}"`);
  }
  async run(step) {
    const call = { texts: [], structured: [], withStructured: 0 };
    try {
      await this.do(step, call);
      if (step.expect) await this.see(call, step.expect);
      return { texts: call.texts, structured: call.structured, withStructured: call.withStructured, calls: call.texts.length, ok: true };
    } catch (e) {
      return { texts: call.texts, structured: call.structured, withStructured: call.withStructured, calls: call.texts.length, ok: false, error: String(e.message ?? e) };
    }
  }
  async do(step, call) {
    const v = () => ({ version: this.view.version });
    if (step.op === 'navigate' || step.op === 'back') this.lastRegion = null;
    switch (step.op) {
      case 'navigate': await this.act(call, 'navigate', { url: step.url }); break;
      case 'click': { const ref = await this.ref(call, step.text, step.role); await this.act(call, 'click', { ref, ...v() }); break; }
      case 'type': { const ref = await this.ref(call, step.field, step.role); await this.act(call, 'type', { ref, text: step.text, ...(step.submit ? { submit: true } : {}), ...v() }); break; }
      case 'press': await this.act(call, 'press', { keys: step.key, ...v() }); break;
      case 'back': await this.act(call, 'back', v()); break;
      case 'snapshot': await this.act(call, 'snapshot', {}); break;
    }
  }
}
AGENTS.athena = AthenaAgent;
