// The FactPack TEXT, parsed the way an agent reads it (docs/factpack-format.md). MCP clients give
// the model the text (or, for Claude Code, whatever structuredContent the server sends; Athena
// sends none by default), so tests, the bench and the demo check what the model actually gets:
// this text, never the JSON.
//
//   import { parseFactPack, AgentView } from '../support/factpack-text.mjs';
//   const fp = parseFactPack(text);       // {type, version, regions, added, modified, ...}
//   const view = new AgentView();
//   view.apply(text);                     // full replaces, invalidations remove, deltas update
//   view.absorbFind(findText);            // a find answer adds the elements it lists
//   view.absorbRead(readText);            // a read answer: its text is something the agent saw
//   view.findElement('Sign in', 'button'); view.sees('This will delete 12 files.');
//
// Grammar handled: <full|delta|no_change|overlay_opened|overlay_closed v="…" …>, nested
// <before_action>, <warning>, <removed>, <invalid cause="…" count="N"/>, <invalid cause="…"> blocks,
// <region …> (also unchanged="true" count="N"/>; overlay="…" depth="N" in a full taken while overlays
// are open), <replaced region= label= frame=> in a delta (a region whole, in place of what the agent held there; `/>` when it is now empty;
// a delta that is one such region says `replaced="main"` in its tag and lists its lines first, in no block), overlay tags' closed="N", <added region= label= after=>, <modified> lines
// `ref role "name": before -> after`, <summary …/>, gap lines `... N more …` (with the find hint
// they carry), element lines incl. `text` and `row` lines, indented one space per outline level
// (depth), ending `(N more links)` when lines under them are collapsed (a gap with find within=REF),
// ref ranges `e7..12` in <removed>, plus the find and read tool answers.
import { parseRef, REF_TEXT } from '../../extension/lib/ref.js';

/**
 * @typedef {{
 *   ref: string, role: string, name: string,
 *   level?: number, flags: string[], tri: Record<string, string>,
 *   value?: string, valueRedacted?: boolean, href?: string, desc?: string,
 *   region?: string, label?: string, frame?: string, depth?: number, cut?: boolean,
 *   line?: string, under?: Gap, unplaced?: boolean, partial?: boolean
 * }} TextElement  one element line (`line`: without its `(N more …)` end, which is `under`); flags: disabled focused required invalid readonly selected current;
 *   cut: a text line trimmed to its first words (` cut` at the end; read shows it whole);
 *   tri: checked / expanded / pressed -> "true" | "false" | "mixed", sort -> "ascending" | "descending" | "other"
 * @typedef {{count: number, what: string, samples: string[], find: Record<string, string> | null, line: string, depth?: number}} Gap
 *   `... 40 more here: "A" … "B" (find region=main after=e20)`, `... 45 more links (find after=e2)`
 *   (the line it sits under), `... 13 more repeated from above: "A" … "B" (find …)`: find holds the hinted find arguments
 * @typedef {{name: string, label?: string, frame?: string, overlay?: {type: string, depth: number}, unchanged: boolean, replaced?: boolean, count?: number, seenIn?: number, elements: TextElement[], gaps: Gap[]}} Region
 *   seenIn: with unchanged, the version at which the agent held the region (a page the tab came back to);
 *   replaced: in a delta, the region's whole content now (every line the agent held there and not listed is gone)
 * @typedef {{ref: string, role?: string, name?: string}} RefLine
 * @typedef {{cause: string, count?: number, frame?: string, refs: RefLine[], gaps: Gap[]}} Invalid
 * @typedef {{region?: string, label?: string, frame?: string, after?: string, elements: TextElement[]}} Added  after: the ref of the line they follow in the page
 * @typedef {{ref: string, role: string, name: string, change: string, segments: {what: string, before: string, after: string}[], placeOnly?: boolean, cut?: boolean}} Modified
 *   (placeOnly: a line that only moved, from a run `e9 e4: moved after e2`; role and name are "": the agent holds them)
 * @typedef {{
 *   type: string, version: number, attrs: Record<string, string>,
 *   reason?: string, url?: string, title?: string, overlay?: {type: string, name?: string, depth: number, closed?: number},
 *   warnings: string[], beforeAction: FactPack[], removed: RefLine[], invalid: Invalid[],
 *   regions: Region[], added: Added[], modified: Modified[], summary: Record<string, number>, gaps: Gap[],
 *   elements: TextElement[], text?: string, find?: FindAnswer, read?: ReadAnswer,
 *   notes?: {tag: string, attrs: Record<string, string>, text: string}[]
 * }} FactPack  elements: every element line, in order (regions, added, find lines); notes: one-line
 *   tags before the FactPack (`<not_executed reason="stale_version" …>…</not_executed>`)
 * @typedef {{total?: number, shown?: number, next?: string, elements: TextElement[], gaps: Gap[]}} FindAnswer
 * @typedef {{ref?: string, region?: string, frame?: string, chars?: number, truncated: boolean, shown?: number, from?: number, next?: number, text: string}} ReadAnswer
 */

export const PACK_TYPES = Object.freeze(['full', 'delta', 'no_change', 'overlay_opened', 'overlay_closed']);
const FLAG_WORDS = new Set(['disabled', 'focused', 'required', 'invalid', 'readonly', 'selected', 'current']);
const TRI_WORDS = new Set(['checked', 'expanded', 'pressed', 'sort']);
// The ref grammar is extension/lib/ref.js's (rules/ref.json).
const REF_RE = new RegExp(`^${REF_TEXT}$`);
const ELEMENT_HEAD = new RegExp(`^(${REF_TEXT}) (\\S+) (?=")`);
const MOVED_RUN = new RegExp(`^(${REF_TEXT}(?: ${REF_TEXT})*): moved (?:first|after (${REF_TEXT}))$`);
const REF_HEAD = new RegExp(`^(${REF_TEXT})(?: (\\S*) (?="))?`);
const REF_RANGE = new RegExp(`^(${REF_TEXT})\\.\\.(\\d+)$`);
const ESCAPED_STRUCTURE = new RegExp(`^([\\s\\p{Cf}]*)\\\\(?=${REF_TEXT}|(?:\\.\\.\\.|…) \\d)`, 'gmu');

/** A parse error: which line and why. */
export class FactPackParseError extends Error {}

/**
 * Reads a quoted value at s[i] (which must be `"`): backslash escapes undone.
 * @param {string} s @param {number} i @returns {[string, number]} value, index after the closing quote
 */
function readQuoted(s, i) {
  if (s[i] !== '"') throw new FactPackParseError(`expected a quote at ${i} in ${JSON.stringify(s)}`);
  let out = '';
  for (let j = i + 1; j < s.length; j++) {
    const c = s[j];
    if (c === '\\' && j + 1 < s.length) { out += s[++j]; continue; }
    if (c === '"') return [out, j + 1];
    out += c;
  }
  throw new FactPackParseError(`unterminated quote in ${JSON.stringify(s)}`);
}

/** Tag attributes `k="v" k2="v2"` (quoted, escaped) into an object. @param {string} s */
export function parseAttrs(s) {
  /** @type {Record<string, string>} */
  const out = {};
  let i = 0;
  while (i < s.length) {
    while (s[i] === ' ') i++;
    const m = /^([\w-]+)=/.exec(s.slice(i));
    if (!m) break;
    i += m[0].length;
    if (s[i] === '"') {
      const [v, j] = readQuoted(s, i);
      out[m[1]] = v;
      i = j;
    } else {
      const e = s.indexOf(' ', i);
      out[m[1]] = s.slice(i, e < 0 ? s.length : e);
      i = e < 0 ? s.length : e;
    }
  }
  return out;
}

/**
 * State words after the name (`level=2 disabled checked=false value="x" href="…" desc="…"`).
 * @param {string} s @param {Partial<TextElement>} e
 */
function parseWords(s, e) {
  e.flags ??= [];
  e.tri ??= {};
  let i = 0;
  while (i < s.length) {
    while (s[i] === ' ') i++;
    if (i >= s.length) break;
    const m = /^([\w-]+)(=?)/.exec(s.slice(i));
    if (!m) throw new FactPackParseError(`unexpected ${JSON.stringify(s.slice(i))} in state words`);
    const key = m[1];
    i += m[0].length;
    let value = null;
    if (m[2]) {
      if (s[i] === '"') [value, i] = readQuoted(s, i);
      else { const end = s.indexOf(' ', i); value = s.slice(i, end < 0 ? s.length : end); i = end < 0 ? s.length : end; }
    }
    if (key === 'level' && value !== null) e.level = Number(value);
    else if (FLAG_WORDS.has(key) && value === null) e.flags.push(key);
    else if (TRI_WORDS.has(key)) e.tri[key] = value ?? 'true';
    else if (key === 'value' && value === 'redacted' && s[i - 1] !== '"') e.valueRedacted = true;
    else if (key === 'value') e.value = value ?? '';
    else if (key === 'href') e.href = value ?? '';
    else if (key === 'desc') e.desc = value ?? '';
    else if (key === 'cut' && value === null) e.cut = true;
    else if (key === 'frame' && value) e.frame = value;  // a find line of an element in an iframe
    else (e.extra ??= {})[key] = value ?? 'true';
  }
}

/**
 * One element line `ref role "name" words…`, or null when the line is not one.
 * @param {string} line @returns {TextElement | null}
 */
export function parseElementLine(line) {
  const m = ELEMENT_HEAD.exec(line);
  if (!m) return null;
  // `… (61 more links)` at the end: lines collapsed under this one (find within=its ref lists them).
  const under = / \((\d+) more(?: ([\w-]+))?\)$/.exec(line);
  const own = under ? line.slice(0, under.index) : line;
  const [name, end] = readQuoted(own, m[0].length);
  /** @type {TextElement} */
  const e = { ref: m[1], role: m[2], name, flags: [], tri: {}, line: own };
  parseWords(own.slice(end), e);
  if (under) e.under = { count: Number(under[1]), what: under[2] ?? '', samples: [], find: { within: m[1] }, line: under[0].trim() };
  return e;
}

/** The state words of an element, canonical (the renderer's order), without href/desc. @param {TextElement} e */
export function stateWords(e) {
  const w = [];
  if (e.level) w.push(`level=${e.level}`);
  for (const f of ['disabled', 'focused', 'required', 'invalid', 'readonly', 'selected', 'current']) if (e.flags?.includes(f)) w.push(f);
  for (const k of ['checked', 'expanded', 'pressed', 'sort']) if (e.tri?.[k]) w.push(e.tri[k] === 'true' ? k : `${k}=${e.tri[k]}`);
  if (e.valueRedacted) w.push('value=redacted');
  else if (e.value) w.push(`value=${quote(e.value)}`);
  return w.join(' ');
}

/** A value as the renderer quotes it. @param {string} s */
export function quote(s) {
  return '"' + s.replace(/[\\"]/g, (c) => '\\' + c).replace(/[\u0000-\u001f]/g, ' ') + '"';
}

/** The element as its line reads (ref role "name" state href desc): equal lines, equal elements. @param {TextElement} e */
export function canonicalLine(e) {
  let s = `${e.ref} ${e.role} ${quote(e.name)}`;
  const w = stateWords(e);
  if (w) s += ' ' + w;
  if (e.href && !e.name) s += ` href=${quote(e.href)}`;  // a named link is known by its name
  if (e.desc) s += ` desc=${quote(e.desc)}`;
  if (e.cut) s += ' cut';
  return s;
}

/**
 * Splits `s` at top-level occurrences of `sep` (outside quoted values).
 * @param {string} s @param {string} sep
 */
function splitTop(s, sep) {
  const out = [];
  let start = 0;
  let inQ = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (inQ) {
      if (c === '\\') i++;
      else if (c === '"') inQ = false;
      continue;
    }
    if (c === '"') { inQ = true; continue; }
    if (s.startsWith(sep, i)) { out.push(s.slice(start, i)); start = i + sep.length; i += sep.length - 1; }
  }
  out.push(s.slice(start));
  return out;
}

/**
 * A run of lines that only moved, in their new order, the first after the ref it names (or first
 * in its region), each next one after the one before: `e9 e4 e7: moved after e2`. Null for any
 * other line. @param {string} line @returns {Modified[] | null}
 */
export function parseMovedRun(line) {
  const m = MOVED_RUN.exec(line);
  if (!m) return null;
  let after = m[2] ?? '';
  return m[1].split(' ').map((ref) => {
    const change = after ? `moved after ${after}` : 'moved first';
    const one = { ref, role: '', name: '', change, segments: [{ what: 'order', before: '', after }], placeOnly: true };
    after = ref;
    return one;
  });
}

/** `ref role "name"[ cut]: change words` (a <modified> line). @param {string} line @returns {Modified | null} */
export function parseModifiedLine(line) {
  const m = ELEMENT_HEAD.exec(line);
  if (!m) return null;
  const [name, quoteEnd] = readQuoted(line, m[0].length);
  // ` cut`: the name now is the start of longer words (read shows them whole).
  const cut = line.startsWith(' cut: ', quoteEnd);
  const end = cut ? quoteEnd + 4 : quoteEnd;
  if (line.slice(end, end + 2) !== ': ') throw new FactPackParseError(`a modified line needs ": " after the name: ${line}`);
  const change = line.slice(end + 2);
  const segments = [];
  for (const seg of splitTop(change, ', ')) {
    if (seg === 'moved') { segments.push({ what: 'moved', before: '', after: '' }); continue; }
    // Its place among the lines that stayed: after that ref, or first in its region.
    if (seg === 'moved first') { segments.push({ what: 'order', before: '', after: '' }); continue; }
    const to = new RegExp(`^moved after (${REF_TEXT})$`).exec(seg);
    if (to) { segments.push({ what: 'order', before: '', after: to[1] }); continue; }
    // The line shows the new name: `name was "old"`, or for a text line only `new text`.
    if (seg === 'new text') { segments.push({ what: 'name', before: '', after: quote(name) }); continue; }
    if (seg.startsWith('name was "')) { segments.push({ what: 'name', before: seg.slice('name was '.length), after: quote(name) }); continue; }
    // State words only set (`+ focused value="ada"`) or only cleared (`- disabled`).
    if (seg.startsWith('+ ')) { segments.push({ what: 'state', before: '', after: seg.slice(2) }); continue; }
    if (seg.startsWith('- ')) { segments.push({ what: 'state', before: seg.slice(2), after: '' }); continue; }
    const sides = splitTop(seg, ' -> ');
    // A description or address the line does not show: `desc "what it is now"`.
    const now = /^(desc|href) ("(?:[^"\\]|\\.)*")$/s.exec(seg);
    if (sides.length === 1 && now) { segments.push({ what: now[1], before: '', after: now[2] }); continue; }
    if (sides.length !== 2) throw new FactPackParseError(`a change is "before -> after": ${JSON.stringify(seg)} in ${line}`);
    const [b, a] = sides;
    const km = /^(role|name|desc|href|depth) (.*)$/s.exec(b);
    if (km && (km[1] === 'role' || km[1] === 'depth' || km[2].startsWith('"'))) segments.push({ what: km[1], before: km[2], after: a });
    else segments.push({ what: 'state', before: b, after: a });
  }
  return { ref: m[1], role: m[2], name, change, segments, ...(cut ? { cut: true } : {}) };
}

/** `... N more …` (a gap line) or null. @param {string} line @returns {Gap | null} */
export function parseGapLine(line) {
  const m = /^\.\.\. (\d+) more\b(.*)$/.exec(line);
  if (!m) return null;
  const rest = m[2];
  const samples = [];
  for (const q of rest.matchAll(/"((?:[^"\\]|\\.)*)"/g)) samples.push(q[1].replace(/\\(.)/g, '$1'));
  /** @type {Record<string, string> | null} */
  let find = null;
  const fm = /\bfind(?: with)?((?: [\w-]+=(?:"(?:[^"\\]|\\.)*"|[^\s)]+))+)/.exec(rest);
  if (fm) find = parseAttrs(fm[1].trim());
  const what = (/^ ([^(:"]*)/.exec(rest)?.[1] ?? '').trim();
  return { count: Number(m[1]), what, samples, find, line };
}

/** An empty FactPack record. @param {string} type @param {Record<string, string>} attrs @returns {FactPack} */
function emptyPack(type, attrs) {
  /** @type {FactPack} */
  const fp = {
    type, version: Number(attrs.v ?? NaN), attrs, warnings: [], beforeAction: [], removed: [], invalid: [],
    regions: [], added: [], modified: [], summary: {}, gaps: [], elements: [],
  };
  // A full says its reason unless it is a navigation (a new url and title).
  if (attrs.reason !== undefined) fp.reason = attrs.reason;
  else if (type === 'full') fp.reason = 'navigation';
  if (attrs.url !== undefined) fp.url = attrs.url;
  if (attrs.title !== undefined) fp.title = attrs.title;
  if (attrs.overlay !== undefined) {
    fp.overlay = { type: attrs.overlay, ...(attrs.name !== undefined ? { name: attrs.name } : {}), depth: Number(attrs.depth ?? 1) };
    // How many overlays the pack closed: an overlay_closed one unless it says more; an
    // overlay_opened none unless it replaced some.
    fp.overlay.closed = Number(attrs.closed ?? (type === 'overlay_closed' ? 1 : 0));
  }
  return fp;
}

/** A removed / invalidated line `ref [role "name"]`, or a range of text refs `e7..12`. @param {string} line @returns {RefLine | RefLine[] | null} */
function parseRefLine(line) {
  const m = REF_HEAD.exec(line);
  if (!m) return null;
  const range = REF_RANGE.exec(line);
  if (range) {  // `e2748..2761`: every ref from the first number to the last
    const first = /** @type {{element: number}} */ (parseRef(range[1]));
    const prefix = 'e', from = first.element, to = range[2];
    if (Number(to) <= Number(from)) throw new FactPackParseError(`a ref range must rise: ${line}`);
    return Array.from({ length: Number(to) - Number(from) + 1 }, (_, k) => ({ ref: `${prefix}${Number(from) + k}` }));
  }
  if (m[2] === undefined) return { ref: m[1] };
  const [name] = readQuoted(line, m[0].length);
  return { ref: m[1], role: m[2], name };
}

/**
 * Parses one tool answer's text: a FactPack (any type), a `<find …>` or a `<read …>` answer.
 * Text before the first tag (none today) is ignored; unknown lines throw.
 * @param {string} text @returns {FactPack}
 */
export function parseFactPack(text) {
  if (typeof text !== 'string') throw new TypeError(`parseFactPack: expected a string, got ${typeof text}`);
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  let i = lines.findIndex((l) => l.startsWith('<'));
  if (i < 0) throw new FactPackParseError(`not a FactPack: ${JSON.stringify(text.slice(0, 80))}`);
  // One-line notes before the FactPack: `<not_executed reason="stale_version" …>why</not_executed>`.
  /** @type {{tag: string, attrs: Record<string, string>, text: string}[]} */
  const notes = [];
  for (let m; i < lines.length && (m = /^<(\w+)((?: [\w-]+=(?:"(?:[^"\\]|\\.)*"|\S+?))*)>(.*)<\/\1>$/.exec(lines[i])); i++) {
    notes.push({ tag: m[1], attrs: parseAttrs(m[2].trim()), text: m[3] });
    while (i + 1 < lines.length && !lines[i + 1].trim()) i++;
  }
  const [fp, next] = parseBlock(lines, i);
  if (notes.length) fp.notes = notes;
  for (let j = next; j < lines.length; j++) if (lines[j].trim()) throw new FactPackParseError(`text after </${fp.type}>: ${lines[j]}`);
  return fp;
}

/** @param {string[]} lines @param {number} i @returns {[FactPack, number]} */
function parseBlock(lines, i) {
  const open = /^<(\w+)((?: [\w-]+=(?:"(?:[^"\\]|\\.)*"|\S+?))*)\s*(\/?)>$/.exec(lines[i]);
  if (!open) throw new FactPackParseError(`expected an opening tag, got ${JSON.stringify(lines[i])}`);
  const [, type, attrText, selfClose] = open;
  const attrs = parseAttrs(attrText.trim());
  const fp = emptyPack(type, attrs);
  if (selfClose) return [fp, i + 1];
  if (type === 'read') return parseRead(lines, i, fp);
  if (type === 'find') fp.find = { total: num(attrs.total), shown: num(attrs.shown), next: attrs.next, elements: [], gaps: [] };
  if (!PACK_TYPES.includes(type) && type !== 'find') throw new FactPackParseError(`unknown FactPack type <${type}>`);
  /** @type {{kind: string, target: any, open?: boolean} | null} */
  let block = null;
  if (type === 'delta' && attrs.replaced !== undefined) {
    // A delta that is one region replaced whole names it in its tag: its lines come first, up to the first tag.
    /** @type {Region} */
    const r = { name: attrs.replaced, unchanged: false, replaced: true, elements: [], gaps: [] };
    fp.regions.push(r);
    block = { kind: 'replaced', target: r, open: true };
  }
  for (i++; i < lines.length; i++) {
    const line = lines[i];
    if (block?.open && line.startsWith('<')) block = null;
    if (line === `</${type}>`) {
      // An opened dialog's name is said once, by its region's label.
      if (type === 'overlay_opened' && fp.overlay && fp.overlay.name === undefined && fp.regions[0]?.label !== undefined) fp.overlay.name = fp.regions[0].label;
      return [fp, i + 1];
    }
    if (line === '') continue;
    if (block) {
      if (line === `</${block.kind}>`) { block = null; continue; }
      // Lines inside a block are indented one space per outline level (lists, rows, details).
      const depth = /^ */.exec(line)?.[0].length ?? 0;
      const body = line.slice(depth);
      const gap = parseGapLine(body);
      if (gap) { if (depth) gap.depth = depth; block.target.gaps?.push(gap); fp.gaps.push(gap); continue; }
      if (block.kind === 'modified') {
        const run = parseMovedRun(line);
        if (run) { fp.modified.push(...run); continue; }
        const m = parseModifiedLine(line);
        if (!m) throw new FactPackParseError(`not a modified line: ${line}`);
        fp.modified.push(m);
      } else if (block.kind === 'removed' || block.kind === 'invalid') {
        const r = parseRefLine(line);
        if (!r) throw new FactPackParseError(`not a ref line in <${block.kind}>: ${line}`);
        block.target.refs.push(...[r].flat());
        if (block.kind === 'removed') fp.removed.push(...[r].flat());  // every <removed> ref, ranges expanded
      } else {
        const e = parseElementLine(body);
        if (!e) throw new FactPackParseError(`not an element line in <${block.kind}>: ${line}`);
        if (depth) e.depth = depth;
        if (block.kind === 'region' || block.kind === 'replaced') { e.region = block.target.name; if (block.target.label !== undefined) e.label = block.target.label; if (block.target.frame) e.frame = block.target.frame; }
        if (block.kind === 'added') { e.region = block.target.region ?? 'page'; if (block.target.label !== undefined) e.label = block.target.label; if (block.target.frame) e.frame = block.target.frame; }
        block.target.elements.push(e);
        fp.elements.push(e);
        if (e.under) {
          const gap = { ...e.under, depth: (depth ?? 0) + 1 };
          block.target.gaps?.push(gap);
          fp.gaps.push(gap);
        }
      }
      continue;
    }
    if (line === '<before_action>') {
      const [inner, j] = parseBlock(lines, i + 1);
      if (lines[j] !== '</before_action>') throw new FactPackParseError(`expected </before_action>, got ${JSON.stringify(lines[j])}`);
      fp.beforeAction.push(inner);
      i = j;
      continue;
    }
    let m;
    if ((m = /^<warning>(.*)<\/warning>$/.exec(line))) { fp.warnings.push(m[1]); continue; }
    if ((m = /^<summary((?: [\w-]+="[^"]*")*)\/>$/.exec(line))) {
      for (const [k, v] of Object.entries(parseAttrs(m[1].trim()))) fp.summary[k] = Number(v);
      continue;
    }
    if ((m = /^<invalid((?: [\w-]+="(?:[^"\\]|\\.)*")*)(\/?)>$/.exec(line))) {
      const a = parseAttrs(m[1].trim());
      /** @type {Invalid} */
      const inv = { cause: a.cause ?? '', refs: [], gaps: [] };
      if (a.count !== undefined) inv.count = Number(a.count);
      if (a.frame !== undefined) inv.frame = a.frame;
      fp.invalid.push(inv);
      if (!m[2]) block = { kind: 'invalid', target: inv };
      continue;
    }
    if (line === '<removed>') { const inv = { cause: 'removed', refs: [], gaps: [] }; block = { kind: 'removed', target: inv }; fp.invalid.push(inv); continue; }
    if ((m = /^<region((?: [\w-]+="(?:[^"\\]|\\.)*")*)(\/?)>$/.exec(line))) {
      const a = parseAttrs(m[1].trim());
      /** @type {Region} */
      const r = { name: a.name ?? 'page', unchanged: a.unchanged === 'true', elements: [], gaps: [] };
      if (a.seen_in !== undefined) r.seenIn = Number(a.seen_in);
      if (a.label !== undefined) r.label = a.label;
      if (a.frame !== undefined) r.frame = a.frame;
      if (a.count !== undefined) r.count = Number(a.count);
      // In a full taken while overlays are open: the overlay the region is inside.
      if (a.overlay !== undefined) r.overlay = { type: a.overlay, depth: Number(a.depth ?? 1) };
      fp.regions.push(r);
      if (!m[2]) block = { kind: 'region', target: r };
      continue;
    }
    if ((m = /^<replaced((?: [\w-]+="(?:[^"\\]|\\.)*")*)(\/?)>$/.exec(line))) {
      // A delta's region sent whole, in place of what the agent held there.
      const a = parseAttrs(m[1].trim());
      /** @type {Region} */
      const r = { name: a.region ?? 'page', unchanged: false, replaced: true, elements: [], gaps: [] };
      if (a.label !== undefined) r.label = a.label;
      if (a.frame !== undefined) r.frame = a.frame;
      fp.regions.push(r);
      if (!m[2]) block = { kind: 'replaced', target: r };
      continue;
    }
    if ((m = /^<added((?: [\w-]+="(?:[^"\\]|\\.)*")*)>$/.exec(line))) {
      const a = parseAttrs(m[1].trim());
      /** @type {Added} */
      const ad = { elements: [] };
      if (a.region !== undefined) ad.region = a.region;
      if (a.label !== undefined) ad.label = a.label;
      if (a.frame !== undefined) ad.frame = a.frame;
      if (a.after !== undefined) ad.after = a.after;
      fp.added.push(ad);
      block = { kind: 'added', target: Object.assign(ad, { gaps: [] }) };
      continue;
    }
    if (line === '<modified>') { block = { kind: 'modified', target: { gaps: [] } }; continue; }
    const gap = parseGapLine(line);
    if (gap) { fp.gaps.push(gap); fp.find?.gaps.push(gap); continue; }
    if (type === 'find') {
      const e = parseElementLine(line);
      if (e) { fp.find.elements.push(e); fp.elements.push(e); continue; }
    }
    throw new FactPackParseError(`unexpected line in <${type}>: ${JSON.stringify(line)}`);
  }
  throw new FactPackParseError(`no </${type}>`);
}

/** @param {string | undefined} s */
const num = (s) => (s === undefined ? undefined : Number(s));

/** `<read ref=… | region=… chars="N" [truncated="true" [from="F"] shown="M" [next="G"]]>` text `</read>`. @param {string[]} lines @param {number} i @param {FactPack} fp @returns {[FactPack, number]} */
function parseRead(lines, i, fp) {
  const a = fp.attrs;
  const end = lines.lastIndexOf('</read>');
  if (end < i) throw new FactPackParseError('no </read>');
  // The block escapes '\\' and '<', and a line that would start like structure starts with '\\'
  // (extension/lib/quote.js escapeBlock): read back as the page had it.
  const text = lines.slice(i + 1, end).join('\n')
    .replace(ESCAPED_STRUCTURE, '$1')
    .replace(/\\([\\<])/g, '$1');
  fp.text = text;
  fp.read = {
    ...(a.ref !== undefined ? { ref: a.ref } : {}), ...(a.region !== undefined ? { region: a.region } : {}),
    ...(a.frame !== undefined ? { frame: a.frame } : {}), chars: num(a.chars),
    truncated: a.truncated !== undefined && a.truncated !== 'false', shown: num(a.shown), text,
    ...(a.from !== undefined ? { from: num(a.from) } : {}), ...(a.next !== undefined ? { next: num(a.next) } : {}),
  };
  return [fp, end + 1];
}

/** Lower-case, whitespace collapsed, for "did the agent see this text" checks. @param {string} s */
export const normText = (s) => String(s ?? '').replace(/\s+/g, ' ').trim().toLowerCase();

/** The frame of an element the agent holds ("f0" unless its region or added block named one). @param {{frame?: string}} e */
export const frameOf = (e) => e.frame ?? 'f0';

/** Region key (name, label, frame) of a region block. @param {Region} r */
const regionKey = (r) => `${r.name}\t${r.label ?? ''}\t${r.frame && r.frame !== 'f0' ? r.frame : ''}`;
/** Region key of a held element (frame from its ref); null when unknown (listed by find). @param {TextElement} e */
const elementRegionKey = (e) => e.region === undefined ? null : `${e.region}\t${e.label ?? ''}\t${frameOf(e) === 'f0' ? '' : frameOf(e)}`;

/**
 * Applies a <modified> line's changes to what the agent holds.
 * @param {TextElement} held @param {Modified} m @returns {TextElement}
 */
function applyModified(held, m) {
  /** @type {TextElement} */
  const e = { ...held, flags: [...(held.flags ?? [])], tri: { ...(held.tri ?? {}) }, ref: m.ref, role: m.role, name: m.name };
  if (m.cut) e.cut = true;  // the line shows its name as it is now, cut or whole
  else delete e.cut;
  for (const s of m.segments) {
    if (s.what === 'depth') {  // the line moved in the outline
      if (Number(s.after) > 0) e.depth = Number(s.after); else delete e.depth;
    } else if (s.what === 'desc' || s.what === 'href') {
      const [v] = readQuoted(s.after, 0);
      if (v) e[s.what] = v; else delete e[s.what];
    } else if (s.what === 'state') {
      // Only the words that differ: a key on the left is cleared, a word on the right is set.
      /** @type {TextElement} */ const gone = { ref: '', role: '', name: '', flags: [], tri: {} };
      /** @type {TextElement} */ const now = { ref: '', role: '', name: '', flags: [], tri: {} };
      if (s.before) parseWords(s.before, gone);
      if (s.after) parseWords(s.after, now);
      e.flags = e.flags.filter((f) => !gone.flags.includes(f) && !now.flags.includes(f)).concat(now.flags);
      for (const k of Object.keys(gone.tri)) delete e.tri[k];
      Object.assign(e.tri, now.tri);
      const valueGone = gone.value !== undefined || gone.valueRedacted !== undefined;
      const valueNow = now.value !== undefined || now.valueRedacted !== undefined;
      if (valueGone || valueNow) { delete e.value; delete e.valueRedacted; }
      if (now.value !== undefined) e.value = now.value;
      if (now.valueRedacted !== undefined) e.valueRedacted = now.valueRedacted;
      if (gone.level !== undefined) delete e.level;
      if (now.level !== undefined) e.level = now.level;
    }
  }
  delete e.line;
  return e;
}

/** Pages the agent is modelled to remember what it held on (at least the core's kMaxRecalledPages). */
const HELD_KEPT = 16;

/**
 * What an agent knows after reading every answer it got, in order: ref -> element, plus the
 * texts it read. Built from the TEXT only.
 */
export class AgentView {
  constructor() {
    /** @type {Map<string, TextElement>} */
    this.elements = new Map();
    /** Texts the agent asked for (read answers). @type {string[]} */
    this.reads = [];
    /** Gap lines of the latest baseline and deltas (what is there but not shown). @type {Gap[]} */
    this.gaps = [];
    /** The gap lines of each region of the latest full, by region key: an unchanged region keeps
     *  them. @type {Map<string, Gap[]>} */
    this.regionGaps = new Map();
    /** Warnings of the latest answer. @type {string[]} */
    this.warnings = [];
    this.version = 0;
    /** What the agent held when each full replaced it, by the version it held then (the last
     *  HELD_KEPT): a region `unchanged` with `seen_in` is the one it held at that version.
     *  @type {Map<number, {elements: Map<string, TextElement>, gaps: Gap[], regionGaps: Map<string, Gap[]>}>} */
    this.held = new Map();
    this.url = '';
    this.title = '';
    /** Open overlays, innermost last, with the refs the agent was shown in each (its opening
     *  pack, and later additions to a region it opened): a closed overlay's invalidation counts
     *  them, it does not list them. @type {{type: string, name?: string, regions: Set<string>, refs: Set<string>}[]} */
    this.overlays = [];
    this.initialized = false;
    /** The last FactPack applied. @type {FactPack | null} */
    this.last = null;
  }

  /**
   * Applies one tool answer (text or parsed). FactPacks update the view; find and read answers
   * are absorbed. Returns the inconsistencies found ([] when the answer fits what the agent holds).
   * @param {string | FactPack} answer @returns {string[]}
   */
  apply(answer) {
    const fp = typeof answer === 'string' ? parseFactPack(answer) : answer;
    if (fp.type === 'find') return this.absorbFind(fp);
    if (fp.type === 'read') return this.absorbRead(fp);
    const problems = [];
    for (const b of fp.beforeAction) problems.push(...this.apply(b));
    problems.push(...this.#applyOne(fp));
    this.last = fp;
    return problems;
  }

  /** @param {FactPack} fp @returns {string[]} */
  #applyOne(fp) {
    const problems = [];
    if (fp.type === 'full' && this.initialized) {
      this.held.set(this.version, { elements: this.elements, gaps: this.gaps, regionGaps: this.regionGaps });
      for (const v of this.held.keys()) if (this.held.size > HELD_KEPT) this.held.delete(v);
    }
    if (Number.isFinite(fp.version)) this.version = fp.version;
    this.warnings = fp.warnings;
    if (fp.type === 'full') {
      // A full replaces everything, except unchanged regions: the agent keeps what it holds there,
      // in the order it holds it. Regions in the pack's order, each region's lines in the page's.
      const next = new Map();
      /** @type {Map<string, Gap[]>} */
      const nextGaps = new Map();
      // The overlays open under this full, by depth: a region inside one says so.
      /** @type {{type: string, regions: Set<string>, refs: Set<string>}[]} */
      const overlays = [];
      for (const r of fp.regions) {
        const refs = [];
        if (!r.unchanged) {
          for (const e of r.elements) { next.set(e.ref, e); refs.push(e.ref); }
          nextGaps.set(regionKey(r), r.gaps);
        } else {
          const then = r.seenIn === undefined ? { elements: this.elements, gaps: this.gaps, regionGaps: this.regionGaps } : this.held.get(r.seenIn);
          nextGaps.set(regionKey(r), then?.regionGaps.get(regionKey(r)) ?? []);
          if (!then) problems.push(`unchanged region ${regionKey(r).trim()} seen_in=${r.seenIn}, but the agent held no page at that version`);
          const held = [...(then?.elements ?? [])].filter(([, e]) => elementRegionKey(e) === regionKey(r));
          // (On a trimmed page the region may have been all gap lines: the agent holds none of it.)
          if (held.length === 0 && r.count && then && !then.gaps.length) problems.push(`unchanged region ${regionKey(r).trim()} (${r.count}) but the agent holds none of it`);
          for (const [ref, e] of held) { next.set(ref, e); refs.push(ref); }
        }
        if (!r.overlay) continue;
        const at = r.overlay.depth - 1;
        overlays[at] ??= { type: r.overlay.type, regions: new Set(), refs: new Set() };
        overlays[at].regions.add(regionKey(r));
        for (const ref of refs) overlays[at].refs.add(ref);
      }
      this.elements = next;
      this.regionGaps = nextGaps;
      this.gaps = [];
      // The tag says how many are open (`overlay="modal" depth="2"`); one with nothing to show has no region.
      const open = Math.max(fp.overlay?.depth ?? 0, overlays.length);
      if (overlays.length > (fp.overlay?.depth ?? 0)) problems.push(`regions of ${overlays.length} overlays in a full whose tag says ${fp.overlay?.depth ?? 0} are open`);
      this.overlays = Array.from({ length: open }, (_, k) => overlays[k] ?? { type: k === open - 1 && fp.overlay ? fp.overlay.type : 'overlay', regions: new Set(), refs: new Set() });
      this.initialized = true;
      if (fp.url !== undefined) this.url = fp.url;
      if (fp.title !== undefined) this.title = fp.title;
    } else if (!this.initialized && fp.type !== 'no_change') {
      problems.push(`a ${fp.type} before any full FactPack`);
    }
    if (fp.type === 'overlay_closed' || fp.type === 'overlay_opened') {
      // Closing takes every ref of the overlay along (of each, when an action closed nested ones
      // or an opened one replaced them).
      for (let n = fp.overlay?.closed ?? 0; n > 0; n--) {
        const top = this.overlays.pop();
        if (!top) {
          problems.push(`an ${fp.type} that closed an overlay while the agent holds no open overlay`);
          break;
        }
        for (const r of top.refs) this.elements.delete(r);
      }
    }
    for (const inv of fp.invalid) {
      if (inv.count !== undefined && !inv.refs.length && inv.cause === 'overlay_closed') {
        problems.push('<invalid cause="overlay_closed" count="…"/>: the pack\'s tag says which overlays closed');
        continue;
      }
      if (inv.count !== undefined && !inv.refs.length) {
        if (fp.type === 'full') continue;  // already dropped above
        // A navigated or detached document in a delta: the refs of the frame it names, all of them
        // (or of each frame of a run, `f2..f101`).
        const frame = inv.frame ?? 'f0';
        const run = /^f(\d+)\.\.f(\d+)$/.exec(frame);
        const inRun = (/** @type {string} */ f) => {
          if (!run) return f === frame;
          const n = Number(f.slice(1));
          return n >= Number(run[1]) && n <= Number(run[2]);
        };
        const held = [...this.elements].filter(([, e]) => inRun(frameOf(e))).map(([ref]) => ref);
        // (On a trimmed page the agent holds fewer: the others a gap hid.)
        if (held.length > inv.count || (held.length < inv.count && !this.gaps.length))
          problems.push(`<invalid cause="${inv.cause}" frame="${frame}" count="${inv.count}"/>: the agent holds ${held.length} refs of ${frame}`);
        for (const ref of held) this.elements.delete(ref);
        continue;
      }
      for (const r of inv.refs) {
        // On a trimmed page a removal can name a line a gap hid: the agent drops nothing.
        if (!this.elements.has(r.ref) && fp.type !== 'full' && !this.gaps.length) problems.push(`${inv.cause} ${r.ref}, which the agent does not hold`);
        this.elements.delete(r.ref);
      }
    }
    // The page under an open overlay is frozen for the agent (docs/design.md): what a delta adds
    // while one is open is the top one's.
    const top = fp.type === 'overlay_opened' ? null : this.overlays.at(-1);
    for (const r of fp.regions) {
      if (fp.type !== 'full' && fp.type !== 'overlay_opened') {
        // A region a delta replaced: what the agent held there goes, the listed lines take its
        // place (where its first line was), in the order listed.
        if (!r.replaced) problems.push(`a <region> in an ${fp.type}: only <replaced> regions come in one`);
        const key = regionKey(r);
        const all = [...this.elements];
        const first = all.findIndex(([, e]) => elementRegionKey(e) === key);
        const kept = all.filter(([, e]) => elementRegionKey(e) !== key);
        const at = first < 0 ? kept.length : all.slice(0, first).filter(([, e]) => elementRegionKey(e) !== key).length;
        for (const e of r.elements) if (kept.some(([ref]) => ref === e.ref)) problems.push(`${e.ref} listed in a replaced region and held in another`);
        kept.splice(at, 0, ...r.elements.map((e) => /** @type {[string, TextElement]} */ ([e.ref, e])));
        this.elements = new Map(kept);
        if (top) for (const e of r.elements) { top.refs.add(e.ref); top.regions.add(key); }
        continue;
      }
      for (const e of r.elements) {
        if (fp.type !== 'full' && this.elements.has(e.ref)) problems.push(`${e.ref} listed again in an ${fp.type}`);
        this.elements.set(e.ref, e);
      }
    }
    for (const a of fp.added) {
      for (const e of a.elements) {
        if (this.elements.has(e.ref)) problems.push(`${e.ref} added twice`);
        // The page under an open overlay is frozen for the agent (docs/design.md): what a delta adds
        // while one is open is the top one's, in whatever region (one opened with nothing to show
        // had none yet).
        if (top) { top.refs.add(e.ref); top.regions.add(elementRegionKey(e) ?? ''); }
      }
      // A status or alert comes without a place (where it sits says nothing): it has none in the order.
      const announcement = a.after === undefined && a.elements.every((e) => e.role === 'status' || e.role === 'alert');
      this.#place(a.elements.filter((e) => !this.elements.has(e.ref)), a.after, announcement);
    }
    for (const m of fp.modified) {
      const held = this.elements.get(m.ref);
      // On a trimmed page a change can name a line a gap hid: the modified line shows it as it is now.
      if (!held && !this.gaps.length) problems.push(`modified ${m.ref}, which the agent does not hold`);
      // A line that only moved is its ref alone: the agent keeps the line it holds (a ref it
      // never held has nothing to place).
      if (m.placeOnly && !held) continue;
      // (One it did not hold is known by what the line says: its role and name, and the words that
      // changed; `partial`, since the words that did not change are not on it.)
      const now = m.placeOnly && held ? held : applyModified(held ?? { ref: m.ref, role: m.role, name: m.name, flags: [], tri: {}, partial: true }, m);
      this.elements.set(m.ref, now);
      const moved = m.segments.find((x) => x.what === 'order');
      if (moved) {
        this.elements.delete(m.ref);
        this.#place([now], moved.after, false);
      }
    }
    // A full's own gap lines, and those an unchanged region keeps from when the agent was shown it.
    if (fp.type === 'full') this.gaps = [...fp.gaps, ...fp.regions.filter((r) => r.unchanged).flatMap((r) => this.regionGaps.get(regionKey(r)) ?? [])];
    else this.gaps.push(...fp.gaps);
    if (fp.type === 'overlay_opened' && fp.overlay) {
      // It opened the overlays from above those the agent holds to the tag's depth; when several
      // opened at once each region says its overlay's (an overlay with nothing to show is open all
      // the same).
      for (let depth = this.overlays.length + 1; depth <= fp.overlay.depth; depth++) {
        const mine = fp.regions.filter((r) => (r.overlay?.depth ?? fp.overlay.depth) === depth);
        const top = depth === fp.overlay.depth;
        const refs = new Set([...mine.flatMap((r) => r.elements), ...(top ? fp.added.flatMap((a) => a.elements) : [])].map((e) => e.ref));
        const type = mine.find((r) => r.overlay)?.overlay?.type ?? fp.overlay.type;
        this.overlays.push(top ? { ...fp.overlay, regions: new Set(mine.map(regionKey)), refs } : { type, regions: new Set(mine.map(regionKey)), refs });
      }
    }
    return problems;
  }

  /**
   * Puts lines where a FactPack says they sit: after the line `after` names, else (the first
   * lines of their region) at its start. An announcement says no place (it goes at the end of its
   * region), nor does a line placed after one the agent does not hold (a gap hid it): neither has
   * a known place in the order.
   * @param {TextElement[]} lines @param {string | undefined} after @param {boolean} announcement
   */
  #place(lines, after, announcement) {
    if (!lines.length) return;
    const all = [...this.elements];
    const key = elementRegionKey(lines[0]);
    let at;
    if (after && this.elements.has(after)) {
      at = all.findIndex(([ref]) => ref === after) + 1;
    } else {
      const mine = [];
      all.forEach(([, e], i) => { if (elementRegionKey(e) === key) mine.push(i); });
      at = !mine.length ? all.length : announcement ? mine[mine.length - 1] + 1 : mine[0];
    }
    const anchor = after ? this.elements.get(after) : undefined;
    const unplaced = announcement || (Boolean(after) && (!anchor || anchor.unplaced === true || elementRegionKey(anchor) === null));
    all.splice(at, 0, ...lines.map((e) => /** @type {[string, TextElement]} */ ([e.ref, unplaced ? { ...e, unplaced } : e])));
    this.elements = new Map(all);
  }

  /**
   * Each region's lines in the order the agent holds them: region key -> refs. Left out: find
   * results and lines placed after one a gap hid (no answer gave their place), and status and
   * alert lines (announcements: a FactPack places them, and nothing after them, by region alone).
   * @returns {Map<string, string[]>}
   */
  order() {
    const out = new Map();
    for (const [ref, e] of this.elements) {
      const key = elementRegionKey(e);
      if (key === null || e.unplaced || e.role === 'status' || e.role === 'alert') continue;
      if (!out.has(key)) out.set(key, []);
      out.get(key).push(ref);
    }
    return out;
  }

  /** A find answer: the elements it lists are now known to the agent. @param {string | FactPack} answer @returns {string[]} */
  absorbFind(answer) {
    const fp = typeof answer === 'string' ? parseFactPack(answer) : answer;
    if (fp.type !== 'find') return [`absorbFind: a <${fp.type}>, not a <find>`];
    for (const e of fp.elements) {
      const held = this.elements.get(e.ref);
      this.elements.set(e.ref, held ? { ...e, region: held.region, label: held.label, frame: held.frame, ...(held.unplaced ? { unplaced: true } : {}) } : e);
    }
    if (Number.isFinite(fp.version)) this.version = Math.max(this.version, fp.version);
    return [];
  }

  /** A read answer: its text is something the agent saw. @param {string | FactPack} answer @returns {string[]} */
  absorbRead(answer) {
    const fp = typeof answer === 'string' ? parseFactPack(answer) : answer;
    if (fp.type !== 'read') return [`absorbRead: a <${fp.type}>, not a <read>`];
    this.reads.push(fp.text ?? '');
    return [];
  }

  /** Sorted canonical lines of the held elements. */
  canonical() {
    return [...this.elements.values()].map(canonicalLine).sort();
  }

  /**
   * The element whose role and visible name match (exact, case- and space-insensitive; else the
   * first whose name contains it).
   * @param {string} name @param {string} [role] @returns {TextElement | null}
   */
  findElement(name, role) {
    const want = normText(name);
    let fallback = null;
    for (const e of this.elements.values()) {
      if (role && e.role !== role) continue;
      const n = normText(e.name);
      if (n === want) return e;
      if (!fallback && n.includes(want)) fallback = e;
    }
    return fallback;
  }

  /** Whether the agent was shown this text: in an element's name, value or description, or a read answer. @param {string} text */
  sees(text) {
    const want = normText(text);
    if (!want) return true;
    for (const e of this.elements.values()) {
      // (A region's label too: a dialog's title is its region's label, not a line.)
      for (const s of [e.name, e.value, e.desc, e.label]) if (s && normText(s).includes(want)) return true;
    }
    return this.reads.some((r) => normText(r).includes(want));
  }
}

/** Whether a string is a ref (e17). @param {string} s */
export const isRef = (s) => REF_RE.test(s);
