// Capture cost on the same pages, two ways (does the extension's one-DOMSnapshot capture beat an
// in-page walk?):
//   ours: extension/lib/capture.js (one DOMSnapshot with the styles the compiler reads, no rects, frame tree, layout
//         metrics, issued together) + the wasm core turning it into a full FactPack
//         (compile + diff + render), as the extension does;
//   walk: the approach to beat (docs/design.md, "Capture"): a JS traversal in the page (Runtime.evaluate collecting the
//         interactive elements with role, name and box) + DOM.describeNode per element, in
//         parallel, for their backendNodeIds.
// Direct CDP from playwright-core (docs/design.md, "Capture": through chrome.debugger both cost ~3x more, and
// the overhead grows with the number of JSON nodes). Median of RUNS runs. Writes
// bench/capture-approaches.md (a section indexed in bench/RESULTS.md).
import { chromium } from 'playwright-core';
import { readFileSync, writeFileSync } from 'node:fs';
import { tempDir } from '../tests/support/tmp.mjs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { capture } from '../extension/lib/capture.js';
import { startSites } from '../tests/sites/serve.mjs';
import { median } from './lib/stats.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RUNS = Number(process.argv[2] ?? 5);

// The in-page walk: interactive elements with a role, a name and a box.
const WALK = `(() => {
  const sel = 'a[href],button,input,select,textarea,summary,[role],[tabindex],[onclick],[contenteditable=true]';
  const els = [];
  const data = [];
  const walk = (rootNode) => {
    for (const el of rootNode.querySelectorAll(sel)) {
      const r = el.getBoundingClientRect();
      if (!r.width && !r.height) continue;
      els.push(el);
      data.push({ tag: el.tagName, role: el.getAttribute('role') || '', name: (el.getAttribute('aria-label') || el.innerText || el.value || el.title || '').trim().slice(0, 160),
        box: [r.x, r.y, r.width, r.height] });
    }
    for (const host of rootNode.querySelectorAll('*')) if (host.shadowRoot) walk(host.shadowRoot);
  };
  walk(document);
  window.__athenaWalk = data;
  return els;
})()`;

async function approachWalk(cdp) {
  const t0 = performance.now();
  const { result } = await cdp.send('Runtime.evaluate', { expression: WALK, returnByValue: false });
  const [{ result: props }, { result: data }] = await Promise.all([
    cdp.send('Runtime.getProperties', { objectId: result.objectId, ownProperties: true }),
    cdp.send('Runtime.evaluate', { expression: 'window.__athenaWalk', returnByValue: true }),
  ]);
  const items = props.filter((p) => /^\d+$/.test(p.name) && p.value?.objectId);
  const described = await Promise.all(items.map((p) => cdp.send('DOM.describeNode', { objectId: p.value.objectId })));
  const ms = performance.now() - t0;
  await cdp.send('Runtime.releaseObjectGroup', { objectGroup: '' }).catch(() => {});
  return { ms, elements: described.length, data: data.value.length };
}

async function main() {
  const { loadAthena } = await import(path.join(root, 'extension/core/athena.mjs'));
  const athena = await loadAthena({ wasmBinary: readFileSync(path.join(root, 'extension/core/athena_core.wasm')) });
  const sites = await startSites();
  const home = tempDir('athena-capture-bench-');
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', headless: true,
    args: ['--no-sandbox', '--disable-gpu'], env: { ...process.env, HOME: home } });
  const pages = [
    ['TodoMVC (react)', '/todomvc/react/index.html'], ['Bootstrap', '/sites/bootstrap.html'], ['Shoelace', '/sites/shoelace.html'],
    ['login form', '/sites/login.html'], ['Python docs: library index', '/pydoc/library/index.html'],
    ['Python docs: string', '/pydoc/library/string.html'], ['10,000 elements', '/sites/big.html'],
  ];
  const rows = [];
  try {
    for (const [label, p] of pages) {
      const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
      await page.goto(sites.url(p), { waitUntil: 'load' });
      await page.waitForTimeout(300);
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('DOM.enable');
      await cdp.send('DOM.getDocument', { depth: 0 });
      const ours = [], core = [], old = [];
      let found = 0, emitted = 0;
      for (let i = 0; i < RUNS; i++) {
        const t0 = performance.now();
        const { capture: cap } = await capture((m, params) => cdp.send(m, params));
        ours.push(performance.now() - t0);
        const json = JSON.stringify(cap);
        const engine = athena.createEngine();
        engine.openPage({ context: 0, page: 1 });
        const t1 = performance.now();
        const pack = engine.snapshot({ context: 0, page: 1 }, json);
        core.push(performance.now() - t1);
        emitted = pack.factpack.regions.reduce((a, r) => a + r.count, 0);
        engine.dispose();
        const r = await approachWalk(cdp);
        old.push(r.ms);
        found = r.elements;
      }
      rows.push({ label, ours: median(ours), core: median(core), old: median(old), found, emitted });
      await page.close();
      console.log(`  ${label}: ours ${median(ours).toFixed(1)} + core ${median(core).toFixed(1)} ms; walk ${median(old).toFixed(1)} ms`);
    }
  } finally {
    await browser.close();
    await sites.close();
  }
  const md = ['## Capture approaches on the same pages (direct CDP, median of ' + RUNS + ' runs, ms)', '',
    'Ours = `extension/lib/capture.js` (DOMSnapshot + frame tree + layout metrics) then the wasm core (compile + diff + render of a full FactPack).',
    "walk = a JS traversal in the page (Runtime.evaluate) + DOM.describeNode per element, in parallel (its elements have no accessible names computed the way Chrome does: that is the compiler's job here).", '',
    '| page | ours: capture | ours: wasm core | ours total | walk: traversal + describeNode | walk / ours | elements (ours / walk) |', '|---|---|---|---|---|---|---|',
    ...rows.map((r) => `| ${r.label} | ${r.ours.toFixed(1)} | ${r.core.toFixed(1)} | ${(r.ours + r.core).toFixed(1)} | ${r.old.toFixed(1)} | ${(r.old / (r.ours + r.core)).toFixed(2)}x | ${r.emitted} / ${r.found} |`), ''].join('\n');
  writeFileSync(path.join(root, 'bench/capture-approaches.md'), md);
  console.log(md);
}

await main();
