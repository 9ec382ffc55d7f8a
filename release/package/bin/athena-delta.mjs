#!/usr/bin/env node
// npx athena-delta <install | uninstall | doctor | mcp>: the launcher of the npm package. The
// bridge binary comes from this platform's package (an optionalDependency npm picked by os/cpu;
// no install script). `install` copies it and the extension to a folder of the user's own, so
// nothing registered points into the npm or npx cache, then lets the bridge register the native
// host (athena-bridge install: its one table of browsers) and prints how to connect each client.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, rmdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PLATFORMS, platformPackage } from '../lib/platforms.mjs';
import { clients, removeClientConfig, writeClientConfig } from '../lib/clients.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const pkgDir = path.resolve(here, '..');
const pkg = JSON.parse(readFileSync(path.join(pkgDir, 'package.json'), 'utf8'));
const PLATFORM = `${process.platform}-${process.arch}`;
const EXE = PLATFORMS[PLATFORM]?.exe ?? 'athena-bridge';

function fail(message) {
  console.error(`athena-delta: ${message}`);
  process.exit(1);
}

/** The bridge binary of this platform's package. */
function packageBinary() {
  if (!PLATFORMS[PLATFORM]) fail(`no build for ${PLATFORM}: Athena Delta ships for ${Object.keys(PLATFORMS).join(', ')}`);
  const name = platformPackage(PLATFORM);
  let dir;
  try {
    dir = path.dirname(createRequire(import.meta.url).resolve(`${name}/package.json`));
  } catch {
    fail(`the package ${name} (the bridge for this machine) is not installed. It is an optional dependency of ` +
      `athena-delta: install again without --omit=optional / --no-optional${pkg.optionalDependencies?.[name] ? '' : ` (this release has no ${PLATFORM} build)`}`);
  }
  const bin = path.join(dir, 'bin', EXE);
  if (!existsSync(bin)) fail(`${bin} is missing: reinstall ${name}`);
  return bin;
}

/** The user's own folder for the installed copy (never inside the npm/npx cache). */
function dataDir() {
  const home = os.homedir();
  if (process.platform === 'win32') return path.join(process.env.LOCALAPPDATA ?? path.join(home, 'AppData', 'Local'), 'athena-delta');
  if (process.platform === 'darwin') return path.join(home, 'Library', 'Application Support', 'athena-delta');
  return path.join(process.env.XDG_DATA_HOME || path.join(home, '.local', 'share'), 'athena-delta');
}

const installedBinary = () => path.join(dataDir(), 'bin', EXE);
const installedExtension = () => path.join(dataDir(), 'extension');
const extensionIds = () => [pkg.athenaDelta.extensionId, pkg.athenaDelta.storeExtensionId].filter(Boolean);

/** Files under dir, relative, with their bytes: two trees are the same when these are. */
function treeBytes(dir) {
  const out = new Map();
  const walk = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const f = path.join(d, e.name);
      if (e.isDirectory()) walk(f);
      else out.set(path.relative(dir, f), readFileSync(f));
    }
  };
  if (existsSync(dir)) walk(dir);
  return out;
}

function sameTree(a, b) {
  const x = treeBytes(a), y = treeBytes(b);
  if (x.size !== y.size) return false;
  for (const [k, v] of x) if (!y.has(k) || !v.equals(y.get(k))) return false;
  return true;
}

/** Copies src to dest (a file or a folder) through a temporary name, so a half copy is never used. */
function place(src, dest, what) {
  const isDir = statSync(src).isDirectory();
  if (existsSync(dest) && (isDir ? sameTree(src, dest) : readFileSync(src).equals(readFileSync(dest)))) {
    console.log(`  ${what}: ${dest} (already in place)`);
    return;
  }
  mkdirSync(path.dirname(dest), { recursive: true });
  const tmp = `${dest}.new`;
  rmSync(tmp, { recursive: true, force: true });
  cpSync(src, tmp, { recursive: true });
  if (!isDir) chmodSync(tmp, 0o755);
  if (isDir) rmSync(dest, { recursive: true, force: true });
  renameSync(tmp, dest);  // over a running host's binary too: it keeps the file it started from
  console.log(`  ${what}: ${dest} (${isDir ? 'copied' : 'installed'})`);
}

function runBridge(bin, args) {
  const r = spawnSync(bin, args, { stdio: 'inherit' });
  if (r.error) fail(`cannot run ${bin}: ${r.error.message}`);
  return r.status ?? 1;
}

function parse(argv, known) {
  const o = { flags: new Set(), userDataDir: '' };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--user-data-dir' && known.includes('--user-data-dir')) {
      if (i + 1 >= argv.length) fail('--user-data-dir needs a folder');
      o.userDataDir = path.resolve(argv[++i]);
    } else if (known.includes(argv[i])) o.flags.add(argv[i]);
    else fail(`unknown option ${argv[i]} (options: ${known.join(' ') || 'none'})`);
  }
  return o;
}

function install(argv) {
  const o = parse(argv, ['--write-config', '--all', '--user-data-dir']);
  const bin = installedBinary();
  console.log(`Athena Delta ${pkg.version} for ${PLATFORM}\n\n1. The bridge and the extension, in your own folder`);
  place(packageBinary(), bin, 'bridge');
  place(path.join(pkgDir, 'extension'), installedExtension(), 'extension');

  console.log('\n2. The native host, for each Chromium-family browser found');
  const args = ['install', '--no-guide', '--binary', bin, ...extensionIds().flatMap((id) => ['--extension-id', id])];
  if (o.flags.has('--all')) args.push('--all');
  if (o.userDataDir) args.push('--user-data-dir', o.userDataDir);
  const rc = runBridge(bin, args);

  console.log('\n3. The extension');
  if (pkg.athenaDelta.storeExtensionId) console.log(`  From the Chrome Web Store: https://chromewebstore.google.com/detail/${pkg.athenaDelta.storeExtensionId}`);
  console.log(`  ${pkg.athenaDelta.storeExtensionId ? 'Or unpacked' : 'Unpacked'}: open chrome://extensions, turn on Developer mode, Load unpacked, and choose\n    ${installedExtension()}`);

  console.log('\n4. Your agent (the MCP server is the installed bridge with the argument mcp)');
  for (const c of clients(bin)) {
    const snippet = JSON.stringify({ [c.key]: { 'athena-delta': c.entry } });
    console.log(`  ${c.name} (${c.file}):\n    ${snippet}${c.hint ? `\n    or: ${c.hint}` : ''}`);
    if (o.flags.has('--write-config')) console.log(`    --write-config: ${writeClientConfig(c)}`);
  }
  if (!o.flags.has('--write-config')) console.log('  (npx athena-delta install --write-config adds it to the clients installed here, keeping a backup)');
  console.log('\nThen check every link: npx athena-delta doctor');
  process.exitCode = rc;  // not process.exit(): output to a pipe may still be on its way (Windows)
}

function removeEmptyParents(dir) {
  const home = os.homedir();
  while (dir.startsWith(home + path.sep) && dir !== home) {
    try { rmdirSync(dir); } catch { return; }
    dir = path.dirname(dir);
  }
}

function uninstall(argv) {
  const o = parse(argv, ['--user-data-dir']);
  const bin = installedBinary();
  const runner = existsSync(bin) ? bin : packageBinary();
  const rc = runBridge(runner, ['uninstall', ...(o.userDataDir ? ['--user-data-dir', o.userDataDir] : [])]);
  for (const c of clients(bin)) {
    const done = removeClientConfig(c, bin);
    if (done) console.log(`  ${c.name}: ${done}`);
  }
  if (existsSync(dataDir())) {
    rmSync(dataDir(), { recursive: true, force: true });
    console.log(`  removed ${dataDir()}`);
    removeEmptyParents(path.dirname(dataDir()));
  }
  console.log('Athena Delta is uninstalled; remove the extension in chrome://extensions.');
  process.exitCode = rc;
}

function doctor(argv) {
  const o = parse(argv, ['--user-data-dir']);
  const bin = installedBinary();
  if (!existsSync(bin)) fail(`not installed (no ${bin}): run npx athena-delta install`);
  const v = spawnSync(bin, ['--version'], { encoding: 'utf8' });
  const version = (v.stdout ?? '').trim().split(' ').pop();
  console.log(`installed bridge ${bin}: ${version}${version === pkg.version ? '' : ` (this package is ${pkg.version}: run npx athena-delta install)`}`);
  process.exitCode = (runBridge(bin, ['doctor', '--binary', bin, ...extensionIds().flatMap((id) => ['--extension-id', id]),
    ...(o.userDataDir ? ['--user-data-dir', o.userDataDir] : [])]));
}

/** The MCP server on stdio: this package's bridge, its stdio handed over as they are. */
function mcp(argv) {
  const child = spawn(packageBinary(), ['mcp', ...argv], { stdio: 'inherit' });
  for (const s of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(s, () => child.kill(s));
  child.on('error', (e) => fail(`cannot start the bridge: ${e.message}`));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

const USAGE = `athena-delta ${pkg.version}
usage: npx athena-delta <command>
  install [--write-config] [--all] [--user-data-dir DIR]
                copy the bridge and the extension to ${dataDir()},
                register the native host for each Chromium-family browser found (--all: every one
                known; --user-data-dir: one custom profile), print how to add the extension and
                connect Claude Desktop, Claude Code, Cursor and VS Code (--write-config: edit their
                configs, keeping a backup)
  uninstall [--user-data-dir DIR]   remove all of it
  doctor [--user-data-dir DIR]      check every link of the chain
  mcp [--structured]                the MCP server on stdio (what an agent starts)
  --version`;

const [cmd, ...rest] = process.argv.slice(2);
switch (cmd) {
  case 'install': install(rest); break;
  case 'uninstall': uninstall(rest); break;
  case 'doctor': doctor(rest); break;
  case 'mcp': mcp(rest); break;
  case '--version': case 'version': console.log(`athena-delta ${pkg.version}`); break;
  case undefined: case '--help': case '-h': case 'help': console.log(USAGE); break;
  default: console.error(USAGE); fail(`unknown command '${cmd}'`);
}
