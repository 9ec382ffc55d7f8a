// ./athena bench: runs every benchmark in one go; each writes its own section file (bench/*.md,
// figures side by side from the same run, as ratios where possible). Nothing is pasted anywhere:
// bench/RESULTS.md is a one-screen summary and an index of those files (each kept once), and its
// summary's figures are quoted by hand from them, as README's Status quotes the summary
// (tests/node/results-index.test.mjs checks the index and the quotes).
//   node bench/run.mjs [--only name,name] [--skip name,name]
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const rel = (p) => path.join(root, p);
const arg = (name) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? new Set(process.argv[i + 1].split(',')) : null;
};
const only = arg('--only');
const skip = arg('--skip') ?? new Set();

/** Each bench: how to run it, and the markdown section it leaves behind. */
const BENCHES = [
  { name: 'capture-times', cmd: ['node', rel('bench/capture-times.mjs')], out: 'bench/capture-times.md' },
  { name: 'compile', cmd: [rel('build/release/bench/bench_compile')], out: 'bench/compile-times.md' },
  { name: 'engine', cmd: [rel('build/release/bench/bench_engine')], out: 'bench/engine-results.md' },
  { name: 'tokens', cmd: ['node', rel('bench/tokens.mjs')], out: 'bench/tokens-results.md' },
  { name: 'wasm', cmd: ['node', rel('bench/wasm.mjs')], out: 'bench/wasm-results.md' },
  { name: 'capture-approaches', cmd: ['node', rel('bench/capture-approaches.mjs')], out: 'bench/capture-approaches.md' },
  { name: 'tool-list', cmd: ['node', rel('bench/tool-list.mjs')], out: 'bench/tool-list-results.md' },
  { name: 'flows', cmd: ['node', rel('bench/flows.mjs')], out: 'bench/flows-results.md' },
  { name: 'latency', cmd: ['node', rel('bench/latency.mjs')], out: 'bench/latency-results.md' },
  { name: 'hostile', cmd: ['node', rel('bench/hostile.mjs')], out: 'bench/hostile-results.md' },
  { name: 'actionability', cmd: ['node', rel('bench/actionability.mjs')], out: 'bench/actionability-results.md' },
  { name: 'lean-bound', cmd: ['node', rel('bench/lean-bound.mjs')], out: 'bench/lean-bound.md' },
];
// The other section files are written by a test run or by hand from named tests' runs; the command
// is at the top of each (bench/RESULTS.md and docs/security.md list them).

const ran = [];
for (const b of BENCHES) {
  if ((only && !only.has(b.name)) || skip.has(b.name)) continue;
  const exe = b.cmd[0] === 'node' ? b.cmd[1] : b.cmd[0];
  if (!existsSync(exe)) {
    console.log(`-- ${b.name}: not built (${path.relative(root, exe)} missing), skipped`);
    continue;
  }
  console.log(`\n==> bench ${b.name}`);
  const t0 = Date.now();
  const r = spawnSync(b.cmd[0], b.cmd.slice(1), { stdio: 'inherit', cwd: root, env: { ...process.env, ATHENA_ROOT: root } });
  ran.push({ name: b.name, ok: r.status === 0, seconds: ((Date.now() - t0) / 1000).toFixed(1) });
}

console.log(`\n${ran.map((r) => `${r.name} ${r.ok ? 'ok' : 'FAILED'} (${r.seconds} s)`).join(', ') || 'no benchmark ran'}`);
console.log(`section files written: ${BENCHES.filter((b) => ran.some((r) => r.name === b.name)).map((b) => b.out).join(', ') || 'none'}`);
console.log('bench/RESULTS.md quotes some of them in its summary (and README.md\'s Status quotes that): update the figures that changed.');
process.exit(ran.every((r) => r.ok) ? 0 : 1);
