// tests/support/tmp.mjs: a directory the tests and benchmarks make is gone once their process ends.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const tmpModule = pathToFileURL(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../support/tmp.mjs')).href;

test('tempDir: made, written to, and removed when the process exits, even by process.exit', () => {
  const script = `import { tempDir } from ${JSON.stringify(tmpModule)};
import { writeFileSync, existsSync } from 'node:fs';
const a = tempDir('athena-tmp-test-'), b = tempDir('athena-tmp-test-');
writeFileSync(a + '/f.txt', 'x');
console.log(JSON.stringify([a, b, existsSync(a + '/f.txt')]));
process.exit(3);`;
  let out = '';
  try { execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }); } catch (e) { out = e.stdout; assert.equal(e.status, 3); }
  const [a, b, written] = JSON.parse(out);
  assert.equal(written, true);
  assert.equal(existsSync(a), false, a);
  assert.equal(existsSync(b), false, b);
});
