// Where an Athena Delta step's time goes, on the agent flows of bench/lib/flows-def.mjs through the
// whole real chain (MCP SDK client -> athena-bridge mcp -> native host -> extension -> Chromium).
// The client times each step; the extension's action flow times each phase of each call
// (extension/lib/action-flow.js `timings`: tab queue, debugger attach, captures and each CDP call
// in them, the wasm engine, the input dispatch, the stabilization wait). What the extension did
// not spend is the rest of the chain: MCP client, athena-bridge, native messaging, the service
// worker's dispatch, and calls outside the action flow (find, read). Medians per flow over the
// steps other than navigate. Then the capture alone on a page of 2,000 elements
// (tests/sites/big.html?rows=400), through chrome.debugger as the extension does it: each click
// there captures twice (before, to check the agent's refs; after, for the FactPack) and runs the
// core once per capture. And the chain around the extension, split: an MCP `ping` (answered by
// athena-bridge mcp itself) against `tabs list` (answered by the extension at once, through the
// native host and native messaging). Writes bench/latency-results.md.
//
//   node bench/latency.mjs [runs=3]
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSites } from '../tests/sites/serve.mjs';
import { startChain } from '../tests/e2e/lib/chain.mjs';
import { AGENTS } from './lib/agents.mjs';
import { flows } from './lib/flows-def.mjs';
import { median } from './lib/stats.mjs';
import { CAPTURE_STYLES, SNAPSHOT_PARAMS } from '../extension/lib/capture.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RUNS = Math.max(1, Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 3));
const PHASES = ['queue', 'attach', 'act', 'stabilize', 'capture', 'engine'];
/** The capture target: capture + core of a 2,000-element page within 60 ms, through chrome.debugger. */
export const CAPTURE_TARGET = Object.freeze({ elements: 2000, rows: 400, ms: 60, clicks: 30 });
/** Runs of each variant of the snapshot timed for its cost split (median kept). */
const SNAPSHOT_COST_RUNS = 15;
/** Snapshots traced to split one call's time between Chrome's processes (median kept). */
const SNAPSHOT_TRACE_RUNS = 10;
/** Round trips of each no-work call timed for the chain's split. */
const CHAIN_ROUND_TRIPS = 30;
const fmt = (x) => (Number.isFinite(x) ? x.toFixed(x < 10 ? 1 : 0) : '–');

async function main() {
  const sites = await startSites();
  const chain = await startChain();
  const take = () => chain.worker.evaluate(() => globalThis.athenaAgent.flow.timings.splice(0));
  /** flow -> rows of {ms, ext, phases, cdp} (one per step other than navigate) */
  const rows = {};
  /** The 2,000-element page: per click, [capture ms per capture, engine ms per capture, elements]. */
  const big = [];
  let bigElements = 0;
  /** @type {any} the snapshot's cost, part by part (see below) */
  let snapshotCosts = null;
  /** @type {any} one snapshot's time, process by process (a Chrome trace; see below) */
  let snapshotTrace = null;
  /** Round trips of calls that do no work: [ping ms], [tabs list ms]. */
  const ping = [], tabsList = [];
  try {
    const agent = new AGENTS.athena(chain);
    await agent.start();
    for (let run = 0; run < RUNS; run++) {
      for (const f of flows(sites)) {
        rows[f.name] ??= [];
        for (const s of f.steps) {
          await take();
          const t0 = performance.now();
          const r = await agent.run(s);
          const ms = performance.now() - t0;
          const calls = await take();
          if (!r.ok) throw new Error(`${f.name}: ${r.error}`);
          if (s.op === 'navigate') continue;
          const phases = Object.fromEntries(PHASES.map((p) => [p, calls.reduce((a, c) => a + (c.phases[p] ?? 0), 0)]));
          const cdp = {};
          for (const c of calls) for (const [k, v] of Object.entries(c.cdp)) cdp[k] = (cdp[k] ?? 0) + v;
          rows[f.name].push({ ms, ext: calls.reduce((a, c) => a + c.ms, 0), phases, cdp, calls: calls.length });
        }
      }
      console.log(`  run ${run + 1}/${RUNS} done`);
    }
    // The chain around the extension: MCP client <-> athena-bridge mcp, and on to the extension.
    for (let i = 0; i < CHAIN_ROUND_TRIPS; i++) {
      let t0 = performance.now();
      await chain.client.ping();
      ping.push(performance.now() - t0);
      t0 = performance.now();
      const r = await chain.call('tabs', { action: 'list' });
      if (r.isError) throw new Error(`tabs list: ${r.text}`);
      tabsList.push(performance.now() - t0);
    }
    // The capture alone, on a page of CAPTURE_TARGET.elements elements.
    const nav = await chain.call('navigate', { url: sites.url(`/sites/big.html?rows=${CAPTURE_TARGET.rows}`) });
    const bigPage = chain.context.pages().find((pg) => pg.url().includes('/sites/big.html'));
    bigElements = bigPage ? await bigPage.evaluate(() => document.getElementsByTagName('*').length) : 0;
    let version = nav.fp.version;
    const restock = nav.fp.elements.find((e) => e.name === 'Restock row 3')?.ref;
    if (!restock) throw new Error(`big.html: no "Restock row 3" in ${nav.text.slice(0, 300)}`);
    for (let i = 0; i < CAPTURE_TARGET.clicks; i++) {
      await take();
      const r = await chain.call('click', { ref: restock, version });
      if (r.isError) throw new Error(`big.html click: ${r.text}`);
      version = r.fp.version;
      const [c] = await take();
      // Up to two captures per action (before, unless the page is unchanged since the last one,
      // and after); the engine runs beginAction + finishAction.
      big.push({ capture: c.phases.capture / Math.max(1, c.captures), engine: c.phases.engine / 2, cdp: c.cdp, captures: c.captures, action: c.phases.capture + c.phases.engine });
    }
    // What the snapshot's cost is made of, on the same page: the call as the capture makes it,
    // with the two styles it no longer asks for, with the DOM rects it no longer asks for, without
    // computed styles, a string as long as its JSON (the cost of bytes alone), all through
    // chrome.debugger; and the call as captured over a direct CDP connection (Chrome's own cost,
    // without the extension API). The variants take turns, so a slow spell of the machine falls
    // on all of them.
    const direct = await chain.context.newCDPSession(bigPage);
    // Each variant is the capture's own request (SNAPSHOT_PARAMS) with one thing changed.
    const params = (change) => ({ ...SNAPSHOT_PARAMS, ...change });
    const variants = {
      asCaptured: ['DOMSnapshot.captureSnapshot', params({})],
      sevenStyles: ['DOMSnapshot.captureSnapshot', params({ computedStyles: [...CAPTURE_STYLES, 'pointer-events', 'cursor'] })],
      withRects: ['DOMSnapshot.captureSnapshot', params({ includeDOMRects: true })],
      noStyles: ['DOMSnapshot.captureSnapshot', params({ computedStyles: [] })],
    };
    const times = {}, sizes = {};
    for (let i = 0; i < SNAPSHOT_COST_RUNS; i++) {
      const round = await chain.worker.evaluate(async ({ variants, stringOf }) => {
        const t = [.../** @type {any} */ (globalThis).athenaAgent.tabs.values()][0];
        const send = (/** @type {string} */ m, /** @type {any} */ p) => /** @type {any} */ (globalThis).chrome.debugger.sendCommand({ tabId: t.tabId }, m, p);
        const out = {};
        for (const [k, [m, p]] of Object.entries(variants)) {
          const t0 = performance.now();
          const r = await send(m, p);
          out[k] = { ms: performance.now() - t0, size: JSON.stringify(r).length };
        }
        const t0 = performance.now();
        await send('Runtime.evaluate', { expression: `'x'.repeat(${stringOf})`, returnByValue: true });
        out.string = { ms: performance.now() - t0, size: stringOf };
        return out;
      }, { variants, stringOf: sizes.asCaptured ?? 300_000 });
      const t0 = performance.now();
      await direct.send('DOMSnapshot.captureSnapshot', variants.asCaptured[1]);
      round.direct = { ms: performance.now() - t0, size: round.asCaptured.size };
      for (const [k, v] of Object.entries(round)) { (times[k] ??= []).push(v.ms); sizes[k] = v.size; }
    }
    await direct.detach();
    snapshotCosts = Object.fromEntries(Object.keys(times).map((k) => [k, { ms: median(times[k]), size: sizes[k] }]));
    snapshotTrace = await traceSnapshots(chain, variants.asCaptured[1]);
  } finally {
    await chain.close();
    await sites.close();
  }
  const all = Object.values(rows).flat();
  const cdpKeys = [...new Set(all.flatMap((r) => Object.keys(r.cdp)))].sort();
  const cols = ['step', ...PHASES, 'rest of the chain'];
  const lines = ['## Where an Athena Delta step\'s time goes (bench/latency.mjs)', '',
    `Median milliseconds per observed step other than navigate (${RUNS} runs; an agent's step may make several calls,`,
    'their phases are summed). Phases are timed in the extension (extension/lib/action-flow.js); "rest of the chain" is',
    'the step as the MCP client timed it minus what the extension\'s action flow spent: MCP client, athena-bridge,',
    'native messaging, the service worker\'s dispatch, and find/read calls.', '',
    `| flow | ${cols.join(' | ')} |`, `|---|${cols.map(() => '---|').join('')}`];
  const line = (name, rs) => `| ${name} | ${[median(rs.map((r) => r.ms)), ...PHASES.map((p) => median(rs.map((r) => r.phases[p]))), median(rs.map((r) => r.ms - r.ext))].map(fmt).join(' | ')} |`;
  for (const [name, rs] of Object.entries(rows)) lines.push(line(name, rs));
  lines.push(line('**all**', all), '', 'Capture: median milliseconds per CDP call (summed per step; calls of one capture are issued together, so they overlap):', '',
    `| ${cdpKeys.join(' | ')} |`, `|${cdpKeys.map(() => '---|').join('')}`, `| ${cdpKeys.map((k) => fmt(median(all.map((r) => r.cdp[k] ?? 0)))).join(' | ')} |`, '');
  const pingMs = median(ping), listMs = median(tabsList);
  lines.push('### The chain around the extension', '',
    `Median round trip of calls that do no work (${CHAIN_ROUND_TRIPS} each): what "rest of the chain" above is made of.`, '',
    '| MCP client ↔ athena-bridge mcp (`ping`, answered by the bridge) | + native host, native messaging, the service worker\'s dispatch (`tabs list`) | the part past the bridge |', '|---|---|---|',
    `| ${fmt(pingMs)} | ${fmt(listMs)} | ${fmt(listMs - pingMs)} |`, '',
    'The engine column is the wasm core\'s ingest (read + compile), diff and render together; bench/wasm-results.md',
    'times the three apart.', '');
  const capMs = median(big.map((b) => b.capture));
  const engMs = median(big.map((b) => b.engine));
  const bigKeys = [...new Set(big.flatMap((b) => Object.keys(b.cdp)))].sort();
  lines.push(`### Capture of a ${bigElements}-element page through chrome.debugger`, '',
    `tests/sites/big.html?rows=${CAPTURE_TARGET.rows} (${bigElements} elements in the DOM), ${CAPTURE_TARGET.clicks} clicks on "Restock row 3" (each changes one cell). Median milliseconds`,
    'per capture and per run of the wasm core (beginAction or finishAction: compile, diff, render). An action captures',
    'before it acts (unless the page is unchanged since its last capture: docs/design.md, "Capture") and after.', '',
    '| capture | core | capture + core | target | captures per action | per action (captures + core) |', '|---|---|---|---|---|---|',
    `| ${fmt(capMs)} | ${fmt(engMs)} | ${fmt(capMs + engMs)} | ≤ ${CAPTURE_TARGET.ms} (${capMs + engMs <= CAPTURE_TARGET.ms ? 'met' : 'not met'}) | ${fmt(median(big.map((b) => b.captures)))} | ${fmt(median(big.map((b) => b.action)))} |`, '',
    'Its CDP calls (median milliseconds per action, its captures summed; the calls of one capture overlap):', '',
    `| ${bigKeys.join(' | ')} |`, `|${bigKeys.map(() => '---|').join('')}`, `| ${bigKeys.map((k) => fmt(median(big.map((b) => b.cdp[k] ?? 0)))).join(' | ')} |`, '');
  if (snapshotCosts) {
    const c = snapshotCosts, kb = (n) => `${Math.round(n / 1024)} KB`;
    lines.push('What the snapshot costs on that page through chrome.debugger (median of ' + SNAPSHOT_COST_RUNS + ' calls each, ms, and the size of the answer as JSON):', '',
      `| \`DOMSnapshot.captureSnapshot\` as captured (${CAPTURE_STYLES.length} styles) | with pointer-events and cursor (as before) | with \`includeDOMRects\` (as before) | without computed styles | a string as long as its JSON (\`Runtime.evaluate\`) | as captured, over a direct CDP connection |`, '|---|---|---|---|---|---|',
      `| ${['asCaptured', 'sevenStyles', 'withRects', 'noStyles'].map((k) => `${fmt(c[k].ms)} (${kb(c[k].size)})`).join(' | ')} | ${fmt(c.string.ms)} | ${fmt(c.direct.ms)} |`, '',
      'The variants take turns, call by call. The string column is what the bytes alone cost through chrome.debugger; the',
      'direct column (Playwright\'s CDP session to the same tab) is Chrome building the snapshot and sending it as JSON.',
      'The rest of a call through chrome.debugger is the extension API turning the nested arrays into JavaScript objects:',
      'its cost follows the number of values, which is why the capture asks for no DOM rects and only the styles the',
      'compiler reads.', '');
  }
  if (snapshotTrace) {
    const t = snapshotTrace;
    lines.push(`Where one such call's time goes, from a Chrome trace of ${t.calls} of them (median ms of each column; the last one is the call as the service worker timed it):`, '',
      '| the page\'s renderer builds and encodes the answer | the browser\'s main thread hands it to the extension API | the service worker receives it as JavaScript objects | from the first\'s start to the last\'s end | the call |', '|---|---|---|---|---|',
      `| ${[t.renderer, t.browser, t.extension, t.span, t.total].map(fmt).join(' | ')} |`, '',
      'Only the first column is the snapshot itself. The browser turns the answer into one base::Value per value and',
      'serializes them for the extension (about 5 times the JSON\'s size); the service worker rebuilds them as objects.', '');
  }
  const md = lines.join('\n');
  writeFileSync(path.join(root, 'bench/latency-results.md'), `${md}\n`);
  console.log(md);
}

/**
 * Where one snapshot's time goes: SNAPSHOT_TRACE_RUNS calls made as the capture makes them, from the
 * service worker through chrome.debugger, under a Chrome trace of the whole browser. Per call: the
 * page's renderer building and encoding the answer (`api_call` DOMSnapshot.captureSnapshot), the
 * browser's main thread handing it to the extension API (`DevToolsSession::DispatchProtocolResponse`:
 * JSON, then a base::Value per value of the answer, serialized for IPC), and the extension's service
 * worker receiving it (`Receive mojo reply`: the values rebuilt as JavaScript objects).
 * @param {any} chain @param {any} params @returns {Promise<any>}
 */
async function traceSnapshots(chain, params) {
  const browser = chain.context.browser();
  if (!browser) return null;
  const cdp = await browser.newBrowserCDPSession();
  /** @type {any[]} */
  const events = [];
  cdp.on('Tracing.dataCollected', (/** @type {any} */ e) => events.push(...e.value));
  const complete = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
  await cdp.send('Tracing.start', { traceConfig: { includedCategories: ['devtools', 'toplevel', 'mojom'] }, transferMode: 'ReportEvents' });
  const total = await chain.worker.evaluate(async ({ params, runs }) => {
    const t = [.../** @type {any} */ (globalThis).athenaAgent.tabs.values()][0];
    const out = [];
    for (let i = 0; i < runs; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      const t0 = performance.now();
      await /** @type {any} */ (globalThis).chrome.debugger.sendCommand({ tabId: t.tabId }, 'DOMSnapshot.captureSnapshot', params);
      out.push(performance.now() - t0);
    }
    return out;
  }, { params, runs: SNAPSHOT_TRACE_RUNS });
  await cdp.send('Tracing.end');
  await complete;
  await cdp.detach();
  const threads = new Map(events.filter((e) => e.ph === 'M' && e.name === 'thread_name').map((e) => [`${e.pid}:${e.tid}`, e.args?.name]));
  const slices = (/** @type {string} */ name) => events.filter((e) => e.ph === 'X' && e.name === name).sort((a, b) => a.ts - b.ts);
  const builds = slices('api_call').filter((e) => e.args?.method_name === 'DOMSnapshot.captureSnapshot');
  const handoffs = slices('DevToolsSession::DispatchProtocolResponse');
  const commands = slices('DevToolsSession::DispatchProtocolCommandImpl');
  // The snapshot's reply is the one large message the service worker receives after the handoff.
  const receives = slices('Receive mojo reply').filter((e) => threads.get(`${e.pid}:${e.tid}`) === 'ServiceWorker thread' && (e.args?.chrome_mojo_event_info?.data_num_bytes ?? 0) >= 100_000);
  /** @type {Record<string, number[]>} per call, ms: the three parts, and from the first's start to the last's end */
  const split = { renderer: [], browser: [], extension: [], span: [] };
  for (const b of builds) {
    // The browser's handoff of the same call (the call id travels with it between the processes).
    const id = commands.find((e) => e.pid === b.pid && e.tid === b.tid && e.ts <= b.ts && e.ts + e.dur >= b.ts + b.dur)?.args?.call_id;
    // Each step starts as the one before sends it, before that one's slice has closed.
    const h = handoffs.find((e) => e.ts >= b.ts && e.args?.call_id === id);
    const r = h && receives.find((e) => e.ts >= h.ts);
    if (!h || !r) continue;
    split.renderer.push(b.dur / 1000);
    split.browser.push(h.dur / 1000);
    split.extension.push(r.dur / 1000);
    split.span.push((r.ts + r.dur - b.ts) / 1000);
  }
  if (!split.renderer.length) return null;
  return { calls: split.renderer.length, total: median(total), ...Object.fromEntries(Object.entries(split).map(([k, v]) => [k, median(v)])) };
}

main().catch((e) => { console.error(e); process.exit(1); });
