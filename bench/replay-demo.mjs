// The replay demo: every recorded real flow (tests/cases) through the native core, each FactPack
// printed as the agent reads it with its token count (o200k_base) next to a full snapshot's of
// the same state, and a summary table. `./athena demo --replay` (no browser needed).
import { measureFlows } from './tokens.mjs';

const dim = (s) => (process.stdout.isTTY ? `\x1b[2m${s}\x1b[0m` : s);
const bold = (s) => (process.stdout.isTTY ? `\x1b[1m${s}\x1b[0m` : s);

const { flows } = measureFlows();
const rows = [];
for (const [name, steps] of flows) {
  console.log(bold(`\n=== ${name} (${steps.length} steps) ===`));
  for (const s of steps) {
    console.log(bold(`\n--- ${s.step} (${s.action || 'load'}): ${s.type}${s.reason ? ` (${s.reason})` : ''} — ${s.ours} tokens; a full snapshot: ${s.full} tokens`));
    process.stdout.write(dim(s.text));
  }
  const full = steps.reduce((a, s) => a + s.full, 0), ours = steps.reduce((a, s) => a + s.ours, 0);
  rows.push([name, steps.length, full, ours]);
}
console.log(bold('\nSummary (tokens, o200k_base)'));
console.log('flow'.padEnd(20) + 'steps'.padStart(6) + 'full every step'.padStart(18) + 'FactPacks'.padStart(12) + 'saved'.padStart(8));
let F = 0, O = 0;
for (const [n, k, f, o] of rows) {
  F += f; O += o;
  console.log(n.padEnd(20) + String(k).padStart(6) + String(f).padStart(18) + String(o).padStart(12) + `${(f / o).toFixed(1)}x`.padStart(8));
}
console.log('all'.padEnd(20) + ''.padStart(6) + String(F).padStart(18) + String(O).padStart(12) + `${(F / O).toFixed(1)}x`.padStart(8));
