// The recorded corpus (tests/cases, layout in docs/capture-format.md) for Node scripts and
// tests: the JS counterpart of corpus.h. Cases and their steps are folders, in name order.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const CASES_DIR = process.env.ATHENA_CASES_DIR ??
  path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'cases');

const folders = (dir) => readdirSync(dir).filter((d) => statSync(path.join(dir, d)).isDirectory()).sort();

/**
 * Every recorded case and its step folders; [] when the corpus is missing.
 * @returns {Array<{name: string, dir: string, steps: Array<{name: string, dir: string}>}>}
 */
export function listCases(casesDir = CASES_DIR) {
  if (!existsSync(casesDir)) return [];
  return folders(casesDir).map((name) => {
    const dir = path.join(casesDir, name);
    return { name, dir, steps: folders(dir).map((s) => ({ name: s, dir: path.join(dir, s) })) };
  });
}

/** A step's file as text, stored plain or gzipped (`name` or `name.gz`); null when it has none. */
export function readStepFile(stepDir, name) {
  const plain = path.join(stepDir, name);
  if (existsSync(plain)) return readFileSync(plain, 'utf8');
  if (existsSync(plain + '.gz')) return gunzipSync(readFileSync(plain + '.gz')).toString('utf8');
  return null;
}
