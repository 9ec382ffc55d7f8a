// Token benchmark on every recorded flow (tests/cases), through the native core
// (athena_replay --json): per step and per flow, the tokens of
//   (a) a full snapshot every step (a fresh, untrimmed full snapshot of that state),
//   (b) our FactPacks, and
//   (c) the floor: only the changed elements, one line each.
// Targets, what a FactPack must stay within: in-page action delta <= 3x the floor; no_change <= 30 tokens; a same-site
// navigation baseline with dedup <= 40 % of the undeduplicated one. Writes bench/tokens-results.md.
import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { countTokens } from './lib/tokens.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const TARGETS = Object.freeze({ deltaOverFloor: 3, noChangeTokens: 30, dedupRatio: 0.40 });

function replayTool() {
  const found = [process.env.ATHENA_REPLAY, 'build/release/tests/athena_replay', 'build/dev/tests/athena_replay']
    .filter(Boolean).map((p) => path.resolve(root, p)).find(existsSync);
  if (!found) throw new Error('athena_replay is not built: run ./athena build (or cmake --build build/dev --target athena_replay)');
  return found;
}

const unref = (line) => line.replace(/^e\d+ /, '');

export function measureFlows() {
  const out = execFileSync(replayTool(), ['--json'], { encoding: 'utf8', maxBuffer: 1 << 30 });
  const steps = out.trim().split('\n').map((l) => JSON.parse(l)).map((s) => ({
    ...s, ours: countTokens(s.text), full: countTokens(s.full), floor: countTokens(s.floor), nodedup: countTokens(s.nodedup), nodedupText: s.nodedup,
  }));
  const flows = new Map();
  for (const s of steps) {
    if (!flows.has(s.case)) flows.set(s.case, []);
    flows.get(s.case).push(s);
  }
  return { steps, flows };
}

function verdict(ok) { return ok ? 'met' : '**missed**'; }

export function report({ steps, flows }) {
  const lines = ['## Tokens per recorded flow (o200k_base)', '',
    'Native core replaying every recorded case (`athena_replay --json`, protocol in tests/golden/README.md).',
    '"full" = a fresh untrimmed full snapshot of the same state every step (what a snapshot-per-step tool sends);',
    '"ours" = the FactPack the agent gets; "floor" = only the changed elements, one line each.', '',
    '| flow | steps | full every step | ours | floor | full / ours |', '|---|---|---|---|---|---|'];
  let F = 0, O = 0, L = 0;
  for (const [name, list] of flows) {
    const f = list.reduce((a, s) => a + s.full, 0), o = list.reduce((a, s) => a + s.ours, 0), l = list.reduce((a, s) => a + s.floor, 0);
    F += f; O += o; L += l;
    lines.push(`| ${name} | ${list.length} | ${f} | ${o} | ${l} | ${(f / o).toFixed(1)}x |`);
  }
  lines.push(`| **all** | ${steps.length} | ${F} | ${O} | ${L} | **${(F / O).toFixed(1)}x** |`, '');
  lines.push('### Per step', '', '| step | action | type | full | ours | floor | ours / floor | check |', '|---|---|---|---|---|---|---|---|');
  const misses = [];
  let deltaSteps = 0, deltaOk = 0, ncSteps = 0, ncOk = 0, navSteps = 0, navOk = 0;
  const lastFull = new Map();  // case -> its previous baseline's undeduplicated text
  for (const s of steps) {
    let check = '';
    const inPage = ['delta', 'overlay_opened', 'overlay_closed'].includes(s.type);
    if (inPage && s.floor > 0) {
      const ok = s.ours <= TARGETS.deltaOverFloor * s.floor;
      deltaSteps++; deltaOk += ok;
      check = `delta <= ${TARGETS.deltaOverFloor}x floor: ${verdict(ok)}`;
      if (!ok) {
        // Where the tokens are: the element lines, or the tags around them (a fixed envelope).
        const body = s.text.split('\n').filter((l) => /^\s*e\d+[ .]/.test(l)).join('\n');
        const own = countTokens(body);
        // The same pack with every tag stripped to its name and version (no region, frame, after, overlay):
        // the least the format's envelope can be around these lines.
        const bare = countTokens(s.text.replace(/<(\/?[a-z_]+)( v="\d+")?[^>]*?(\/?)>/g, '<$1$2$3>'));
        misses.push(`${s.case}/${s.step}: ${s.type} ${s.ours} tokens vs floor ${s.floor}: its element lines are ${own} tokens ` +
          `(${(own / s.floor).toFixed(1)}x the floor), its tags ${s.ours - own}; with every tag bare (name and version only) ` +
          `it would be ${bare} (${(bare / s.floor).toFixed(1)}x)`);
      }
    } else if (s.type === 'no_change') {
      const ok = s.ours <= TARGETS.noChangeTokens;
      ncSteps++; ncOk += ok;
      check = `no_change <= ${TARGETS.noChangeTokens}: ${verdict(ok)}`;
      if (!ok) misses.push(`${s.case}/${s.step}: no_change ${s.ours} tokens`);
    } else if (s.type === 'full' && s.reason === 'navigation') {
      const ratio = s.ours / s.nodedup;
      const ok = ratio <= TARGETS.dedupRatio;
      navSteps++; navOk += ok;
      check = `dedup ${(ratio * 100).toFixed(0)} % of ${s.nodedup}: ${verdict(ok)}`;
      // What no dedup by element can fold: lines (refs aside) the previous baseline did not have.
      const seen = new Set((lastFull.get(s.case) ?? '').split('\n').map(unref));
      const fresh = s.nodedupText.split('\n').filter((l) => /^e\d+ /.test(l) && !seen.has(unref(l))).join('\n');
      const newShare = countTokens(fresh) / s.nodedup;
      check += `; new elements ${(newShare * 100).toFixed(0)} %`;
      if (!ok) misses.push(`${s.case}/${s.step}: navigation baseline with dedup is ${(ratio * 100).toFixed(0)} % of the undeduplicated one; ` +
        `${(newShare * 100).toFixed(0)} % of the undeduplicated one is elements the previous baseline did not show (this page's own content), which no dedup can fold`);
    }
    if (s.type === 'full') lastFull.set(s.case, s.nodedupText);
    const rf = s.floor ? (s.ours / s.floor).toFixed(1) + 'x' : '-';
    lines.push(`| ${s.case}/${s.step} | ${s.action} | ${s.type}${s.reason ? ` (${s.reason})` : ''} | ${s.full} | ${s.ours} | ${s.floor} | ${rf} | ${check} |`);
  }
  lines.push('', '### Targets', '',
    `- in-page action deltas within ${TARGETS.deltaOverFloor}x the floor: ${deltaOk}/${deltaSteps}`,
    `- no_change within ${TARGETS.noChangeTokens} tokens: ${ncOk}/${ncSteps}`,
    `- same-site navigation baselines with dedup within ${TARGETS.dedupRatio * 100} % of the undeduplicated: ${navOk}/${navSteps}` +
      ` (${[...new Set(steps.filter((s) => s.type === 'full' && s.reason === 'navigation').map((s) => s.case))].map((c) => {
        const nav = steps.filter((s) => s.case === c && s.type === 'full' && s.reason === 'navigation');
        return `${c}: ${nav.map((s) => `${((s.ours / s.nodedup) * 100).toFixed(0)} %`).join(', ')}`;
      }).join('; ')})`);
  if (misses.length) lines.push('', 'Missed:', ...misses.map((m) => `- ${m}`));
  return { markdown: lines.join('\n') + '\n', misses };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const r = report(measureFlows());
  const file = path.join(root, 'bench/tokens-results.md');
  writeFileSync(file, r.markdown);
  console.log(r.markdown);
  console.log(`wrote ${path.relative(root, file)}`);
}
