// The playground: the same wasm core as the extension, replaying recorded real flows exactly as
// the goldens do (tests/golden/README.md), or diffing a live TodoMVC captured in the page.
import { loadAthena } from './core/athena.mjs';
import { Tiktoken } from '/npm/js-tiktoken/lite.js';
import o200k from '/npm/js-tiktoken/ranks/o200k_base.js';
import { captureDocument } from './live-capture.js';
import { REF_TEXT } from '../extension/lib/ref.js';

/**
 * @typedef {import('./core/athena.mjs').FactPackResult} FactPackResult
 * @typedef {import('./core/athena.mjs').CaptureInput} CaptureInput
 * @typedef {import('./core/athena.mjs').PageKey} PageKey
 * @typedef {{ours: number, full: number, floor: number}} Tokens
 * @typedef {{name: string, capture: CaptureInput, pack: FactPackResult, recorded?: {text: string}}} Packed
 * @typedef {Packed & {full: FactPackResult, tokens: Tokens}} Step
 */

// An element line's ref (extension/lib/ref.js, which web/serve.mjs serves): lines are indented by outline depth.
const LINE_REF = new RegExp(`^ *(${REF_TEXT})`);

// The page has every element this script names (web/index.html).
const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id));
const $input = (/** @type {string} */ id) => /** @type {HTMLInputElement} */ (document.getElementById(id));
const $select = (/** @type {string} */ id) => /** @type {HTMLSelectElement} */ (document.getElementById(id));
const $frame = (/** @type {string} */ id) => /** @type {HTMLIFrameElement} */ (document.getElementById(id));
const enc = new Tiktoken(o200k);
export const tokens = (/** @type {string} */ s) => enc.encode(s).length;
const athena = await loadAthena();
$('status').textContent = `core ${athena.version} ready`;
const KEY = { context: 0, page: 1 };

/**
 * One line per changed element: the least any tool could say (as bench/tokens.mjs).
 * @param {any} fp a FactPack's JSON (docs/factpack-format.md)
 * @returns {string}
 */
export function floorText(fp) {
  let out = '';
  for (const b of fp.before_action ?? []) out += floorText(b);
  for (const i of fp.invalidated ?? []) out += `- ${i.ref} ${i.role} ${i.name}\n`;
  for (const e of fp.added ?? []) out += `+ ${e.ref} ${e.role} ${e.name}${e.description ? ' ' + e.description : ''}\n`;
  for (const m of fp.modified ?? []) out += `~ ${m.ref} ${m.after.role} ${m.after.name}\n`;
  if (fp.type === 'overlay_opened') for (const r of fp.regions ?? []) for (const e of r.elements ?? []) out += `+ ${e.ref} ${e.role} ${e.name}\n`;
  return out;
}

/**
 * Shows a FactPack's text with invalidated refs struck through and added ones marked.
 * @param {HTMLElement} pre @param {FactPackResult} pack
 */
function showPack(pre, pack) {
  const refs = (/** @type {unknown} */ list) => new Set(Array.isArray(list) ? list.map((x) => x.ref) : []);
  const bad = refs(pack.factpack.invalidated);
  const added = refs(pack.factpack.added);
  pre.replaceChildren();
  let section = '';
  for (const piece of pack.text.match(/[^\n]*\n|[^\n]+$/g) ?? []) {
    const line = piece.replace(/\n$/, '');
    const tag = /^<(\/?)(removed|invalid)/.exec(line);
    if (tag) section = tag[1] || line.endsWith('/>') ? '' : 'invalid';
    const span = document.createElement('span');
    const ref = LINE_REF.exec(line)?.[1];
    // A counted <invalid … count="N"/> lists no refs, nor does an overlay_closed: the line itself is struck.
    const counted = (tag && !tag[1] && line.endsWith('/>')) || line.startsWith('<overlay_closed ');
    if ((ref && bad.has(ref)) || (section === 'invalid' && ref) || counted) span.className = 'invalid';
    else if (ref && added.has(ref)) span.className = 'added';
    span.textContent = piece;
    pre.append(span);
  }
}

// ------------------------------------------------------------------ replay
/** @type {{trace: string | null, steps: Step[], at: number}} */
const replay = { trace: null, steps: [], at: 0 };

/** @typedef {{name: string, steps: string[]}} TraceInfo one entry of /traces/index.json */

/** @param {string} name */
async function loadTrace(name) {
  /** @type {TraceInfo[]} */
  const list = await (await fetch('/traces/index.json')).json();
  const t = list.find((x) => x.name === name);
  if (!t) throw new Error(`no trace ${name}`);
  $('status').textContent = `loading ${name}…`;
  /** @type {{name: string, capture: string, events: object[], op: string}[]} */
  const recorded = await Promise.all(t.steps.map(async (s) => ({
    name: s,
    capture: await (await fetch(`/traces/${name}/${s}/capture.json`)).text(),
    events: await (await fetch(`/traces/${name}/${s}/events.json`)).json(),
    op: (await (await fetch(`/traces/${name}/${s}/step.json`)).json()).action?.op ?? '',
  })));
  // Replay the whole flow once, as the goldens do; keep each step's pack and a fresh full snapshot.
  const engine = athena.createEngine();
  engine.openPage(KEY);
  let version = 0;
  /** @type {Step[]} */
  const steps = [];
  for (const [i, s] of recorded.entries()) {
    let pack;
    if (i === 0) pack = engine.snapshot(KEY, s.capture);
    else {
      engine.beginAction(KEY, recorded[i - 1].capture, version);
      for (const e of s.events) engine.onEvent(KEY, JSON.stringify(e));
      pack = engine.finishAction(KEY, s.capture, { kind: s.op });
    }
    version = pack.version;
    steps.push(measure({ ...s, pack }));
  }
  engine.dispose();
  show(name, steps);
}

/**
 * The step with a fresh full snapshot of its capture and the token counts.
 * @template {Packed} S @param {S} s @param {PageKey} [key] @returns {S & Step}
 */
function measure(s, key = KEY) {
  const fresh = athena.createEngine();
  fresh.openPage(key);
  const full = fresh.snapshot(key, s.capture);
  fresh.dispose();
  return Object.assign(s, { full, tokens: { ours: tokens(s.pack.text), full: tokens(full.text), floor: tokens(floorText(s.pack.factpack)) } });
}

/** @param {string} name @param {Step[]} steps */
function show(name, steps) {
  replay.trace = name;
  replay.steps = steps;
  replay.at = 0;
  const differ = steps.filter((s) => s.recorded && s.recorded.text !== s.pack.text).length;
  $('status').textContent = `${name}: ${steps.length} steps` + (steps.some((s) => s.recorded) ? (differ ? `, ${differ} differ from what the extension sent` : ', every FactPack equals what the extension sent') : '');
  render();
}

/**
 * A trace the extension exported from a live session (extension/lib/trace.js): its core calls
 * replayed in order on a fresh engine; each snapshot/finishAction is a step.
 * @param {{format: string, v: number, name?: string, key?: PageKey, entries: any[]}} trace
 * @returns {Step[]}
 */
export function replayExported(trace) {
  if (trace?.format !== 'athena-trace' || trace.v !== 1 || !Array.isArray(trace.entries))
    throw new Error('not an Athena Delta trace (expected {format: "athena-trace", v: 1, entries: [...]}, exported from the extension popup)');
  const engine = athena.createEngine();
  /** @type {Step[]} */
  const steps = [];
  // The page key the extension used (its tab's name, c0p4), kept in the replay.
  const key = trace.key ?? KEY;
  try {
    for (const e of trace.entries) {
      try {
        // The extension's engine numbered refs across its tabs: this one's start where they stood.
        if (Number.isSafeInteger(e.refsFrom)) engine.advanceRefs(e.refsFrom);
        switch (e.call) {
          case 'openPage': engine.openPage(key); break;
          case 'onEvent': engine.onEvent(key, e.event); break;
          case 'beginAction': engine.beginAction(key, e.capture, e.version); break;
          case 'abortAction': engine.abortAction(key); break;
          case 'resolveNow': {
            // An older trace format's call (engines without resolveNow skip it).
            const r = /** @type {{resolveNow?: (key: PageKey, capture: CaptureInput, ref: string) => unknown}} */ (/** @type {unknown} */ (engine));
            if (typeof r.resolveNow === 'function') r.resolveNow(key, e.capture, e.ref);
            break;
          }
          case 'snapshot':
          case 'finishAction': {
            const pack = e.call === 'snapshot' ? engine.snapshot(key, e.capture, e.info) : engine.finishAction(key, e.capture, e.info);
            steps.push(measure({ name: `${String(steps.length).padStart(2, '0')}-${e.info?.kind ?? e.call}`, capture: e.capture, pack, recorded: e.out }, key));
            break;
          }
          default: throw new Error(`unknown call ${e.call}`);
        }
      } catch (err) {
        if (!e.error) throw err;  // the extension saw the same error: replay goes on
      }
    }
  } finally {
    engine.dispose();
  }
  if (!steps.length) throw new Error('the trace holds no FactPack');
  show(trace.name ?? 'trace', steps);
  return steps;
}

$('tracefile').addEventListener('change', async () => {
  const f = $input('tracefile').files?.[0];
  if (!f) return;
  try {
    replayExported(JSON.parse(await f.text()));
  } catch (e) {
    $('status').textContent = `cannot replay ${f.name}: ${e instanceof Error ? e.message : String(e)}`;
  }
});

function chart() {
  const svg = /** @type {SVGSVGElement} */ (document.querySelector('#chart'));
  const W = Number(svg.getAttribute('width')), H = Number(svg.getAttribute('height'));
  const max = Math.max(1, ...replay.steps.map((s) => s.tokens.full));
  const bw = W / replay.steps.length;
  const ns = 'http://www.w3.org/2000/svg';
  svg.replaceChildren();
  replay.steps.forEach((s, i) => {
    /** @type {Array<[string, number, number]>} */
    const bars = [['full', s.tokens.full, 0], ['ours', s.tokens.ours, 1], ['floor', s.tokens.floor, 2]];
    bars.forEach(([cls, v, k]) => {
      const r = document.createElementNS(ns, 'rect');
      const h = Math.max(1, (v / max) * (H - 20));
      r.setAttribute('x', String(i * bw + 4 + k * (bw - 8) / 3));
      r.setAttribute('y', String(H - h));
      r.setAttribute('width', String((bw - 8) / 3));
      r.setAttribute('height', String(h));
      r.setAttribute('class', cls);
      const t = document.createElementNS(ns, 'title');
      t.textContent = `${s.name}: ${cls} ${v} tokens`;
      r.append(t);
      svg.append(r);
    });
    if (i === replay.at) {
      const c = document.createElementNS(ns, 'rect');
      c.setAttribute('x', String(i * bw + 1)); c.setAttribute('y', '1'); c.setAttribute('width', String(bw - 2)); c.setAttribute('height', String(H - 2));
      c.setAttribute('class', 'cur');
      svg.append(c);
    }
  });
}

function render() {
  const s = replay.steps[replay.at];
  $('stepname').textContent = `${replay.at + 1}/${replay.steps.length} ${s.name} → ${s.pack.type}` +
    (s.recorded ? (s.recorded.text === s.pack.text ? ' (as the extension sent it)' : ' (DIFFERS from what the extension sent)') : '');
  $('full').textContent = s.full.text;
  showPack($('ours'), s.pack);
  $('ours-json').textContent = JSON.stringify(s.pack.factpack, null, 1);
  $('full-tokens').textContent = `${s.tokens.full} tokens`;
  $('ours-tokens').textContent = `${s.tokens.ours} tokens (floor ${s.tokens.floor})`;
  chart();
}

$('prev').onclick = () => { if (replay.at > 0) { replay.at--; render(); } };
$('next').onclick = () => { if (replay.at < replay.steps.length - 1) { replay.at++; render(); } };
$('trace').onchange = () => loadTrace($select('trace').value);

// ------------------------------------------------------------------ live
/** @type {{engine: import('./core/athena.mjs').Engine | null, capture: string | null, version: number, packs: number}} */
const live = { engine: null, capture: null, version: 0, packs: 0 };

function liveStart() {
  const doc = $frame('app').contentDocument;
  if (!doc?.body) return;
  live.engine?.dispose();
  const engine = athena.createEngine();
  live.engine = engine;
  engine.openPage(KEY);
  live.capture = JSON.stringify(captureDocument(doc));
  const pack = engine.snapshot(KEY, live.capture);
  live.version = pack.version;
  showLive(pack);
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  const act = () => { clearTimeout(timer); timer = setTimeout(liveStep, 150); };  // let the app render
  for (const type of ['click', 'keyup', 'change']) doc.addEventListener(type, act, true);
}

function liveStep() {
  const doc = $frame('app').contentDocument;
  const engine = live.engine;
  if (!doc || !engine || live.capture === null) return;  // liveStart has not run on this document
  const next = JSON.stringify(captureDocument(doc));
  engine.beginAction(KEY, live.capture, live.version);
  const pack = engine.finishAction(KEY, next, { kind: 'live' });
  live.capture = next;
  live.version = pack.version;
  showLive(pack);
}

/** @param {FactPackResult} pack */
function showLive(pack) {
  live.packs++;
  showPack($('live-pack'), pack);
  $('live-pack').dataset.type = pack.type;
  $('live-pack').dataset.count = String(live.packs);
  $('live-tokens').textContent = `${pack.type}, ${tokens(pack.text)} tokens`;
}

$('app').addEventListener('load', liveStart);

/** @param {'replay' | 'live'} m */
function mode(m) {
  $('replay').hidden = m !== 'replay';
  $('live').hidden = m !== 'live';
  $('mode-replay').setAttribute('aria-pressed', String(m === 'replay'));
  $('mode-live').setAttribute('aria-pressed', String(m === 'live'));
  if (m === 'live' && !live.engine) liveStart();
}
$('mode-replay').onclick = () => mode('replay');
$('mode-live').onclick = () => mode('live');

/** @type {TraceInfo[]} */
const list = await (await fetch('/traces/index.json')).json();
for (const t of list) $('trace').append(new Option(`${t.name} (${t.steps.length} steps)`, t.name));
const first = new URLSearchParams(location.search).get('trace') ?? list.find((t) => t.name === 'bootstrap')?.name ?? list[0]?.name;
if (first) { $select('trace').value = first; await loadTrace(first); }
/** @type {any} */ (window).playground = { ready: true, replay, live, replayExported };  // for web/test
