// The agent-flow benchmark: the same abstract flows (bench/lib/flows-def.mjs) run
// against Athena Delta (the whole real chain), @playwright/mcp, chrome-devtools-mcp and
// agent-browser (all three driving /usr/bin/chromium headless), in one run. Per step and per flow:
// response tokens (o200k_base), calls, latency (median of RUNS runs), success. An agent using a
// peer takes a snapshot after each action it needs to see; with Athena the action's FactPack is
// the look. After every flow, Athena's rebuilt view is checked against a fresh snapshot of the
// page (bench/lib/agents.mjs checkFidelity): ghosts, mismatches and misordered regions per flow.
// Writes bench/flows-results.md.
//
//   node bench/flows.mjs [runs=3] [--agents athena,playwright,devtools,agent-browser] [--flows docs,create-user]
//                        [--out bench/flows-results.md]
import { appendFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSites } from '../tests/sites/serve.mjs';
import { startChain } from '../tests/e2e/lib/chain.mjs';
import { AGENTS, FIDELITY_LIMITS } from './lib/agents.mjs';
import { flows } from './lib/flows-def.mjs';
import { countTokens } from './lib/tokens.mjs';
import { median } from './lib/stats.mjs';
import { measureToolLists } from './tool-list.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RUNS = Math.max(1, Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 3));
const agentsArg = process.argv.indexOf('--agents');
const AGENT_KEYS = agentsArg > 0 ? process.argv[agentsArg + 1].split(',') : ['athena', 'playwright', 'devtools', 'agent-browser'];
const flowsArg = process.argv.indexOf('--flows');
const FLOW_NAMES = flowsArg > 0 ? new Set(process.argv[flowsArg + 1].split(',')) : null;
const outArg = process.argv.indexOf('--out');
const OUT = outArg > 0 ? path.resolve(process.argv[outArg + 1]) : path.join(root, 'bench/flows-results.md');
// ATHENA_BENCH_DUMP=FILE appends every step's replies to FILE (to read what each agent was shown).
const DUMP = process.env.ATHENA_BENCH_DUMP;
const chosenFlows = (sites) => flows(sites).filter((f) => !FLOW_NAMES || FLOW_NAMES.has(f.name));
// tokensPerFlowVsLeanestPeer: no single flow may cost Athena more than half of its leanest peer's.
/** Steps whose tools are outside Athena's default core group. */
const OUTSIDE_CORE = new Set(['drag', 'fill_form', 'network', 'console', 'resize']);
export const FLOW_TARGETS = Object.freeze({ tokensVsBestPeer: 5, tokensPerFlowVsLeanestPeer: 2, toolListVsPlaywright: 0.5, latencyVsDevtools: 0.9, latencyMs: 250 });


async function runAgent(key, chain) {
  const agent = key === 'athena' ? new AGENTS.athena(chain) : new AGENTS[key]();
  await agent.start();
  const perFlow = {};
  /** flow -> one end-of-flow check per run (agents that have one: Athena) */
  const fidelity = {};
  let sites = null;
  try {
    for (let run = 0; run < RUNS; run++) {
      // Every run starts on fresh sites: a new port is a new origin, whose storage is empty (the
      // todos an earlier run added are not there), as for an agent's first visit.
      await sites?.close();
      sites = await startSites();
      for (const f of chosenFlows(sites)) {
        await agent.beginFlow?.();
        perFlow[f.name] ??= f.steps.map((s) => ({ step: s, tokens: [], stokens: [], ms: [], ok: [], calls: [], tools: [], errors: [], withStructured: 0, results: 0, rowsCost: [] }));
        for (const [i, s] of f.steps.entries()) {
          const t0 = performance.now();
          const r = await agent.run(s);
          const ms = performance.now() - t0;
          const cell = perFlow[f.name][i];
          cell.tokens.push(r.texts.reduce((a, t) => a + countTokens(t), 0));
          cell.stokens.push(r.structured.reduce((a, t) => a + countTokens(t), 0));
          cell.withStructured += r.withStructured;
          cell.results += r.texts.length;
          cell.ms.push(ms);
          cell.ok.push(r.ok);
          cell.calls.push(r.calls);
          if (s.maxRowsCost !== undefined) {
            // The answer's tokens over those of the table-row lines it shows (a sort's own cost).
            const rows = r.texts.flatMap((t) => t.split('\n')).filter((l) => /^ *\S+ row "/.test(l)).join('\n');
            cell.rowsCost.push(rows ? cell.tokens.at(-1) / countTokens(rows) : Infinity);
          }
          if (r.tools) cell.tools.push(r.tools.join(', '));
          if (DUMP) appendFileSync(DUMP, `\n=== ${key} ${f.name} ${describe(s)}\n${r.texts.join('\n--- next call ---\n')}\n`);
          if (!r.ok) cell.errors.push(r.error);
        }
        if (agent.checkFidelity) (fidelity[f.name] ??= []).push(await agent.checkFidelity());
      }
      process.stdout.write(`  ${agent.name}: run ${run + 1}/${RUNS} done\n`);
    }
  } finally {
    await agent.close?.();
    await sites?.close();
  }
  if (agent.problems?.length) console.log(`  ${agent.name}: the text view noted ${agent.problems.length} inconsistencies, e.g. ${agent.problems.slice(0, 3).join('; ')}`);
  return { key, name: agent.name, perFlow, fidelity };
}

/** The worst end-of-flow check of a flow over its runs (most faults), or null. */
function worstCheck(checks) {
  if (!checks?.length) return null;
  const faults = (c) => (c.error ? Infinity : c.ghosts.length + c.mismatched.length + c.misordered.length);
  return checks.reduce((a, c) => (faults(c) > faults(a) ? c : a));
}

function describe(step) {
  switch (step.op) {
    case 'navigate': return `navigate ${new URL(step.url).pathname}${step.expect ? ' (expect)' : ''}`;
    case 'click': return `click "${step.text}"${step.expect ? ' (expect)' : ''}`;
    case 'type': return `type into "${step.field}"${step.expect ? ' (expect)' : ''}`;
    case 'press': return `press ${step.key}`;
    case 'drag': return `drag "${step.text}" onto "${step.to}"${step.expect ? ' (expect)' : ''}`;
    case 'fill_form': return `fill_form (${step.fields.length} fields)${step.expect ? ' (expect)' : ''}`;
    case 'resize': return `resize ${step.width}x${step.height}${step.expect ? ' (expect)' : ''}`;
    default: return step.op + (step.expect ? ' (expect)' : '');
  }
}

async function main() {
  let chain = null;
  const results = [];
  try {
    for (const key of AGENT_KEYS) {
      console.log(`==> ${key}`);
      // The tools outside the core group (drag, fill_form, network, console, resize) are served
      // when a flow needs them, as a user who wants them starts the server (--tools all).
      const groups = chosenFlows({ url: (p) => p, otherOrigin: '' }).some((f) => f.steps.some((s) => OUTSIDE_CORE.has(s.op)));
      if (key === 'athena') chain = await startChain({ log: (s) => console.log(`  ${s}`), ...(groups ? { mcpFlags: ['--tools', 'all'] } : {}) });
      results.push(await runAgent(key, chain));
      if (chain) { await chain.close(); chain = null; }
    }
  } finally {
    if (chain) await chain.close();
  }
  const toolLists = await measureToolLists().catch((e) => { console.error(`tool lists: ${e.message}`); return []; });

  const names = results.map((r) => r.name);
  const ai = results.findIndex((r) => r.key === 'athena');
  const MODES = [['text', 'tokens', 'text mode (the text content: Claude Desktop, Cursor, most clients)'],
    ['structured', 'stokens', 'structured mode (JSON.stringify(structuredContent) when the result has one, else the text: Claude Code)']];
  const lines = [`## Agent flows: ${names.join(' vs ')}`, '',
    `Same abstract flows (bench/lib/flows-def.mjs) on the fixture sites, ${RUNS} runs each, one machine, one run of this script.`,
    'Tokens: o200k_base of every tool reply the agent reads in that step (peers: the action + the snapshot it needs to see the result;',
    'Athena: the action\'s FactPack, plus a `find` when a target was trimmed and a `read` when an expected sentence is not in its view).',
    'Two client modes: **text** = the text content of each result; **structured** = JSON.stringify(result.structuredContent) when the',
    'result carries one, else the text (what Claude Code gives the model). A step with `expect` passes only if the sentence is in what the',
    'agent was shown (Athena: its view rebuilt from the FactPack text + its find/read answers; a peer: its latest snapshot).',
    'Latency: median over runs, wall time of the step.',
    'Athena fidelity: after each flow, the ghosts (refs the agent holds that the page no longer has), mismatches (refs whose line',
    'differs) and misordered regions (lines held in another order than the snapshot\'s) of its rebuilt view against a fresh `snapshot`',
    'plus the finds its gap lines name; the worst run of the flow.', ''];
  const flowNames = Object.keys(results[0]?.perFlow ?? {});
  const misses = [];
  /** Text-mode tokens of each flow's leanest peer (for the per-flow sum). */
  const leanest = [];
  const sc = results.map((r) => { let w = 0, n = 0; for (const f of flowNames) for (const c of r.perFlow[f]) { w += c.withStructured; n += c.results; } return `${r.name} ${w}/${n}`; });
  lines.push(`Results carrying structuredContent: ${sc.join(', ')}.`, '');
  const header = `| flow | ${MODES.map(([m]) => names.map((n) => `${n} (${m})`).join(' | ')).join(' | ')} | ${MODES.map(([m]) => `best peer / Athena (${m})`).join(' | ')} | ${names.map((n) => `${n} ok`).join(' | ')} | Athena calls | Athena ghosts / mismatches / misordered |`;
  lines.push(header, `|---|${'---|'.repeat(names.length * MODES.length + MODES.length + names.length + 2)}`);
  const totals = Object.fromEntries(MODES.map(([m]) => [m, Object.fromEntries(names.map((n) => [n, 0]))]));
  const ratio = (tok) => { const peers = tok.filter((_, i) => i !== ai); return ai >= 0 && peers.length ? Math.min(...peers) / tok[ai] : NaN; };
  for (const f of flowNames) {
    const cells = [];
    const ratios = [];
    for (const [m, field] of MODES) {
      const tok = results.map((r) => r.perFlow[f].reduce((a, c) => a + median(c[field]), 0));
      results.forEach((r, i) => { totals[m][r.name] += tok[i]; });
      cells.push(...tok);
      ratios.push(ratio(tok));
    }
    const ok = results.map((r) => r.perFlow[f].every((c) => c.ok.every(Boolean)));
    results.forEach((r, i) => { if (!ok[i]) misses.push(`${f}: ${r.name} had failing steps (${r.perFlow[f].flatMap((c) => c.errors)[0] ?? ''})`); });
    const calls = ai >= 0 ? results[ai].perFlow[f].reduce((a, c) => a + median(c.calls), 0) : '-';
    ratios.forEach((x, i) => {
      if (!Number.isNaN(x) && !(x >= FLOW_TARGETS.tokensPerFlowVsLeanestPeer)) {
        misses.push(`${f} (${MODES[i][0]} mode): Athena ${x.toFixed(1)}x fewer tokens than its leanest peer (target ${FLOW_TARGETS.tokensPerFlowVsLeanestPeer}x on every flow)`);
      }
    });
    leanest.push(ratios.length ? Math.min(...results.filter((_, i) => i !== ai).map((r) => r.perFlow[f].reduce((a, c) => a + median(c.tokens), 0))) : NaN);
    const check = ai >= 0 ? worstCheck(results[ai].fidelity[f]) : null;
    const fid = !check ? '-' : check.error ? '**check failed**' : `${check.ghosts.length} / ${check.mismatched.length} / ${check.misordered.length}`;
    if (check && (check.error || check.ghosts.length || check.mismatched.length || check.misordered.length)) {
      misses.push(`${f}: Athena's view at the end of the flow ${check.error ? `could not be checked (${check.error})` : `has ${check.ghosts.length} ghosts, ${check.mismatched.length} mismatches and ${check.misordered.length} regions out of order`}`);
    }
    lines.push(`| ${f} | ${cells.join(' | ')} | ${ratios.map((x) => (Number.isNaN(x) ? '-' : x.toFixed(1) + 'x')).join(' | ')} | ${ok.map((o) => (o ? 'yes' : '**no**')).join(' | ')} | ${calls} | ${fid} |`);
  }
  const allRatios = MODES.map(([m]) => ratio(names.map((n) => totals[m][n])));
  lines.push(`| **all** | ${MODES.map(([m]) => names.map((n) => totals[m][n]).join(' | ')).join(' | ')} | ${allRatios.map((x) => (Number.isNaN(x) ? '-' : `**${x.toFixed(1)}x**`)).join(' | ')} | ${names.map(() => '').join(' | ')} | | |`, '');
  if (ai >= 0) {
    lines.push('### Athena end-of-flow fidelity (worst run per flow)', '', '| flow | page elements | held, not on the page (ghosts) | held, line differs (mismatches) | regions held in another order (misordered) | on the page, never shown | check calls | examples |', '|---|---|---|---|---|---|---|---|');
    for (const f of flowNames) {
      const c = worstCheck(results[ai].fidelity[f]);
      if (!c) continue;
      const ex = c.error ? c.error : [...c.ghosts.map((g) => `ghost ${g}`), ...c.mismatched, ...c.misordered].slice(0, FIDELITY_LIMITS.examples).join('; ');
      lines.push(`| ${f} | ${c.pageElements} | ${c.ghosts.length} | ${c.mismatched.length} | ${c.misordered.length} | ${c.notHeld} | ${c.calls} | ${ex.replace(/\|/g, '\\|') || '-'} |`);
    }
    lines.push('');
  }
  if (ai >= 0 && results.length > 1) {
    const sum = leanest.reduce((a, b) => a + b, 0);
    const x = sum / totals.text[names[ai]];
    lines.push(`Leanest peer of each flow, summed (text mode): ${sum} tokens; Athena Delta ${totals.text[names[ai]]} (${x.toFixed(1)}x fewer).`, '');
    if (!(x >= FLOW_TARGETS.tokensVsBestPeer)) misses.push(`Athena's total is ${x.toFixed(1)}x fewer tokens than the leanest peer of each flow, summed (target ${FLOW_TARGETS.tokensVsBestPeer}x)`);
  }
  if (ai >= 0) {
    // Steps with their own bound on Athena's answer (bench/lib/flows-def.mjs: maxTokens, maxRowsCost).
    const bounded = flowNames.flatMap((f) => results[ai].perFlow[f].filter((c) => c.step.maxTokens !== undefined || c.step.maxRowsCost !== undefined).map((c) => ({ f, c })));
    if (bounded.length) {
      lines.push('### Athena step bounds', '', '| flow | step | Athena tokens (text, worst run) | bound | measured | met |', '|---|---|---|---|---|---|');
      for (const { f, c } of bounded) {
        const worstTokens = Math.max(...c.tokens);
        const [bound, measured, met] = c.step.maxTokens !== undefined
          ? [`≤ ${c.step.maxTokens} tokens`, `${worstTokens} tokens`, worstTokens <= c.step.maxTokens]
          : [`≤ ${c.step.maxRowsCost}x its row lines`, `${Math.max(...c.rowsCost).toFixed(2)}x`, Math.max(...c.rowsCost) <= c.step.maxRowsCost];
        lines.push(`| ${f} | ${describe(c.step)} | ${worstTokens} | ${bound} | ${measured} | ${met ? 'yes' : '**no**'} |`);
        if (!met) misses.push(`${f}: ${describe(c.step)}: ${measured}, bound ${bound}`);
      }
      lines.push('');
    }
  }
  MODES.forEach(([m], i) => {
    if (ai >= 0 && !Number.isNaN(allRatios[i]) && !(allRatios[i] >= FLOW_TARGETS.tokensVsBestPeer)) {
      misses.push(`${m} mode: Athena's total is ${allRatios[i].toFixed(1)}x fewer tokens than the better peer's (target ${FLOW_TARGETS.tokensVsBestPeer}x)`);
    }
  });
  if (ai >= 0) {
    const failed = flowNames.flatMap((f) => results[ai].perFlow[f].filter((c) => !c.ok.every(Boolean)).map((c) => `${f}: ${describe(c.step)}`));
    if (failed.length) misses.push(`Athena steps that failed: ${failed.join(', ')}`);
  }

  lines.push('### Median action latency (ms, steps other than navigate)', '', `| flow | ${names.join(' | ')} |`, `|---|${names.map(() => '---|').join('')}`);
  const allLat = Object.fromEntries(names.map((n) => [n, []]));
  for (const f of flowNames) {
    const lat = results.map((r) => median(r.perFlow[f].filter((c) => c.step.op !== 'navigate').map((c) => median(c.ms))));
    results.forEach((r) => allLat[r.name].push(...r.perFlow[f].filter((c) => c.step.op !== 'navigate').map((c) => median(c.ms))));
    lines.push(`| ${f} | ${lat.map((x) => x.toFixed(0)).join(' | ')} |`);
  }
  const medAll = names.map((n) => median(allLat[n]));
  lines.push(`| **all** | ${medAll.map((x) => x.toFixed(0)).join(' | ')} |`, '');
  const di = names.indexOf('chrome-devtools-mcp');
  if (ai >= 0 && di >= 0) {
    const ratio = medAll[ai] / medAll[di];
    lines.push(`Median observed step: Athena Delta ${medAll[ai].toFixed(0)} ms = ${ratio.toFixed(2)}x chrome-devtools-mcp's ${medAll[di].toFixed(0)} ms ` +
      `(targets: at most ${FLOW_TARGETS.latencyVsDevtools}x and at most ${FLOW_TARGETS.latencyMs} ms).`, '');
    if (!(ratio <= FLOW_TARGETS.latencyVsDevtools)) misses.push(`median action latency ${ratio.toFixed(2)}x chrome-devtools-mcp's (target ${FLOW_TARGETS.latencyVsDevtools}x)`);
    if (!(medAll[ai] <= FLOW_TARGETS.latencyMs)) misses.push(`median action latency ${medAll[ai].toFixed(0)} ms (target ${FLOW_TARGETS.latencyMs} ms)`);
  }

  lines.push('### Per step (median tokens text / structured, median ms, calls)', '', `| flow | step | ${names.join(' | ')} |`, `|---|---|${names.map(() => '---|').join('')}`);
  for (const f of flowNames) {
    results[0].perFlow[f].forEach((c, i) => {
      lines.push(`| ${f} | ${describe(c.step)} | ${results.map((r) => { const x = r.perFlow[f][i]; return `${median(x.tokens)} / ${median(x.stokens)}, ${median(x.ms).toFixed(0)} ms, ${median(x.calls)} call${median(x.calls) === 1 ? '' : 's'}${x.tools.length > 0 && median(x.calls) > 1 ? ` (${x.tools.at(-1)})` : ''}${x.ok.every(Boolean) ? '' : ' FAILED'}`; }).join(' | ')} |`);
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
  writeFileSync(OUT, md);
  console.log('\n' + md);
}

await main();
