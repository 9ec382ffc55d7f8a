// How many tokens the outline of a documentation sidebar needs, on recorded pages of the
// generators agents meet on docs sites (mdBook, rustdoc, Sphinx in two themes, MkDocs, Node.js's
// own, Python's library index, and the fixture shaped like mdBook's toc.js and Docusaurus'
// menu): each page's first FactPack is taken through the wasm core, once with the largest budget
// (the whole page, every sidebar link at its depth) and then at smaller budgets, to find the
// smallest budget at which the sidebar's whole top level is shown (every top-level entry a line,
// its collapsed entries a count). That budget is what limits.h kDefaultBaselineTokenBudget must
// cover; the figures go to bench/outline-budget.md.
//   node bench/outline-budget.mjs [--out bench/outline-budget.md]
import { readFileSync, existsSync, writeFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { countTokens } from './lib/tokens.mjs';
import { parseFactPack } from '../tests/support/factpack-text.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outArg = process.argv.indexOf('--out');
const OUT = outArg > 0 ? path.resolve(process.argv[outArg + 1]) : path.join(root, 'bench/outline-budget.md');

/** The recorded pages: [generator, corpus folder, case]. */
const PAGES = [
  ['mdBook (Rust book, Debian rust-doc)', 'tests/cases-unseen', 'rust-book'],
  ['mdBook toc.js (Rust book, 111 links)', 'tests/cases', 'mdbook'],
  ['rustdoc (std::cell::Cell)', 'tests/cases-unseen', 'rustdoc-cell'],
  ['Sphinx, sphinx13 theme (quickstart)', 'tests/cases-unseen', 'sphinx-quickstart'],
  ['Sphinx, Read the Docs theme (sphinx-panels)', 'tests/cases-unseen', 'sphinx-panels'],
  ['MkDocs theme (configuration)', 'tests/cases-unseen', 'mkdocs-config'],
  ['Node.js API docs (url)', 'tests/cases-unseen', 'nodejs-url'],
  ['Python library index (python3-doc)', 'tests/cases', 'pydocs'],
  ['Docusaurus (docs sidebar fixture)', 'tests/cases', 'docusaurus'],
];

const wasmDir = [path.join(root, 'build/wasm-release/wasm'), path.join(root, 'extension/core')].find((d) => existsSync(path.join(d, 'athena_core.wasm')));
if (!wasmDir) throw new Error('no wasm core built: run ./athena build');
const { loadAthena } = await import(pathToFileURL(path.join(wasmDir, 'athena.mjs')).href);
const athena = await loadAthena({ wasmBinary: readFileSync(path.join(wasmDir, 'athena_core.wasm')) });
const MAX = athena.limits.maxTokenBudget;
const DEFAULT = athena.limits.defaultTokenBudget;

/** The first FactPack of a recorded page at a budget. */
function firstPack(capture, budget) {
  const engine = athena.createEngine({ tokenBudget: budget });
  try {
    const key = { context: 1, page: 1 };
    engine.openPage(key);
    return engine.snapshot(key, capture).text;
  } finally {
    engine.dispose();
  }
}

/** The sidebar: the nav or aside region holding the most links (a page's table of contents). */
function sidebarOf(fp) {
  let best = null;
  for (const r of fp.regions) {
    if (r.name !== 'nav' && r.name !== 'aside') continue;
    const links = r.elements.filter((e) => e.role === 'link').length;
    if (!best || links > best.links) best = { region: r, links };
  }
  return best?.region ?? null;
}

const rows = [];
for (const [generator, dir, name] of PAGES) {
  const step = path.join(root, dir, name, '00-load', 'capture.json.gz');
  if (!existsSync(step)) { rows.push({ generator, missing: true }); continue; }
  const capture = gunzipSync(readFileSync(step)).toString('utf8');
  const whole = firstPack(capture, MAX);
  const fp = parseFactPack(whole);
  const side = sidebarOf(fp);
  if (!side) { rows.push({ generator, noSidebar: true, pageTokens: countTokens(whole) }); continue; }
  const base = Math.min(...side.elements.map((e) => e.depth ?? 0));
  const top = side.elements.filter((e) => (e.depth ?? 0) === base);
  const levels = new Set(side.elements.map((e) => e.depth ?? 0)).size;
  // The top level as trimming writes it: each entry's line, ending with its hidden entries' count.
  const sideText = side.elements.map((e) => `${' '.repeat(e.depth ?? 0)}${e.line ?? ''}`).join('\n');
  const counts = new Map();
  let last = null;
  for (const e of side.elements) {
    if ((e.depth ?? 0) === base) last = e.ref;
    else if (last) counts.set(last, (counts.get(last) ?? 0) + 1);
  }
  const topText = top.map((e) => `${e.line ?? ''}${counts.get(e.ref) ? ` (${counts.get(e.ref)} more links)` : ''}`).join('\n');
  // The smallest budget at which every top-level entry is a line of the first FactPack.
  const shows = (budget) => {
    const p = parseFactPack(firstPack(capture, budget));
    const refs = new Set(p.regions.flatMap((r) => r.elements.map((e) => e.ref)));
    return top.every((e) => refs.has(e.ref));
  };
  let lo = 100, hi = MAX;
  if (!shows(hi)) hi = NaN;
  else {
    while (hi - lo > 25) {
      const mid = Math.floor((lo + hi) / 2);
      if (shows(mid)) hi = mid; else lo = mid;
    }
  }
  rows.push({
    generator, name, pageTokens: countTokens(whole), links: side.elements.filter((e) => e.role === 'link').length,
    lines: side.elements.length, levels, topEntries: top.length, sideTokens: countTokens(sideText), topTokens: countTokens(topText),
    needed: hi, atDefault: shows(DEFAULT),
  });
}

const measured = rows.filter((r) => r.needed !== undefined && Number.isFinite(r.needed));
const most = Math.max(...measured.map((r) => r.needed));
const f = (n) => n.toLocaleString('en-US');
const md = [
  '## The outline budget: what a docs sidebar\'s outline costs',
  '',
  'Written by `node bench/outline-budget.mjs` from the recorded first page of each generator (tests/cases, tests/cases-unseen),',
  'through the wasm core. Tokens are o200k_base. "Sidebar whole": every link of the sidebar at its depth; "top level": its',
  'top-level entries alone, each ending with its collapsed entries\' count (outline-first trimming\'s shape); "budget needed":',
  'the smallest baseline budget (to 25 tokens) at which the page\'s first FactPack shows every top-level sidebar entry',
  `beside the rest of the page; "at ${f(DEFAULT)}": whether the default budget (limits.h kDefaultBaselineTokenBudget) does.`,
  '',
  '| generator (page) | page, untrimmed | sidebar links / levels | sidebar whole | top level: entries, tokens | budget needed | at ' + f(DEFAULT) + ' |',
  '|---|---|---|---|---|---|---|',
  ...rows.map((r) => r.missing ? `| ${r.generator} | not recorded | | | | | |`
    : r.noSidebar ? `| ${r.generator} | ${f(r.pageTokens)} | no sidebar region | | | | |`
      : `| ${r.generator} | ${f(r.pageTokens)} | ${r.links} / ${r.levels} | ${f(r.sideTokens)} | ${r.topEntries}, ${f(r.topTokens)} | ${Number.isFinite(r.needed) ? f(r.needed) : 'never'} | ${r.atDefault ? 'yes' : 'no'} |`),
  '',
  `The most any of these pages needs: ${f(most)} tokens.`,
  '',
];
writeFileSync(OUT, md.join('\n'));
console.log(md.join('\n'));
