// A release made for the Chrome Web Store: the store id, set at release time (--store-id), is
// allowed by the native host next to the pinned development id and shown as the store page; the
// store zip carries no key; with --download-url, server.json lists each .mcpb with its sha256.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { root, freshHome, run } from './lib.mjs';

const STORE_ID = 'abcdefghijklmnopabcdefghijklmnop';
const DEV_ID = readFileSync(path.join(root, 'extension/EXTENSION_ID'), 'utf8').trim();
const me = { uid: process.getuid(), gid: process.getgid(), name: 'self', root: false };
const box = freshHome(me);
after(() => rmSync(box.tmp, { recursive: true, force: true }));

test('--store-id: both ids allowed, the store page shown; --download-url: server.json lists the bundles with their sha256', () => {
  const out = path.join(box.tmp, 'out');
  execFileSync(process.execPath, [path.join(root, 'release/build.mjs'), '--out', out, '--store-id', STORE_ID,
    '--download-url', 'https://example.org/athena-delta/v1/'], { cwd: root, stdio: 'pipe' });
  const rel = JSON.parse(readFileSync(path.join(out, 'release.json'), 'utf8'));
  assert.equal(rel.storeExtensionId, STORE_ID);
  const file = (kind, platform) => path.join(out, rel.artefacts.find((a) => a.kind === kind && (!platform || a.platform === platform)).file);
  const here = `${process.platform}-${process.arch}`;

  const server = JSON.parse(readFileSync(path.join(out, 'server.json'), 'utf8'));
  const bundles = server.packages.filter((p) => p.registryType === 'mcpb');
  assert.deepEqual(bundles.map((b) => b.identifier), rel.artefacts.filter((a) => a.kind === 'Claude Desktop bundle')
    .map((a) => `https://example.org/athena-delta/v1/${a.file}`));
  for (const b of bundles) {
    const f = path.join(out, path.basename(b.identifier));
    assert.equal(b.fileSha256, createHash('sha256').update(readFileSync(f)).digest('hex'));
  }
  assert.equal('key' in JSON.parse(execFileSync('unzip', ['-p', file('Chrome Web Store zip'), 'manifest.json'], { encoding: 'utf8' })), false);

  writeFileSync(path.join(box.project, 'package.json'), '{"name": "athena-store-test", "private": true}\n');
  const npm = run(me, box.env, box.project, 'npm', ['install', '--ignore-scripts', '--offline', file('npm package'), file('npm platform package', here)]);
  assert.equal(npm.status, 0, npm.out);
  const profile = path.join(box.tmp, 'profile');
  const r = run(me, box.env, box.project, 'npx', ['--offline', 'athena-delta', 'install', '--user-data-dir', profile]);
  assert.equal(r.status, 0, r.out);
  const m = JSON.parse(readFileSync(path.join(profile, 'NativeMessagingHosts/com.athena_delta.bridge.json'), 'utf8'));
  assert.deepEqual(m.allowed_origins, [`chrome-extension://${DEV_ID}/`, `chrome-extension://${STORE_ID}/`]);
  assert.match(r.out, new RegExp(`From the Chrome Web Store: https://chromewebstore\\.google\\.com/detail/${STORE_ID}\\n`));
  assert.equal(run(me, box.env, box.project, 'npx', ['--offline', 'athena-delta', 'uninstall', '--user-data-dir', profile]).status, 0);
});
