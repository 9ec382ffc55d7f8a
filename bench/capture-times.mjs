// CDP capture time per recorded step, from the timings the recorder stores in each step.json
// (tests/recorder/record.mjs measures them while recording). Writes bench/capture-times.md.
//   node bench/capture-times.mjs        (ATHENA_CASES_DIR overrides tests/cases)
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { listCases, readStepFile } from '../tests/support/corpus.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cell = (v) => (typeof v === 'number' ? String(v) : '—');

const rows = [];
for (const c of listCases()) {
  for (const s of c.steps) {
    const step = readStepFile(s.dir, 'step.json');
    if (step === null) continue;
    const t = JSON.parse(step).timings ?? {};
    rows.push(`| ${c.name}/${s.name} | ${cell(t.captureSnapshot)} | ${cell(t.getFrameTree)} | ${cell(t.getLayoutMetrics)} | ${cell(t.total)} | ${cell(t.axTree)} |`);
  }
}
const md = `## CDP capture time per recorded step (recorder, direct CDP)

Measured by tests/recorder/record.mjs through playwright-core CDP sessions on headless Chromium (ms), when the corpus
was last recorded (\`./athena record\`; this table: \`node bench/capture-times.mjs\`). The capture is extension/lib/capture.js:
the three calls go out together, so total < sum; captureSnapshot includes dropping what the compiler never reads
(slimSnapshot). Chrome's full AX tree (what a describeNode/AX-based approach would need at least) is shown for
comparison; chrome.debugger measured at ~3x these direct-CDP figures.

| step | captureSnapshot | getFrameTree | getLayoutMetrics | capture total | getFullAXTree (all frames) |
|---|---|---|---|---|---|
${rows.join('\n')}
`;
writeFileSync(path.join(root, 'bench/capture-times.md'), md);
console.log(md);
