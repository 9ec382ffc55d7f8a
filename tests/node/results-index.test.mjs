// bench/RESULTS.md reads in one screen: a summary of at most 30 lines, then an index of the
// section files, each of which is kept once (no section pasted into RESULTS.md, every bench/*.md
// linked from it or from docs/security.md, which holds the attack and fault tables). README's
// Status quotes the summary: every figure it gives is one of the summary's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const read = (/** @type {string} */ f) => readFileSync(path.join(root, f), 'utf8');
const results = read('bench/RESULTS.md');
const security = read('docs/security.md');
const summary = results.slice(0, results.indexOf('\n## Sections\n'));

/** The markdown link targets of a file, as paths from the repository's root. @param {string} file @param {string} text */
const links = (file, text) => [...text.matchAll(/\]\(([^)#\s]+)\)/g)]
  .map((m) => path.posix.normalize(path.posix.join(path.posix.dirname(file), m[1])));

/** Every figure of a text: 14,767 / 6.6 / 100.00 / 58. @param {string} text */
const figures = (text) => [...text.matchAll(/\d+(?:,\d{3})*(?:\.\d+)?/g)].map((m) => m[0]);

test('bench/RESULTS.md opens with a summary of at most 30 lines, then its index', () => {
  assert.ok(results.includes('\n## Sections\n'), 'RESULTS.md has its "## Sections" index');
  const lines = summary.trimEnd().split('\n').length;
  assert.ok(lines <= 30, `the summary is ${lines} lines`);
  for (const measure of ['tokens', 'steps', 'fidelity', 'median action step', 'tool list', 'agreement', 'size']) {
    assert.match(summary, new RegExp(`^\\| [^|]*${measure}`, 'm'), `the summary has a row for ${measure}`);
  }
  for (const peer of ['Playwright MCP', 'chrome-devtools-mcp', 'agent-browser']) assert.ok(summary.includes(peer), peer);
  assert.match(summary, /\b[0-9a-f]{7,40} \d{4}-\d\d-\d\d\b/, 'the summary names the commit and date of its figures');
});

test('no section is pasted into bench/RESULTS.md: its only heading below the title is the index', () => {
  assert.deepEqual([...results.matchAll(/^##+ .*/gm)].map((m) => m[0]), ['## Sections']);
});

test('every link of bench/RESULTS.md and docs/security.md leads to a file', () => {
  const dead = [...links('bench/RESULTS.md', results), ...links('docs/security.md', security)]
    .filter((p) => !existsSync(path.join(root, p)));
  assert.deepEqual(dead, []);
});

test('every section file of bench/ is indexed once: in bench/RESULTS.md, or (attacks, faults) in docs/security.md', () => {
  const sections = readdirSync(path.join(root, 'bench')).filter((f) => f.endsWith('.md') && f !== 'RESULTS.md')
    .map((f) => `bench/${f}`);
  const indexed = [...new Set(links('bench/RESULTS.md', results))].concat([...new Set(links('docs/security.md', security))]);
  const count = (/** @type {string} */ f) => indexed.filter((p) => p === f).length;
  assert.deepEqual(sections.filter((f) => count(f) !== 1).map((f) => `${f}: linked ${count(f)} times`), []);
});

test("README's Status gives only figures of the summary", () => {
  const readme = read('README.md');
  const start = readme.indexOf('\n## Status\n');
  assert.ok(start >= 0, 'README.md has a Status section');
  const end = readme.indexOf('\n## ', start + 1);
  const status = readme.slice(start, end < 0 ? undefined : end);
  const known = new Set(figures(summary));
  const quoted = figures(status);
  assert.ok(quoted.length >= 10, `the Status quotes figures (${quoted.length})`);
  assert.deepEqual(quoted.filter((f) => !known.has(f)), [], 'figures in README Status that the summary does not give');
});
