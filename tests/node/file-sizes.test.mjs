// Rooms of one job each (#56.3): a source file of the product past LINES_WITHOUT_REASON lines says,
// in its first lines, why it is one file ("One file past 400 lines: …"), so a reader who opens it
// knows whether its size is a choice or a room waiting to be split. Tests, fixtures and generated
// files are not rooms and are left out.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** The size past which a file needs a reason at its top (issue #56.3: "no part over ~400 lines without a reason"). */
const LINES_WITHOUT_REASON = 400;
/** How far down its top a reason is looked for. */
const REASON_WITHIN_LINES = 3;
const PRODUCT = /^(core\/(src|include)|bridge\/src|wasm|extension\/(lib|page)|web|rules|release)\/.*\.(cpp|h|js|mjs)$/;

test(`every product source file past ${LINES_WITHOUT_REASON} lines says at its top why it is one file`, () => {
  const files = execFileSync('git', ['ls-files'], { cwd: root, encoding: 'utf8' }).split('\n').filter((f) => PRODUCT.test(f));
  assert.ok(files.length > 50, `found only ${files.length} product files: is the pattern right?`);
  const missing = [];
  for (const f of files) {
    const lines = readFileSync(path.join(root, f), 'utf8').split('\n');
    if (lines.length <= LINES_WITHOUT_REASON) continue;
    const top = lines.slice(0, REASON_WITHIN_LINES).join('\n');
    if (!new RegExp(`past ${LINES_WITHOUT_REASON} lines`, "i").test(top)) missing.push(`${f} (${lines.length} lines)`);
  }
  assert.deepEqual(missing, [], 'these files are past 400 lines with no reason at their top: split them, or write why they are one file ("// One file past 400 lines: …") in their first lines');
});
