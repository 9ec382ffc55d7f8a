// athena-bridge install / uninstall / doctor in a temporary HOME (never the user's own).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { bridgeBinary, FakeChrome, root, sandbox } from './helpers.mjs';

const id = readFileSync(path.join(root, 'extension/EXTENSION_ID'), 'utf8').trim();
const bridge = (args, env) => spawnSync(bridgeBinary(), args, { env, encoding: 'utf8' });
const dirs = (home) => ['google-chrome', 'chromium', 'BraveSoftware/Brave-Browser', 'microsoft-edge']
  .map((b) => path.join(home, '.config', b, 'NativeMessagingHosts', 'com.athena_delta.bridge.json'));

test('install writes one manifest per browser allowing only the pinned extension, idempotently', () => {
  const { env } = sandbox();
  const r = bridge(['install'], env);
  assert.equal(r.status, 0, r.stdout + r.stderr);
  for (const f of dirs(env.HOME)) {
    assert.ok(existsSync(f), f);
    const m = JSON.parse(readFileSync(f, 'utf8'));
    assert.equal(m.name, 'com.athena_delta.bridge');
    assert.equal(m.type, 'stdio');
    assert.equal(m.path, bridgeBinary());
    assert.deepEqual(m.allowed_origins, [`chrome-extension://${id}/`]);
  }
  assert.match(r.stdout, /"mcpServers": \{"athena-delta"/);
  assert.match(r.stdout, /claude mcp add athena-delta -- .* mcp/);
  const again = bridge(['install'], env);
  assert.equal(again.status, 0);
  assert.equal((again.stdout.match(/already up to date/g) ?? []).length, 4);
  const un = bridge(['uninstall'], env);
  assert.equal(un.status, 0);
  for (const f of dirs(env.HOME)) assert.ok(!existsSync(f));
});

test('install --user-data-dir registers the host for one custom Chromium profile', () => {
  const { env, tmp } = sandbox();
  const profile = path.join(tmp, 'profile');
  assert.equal(bridge(['install', '--user-data-dir', profile], env).status, 0);
  assert.ok(existsSync(path.join(profile, 'NativeMessagingHosts/com.athena_delta.bridge.json')));
});

test('doctor names each broken link and how to fix it, then passes when all work', async () => {
  const { env } = sandbox();
  let r = bridge(['doctor'], env);
  assert.equal(r.status, 1);
  assert.match(r.stdout, /FAIL  no native host manifest for any browser\n\s+fix: run `.*athena-bridge install`/);
  assert.match(r.stdout, /FAIL  no native host running/);
  bridge(['install'], env);
  // A manifest pointing elsewhere (an old build) is caught.
  const f = dirs(env.HOME)[1];
  const m = JSON.parse(readFileSync(f, 'utf8'));
  writeFileSync(f, JSON.stringify({ ...m, path: '/old/athena-bridge' }));
  r = bridge(['doctor'], env);
  assert.match(r.stdout, /Chromium: manifest points at \/old\/athena-bridge, not at this binary/);
  bridge(['install'], env);
  const chrome = new FakeChrome(env);
  await chrome.hello();
  r = bridge(['doctor'], env);
  assert.equal(r.status, 0, r.stdout);
  assert.match(r.stdout, /ok    extension connected \(version test\)/);
  assert.match(r.stdout, /Every link works\./);
  await chrome.close();
});

test('unknown modes and options are refused with the usage', () => {
  const { env } = sandbox();
  const r = bridge(['frobnicate'], env);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /unknown mode 'frobnicate'/);
  assert.match(r.stderr, /athena-bridge mcp/);
  assert.equal(bridge(['install', '--bogus'], env).status, 2);
});
