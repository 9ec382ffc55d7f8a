// athena-bridge install / uninstall / doctor in a temporary HOME (never the user's own).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { bridgeBinary, FakeChrome, root, sandbox } from './helpers.mjs';

const id = readFileSync(path.join(root, 'extension/EXTENSION_ID'), 'utf8').trim();
const bridge = (args, env) => spawnSync(bridgeBinary(), args, { env, encoding: 'utf8' });
// Every per-user folder of bridge/src/browsers.h on Linux (Snap and Flatpak builds are never written).
const FOLDERS = ['google-chrome', 'google-chrome-beta', 'google-chrome-unstable', 'google-chrome-canary', 'chromium', 'microsoft-edge',
  'microsoft-edge-beta', 'microsoft-edge-dev', 'BraveSoftware/Brave-Browser', 'vivaldi', 'opera'];
const dirs = (home) => FOLDERS.map((b) => path.join(home, '.config', b, 'NativeMessagingHosts', 'com.athena_delta.bridge.json'));
/** The sandbox with no browser on PATH: only the folders a test makes show one. */
const noBrowsers = (env, tmp) => {
  const bin = path.join(tmp, 'bin');
  mkdirSync(bin);
  return { ...env, PATH: bin };
};

test('install --all writes one manifest per browser folder allowing the pinned extension, idempotently; uninstall leaves nothing', () => {
  const { env } = sandbox();
  const r = bridge(['install', '--all'], env);
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
  const again = bridge(['install', '--all'], env);
  assert.equal(again.status, 0);
  assert.equal((again.stdout.match(/already up to date/g) ?? []).length, FOLDERS.length);
  const un = bridge(['uninstall'], env);
  assert.equal(un.status, 0);
  assert.deepEqual(readdirSync(env.HOME), []);  // the folders install made went with the manifests
});

test('install registers the browsers found (their folder, or their command on PATH) and says why a Snap or Flatpak one cannot be', () => {
  const { env: base, tmp } = sandbox();
  const env = noBrowsers(base, tmp);
  mkdirSync(path.join(env.HOME, '.config/google-chrome'), { recursive: true });   // Chrome, run once
  writeFileSync(path.join(env.PATH, 'brave-browser'), '#!/bin/sh\n', { mode: 0o755 });  // Brave, never run
  mkdirSync(path.join(env.HOME, 'snap/chromium/common/chromium'), { recursive: true });
  mkdirSync(path.join(env.HOME, '.var/app/com.google.Chrome/config/google-chrome'), { recursive: true });
  const r = bridge(['install', '--extension-id', id, '--extension-id', 'abcdefghijklmnopabcdefghijklmnop'], env);
  assert.equal(r.status, 0, r.stdout + r.stderr);
  const written = dirs(env.HOME).filter((f) => existsSync(f));
  assert.deepEqual(written, [dirs(env.HOME)[0], dirs(env.HOME)[8]]);
  assert.deepEqual(JSON.parse(readFileSync(written[0], 'utf8')).allowed_origins,
    [`chrome-extension://${id}/`, 'chrome-extension://abcdefghijklmnopabcdefghijklmnop/']);
  assert.match(r.stdout, /Chromium \(Snap\) found, but not registered: Snap confinement lets Chromium start only programs inside its snap/);
  assert.match(r.stdout, /Chrome \(Flatpak\) found, but not registered: the Flatpak sandbox cannot start a native host outside it/);
  assert.match(r.stdout, /registered for extension\(s\) [a-p]{32}, abcdefghijklmnopabcdefghijklmnop\./);
});

test('install with no browser found says so and what to do, and writes nothing', () => {
  const { env: base, tmp } = sandbox();
  const env = noBrowsers(base, tmp);
  const r = bridge(['install'], env);
  assert.equal(r.status, 1);
  assert.match(r.stdout, /No Chromium-family browser found here \(looked for: Google Chrome, Chrome Beta, .*Opera, in their folders and on PATH\)\.\n\s+Install one and run install again, or pass --all/);
  assert.deepEqual(readdirSync(env.HOME), []);
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
  bridge(['install', '--all'], env);
  // A manifest pointing elsewhere (an old build) is caught.
  const f = dirs(env.HOME)[4];
  const m = JSON.parse(readFileSync(f, 'utf8'));
  writeFileSync(f, JSON.stringify({ ...m, path: '/old/athena-bridge' }));
  r = bridge(['doctor'], env);
  assert.match(r.stdout, /Chromium: manifest points at \/old\/athena-bridge, not at this binary/);
  bridge(['install', '--all'], env);
  const chrome = new FakeChrome(env);
  await chrome.hello();
  r = bridge(['doctor'], env);
  assert.equal(r.status, 0, r.stdout);
  assert.match(r.stdout, /ok    extension connected \(version test, in Test Browser 1\)/);
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
