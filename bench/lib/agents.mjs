// The same abstract agent, four ways: against Athena Delta, Playwright MCP, chrome-devtools-mcp
// and agent-browser (through bench/lib/agent-browser-mcp.mjs). Each adapter turns abstract steps (navigate, click the element whose
// visible text is X, type into the field named X, press, back, look) into that server's tool
// calls, the way an agent would use it: an agent using a peer takes a snapshot after each
// action whose result it needs to see; with Athena the action's FactPack is the look.
import { connectPeer, resultText } from './peers.mjs';
import { AgentView, canonicalLine, normText, parseFactPack } from '../../tests/support/factpack-text.mjs';

/** Bounds of the end-of-flow check (AthenaAgent.checkFidelity). */
export const FIDELITY_LIMITS = Object.freeze({
  findPages: 50,      // pages one gap's or region's find may be followed for
  findLimit: 100,     // elements per find page
  examples: 3,        // faults quoted per flow
  readParts: 10,      // parts of one long text an agent reads on (read {from: next})
});

/** @typedef {({op: 'navigate', url: string} | {op: 'click', text: string, role?: string} |
 *            {op: 'type', field: string, text: string, submit?: boolean, clear?: boolean} | {op: 'press', key: string} |
 *            {op: 'back'} | {op: 'snapshot'} | {op: 'drag', text: string, role?: string, to: string, toRole?: string} |
 *            {op: 'fill_form', fields: FormField[]} | {op: 'network', failed?: boolean} | {op: 'console', level?: string} |
 *            {op: 'resize', width: number, height: number}) & {expect?: string | string[], topRow?: string}} Step
 *  expect: after the step, this text (each of these texts) must be in what the agent was shown;
 *  topRow: the first table row the agent was shown (a row line holding an address) must hold this text;
 *  clear: the field's value is replaced, not added to */

/** A field of a fill_form step: its label, its kind (Playwright MCP's field types), the value (true checks a box or picks a radio).
 * @typedef {{field: string, kind: 'textbox' | 'checkbox' | 'radio' | 'combobox', value: string | boolean}} FormField */

/** The texts a step expects to have been shown. @param {Step} step @returns {string[]} */
export const expectedTexts = (step) => [].concat(step.expect ?? []);

/** @typedef {{texts: string[], structured: string[], calls: number, ok: boolean, error?: string, withStructured: number, tools?: string[]}} StepResult
 *  texts: what a text client gives the model (the text content); structured: what Claude Code gives
 *  it (JSON.stringify(structuredContent) when the result has one, else the text); tools: the tools
 *  called, in order (Athena: shows whether a step needed a find or a read) */

/** What a client that prefers structuredContent (Claude Code) shows the model. */
export function structuredView(result, text) {
  return result.structuredContent !== undefined && result.structuredContent !== null ? JSON.stringify(result.structuredContent) : text;
}

const norm = (s) => s.replace(/\s+/g, ' ').trim().toLowerCase();

/** A data row of a customer table, in any agent's snapshot: a row line that holds an address. */
const isDataRow = (name) => name.includes('@');

/**
 * The rows of a snapshot's text, in its order: a `row "…"` line's name (chrome-devtools-mcp,
 * agent-browser), or, for a row line without one (Playwright MCP's `- row [ref=e5]:`), the quoted
 * texts of the lines nested under it.
 * @param {string} text @returns {string[]}
 */
function rowsInText(text) {
  const lines = text.split('\n'), out = [];
  const indent = (l) => l.length - l.trimStart().length;
  for (let i = 0; i < lines.length; i++) {
    const m = /\brow(?: "((?:[^"\\]|\\.)*)")?/.exec(lines[i]);
    if (!m || !/^\s*(?:- |uid=\S+ )row\b/.test(lines[i])) continue;
    if (m[1] !== undefined) { out.push(m[1]); continue; }
    const words = [];
    for (let j = i + 1; j < lines.length && indent(lines[j]) > indent(lines[i]); j++) {
      for (const q of lines[j].matchAll(/"((?:[^"\\]|\\.)*)"/g)) words.push(q[1]);
    }
    out.push(words.join(' '));
  }
  return out;
}

/** Throws unless the first data row the agent was shown holds `want`. @param {string | undefined} first @param {string} want */
function checkTopRow(first, want) {
  if (first === undefined) throw new Error(`no table row in what the agent was shown (wanted "${want}" on top)`);
  if (!normText(first).includes(normText(want))) throw new Error(`the top row the agent was shown is "${first.slice(0, 60)}", not "${want}"`);
}

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
      for (const want of expectedTexts(step)) {
        if (!normText(this.view).includes(normText(want))) throw new Error(`expected text not in the last snapshot: "${want}"`);
      }
      // A snapshot's rows in its order: `row "…"` on Playwright's, chrome-devtools-mcp's and agent-browser's lines alike.
      if (step.topRow) checkTopRow(rowsInText(this.view).find(isDataRow), step.topRow);
      return { texts, structured, withStructured, calls: texts.length, ok: true };
    } catch (e) {
      return { texts, structured, withStructured, calls: texts.length, ok: false, error: String(e.message ?? e) };
    }
  }
}

export class PlaywrightAgent extends BaseAgent {
  constructor() { super('playwright'); }
  // A line whose text YAML must quote (a `{`, a `: `) comes single-quoted: `- 'button "GET /a/{id}" [ref=e71]':`.
  static re = /^\s*- '?(?<role>[\w-]+) "(?<name>(?:[^"\\]|\\.)*)".*\[ref=(?<ref>(?:f\d+)?e\d+)\]/;
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
      case 'drag': await call('browser_drag', { startElement: step.text, startTarget: this.ref(step.text, step.role), endElement: step.to, endTarget: this.ref(step.to, step.toRole) }); break;
      case 'fill_form': await call('browser_fill_form', { fields: step.fields.map((f) => ({ name: f.field, type: f.kind, target: this.ref(f.field, f.kind), value: String(f.value) })) }); break;
      case 'resize': await call('browser_resize', { width: step.width, height: step.height }); break;
      // What the agent reads is the answer itself: no snapshot after it.
      case 'network': this.view = await call('browser_network_requests', { static: false }); return;
      case 'console': this.view = await call('browser_console_messages', { level: step.level ?? 'info' }); return;
    }
    // Playwright MCP's action replies link to a snapshot file: the agent must look.
    await this.look(call);
  }
}

export class DevtoolsAgent extends BaseAgent {
  constructor() { super('devtools'); }
  static re = /^\s*uid=(?<ref>\S+) (?<role>[\w-]+) "(?<name>(?:[^"\\]|\\.)*)"/;
  /** Text it shows without a role (`uid=50_36 "1002"`, a grid cell's words), aimed at by its uid
   *  when no element with a role has those words. */
  static textRe = /^\s*uid=(?<ref>\S+) "(?<name>(?:[^"\\]|\\.)*)"/;
  async look(call) { this.view = await call('take_snapshot', { pageId: 1 }); }
  ref(text, role) {
    const lines = this.view.split('\n');
    const ref = findInLines(lines, DevtoolsAgent.re, text, role) ?? (role ? null : findInLines(lines, DevtoolsAgent.textRe, text));
    if (!ref) throw new Error(`no element "${text}" in the last snapshot`);
    return ref;
  }
  async do(step, call) {
    const pageId = 1;
    switch (step.op) {
      case 'navigate': await call('navigate_page', { pageId, type: 'url', url: step.url }); break;
      case 'click': await call('click', { pageId, uid: this.ref(step.text, step.role) }); break;
      case 'type':
        if (step.clear) {  // type_text types after what the field holds; fill replaces it
          await call('fill', { pageId, uid: this.ref(step.field, step.role), value: step.text });
          if (step.submit) await call('press_key', { pageId, key: 'Enter' });
          break;
        }
        await call('click', { pageId, uid: this.ref(step.field, step.role) });
        await call('type_text', { pageId, text: step.text, ...(step.submit ? { submitKey: 'Enter' } : {}) });
        break;
      case 'press': await call('press_key', { pageId, key: step.key }); break;
      case 'back': await call('navigate_page', { pageId, type: 'back' }); break;
      case 'snapshot': break;
      case 'drag': await call('drag', { pageId, from_uid: this.ref(step.text, step.role), to_uid: this.ref(step.to, step.toRole) }); break;
      case 'fill_form': await call('fill_form', { pageId, elements: step.fields.map((f) => ({ uid: this.ref(f.field, f.kind), value: String(f.value) })) }); break;
      case 'resize': await call('resize_page', { pageId, width: step.width, height: step.height }); break;
      case 'network': this.view = await call('list_network_requests', { pageId }); return;
      case 'console': this.view = await call('list_console_messages', { pageId, ...(step.level === 'error' ? { types: ['error'] } : {}) }); return;
    }
    await this.look(call);
  }
}

/**
 * agent-browser, as its own guide (node_modules/agent-browser/skill-data/core/SKILL.md) has an
 * agent use it: act on a ref, then snapshot. The look after an action is its leanest snapshot
 * (`snapshot -i -c`, interactive elements only); a step that must read text looks with
 * `snapshot -c` instead (the compact tree with visible text). Its actions return before the page
 * settles, so the agent does what the guide says when a look comes too early: a look that finds
 * a page still loading ("(no interactive elements)", "(empty page)") waits for the load and looks
 * again, and an element it is told to act on but does not see makes it wait for that text
 * (`wait --text`) and look once more. An element the snapshot shows without a ref (a <summary>)
 * is clicked by its text (`find text … click`). Every call counts.
 */
export class AgentBrowserAgent extends BaseAgent {
  constructor() { super('agent-browser'); this.reading = false; }
  static re = /^\s*- (?<role>[\w-]+) "(?<name>(?:[^"\\]|\\.)*)".*\[(?:[^\]]*?[ ,])?ref=(?<ref>e\d+)[,\]]/;
  /** What its snapshot prints for a page with nothing (yet): with -i, and without. */
  static LOADING = ['(no interactive elements)', '(empty page)'];
  async look(call, reading) {
    this.reading = reading;
    this.view = await call('snapshot', { interactive: !reading });
    if (this.view.trim() === '' || AgentBrowserAgent.LOADING.includes(this.view.trim())) {
      await call('wait', { load: 'load' });
      this.view = await call('snapshot', { interactive: !reading });
    }
  }
  /** The ref of the element; null when the snapshot shows it without one; else a wait for its text and a second look. */
  async ref(call, text, role) {
    const inView = () => {
      const ref = findInLines(this.view.split('\n'), AgentBrowserAgent.re, text, role);
      return ref ?? (normText(this.view).includes(`"${normText(text)}"`) ? null : undefined);
    };
    let ref = inView();
    if (ref !== undefined) return ref;
    // Not there yet (a dialog still fading in): wait for its text, as the guide advises, and look again.
    await call('wait', { text }).catch(() => {});
    await this.look(call, this.reading);
    ref = inView();
    if (ref !== undefined) return ref;
    throw new Error(`no element "${text}" in the last snapshot`);
  }
  async do(step, call) {
    switch (step.op) {
      case 'navigate': await call('navigate', { url: step.url }); break;
      case 'click': {
        const ref = await this.ref(call, step.text, step.role);
        await (ref ? call('click', { ref }) : call('click_text', { text: step.text }));
        break;
      }
      case 'type': {
        const ref = await this.ref(call, step.field, step.role);
        if (!ref) throw new Error(`the field "${step.field}" has no ref`);
        await call('fill', { ref, text: step.text });
        if (step.submit) await call('press', { key: 'Enter' });
        break;
      }
      case 'press': await call('press', { key: step.key }); break;
      case 'back': await call('back', {}); break;
      case 'snapshot': break;
      // Its CLI has these, but the wrapper (bench/lib/agent-browser-mcp.mjs) does not serve them yet.
      default: throw new Error(`${step.op}: not served by the agent-browser wrapper`);
    }
    await this.look(call, expectedTexts(step).length > 0);
  }
}

export const AGENTS = { playwright: PlaywrightAgent, devtools: DevtoolsAgent, 'agent-browser': AgentBrowserAgent };

/**
 * Athena Delta through the whole chain (MCP SDK client -> athena-bridge mcp -> native host ->
 * extension -> chrome.debugger). The agent keeps what it was shown, built from the FactPack TEXT
 * only (tests/support/factpack-text.mjs AgentView: the full FactPack of a navigation, then each
 * action's FactPack applied to it), and finds refs there by visible text like the others. What
 * it needs and does not see, it asks for like a sensible agent: an element a gap line says was
 * trimmed through `find` (by name; else walking the gap's `after` cursor), a sentence it expects
 * through `read` of the region it acted in (the dialog's when one is open). Those replies count.
 */
/**
 * Whether what the agent holds for a ref says what the page says now: equal lines, where a name
 * the FactPack marked `cut` (shortened to its limit) matches any longer name it begins.
 * @param {import('../../tests/support/factpack-text.mjs').TextElement} held
 * @param {import('../../tests/support/factpack-text.mjs').TextElement} now
 */
function sameLine(held, now) {
  if (canonicalLine(held) === canonicalLine(now)) return true;
  /** @param {any} e */
  const cut = (e) => e.cut === true || e.extra?.cut !== undefined;
  if (!cut(held) && !cut(now)) return false;
  const [short, long] = held.name.length <= now.name.length ? [held, now] : [now, held];
  /** @param {any} e */
  const uncut = (e) => { const { cut: _c, extra: _x, ...rest } = e; return canonicalLine(rest); };
  return long.name.startsWith(short.name) && uncut({ ...short, name: long.name }) === uncut(long);
}

export class AthenaAgent extends BaseAgent {
  constructor(chain) { super('athena'); this.chain = chain; this.view = new AgentView(); this.problems = []; this.lastRegion = null; }
  async start() { this.client = this.chain.client; this.close = async () => {}; this.name = 'Athena Delta'; }
  /**
   * Each flow is a task of its own: it starts in a new tab, with a new view (a page an earlier flow
   * left in the same tab would otherwise be recalled: docs/design.md, "Trimming and dedup across
   * baselines"). These calls are not the flow's: not counted.
   */
  async beginFlow() {
    const list = resultText(await this.client.callTool({ name: 'tabs', arguments: { action: 'list' } }));
    const old = /<tab id="([^"]+)" current="true"/.exec(list)?.[1];
    if (!old) return;  // the first flow: the tab the session opens
    const opened = await this.client.callTool({ name: 'tabs', arguments: { action: 'new' } });
    if (opened.isError) throw new Error(`tabs new: ${resultText(opened)}`);
    const closed = await this.client.callTool({ name: 'tabs', arguments: { action: 'close', tab: old } });
    if (closed.isError) throw new Error(`tabs close ${old}: ${resultText(closed)}`);
    this.view = new AgentView();
    this.lastRegion = null;
  }
  /** One tool call; its reply (text) goes into the view. */
  async act(call, name, args) {
    const r = await this.client.callTool({ name, arguments: args });
    const text = resultText(r);
    call.texts.push(text);
    call.tools.push(name);
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
      // A long text comes in parts: go on from each part's next= while the sentence is not seen.
      let from;
      for (let part = 0; part < FIDELITY_LIMITS.readParts; part++) {
        let fp;
        try { fp = await this.act(call, 'read', { ...args, ...(from ? { from } : {}) }); } catch { break; }
        if (this.view.sees(text)) return;
        from = fp?.read?.next;
        if (from === undefined) break;
      }
    }
    throw new Error(`expected text not seen, even after reading: "${text}"`);
  }
  async run(step) {
    const call = { texts: [], structured: [], withStructured: 0, tools: [] };
    try {
      await this.do(step, call);
      for (const want of expectedTexts(step)) await this.see(call, want);
      // The view in the order the FactPacks placed its lines (lines of no known place left out).
      if (step.topRow) checkTopRow([...this.view.elements.values()].find((e) => e.role === 'row' && !e.unplaced && isDataRow(e.name))?.name, step.topRow);
      return { texts: call.texts, structured: call.structured, withStructured: call.withStructured, calls: call.texts.length, tools: call.tools, ok: true };
    } catch (e) {
      return { texts: call.texts, structured: call.structured, withStructured: call.withStructured, calls: call.texts.length, tools: call.tools, ok: false, error: String(e.message ?? e) };
    }
  }
  /**
   * The end-of-flow check: what the agent holds (its view rebuilt from every answer it read)
   * against the page now, as a fresh `snapshot` shows it plus every `find` its gap lines name
   * (and, for a region the snapshot marks unchanged without listing it, a find of that region).
   * A ghost is a ref the agent holds that the page no longer has; a mismatch is a ref both have
   * whose line differs; `notHeld` counts elements on the page the agent was never shown (what a
   * FactPack trimmed and the agent did not ask for). These calls are the check's, not the agent's:
   * they are not counted in the flow and do not touch the agent's view.
   * A misordered region is one whose lines the agent holds in another order than the page's.
   * @returns {Promise<{ghosts: string[], mismatched: string[], misordered: string[], notHeld: number, pageElements: number, calls: number, error?: string}>}
   */
  async checkFidelity() {
    let calls = 0;
    const ask = async (name, args) => {
      calls++;
      const r = await this.client.callTool({ name, arguments: args });
      const text = resultText(r);
      if (r.isError) throw new Error(`${name} ${JSON.stringify(args)}: ${text.slice(0, 200)}`);
      return parseFactPack(text);
    };
    /** @type {Map<string, import('../../tests/support/factpack-text.mjs').TextElement>} */
    const page = new Map();
    const follow = async (args) => {
      /** @type {Record<string, string> | null} */
      let next = { ...args, limit: FIDELITY_LIMITS.findLimit };
      for (let i = 0; next && i < FIDELITY_LIMITS.findPages; i++) {
        const fp = await ask('find', next);
        for (const e of fp.elements) if (!page.has(e.ref)) page.set(e.ref, e);
        const after = fp.find?.next ?? fp.gaps.find((g) => g.find?.after)?.find?.after;
        next = after ? { ...args, after, limit: FIDELITY_LIMITS.findLimit } : null;
      }
    };
    /** @type {Map<string, string[]>} */
    let pageOrder = new Map();
    try {
      const snap = await ask('snapshot', {});
      for (const e of snap.elements) page.set(e.ref, e);
      const fresh = new AgentView();
      fresh.apply(snap);
      pageOrder = fresh.order();
      for (const r of snap.regions.filter((x) => x.unchanged)) {
        await follow({ region: r.label ?? r.name, ...(r.frame && r.frame !== 'f0' ? { frame: r.frame } : {}) });
      }
      for (const g of snap.gaps.filter((x) => x.find)) {
        const { limit: _ignored, ...args } = /** @type {Record<string, string>} */ (g.find);
        await follow(args);
      }
    } catch (e) {
      return { ghosts: [], mismatched: [], misordered: [], notHeld: 0, pageElements: page.size, calls, error: String(e.message ?? e) };
    }
    const ghosts = [], mismatched = [];
    for (const [ref, held] of this.view.elements) {
      const now = page.get(ref);
      if (!now) ghosts.push(canonicalLine(held));
      else if (!sameLine(held, now)) mismatched.push(`${canonicalLine(held)} -> now ${canonicalLine(now)}`);
    }
    // Order: in each region, the lines both hold (the snapshot's, and the agent's with a known place) in the same order.
    const misordered = [];
    const heldOrder = this.view.order();
    for (const [region, refs] of pageOrder) {
      const mine = heldOrder.get(region) ?? [];
      const held = new Set(mine), shown = new Set(refs);
      const want = refs.filter((r) => held.has(r)), got = mine.filter((r) => shown.has(r));
      const at = want.findIndex((r, i) => r !== got[i]);
      if (at >= 0) misordered.push(`${region.split('\t').filter(Boolean).join(' ')}: line ${at + 1} of what the agent holds is ${got[at]}, the page has ${want[at]} there`);
    }
    const notHeld = [...page.keys()].filter((ref) => !this.view.elements.has(ref)).length;
    return { ghosts, mismatched, misordered, notHeld, pageElements: page.size, calls };
  }
  async do(step, call) {
    const v = () => ({ version: this.view.version });
    if (step.op === 'navigate' || step.op === 'back') this.lastRegion = null;
    switch (step.op) {
      case 'navigate': await this.act(call, 'navigate', { url: step.url }); break;
      case 'click': { const ref = await this.ref(call, step.text, step.role); await this.act(call, 'click', { ref, ...v() }); break; }
      case 'type': {
        const ref = await this.ref(call, step.field, step.role);
        await this.act(call, 'type', { ref, text: step.text, ...(step.clear ? { clear: true } : {}), ...(step.submit ? { submit: true } : {}), ...v() });
        break;
      }
      case 'press': await this.act(call, 'press', { keys: step.key, ...v() }); break;
      case 'back': await this.act(call, 'back', v()); break;
      case 'snapshot': await this.act(call, 'snapshot', {}); break;
      case 'drag': {
        const ref = await this.ref(call, step.text, step.role);
        const to = (await this.target(call, step.to, step.toRole)).ref;
        await this.act(call, 'drag', { ref, to, ...v() });
        break;
      }
      case 'fill_form': {
        const fields = [];
        for (const f of step.fields) fields.push({ ref: (await this.target(call, f.field, f.kind)).ref, value: f.value });
        await this.act(call, 'fill_form', { fields, ...v() });
        break;
      }
      case 'resize': await this.act(call, 'resize', { width: step.width, height: step.height, ...v() }); break;
      case 'network': await this.ask(call, 'network', step.failed ? { failed: true } : {}); break;
      case 'console': await this.ask(call, 'console', step.level ? { level: step.level } : {}); break;
    }
  }
  /** A tool that answers with text, not a FactPack (network, console): what the agent reads. */
  async ask(call, name, args) {
    const r = await this.client.callTool({ name, arguments: args });
    const text = resultText(r);
    call.texts.push(text);
    call.tools.push(name);
    call.structured.push(structuredView(r, text));
    if (r.structuredContent) call.withStructured++;
    if (r.isError) throw Object.assign(new Error(`${name}: ${text.slice(0, 300)}`), { text });
    this.view.reads.push(text);
    return text;
  }
}
AGENTS.athena = AthenaAgent;
