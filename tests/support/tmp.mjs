// A private temporary directory that is removed when the process exits, whichever way the test
// or benchmark using it ends: thousands of runs must not fill the machine's /tmp.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** @type {string[]} */
const made = [];
let hooked = false;

/** Creates `$TMPDIR/<prefix>XXXXXX` and returns its path; it is deleted at process exit. @param {string} prefix */
export function tempDir(prefix) {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  made.push(dir);
  if (!hooked) {
    hooked = true;
    process.on('exit', () => { for (const d of made) rmSync(d, { recursive: true, force: true, maxRetries: 3 }); });
  }
  return dir;
}
