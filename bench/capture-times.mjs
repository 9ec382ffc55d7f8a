// CDP capture time per recorded step, from the timings the recorder stores in each step.json
// (tests/recorder/record.mjs measures them while recording). Writes bench/capture-times.md.
//   node bench/capture-times.mjs        (ATHENA_CASES_DIR overrides tests/cases)
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const casesDir = process.env.ATHENA_CASES_DIR ?? path.join(root, 'tests/cases');
const dirs = (p) => readdirSync(p).filter((d) => statSync(path.join(p, d)).isDirectory()).sort();
const cell = (v) => (typeof v === 'number' ? String(v) : '—');

const rows = [];
for (const c of existsSync(casesDir) ? dirs(casesDir) : []) {
  for (const s of dirs(path.join(casesDir, c))) {
    const f = path.join(casesDir, c, s, 'step.json');
    if (!existsSync(f)) continue;
    const t = JSON.parse(readFileSync(f, 'utf8')).timings ?? {};
    rows.push(`| ${c}/${s} | ${cell(t.captureSnapshot)} | ${cell(t.getFrameTree)} | ${cell(t.getLayoutMetrics)} | ${cell(t.total)} | ${cell(t.axTree)} |`);
  }
}
const md = `## CDP capture time per recorded step (recorder, direct CDP)

Measured by tests/recorder/record.mjs through playwright-core CDP sessions on headless Chromium (ms), when the corpus
was last recorded (\`./athena record\`; this table: \`node bench/capture-times.mjs\`). The capture is extension/lib/capture.js:
the three calls go out together, so total < sum; captureSnapshot includes dropping what the compiler never reads
(slimSnapshot). Chrome's full AX tree (what a describeNode/AX-based approach would need at least) is shown for
comparison; PLATFORM.md measured chrome.debugger at ~3x these direct-CDP figures.

| step | captureSnapshot | getFrameTree | getLayoutMetrics | capture total | getFullAXTree (all frames) |
|---|---|---|---|---|---|
${rows.join('\n')}
`;
writeFileSync(path.join(root, 'bench/capture-times.md'), md);
console.log(md);
