// The error catalogue (rules/errors.json) as data for JS, and the docs table made from it:
//   node rules/errors.mjs --docs   rewrites the generated tables of docs/errors.md
// tests/node/error-catalogue.test.mjs checks the catalogue against the code and the docs against
// the catalogue, so a code added in the core, the extension or the bridge fails the test until it
// is written down here with what it means and what the agent should do.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** @typedef {{code: string, from: 'core' | 'extension' | 'bridge', to: 'agent' | 'wire', meaning: string, do: string}} ErrorEntry */

/** @type {ErrorEntry[]} */
export const ERRORS = JSON.parse(readFileSync(path.join(root, 'rules/errors.json'), 'utf8')).errors;

const BEGIN = '<!-- errors:begin (generated from rules/errors.json: node rules/errors.mjs --docs) -->';
const END = '<!-- errors:end -->';

/** A markdown cell: pipes escaped, so a meaning cannot break the table. @param {string} s */
const cell = (s) => s.replace(/\|/g, '\\|');

/** The tables of docs/errors.md: the codes an agent sees, by origin, then the wire's own. */
export function errorsTables() {
  const table = (/** @type {ErrorEntry[]} */ rows, head) => [head, '|---|---|---|',
    ...rows.map((e) => `| \`${e.code}\` | ${cell(e.meaning)} | ${cell(e.do)} |`)].join('\n');
  const out = [];
  for (const [from, title] of [['core', 'From the core (the engine: refs, pages, queries)'],
    ['extension', 'From the extension (tabs, the page, actions, the user\'s policy)'],
    ['bridge', 'From athena-bridge']]) {
    out.push(`### ${title}\n\n${table(ERRORS.filter((e) => e.to === 'agent' && e.from === from), '| code | meaning | what the agent should do |')}`);
  }
  out.push(`### On the wire only (between the extension, athena-bridge and MCP servers; never an agent's)\n\n${table(ERRORS.filter((e) => e.to === 'wire'), '| code | meaning | who does what |')}`);
  return out.join('\n\n');
}

/** The docs text with its generated block replaced. @param {string} text */
export function docsWithErrors(text) {
  const i = text.indexOf(BEGIN), j = text.indexOf(END);
  if (i < 0 || j < i) throw new Error(`docs/errors.md has no ${BEGIN} ... ${END} block`);
  return `${text.slice(0, i + BEGIN.length)}\n${errorsTables()}\n${text.slice(j)}`;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (process.argv[2] !== '--docs') {
    console.error('usage: node rules/errors.mjs --docs');
    process.exit(2);
  }
  const file = path.join(root, 'docs/errors.md');
  writeFileSync(file, docsWithErrors(readFileSync(file, 'utf8')));
}
