// The agent-flow benchmark (issue 9): the same abstract flows (bench/lib/flows-def.mjs) run
// against Athena Delta (the whole real chain), @playwright/mcp and chrome-devtools-mcp (both
// driving /usr/bin/chromium headless), in one run. Per step and per flow: response tokens
// (o200k_base), calls, latency (median of RUNS runs), success. An agent using a peer takes a
// snapshot after each action it needs to see; with Athena the action's FactPack is the look.
// Writes bench/flows-results.md.
//
//   node bench/flows.mjs [runs=3] [--agents athena,playwright,devtools]
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSites } from '../tests/sites/serve.mjs';
import { startChain } from '../tests/e2e/lib/chain.mjs';
import { AGENTS } from './lib/agents.mjs';
import { flows } from './lib/flows-def.mjs';
import { countTokens } from './lib/tokens.mjs';
import { measureToolLists } from './tool-list.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RUNS = Math.max(1, Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 3));
const agentsArg = process.argv.indexOf('--agents');
const AGENT_KEYS = agentsArg > 0 ? process.argv[agentsArg + 1].split(',') : ['athena', 'playwright', 'devtools'];
export const FLOW_TARGETS = Object.freeze({ tokensVsBestPeer: 5, toolListVsPlaywright: 0.5 });

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s.length ? s[Math.floor((s.length - 1) / 2)] : NaN; };

async function runAgent(key, sites, chain) {
  const agent = key === 'athena' ? new AGENTS.athena(chain) : new AGENTS[key]();
  await agent.start();
  const perFlow = {};
  try {
    for (let run = 0; run < RUNS; run++) {
      for (const f of flows(sites)) {
        perFlow[f.name] ??= f.steps.map((s) => ({ step: s, tokens: [], ms: [], ok: [], calls: [], errors: [] }));
        for (const [i, s] of f.steps.entries()) {
          const t0 = performance.now();
          const r = await agent.run(s);
          const ms = performance.now() - t0;
          const cell = perFlow[f.name][i];
          cell.tokens.push(r.texts.reduce((a, t) => a + countTokens(t), 0));
          cell.ms.push(ms);
          cell.ok.push(r.ok);
          cell.calls.push(r.calls);
          if (!r.ok) cell.errors.push(r.error);
        }
      }
      process.stdout.write(`  ${agent.name}: run ${run + 1}/${RUNS} done\n`);
    }
  } finally {
    await agent.close?.();
  }
  return { key, name: agent.name, perFlow };
}

function describe(step) {
  switch (step.op) {
    case 'navigate': return `navigate ${new URL(step.url).pathname}`;
    case 'click': return `click "${step.text}"`;
    case 'type': return `type into "${step.field}"`;
    case 'press': return `press ${step.key}`;
    default: return step.op;
  }
}

async function main() {
  const sites = await startSites();
  let chain = null;
  const results = [];
  try {
    for (const key of AGENT_KEYS) {
      console.log(`==> ${key}`);
      if (key === 'athena') chain = await startChain({ log: (s) => console.log(`  ${s}`) });
      results.push(await runAgent(key, sites, chain));
      if (chain) { await chain.close(); chain = null; }
    }
  } finally {
    if (chain) await chain.close();
    await sites.close();
  }
  const toolLists = await measureToolLists().catch((e) => { console.error(`tool lists: ${e.message}`); return []; });

  const names = results.map((r) => r.name);
  const lines = ['## Agent flows: Athena Delta vs Playwright MCP vs chrome-devtools-mcp', '',
    `Same abstract flows (bench/lib/flows-def.mjs) on the fixture sites, ${RUNS} runs each, one machine, one run of this script.`,
    'Tokens: o200k_base of every tool reply the agent reads in that step (peers: the action + the snapshot it needs to see the result;',
    'Athena: the action\'s FactPack, plus a `find` when a target was trimmed). Latency: median over runs, wall time of the step.', ''];
  const flowNames = Object.keys(results[0]?.perFlow ?? {});
  lines.push(`| flow | ${names.map((n) => `${n} tokens`).join(' | ')} | ${names.map((n) => `${n} ok`).join(' | ')} | best peer / Athena |`,
    `|---|${names.map(() => '---|').join('')}${names.map(() => '---|').join('')}---|`);
  const misses = [];
  const totals = Object.fromEntries(names.map((n) => [n, 0]));
  for (const f of flowNames) {
    const tok = results.map((r) => r.perFlow[f].reduce((a, c) => a + median(c.tokens), 0));
    const ok = results.map((r) => r.perFlow[f].every((c) => c.ok.every(Boolean)));
    results.forEach((r, i) => { totals[r.name] += tok[i]; });
    const ai = results.findIndex((r) => r.key === 'athena');
    const peers = tok.filter((_, i) => i !== ai);
    const ratio = ai >= 0 && peers.length ? Math.min(...peers) / tok[ai] : NaN;
    if (ai >= 0 && ratio < FLOW_TARGETS.tokensVsBestPeer) {
      misses.push(`${f}: ${ratio.toFixed(1)}x fewer tokens than the better peer (target ${FLOW_TARGETS.tokensVsBestPeer}x). Why: a page of a few dozen elements, ` +
        'where the first full snapshot is most of the flow and each delta\'s fixed frame (~30 tokens: version, section tags, summary) is large next to a one-element change');
    }
    results.forEach((r, i) => { if (!ok[i]) misses.push(`${f}: ${r.name} had failing steps (${r.perFlow[f].flatMap((c) => c.errors)[0] ?? ''})`); });
    lines.push(`| ${f} | ${tok.join(' | ')} | ${ok.map((o) => (o ? 'yes' : '**no**')).join(' | ')} | ${Number.isNaN(ratio) ? '-' : ratio.toFixed(1) + 'x'} |`);
  }
  lines.push(`| **all** | ${names.map((n) => totals[n]).join(' | ')} | | | ${(() => { const a = totals['Athena Delta']; const p = names.filter((n) => n !== 'Athena Delta').map((n) => totals[n]); return a && p.length ? (Math.min(...p) / a).toFixed(1) + 'x' : '-'; })()} |`, '');

  lines.push('### Median action latency (ms, steps other than navigate)', '', `| flow | ${names.join(' | ')} |`, `|---|${names.map(() => '---|').join('')}`);
  const allLat = Object.fromEntries(names.map((n) => [n, []]));
  for (const f of flowNames) {
    const lat = results.map((r) => median(r.perFlow[f].filter((c) => c.step.op !== 'navigate').map((c) => median(c.ms))));
    results.forEach((r, i) => allLat[r.name].push(...r.perFlow[f].filter((c) => c.step.op !== 'navigate').map((c) => median(c.ms))));
    lines.push(`| ${f} | ${lat.map((x) => x.toFixed(0)).join(' | ')} |`);
  }
  const medAll = names.map((n) => median(allLat[n]));
  lines.push(`| **all** | ${medAll.map((x) => x.toFixed(0)).join(' | ')} |`, '');
  const ai = names.indexOf('Athena Delta');
  if (ai >= 0) {
    const peerBest = Math.min(...medAll.filter((_, i) => i !== ai));
    if (medAll[ai] > peerBest) {
      misses.push(`median action latency ${medAll[ai].toFixed(0)} ms vs the faster peer's ${peerBest.toFixed(0)} ms. Why: after every action the extension ` +
        'waits for the page to settle (extension/lib/limits.js: DOM quiet 300 ms and network idle 400 ms, capped) so that the FactPack shows the settled page ' +
        'and no change is missed; the peers return after shorter fixed waits and leave the agent to look again');
    }
  }

  lines.push('### Per step (median tokens / median ms)', '', `| flow | step | ${names.join(' | ')} |`, `|---|---|${names.map(() => '---|').join('')}`);
  for (const f of flowNames) {
    results[0].perFlow[f].forEach((c, i) => {
      lines.push(`| ${f} | ${describe(c.step)} | ${results.map((r) => `${median(r.perFlow[f][i].tokens)} / ${median(r.perFlow[f][i].ms).toFixed(0)}${r.perFlow[f][i].ok.every(Boolean) ? '' : ' FAILED'}`).join(' | ')} |`);
    });
  }
  if (toolLists.length) {
    const pw = toolLists.find((t) => t.name === 'Playwright MCP');
    const ours = toolLists.find((t) => t.name === 'Athena Delta');
    lines.push('', `Tool lists (tokens): ${toolLists.map((t) => `${t.name} ${t.tokens}`).join(', ')}.`);
    if (pw && ours && ours.tokens >= FLOW_TARGETS.toolListVsPlaywright * pw.tokens) misses.push('tool list not under half of Playwright MCP\'s');
  }
  lines.push('', '### Targets', '', misses.length ? 'Missed (and why, where known):' : 'All targets met on every flow.', ...misses.map((m) => `- ${m}`), '');
  const md = lines.join('\n');
  writeFileSync(path.join(root, 'bench/flows-results.md'), md);
  console.log('\n' + md);
}

await main();
