// Crafted input against the built athena-bridge (the inputs of bridge/test/hostile-inputs.mjs),
// each in a fresh `athena-bridge mcp`: what came back, how long it took, the process's peak
// memory, and whether it still answered a ping afterwards. With --before BIN the same inputs run
// against another build too, side by side. Writes bench/hostile-results.md.
//
//   node bench/hostile.mjs [--before /path/to/old/athena-bridge]
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { bridgeBinary } from '../bridge/test/helpers.mjs';
import { MCP_ATTACKS } from '../bridge/test/hostile-inputs.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const WAIT_MS = 30_000;  // one attack's answer, at most
const beforeArg = process.argv.indexOf('--before');
const BEFORE = beforeArg > 0 ? process.argv[beforeArg + 1] : null;

function peakRssMb(pid) {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : NaN;
  } catch { return NaN; }
}

async function attack(bin, a) {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'athena-hostile-'));
  mkdirSync(path.join(tmp, 'run'), { mode: 0o700 });
  const env = { ...process.env, HOME: tmp, ATHENA_RUNTIME_DIR: path.join(tmp, 'run'), XDG_RUNTIME_DIR: path.join(tmp, 'run') };
  const p = spawn(bin, ['mcp'], { env, stdio: ['pipe', 'pipe', 'ignore'] });
  let out = '', bytes = 0, exit = null;
  p.on('exit', (code, signal) => { exit = signal ? `killed by ${signal}` : `exited ${code}`; });
  p.stdout.on('data', (d) => { bytes += d.length; out += d; if (out.length > 4096) out = out.slice(0, 4096); });
  p.stdin.on('error', () => {});
  const t0 = performance.now();
  p.stdin.write(`${a.line()}\n`);
  let first = null;
  while (performance.now() - t0 < WAIT_MS && !exit) {
    const nl = out.indexOf('\n');
    if (nl >= 0) { first = out.slice(0, nl); break; }
    await sleep(5);
  }
  const ms = performance.now() - t0;
  const rss = peakRssMb(p.pid);
  let alive = false;
  if (!exit) {
    out = '';
    p.stdin.write('{"jsonrpc":"2.0","id":"alive","method":"ping"}\n');
    const t1 = performance.now();
    while (performance.now() - t1 < 5000 && !exit) {
      if (out.includes('"id":"alive"')) { alive = true; break; }
      await sleep(5);
    }
  }
  p.kill('SIGKILL');
  rmSync(tmp, { recursive: true, force: true });
  let answer = exit ?? 'no answer';
  if (first) {
    try {
      const j = JSON.parse(first);
      answer = j.error ? `error ${j.error.code}: ${String(j.error.message).slice(0, 60)}` : 'answered';
    } catch { answer = `unparsable reply (${first.length} bytes)`; }
  }
  if (exit && first) answer += `, then ${exit}`;
  return { answer, ms, rss, alive, bytes, exited: !!exit };
}

const fmt = (r) => `${r.answer.replace(/\|/g, '\\|')}; ${r.ms.toFixed(0)} ms, ${Number.isFinite(r.rss) ? `${r.rss.toFixed(0)} MB peak` : 'no memory figure (gone)'}, ${r.bytes > 1e6 ? `${(r.bytes / 1e6).toFixed(0)} MB out, ` : ''}${r.alive ? 'still serving' : r.exited ? 'process gone' : 'no answer to a ping within 5 s'}`;

const after = bridgeBinary();
const rows = [];
for (const a of MCP_ATTACKS) {
  const r = { name: a.name, after: await attack(after, a) };
  if (BEFORE) r.before = await attack(BEFORE, a);
  rows.push(r);
  console.log(`${a.name}\n  after:  ${fmt(r.after)}${r.before ? `\n  before: ${fmt(r.before)}` : ''}`);
}

const head = BEFORE ? '| input on `athena-bridge mcp` stdin | before | after |\n|---|---|---|' : '| input on `athena-bridge mcp` stdin | result |\n|---|---|';
const body = rows.map((r) => BEFORE ? `| ${r.name} | ${fmt(r.before)} | ${fmt(r.after)} |` : `| ${r.name} | ${fmt(r.after)} |`).join('\n');
const md = `## Hostile input on the bridge

\`node bench/hostile.mjs${BEFORE ? ' --before OLD' : ''}\`: each crafted line (bridge/test/hostile-inputs.mjs) is sent to a fresh
\`athena-bridge mcp\`; then a ping must still be answered. Peak memory is the process's VmHWM.
${BEFORE ? `"before" is the bridge as of ${path.relative(root, BEFORE) || BEFORE}, "after" the current build.` : ''}
The native host's attacks (\`{"type":5}\`, deeply nested frames from the extension or a socket
client, a nested call id) are covered by bridge/test/hostile.test.mjs.

${head}
${body}
`;
// With --before the table is the one-off comparison kept beside the regular results (an old
// binary is not there on the next run); without it, the current results.
const out = BEFORE ? 'bench/hostile-before-after.md' : 'bench/hostile-results.md';
writeFileSync(path.join(root, out), BEFORE ? md.replace('## Hostile input on the bridge', '## Hostile input on the bridge: before and after the hardening') : md);
console.log(`wrote ${out}`);
process.exit(rows.every((r) => r.after.alive) ? 0 : 1);
