// What chrome-devtools-mcp's early answer to an AG Grid sort shows (#52: latency target vs
// correctness). Athena's settle waits for AG Grid's own timers after a sort (400 ms row cleanup,
// 500 ms scroll-state refresh; bench/settle-results.md), chrome-devtools-mcp answers sooner. This
// drives the real chrome-devtools-mcp (bench/lib/peers.mjs, Debian's Chromium) through the MCP SDK
// client over the sort steps of the customer-grid and grid-sort flows (bench/lib/flows-def.mjs),
// as bench/flows.mjs does for that peer: navigate, take_snapshot, click the header's uid,
// take_snapshot (the answer an agent reads). Then it waits in the page until the grid's rows have
// stopped changing and takes one more snapshot (the settled page), and reports per sort the lines
// of the early snapshot that the settled one no longer has (rows first), the lines it gained, and
// the ms from the click call to the early snapshot's answer.
//
//   node bench/grid-early.mjs [runs=10]        (under the CPU lock: flock /tmp/athena-cpu.lock node …)
import { startSites } from '../tests/sites/serve.mjs';
import { connectPeer, resultText } from './lib/peers.mjs';
import { median } from './lib/stats.mjs';

const RUNS = Math.max(1, Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 10));
// The rows are settled once no row element was added or removed for this long after the click and
// after the last change: longer than AG Grid's longest timer set by a sort (500 ms).
const QUIET_MS = 600;
// The settle wait gives up after this long (reported as not settled, never taken as settled).
const SETTLE_MAX_MS = 5000;
const pageId = 1;

/** The sort steps to probe: the flow's page, what it waits for, and the header each click presses. */
const FLOWS = [
  { name: 'customer-grid', path: '/sites/user-grid.html', ready: 'Showing 300 of 300 customers', header: 'Name', clicks: 2 },
  { name: 'grid-sort', path: '/sites/grid-sort.html', ready: 'No sort yet', header: 'Total', clicks: 2 },
];

// Installed before each click: the page's own time of the click and of every row element added or
// removed after it (a capture listener and a MutationObserver only read; they change nothing the grid does).
const INSTALL = `() => {
  const p = window.__gridEarly = { click: null, changes: [] };
  document.addEventListener('click', () => { if (p.click === null) p.click = performance.now(); }, { capture: true, once: true });
  const isRow = (n) => n.nodeType === 1 && n.classList.contains('ag-row');
  new MutationObserver((records) => {
    let added = 0, removed = 0;
    for (const r of records) {
      for (const n of r.addedNodes) if (isRow(n)) added++;
      for (const n of r.removedNodes) if (isRow(n)) removed++;
    }
    if (added || removed) p.changes.push({ at: performance.now(), added, removed, rows: document.querySelectorAll('.ag-row').length });
  }).observe(document.querySelector('.ag-root-wrapper') ?? document.body, { childList: true, subtree: true });
  return true;
}`;

// Resolves once the rows have been quiet for QUIET_MS after the click (bounded by SETTLE_MAX_MS).
const SETTLE = `async () => {
  const p = window.__gridEarly, start = performance.now();
  const last = () => Math.max(p.click ?? start, p.changes.at(-1)?.at ?? -Infinity);
  while (performance.now() - last() < ${QUIET_MS}) {
    if (performance.now() - start > ${SETTLE_MAX_MS}) return { settled: false };
    await new Promise((r) => setTimeout(r, 50));
  }
  return { settled: true, changes: p.changes.map((c) => ({ ...c, at: Math.round(c.at - p.click) })) };
}`;

/** A snapshot's lines without their uids (a uid may be renumbered between snapshots). */
const linesOf = (text) => text.split('\n').map((l) => l.replace(/uid=\S+ /, '').trimEnd()).filter((l) => l.trim());

/** Lines of `a` that `b` does not hold (as many times as `a` holds them). */
function minus(a, b) {
  const left = new Map();
  for (const l of b) left.set(l, (left.get(l) ?? 0) + 1);
  return a.filter((l) => {
    const n = left.get(l) ?? 0;
    if (n > 0) { left.set(l, n - 1); return false; }
    return true;
  });
}

const isRowLine = (l) => /^\s*row "/.test(l);

function headerUid(text, header) {
  const re = /^\s*uid=(\S+) columnheader "((?:[^"\\]|\\.)*)"/;
  for (const line of text.split('\n')) {
    const m = re.exec(line);
    if (m && m[2].trim().toLowerCase() === header.toLowerCase()) return m[1];
  }
  throw new Error(`no columnheader "${header}" in the snapshot`);
}

const peer = await connectPeer('devtools');
const sites = await startSites();
const call = async (name, args) => {
  const r = await peer.client.callTool({ name, arguments: args });
  const text = resultText(r);
  if (r.isError) throw new Error(`${name}: ${text.slice(0, 300)}`);
  return text;
};
const evaluate = async (fn) => {
  const text = await call('evaluate_script', { pageId, function: fn, waitForStableDom: false });
  const m = /```json\n([\s\S]*?)\n```/.exec(text);
  if (!m) throw new Error(`evaluate_script: no JSON in its answer: ${text.slice(0, 200)}`);
  return JSON.parse(m[1]);
};

/** flow -> click index -> per-run results */
const results = {};
try {
  for (let run = 0; run < RUNS; run++) {
    for (const f of FLOWS) {
      await call('navigate_page', { pageId, type: 'url', url: sites.url(f.path) });
      let view = await call('take_snapshot', { pageId });
      if (!view.includes(f.ready)) throw new Error(`${f.name}: "${f.ready}" not in the first snapshot`);
      for (let c = 0; c < f.clicks; c++) {
        await evaluate(INSTALL);
        const uid = headerUid(view, f.header);
        const t0 = performance.now();
        await call('click', { pageId, uid });
        const tClick = performance.now();
        const early = await call('take_snapshot', { pageId });
        const tSnap = performance.now();
        const settle = await evaluate(SETTLE);
        if (!settle.settled) throw new Error(`${f.name} click ${c + 1}: rows still changing after ${SETTLE_MAX_MS} ms`);
        const settled = await call('take_snapshot', { pageId });
        const gone = minus(linesOf(early), linesOf(settled)), gained = minus(linesOf(settled), linesOf(early));
        ((results[f.name] ??= [])[c] ??= []).push({
          clickMs: tClick - t0, snapMs: tSnap - t0, changes: settle.changes,
          goneRows: gone.filter(isRowLine), goneOther: gone.filter((l) => !isRowLine(l)),
          gainedRows: gained.filter(isRowLine), gainedOther: gained.filter((l) => !isRowLine(l)),
        });
        view = settled;
      }
    }
    process.stdout.write(`run ${run + 1}/${RUNS} done\n`);
  }
} finally {
  await peer.close();
  await sites.close();
}

const short = (l) => l.trim().replace(/^row "(.{0,40}).*$/, 'row "$1…"');
for (const f of FLOWS) {
  for (const [c, runs] of results[f.name].entries()) {
    console.log(`\n## ${f.name}, click ${c + 1} on "${f.header}"`);
    console.log('| run | click -> early snapshot (ms) | click call (ms) | rows gone | other lines gone | rows gained | other lines gained | row-element changes after the click (page ms: -removed/+added) |');
    console.log('|---|---|---|---|---|---|---|---|');
    for (const [i, r] of runs.entries()) {
      const ch = r.changes.map((x) => `${x.at}: -${x.removed}/+${x.added}`).join(', ') || '-';
      console.log(`| ${i + 1} | ${r.snapMs.toFixed(0)} | ${r.clickMs.toFixed(0)} | ${r.goneRows.length} | ${r.goneOther.length} | ${r.gainedRows.length} | ${r.gainedOther.length} | ${ch} |`);
    }
    const med = (k) => median(runs.map((r) => r[k])).toFixed(0);
    console.log(`median click -> early snapshot ${med('snapMs')} ms (click call ${med('clickMs')} ms); ` +
      `runs whose early snapshot differs from the settled one: ${runs.filter((r) => r.goneRows.length + r.goneOther.length + r.gainedRows.length + r.gainedOther.length).length}/${runs.length}`);
    const ex = runs.find((r) => r.goneRows.length || r.goneOther.length);
    if (ex) console.log(`e.g. gone: ${[...ex.goneRows, ...ex.goneOther].slice(0, 4).map(short).join(' | ')}${ex.gainedRows.length + ex.gainedOther.length ? `; gained: ${[...ex.gainedRows, ...ex.gainedOther].slice(0, 3).map(short).join(' | ')}` : ''}`);
  }
}
