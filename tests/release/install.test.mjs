// The release as a user gets it: one version everywhere; the tarballs installed with
// `npm install --ignore-scripts` in a fresh HOME by a non-root user; `npx athena-delta install`
// (manifests checked, a second run idempotent, --write-config with a backup), `uninstall` leaving
// nothing; and `npx athena-delta mcp` started by a real MCP client.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, statSync, writeFileSync, mkdirSync, chownSync, accessSync, constants } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Client as ModernClient } from '@modelcontextprotocol/client';
import { StdioClientTransport as ModernStdio } from '@modelcontextprotocol/client/stdio';
import { mcpTools } from '../../rules/tools.mjs';
import { root, release, runAs, freshHome, handOver, run, asUser, tree } from './lib.mjs';

const rel = release();
const user = runAs();
let box;

before(() => {
  box = freshHome(user);
  writeFileSync(path.join(box.project, 'package.json'), '{"name": "athena-release-test", "private": true}\n');
  chownSync(path.join(box.project, 'package.json'), user.uid, user.gid);
  // Offline: everything comes from the tarballs (the other platforms' packages are optional and skipped).
  const tarballs = handOver(user, box, [rel.mainTgz, rel.platformTgz]);
  const r = run(user, box.env, box.project, 'npm', ['install', '--ignore-scripts', '--offline', ...tarballs]);
  assert.equal(r.status, 0, r.out);
});
after(() => { if (box) rmSync(box.tmp, { recursive: true, force: true }); });

const npx = (...args) => run(user, box.env, box.project, 'npx', ['--offline', 'athena-delta', ...args]);
const tgzJson = (file) => JSON.parse(execFileSync('tar', ['-xzOf', file, 'package/package.json'], { encoding: 'utf8' }));
const zipJson = (file, entry) => JSON.parse(execFileSync('unzip', ['-p', file, entry], { encoding: 'utf8' }));
const dataDir = () => path.join(box.home, '.local/share/athena-delta');
const manifestFile = () => path.join(box.home, '.config/chromium/NativeMessagingHosts/com.athena_delta.bridge.json');

test('one version everywhere: package.json, the packages, the extension, the bundle, server.json, the binary', () => {
  const v = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).version;
  assert.equal(rel.version, v);
  assert.equal(JSON.parse(readFileSync(path.join(root, 'extension/manifest.json'), 'utf8')).version, v);
  const main = tgzJson(rel.mainTgz);
  assert.equal(main.version, v);
  assert.deepEqual(Object.values(main.optionalDependencies), rel.platforms.map(() => v));
  assert.equal(tgzJson(rel.platformTgz).version, v);
  assert.equal(zipJson(rel.zip, 'manifest.json').version, v);
  assert.equal(zipJson(rel.mcpb, 'manifest.json').version, v);
  assert.equal(rel.serverJson.version, v);
  assert.deepEqual(rel.serverJson.packages.map((p) => p.version), rel.serverJson.packages.map(() => v));
  const bin = path.join(box.project, 'node_modules', `athena-delta-${rel.here}`, 'bin', 'athena-bridge');
  assert.equal(execFileSync(bin, ['--version'], { encoding: 'utf8' }).trim(), `athena-bridge ${v}`);
  assert.equal(npx('--version').out.trim(), `athena-delta ${v}`);
});

test('the packages carry no install script; each platform package says its os and cpu', () => {
  for (const file of [rel.mainTgz, rel.platformTgz]) {
    const scripts = tgzJson(file).scripts ?? {};
    assert.deepEqual(['preinstall', 'install', 'postinstall', 'prepare'].filter((s) => s in scripts), [], file);
  }
  const p = tgzJson(rel.platformTgz);
  assert.deepEqual([p.os, p.cpu], [[process.platform], [process.arch]]);
  assert.equal(tgzJson(rel.mainTgz).mcpName, rel.serverJson.name);
});

test('the store zip has no key; the packaged extension keeps it (the pinned id), with its wasm', () => {
  assert.equal('key' in zipJson(rel.zip, 'manifest.json'), false);
  const listing = execFileSync('unzip', ['-Z1', rel.zip], { encoding: 'utf8' }).split('\n');
  assert.ok(listing.includes('core/athena_core.wasm'), listing.join(' '));
  assert.equal(listing.some((f) => f.startsWith('test/')), false);
  const packaged = JSON.parse(readFileSync(path.join(box.project, 'node_modules/athena-delta/extension/manifest.json'), 'utf8'));
  assert.equal(packaged.key, JSON.parse(readFileSync(path.join(root, 'extension/manifest.json'), 'utf8')).key);
  assert.ok(existsSync(path.join(box.project, 'node_modules/athena-delta/extension/core/athena_core.wasm')));
});

test('npx athena-delta install as a non-root user: the bridge in its own folder, registered, idempotent; uninstall leaves nothing', () => {
  // A Cursor the user already has, with a server of their own: --write-config adds ours beside it.
  const cursor = path.join(box.home, '.cursor');
  mkdirSync(cursor);
  const theirs = `${JSON.stringify({ mcpServers: { theirs: { command: '/usr/bin/true', args: [] } } }, null, 2)}\n`;
  writeFileSync(path.join(cursor, 'mcp.json'), theirs);
  for (const f of [cursor, path.join(cursor, 'mcp.json')]) chownSync(f, user.uid, user.gid);
  const skip = ['.npm'];  // npm's own cache, made by npm install before
  const before = tree(box.home, skip);

  const first = npx('install', '--write-config');
  assert.equal(first.status, 0, first.out);
  const bin = path.join(dataDir(), 'bin', 'athena-bridge');
  const m = JSON.parse(readFileSync(manifestFile(), 'utf8'));
  assert.equal(m.path, bin, first.out);
  assert.ok(path.isAbsolute(m.path) && !m.path.includes('/.npm/') && !m.path.includes('node_modules'), m.path);
  accessSync(m.path, constants.X_OK);
  assert.equal(statSync(m.path).uid, user.uid);
  const ids = [rel.extensionId, rel.storeExtensionId].filter(Boolean);
  assert.deepEqual(m.allowed_origins, ids.map((id) => `chrome-extension://${id}/`));
  assert.match(first.out, new RegExp(`Load unpacked, and choose\\n\\s+${path.join(dataDir(), 'extension')}\\n`));
  const cfg = JSON.parse(readFileSync(path.join(cursor, 'mcp.json'), 'utf8'));
  assert.deepEqual(cfg.mcpServers, { theirs: { command: '/usr/bin/true', args: [] }, 'athena-delta': { command: bin, args: ['mcp'] } });
  assert.equal(readFileSync(path.join(cursor, 'mcp.json.athena-delta-backup'), 'utf8'), theirs);

  const manifestBefore = readFileSync(manifestFile(), 'utf8');
  const second = npx('install', '--write-config');
  assert.equal(second.status, 0, second.out);
  assert.match(second.out, /bridge: .* \(already in place\)/);
  assert.match(second.out, /extension: .* \(already in place\)/);
  assert.match(second.out, /com\.athena_delta\.bridge\.json \(already up to date\)/);
  assert.match(second.out, /mcp\.json: already in place/);
  assert.equal(readFileSync(manifestFile(), 'utf8'), manifestBefore);

  const doctor = npx('doctor');
  assert.match(doctor.out, /ok {4}Chromium: /, doctor.out);

  const gone = npx('uninstall');
  assert.equal(gone.status, 0, gone.out);
  assert.deepEqual(tree(box.home, skip), before);
  assert.equal(readFileSync(path.join(cursor, 'mcp.json'), 'utf8'), theirs);
});

test('npx athena-delta mcp, started by the MCP SDK 1.x client: the tools of the contract, and a call answered plainly', async () => {
  const [command, args] = asUser(user, box.env, 'npx', ['--offline', 'athena-delta', 'mcp']);
  const transport = new StdioClientTransport({ command, args, cwd: box.project, stderr: 'pipe' });
  const client = new Client({ name: 'athena-release-test', version: '1.0.0' });
  await client.connect(transport);
  try {
    assert.equal(client.getServerVersion()?.version, rel.version);
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name), mcpTools(['core']).map((t) => t.name));  // served by default: --tools core
    // No browser runs in this test: the answer says so and what to do (the chain test has the browser).
    const r = await client.callTool({ name: 'tabs', arguments: { action: 'list' } });
    assert.equal(r.isError, true);
    assert.ok(r.content[0].text.startsWith(`Chrome with the Athena Delta extension is not connected: no native host is listening on ${box.run}/`), r.content[0].text);
  } finally {
    await client.close();
  }
  // The same command driven by a client of MCP 2026-07-28 (stateless: server/discover, _meta on
  // every request): the titles of the declarations, and the same plain answer.
  const modern = new ModernClient({ name: 'athena-release-test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await modern.connect(new ModernStdio({ command, args, cwd: box.project, stderr: 'pipe' }));
  try {
    const { tools } = await modern.listTools();
    assert.deepEqual(tools.map((t) => [t.name, t.title]), mcpTools(['core']).map((t) => [t.name, t.title]));
    const r = await modern.callTool({ name: 'tabs', arguments: { action: 'list' } });
    assert.equal(r.isError, true);
    assert.ok(r.content[0].text.startsWith('Chrome with the Athena Delta extension is not connected'), r.content[0].text);
  } finally {
    await modern.close();
  }
});
