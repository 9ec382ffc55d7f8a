// The whole chain from the release artefacts alone: a fresh HOME, the tarballs installed with
// --ignore-scripts, `npx athena-delta install --user-data-dir <profile>` (Chromium with a custom
// profile reads only <profile>/NativeMessagingHosts), Chromium loading the extension from the
// installed copy, the installed bridge as its native host, and an agent on `npx athena-delta mcp`
// that navigates, clicks and reads FactPacks. Nothing of the build tree runs: the bridge and the
// extension are the ones the install copied (checked below). It also reports the time from the
// fresh HOME to the first FactPack (bench/release-results.md).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { startSites } from '../sites/serve.mjs';
import { startChain, CHROMIUM, CHAIN_LIMITS, EXTENSION_ID } from '../e2e/lib/chain.mjs';
import { until } from '../support/wait.mjs';
import { release, freshHome, run } from './lib.mjs';

const rel = release();
// Chromium runs as the user running the tests (Playwright drives it); the non-root install is
// install.test.mjs's. Here the HOME is fresh all the same.
const me = { uid: process.getuid(), gid: process.getgid(), name: 'self', root: false };
let box, sites, chain;
const started = performance.now();
let firstFactPackMs = 0;

before(async () => {
  box = freshHome(me);
  sites = await startSites();
  writeFileSync(path.join(box.project, 'package.json'), '{"name": "athena-release-chain", "private": true}\n');
  const npm = run(me, box.env, box.project, 'npm', ['install', '--ignore-scripts', '--offline', rel.mainTgz, rel.platformTgz]);
  assert.equal(npm.status, 0, npm.out);
  const extensionDir = path.join(box.home, '.local/share/athena-delta/extension');
  chain = await startChain({
    tmp: box.tmp,
    extensionDir,
    register: (_env, profile) => {
      const r = run(me, box.env, box.project, 'npx', ['--offline', 'athena-delta', 'install', '--user-data-dir', profile]);
      assert.equal(r.status, 0, r.out);
    },
    mcp: { command: 'npx', args: ['--offline', 'athena-delta', 'mcp'], cwd: box.project },
  });
});
after(async () => {
  await chain?.close();
  await sites?.close();
  if (box) rmSync(box.tmp, { recursive: true, force: true });
});

test('the installed bridge serves the installed extension: an agent navigates, clicks and reads a FactPack', async (t) => {
  const manifest = JSON.parse(readFileSync(path.join(chain.profile, 'NativeMessagingHosts/com.athena_delta.bridge.json'), 'utf8'));
  assert.equal(manifest.path, path.join(box.home, '.local/share/athena-delta/bin/athena-bridge'));

  const nav = await chain.call('navigate', { url: sites.url('/sites/bootstrap.html') });
  firstFactPackMs = performance.now() - started;
  t.diagnostic(`fresh HOME to first FactPack: ${(firstFactPackMs / 1000).toFixed(1)} s`);
  assert.equal(nav.isError, false, nav.text);
  assert.equal(nav.fp.type, 'full');
  const button = nav.fp.elements.find((e) => e.role === 'button' && e.name === 'Add to cart');
  assert.ok(button, nav.text);
  const open = await chain.call('click', { ref: button.ref, version: nav.fp.version });
  assert.equal(open.isError, false, open.text);
  assert.equal(open.fp.type, 'overlay_opened');
  assert.equal(open.fp.overlay.name, 'Added to cart');
  const read = await chain.call('read', {});
  assert.equal(read.isError, false, read.text);
  assert.match(read.text, /Added to cart/);
  if (process.env.ATHENA_RELEASE_TIMING) writeFileSync(process.env.ATHENA_RELEASE_TIMING, `${JSON.stringify({ firstFactPackMs })}\n`);
});

test('a second browser profile with the extension is told which browser the agent is connected to, and how to switch', async () => {
  const npx = (...args) => run(me, box.env, box.project, 'npx', ['--offline', 'athena-delta', ...args]);
  const doctor = npx('doctor', '--user-data-dir', chain.profile);
  assert.equal(doctor.status, 0, doctor.out);
  const served = /ok {4}extension connected \(version [\d.]+, in ([^)]+)\)/.exec(doctor.out)?.[1];
  assert.ok(served, doctor.out);

  const second = path.join(box.tmp, 'profile-2');
  assert.equal(npx('install', '--user-data-dir', second).status, 0);
  const extensionDir = path.join(box.home, '.local/share/athena-delta/extension');
  const context = await chromium.launchPersistentContext(second, {
    executablePath: CHROMIUM, headless: true, env: chain.env, ignoreDefaultArgs: ['--disable-extensions'],
    args: [`--load-extension=${extensionDir}`, `--disable-extensions-except=${extensionDir}`, '--no-sandbox', '--disable-gpu',
      '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    const worker = context.serviceWorkers().find((w) => w.url().includes(EXTENSION_ID))
      ?? await context.waitForEvent('serviceworker', { timeout: CHAIN_LIMITS.connectMs });
    let status = null;
    await until('the second profile\'s extension told why it is not served', async () => {
      // @ts-ignore the worker's own global (extension/sw.js)
      status = await worker.evaluate(() => globalThis.athenaNative.status);
      return typeof status?.error === 'string' && status.error.startsWith('endpoint: ');
    }, { ms: CHAIN_LIMITS.connectMs, last: () => JSON.stringify(status) });
    assert.equal(status.connected, false);
    assert.equal(status.error, `endpoint: your agents are connected to Athena Delta in ${served} (another browser, or another profile of ` +
      'this one), and one browser is served at a time. To use this one instead: close that browser, or turn Athena Delta off ' +
      'there (chrome://extensions), then reload Athena Delta here (chrome://extensions, its reload button).');
  } finally {
    await context.close();
  }
  // The agent is still served by the first browser.
  const snap = await chain.call('snapshot', {});
  assert.equal(snap.isError, false, snap.text);
});
