// Every file table in a README is the repository's: each file or folder a row names is tracked
// (git ls-files), and each tracked file (or folder) beside the ones a table names has its own row,
// so a file added, moved or removed fails this test until its README says so.
//
// A file table is a markdown table whose first column is headed "file" or "folder"; the first cell
// of each row holds one or more `paths`, relative to the README's folder: `lib/agent.js`, a glob
// within one folder (`lib/tools/*.js`, `ui/popup.*`), or a folder (`core/`). What "beside" means:
// the folder each named file sits in (every tracked file directly in it needs a row, the README
// itself apart), and the folder each named folder sits in (every tracked folder directly in it
// needs a row).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const tracked = execFileSync('git', ['ls-files'], { cwd: root, encoding: 'utf8' }).split('\n').filter(Boolean);
const readmes = tracked.filter((f) => /(^|\/)README\.md$/.test(f));

/** The file tables of a markdown text: for each, the paths its rows name. @param {string} text */
export function fileTables(text) {
  const tables = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const head = /^\|\s*(file|folder)\s*\|/i.exec(lines[i]);
    if (!head || !/^\|[-:| ]+\|\s*$/.test(lines[i + 1] ?? '')) continue;
    const rows = [];
    for (i += 2; i < lines.length && lines[i].startsWith('|'); i++) {
      const first = lines[i].split(/(?<!\\)\|/)[1] ?? '';
      rows.push({ line: i + 1, paths: [...first.matchAll(/`([^`]+)`/g)].map((m) => m[1]) });
    }
    tables.push({ line: i, rows });
  }
  return tables;
}

/** A row's path as a test of a tracked path (`*` stays within one folder). @param {string} p */
function matcher(p) {
  const re = new RegExp(`^${p.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}${p.endsWith('/') ? '' : '$'}`);
  return (/** @type {string} */ f) => re.test(f);
}

for (const readme of readmes) {
  const dir = path.posix.dirname(readme) === '.' ? '' : `${path.posix.dirname(readme)}/`;
  const tables = fileTables(readFileSync(path.join(root, readme), 'utf8'));
  for (const table of tables) {
    test(`${readme}: the file table ending at line ${table.line} is the tracked files'`, () => {
      const named = table.rows.flatMap((r) => r.paths.map((p) => ({ line: r.line, p: dir + p })));
      assert.ok(named.length > 0, 'the table names files or folders');
      const gone = named.filter(({ p }) => !tracked.some(matcher(p))).map(({ line, p }) => `line ${line}: ${p}`);
      assert.deepEqual(gone, [], 'rows naming what git does not track');

      const listed = named.map(({ p }) => matcher(p));
      const isListed = (/** @type {string} */ f) => listed.some((m) => m(f));
      const fileDirs = new Set(named.filter(({ p }) => !p.endsWith('/')).map(({ p }) => path.posix.dirname(p)));
      const unlisted = tracked.filter((f) => fileDirs.has(path.posix.dirname(f)) && f !== readme && !isListed(f));
      const folderParents = new Set(named.filter(({ p }) => p.endsWith('/')).map(({ p }) => path.posix.dirname(p.slice(0, -1))));
      for (const parent of folderParents) {
        const prefix = parent === '.' ? '' : `${parent}/`;
        const folders = new Set(tracked.filter((f) => f.startsWith(prefix) && f.slice(prefix.length).includes('/'))
          .map((f) => `${prefix}${f.slice(prefix.length).split('/')[0]}/`));
        for (const folder of folders) if (!isListed(`${folder}x`)) unlisted.push(folder);
      }
      assert.deepEqual(unlisted, [], 'tracked beside the listed ones, with no row');
    });
  }
}

test('the READMEs have file tables to check (the parser still finds them)', () => {
  const count = readmes.map((r) => fileTables(readFileSync(path.join(root, r), 'utf8')).length).reduce((a, b) => a + b, 0);
  assert.ok(count >= 2, `file tables found: ${count}`);
});
