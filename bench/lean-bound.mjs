// How far a leaner grammar could take the two agent flows that stay above half of their leanest
// peer (bench/flows-results.md): the FactPacks of settings-tabs and confirm written by hand as lean
// as they can be while still saying what an agent needs (the version; a full's URL and title; which
// refs went; every line that came, with its ref, role and name; which tab is selected now), with
// what the real grammar adds left out: region tags, `reason`, a removed control's role and name,
// the line of the tab left, closing tags on lines of their own. Counted like every figure here
// (o200k_base), beside half of the leanest peer's tokens on the same flow, read from
// bench/flows-results.md. lineDiff rewrites the same packs with no tags at all (a line-diff:
// `- refs`, `+ after REF` then the lines, `~ REF` for a change), which leaves the compact XML-like
// format docs/design.md settles; it shows what meeting the target would take, not a proposal.
// Writes bench/lean-bound.md.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { countTokens } from './lib/tokens.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const URL = 'http://127.0.0.1:37625/sites';  // a bench run's fixture server (its port varies)

/** Each flow's steps, as the leanest FactPacks that still tell the agent what it needs. */
const FLOWS = {
  'settings-tabs': [
    `<full v="1" url="${URL}/tabs.html" title="Account settings">
e1 heading "Account settings" level=1
e2 tab "General" selected
e3 tab "Privacy"
e4 tab "Advanced"
e5 text "Your display name is shown next to every comment you post."
e6 textbox "Display name" value="Ada"
</full>`,
    `<delta v="2">
<removed>e5 e6</removed>
<added after="e4">
e7 text "Activity history is kept for 90 days, then deleted automatically."
e8 text "Nobody else can see which pages you visited."
e9 checkbox "Share usage statistics" checked=false
</added>
<modified>e3 tab "Privacy": + selected</modified>
</delta>`,
    `<delta v="3">
<removed>e7 e8 e9</removed>
<added after="e4">
e10 text "Proxy settings apply to every connection this browser makes."
e11 textbox "Proxy host"
e12 button "Reset all settings"
</added>
<modified>e4 tab "Advanced": + selected</modified>
</delta>`,
  ],
  confirm: [
    `<full v="4" url="${URL}/confirm.html" title="Downloads">
e13 heading "Downloads" level=1
e14 text "12 files, 3.4 GB"
e15 text "report-2024.pdf"
e16 text "holiday.zip"
e17 text "setup.exe"
e18 button "Delete all files"
</full>`,
    `<overlay_opened v="5" overlay="modal" name="Delete files?">
e19 text "This will delete 12 files. You cannot undo this."
e20 button "Cancel"
e21 button "Delete"
</overlay_opened>`,
    `<overlay_closed v="6">
<removed>e15..17</removed>
<added after="e14">
e22 status "12 files deleted."
</added>
<modified>e14 text "No files": new text</modified>
</overlay_closed>`,
  ],
};

/**
 * A pack of FLOWS with no tags (the floor of any grammar that still says the same): its header as
 * `vN` and what the tag named, `- refs`, `+ after REF`, `~ REF role "name"` (`+state` when one came).
 */
function lineDiff(pack) {
  return pack.split('\n').flatMap((line) => {
    let m;
    if ((m = /^<(full|delta|overlay_opened|overlay_closed) v="(\d+)"(.*)>$/.exec(line))) {
      const a = Object.fromEntries([...m[3].matchAll(/(\w+)="([^"]*)"/g)].map(([, k, v]) => [k, v]));
      const end = m[1].startsWith('overlay_') ? m[1].slice('overlay_'.length) : '';
      return [[`v${m[2]}`, a.overlay, a.name && `"${a.name}"`, a.title && `"${a.title}"`, a.url, end].filter(Boolean).join(' ')];
    }
    if (/^<\/\w+>$/.test(line)) return [];
    if ((m = /^<removed>(.*)<\/removed>$/.exec(line))) return [`- ${m[1]}`];
    if ((m = /^<added after="(\w+)">$/.exec(line))) return [`+ after ${m[1]}`];
    if ((m = /^<modified>(.*?): (.*)<\/modified>$/.exec(line))) return [`~ ${m[1]}${m[2].startsWith('+ ') ? ` +${m[2].slice(2)}` : ''}`];
    return [line];
  }).join('\n');
}

const table = readFileSync(path.join(root, 'bench/flows-results.md'), 'utf8');
/** A flow's row of the first table: Athena (text) and each peer's text-mode tokens. */
function measured(flow) {
  const row = table.split('\n').find((l) => l.startsWith(`| ${flow} |`));
  if (!row) throw new Error(`bench/flows-results.md has no row for ${flow}: run node bench/flows.mjs first`);
  const [athena, playwright, devtools, agentBrowser] = row.split('|').slice(2, 6).map((c) => Number(c.trim()));
  return { athena, peer: Math.min(playwright, devtools, agentBrowser) };
}

const lines = [
  '## The leanest grammar on the two flows above half of their peer (bench/lean-bound.mjs)',
  '',
  'The FactPacks of each flow written by hand as lean as they can be while still saying what an',
  "agent needs: no region tags, no `reason`, removed refs without role or name, no line for the tab",
  'left, sections on one line. Tokens (o200k_base) per step, beside what Athena sends today and half',
  'of the leanest peer on the same flow (bench/flows-results.md, text mode). The last columns write',
  'the same packs with no tags at all (a line-diff: `- refs`, `+ after REF`, `~ REF`), outside the',
  'compact XML-like format docs/design.md settles: what meeting the target would take.',
  '',
  '| flow | leanest FactPacks, per step | leanest, all steps | Athena today | half of leanest peer | leanest over that half | line-diff, per step | line-diff, all steps | line-diff over that half |',
  '|---|---|---|---|---|---|---|---|---|',
];
const sum = (steps) => steps.reduce((a, b) => a + b, 0);
for (const [flow, packs] of Object.entries(FLOWS)) {
  const steps = packs.map(countTokens);
  const diffSteps = packs.map((p) => countTokens(lineDiff(p)));
  const { athena, peer } = measured(flow);
  const half = peer / 2;
  const over = (n) => `${(n / half).toFixed(2)}x`;
  lines.push(`| ${flow} | ${steps.join(' + ')} | ${sum(steps)} | ${athena} | ${half} | ${over(sum(steps))} ` +
    `| ${diffSteps.join(' + ')} | ${sum(diffSteps)} | ${over(sum(diffSteps))} |`);
}
writeFileSync(path.join(root, 'bench/lean-bound.md'), lines.join('\n') + '\n');
console.log(lines.join('\n'));
