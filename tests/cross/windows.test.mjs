// The Windows athena-bridge.exe (preset win32-x64, Debian's mingw-w64) run under wine64: it serves
// MCP over stdio to a real MCP client, and `install` registers the native host the Windows way
// (HKCU registry keys naming one manifest file), read back with wine's own `reg query`.
//
// The rest of the bridge's behaviour on Windows (the named pipe between `mcp` and `native-host`,
// chunking, progress, two agents, Chrome going away) is bridge/test/mcp.test.mjs, which the cross
// suite runs a second time with ATHENA_BRIDGE=tests/cross/bridge-under-wine.sh.
//
// Not covered under wine: a second Windows user (wine has one), so the pipe's DACL and the
// same-user check of each end are exercised only on their accepting side.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { WAIT } from '../support/wait.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const exe = path.join(root, 'build/win32-x64/bridge/athena-bridge.exe');
const bridge = path.join(root, 'tests/cross/bridge-under-wine.sh');
const wine = path.join(root, 'cmake/toolchains/wine-run.sh');
const EXTENSION_ID = readFileSync(path.join(root, 'extension/EXTENSION_ID'), 'utf8').trim();
const HOST = 'com.athena_delta.bridge';
/** The browsers' keys install --all writes (HKCU\<key>\com.athena_delta.bridge), from browsers.h's
 *  windows_key column: channels and Opera share Chrome's key, shown once under its first name. */
const KEYS = {
  'Google Chrome': 'Software\\Google\\Chrome\\NativeMessagingHosts',
  Chromium: 'Software\\Chromium\\NativeMessagingHosts',
  'Microsoft Edge': 'Software\\Microsoft\\Edge\\NativeMessagingHosts',
  Brave: 'Software\\BraveSoftware\\Brave-Browser\\NativeMessagingHosts',
  Vivaldi: 'Software\\Vivaldi\\NativeMessagingHosts',
};

if (!existsSync(exe)) throw new Error(`${exe} is not built: cmake --preset win32-x64 && cmake --build build/win32-x64`);

/** Runs a program under wine (the bridge, or one of wine's own: reg, winepath); its exit code and output. */
function underWine(args) {
  const r = spawnSync(wine, args, { encoding: 'utf8', timeout: WAIT.hangMs });
  if (r.error) throw r.error;
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** The default value of HKCU\<key> as `reg query /ve` prints it, or null when the key is absent. */
function regDefault(key) {
  const r = underWine(['reg', 'query', `HKCU\\${key}`, '/ve']);
  if (r.code !== 0) return null;
  const m = r.out.match(/\(Default\)\s+REG_SZ\s+(.*?)\r?$/m);
  assert.ok(m, `reg query HKCU\\${key} printed no default value: ${r.out}`);
  return m[1];
}

/** One JSON-RPC exchange with `athena-bridge.exe mcp` on raw stdio: the answer to `id`. */
function rawMcp(requests, id) {
  return new Promise((resolve, reject) => {
    const p = spawn(bridge, ['mcp'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    const t = setTimeout(() => { p.kill(); reject(new Error(`no answer to request ${id} within ${WAIT.hangMs} ms; got: ${out}`)); }, WAIT.hangMs);
    p.stdout.on('data', (d) => {
      out += d;
      for (const line of out.split('\n').slice(0, -1)) {
        const m = JSON.parse(line);
        if (m.id === id) {
          clearTimeout(t);
          p.stdin.end();
          resolve(m);
        }
      }
    });
    for (const r of requests) p.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...r })}\n`);
  });
}

test('athena-bridge.exe: a real MCP client (SDK 1.x, initialize era) connects over stdio, lists the tools and gets a clear answer to a call', async () => {
  const client = new Client({ name: 'wine-agent', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: bridge, args: ['mcp'], stderr: 'pipe' }));
  try {
    assert.equal(client.getServerVersion().name, 'athena-delta');
    const { tools } = await client.listTools();
    for (const t of ['navigate', 'click', 'type', 'snapshot']) assert.ok(tools.some((x) => x.name === t), t);
    const r = await client.callTool({ name: 'snapshot', arguments: {} });
    assert.equal(r.isError, true);
    // No native host: the named pipe of this user is named, and what to do.
    assert.match(r.content[0].text, /no native host is listening on \\\\\.\\pipe\\athena-delta-S-1-5-/);
    assert.match(r.content[0].text, /athena-bridge doctor/);
  } finally {
    await client.close();
  }
});

test('athena-bridge.exe: a legacy initialize (2025-11-25) is answered with that revision, byte-exact on stdio', async () => {
  const m = await rawMcp([{ id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }], 1);
  assert.equal(m.result.protocolVersion, '2025-11-25');
  assert.equal(m.result.serverInfo.name, 'athena-delta');
  assert.deepEqual(m.result.capabilities.tools, { listChanged: false });
});

test('athena-bridge.exe: a 2026-07-28 server/discover is answered with the revisions it speaks', async () => {
  const _meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
  const m = await rawMcp([{ id: 7, method: 'server/discover', params: { _meta } }], 7);
  assert.equal(m.error, undefined, JSON.stringify(m.error));
  assert.ok(m.result.supportedVersions.includes('2026-07-28'), JSON.stringify(m.result));
  assert.deepEqual(m.result.capabilities.tools, { listChanged: false });
});

test('athena-bridge.exe install --all writes one HKCU key per browser naming one manifest file; a second run changes nothing; uninstall leaves nothing', () => {
  underWine([exe, 'uninstall']);  // a run that died half-way must not decide this one
  for (const key of Object.values(KEYS)) assert.equal(regDefault(`${key}\\${HOST}`), null, `HKCU\\${key}\\${HOST} before install`);

  const first = underWine([exe, 'install', '--all']);
  assert.equal(first.code, 0, first.out + first.err);
  const files = new Set();
  for (const [browser, key] of Object.entries(KEYS)) {
    assert.match(first.out, new RegExp(`${browser}\\s+HKCU\\\\${key.replaceAll('\\', '\\\\')}\\\\${HOST} -> .*\\(written\\)`));
    const file = regDefault(`${key}\\${HOST}`);
    assert.ok(file, `HKCU\\${key}\\${HOST} has a default value`);
    files.add(file);
  }
  assert.equal(files.size, 1, `every key names the same manifest: ${[...files]}`);
  const [manifestWin] = files;
  assert.match(manifestWin, /^C:\\users\\[^\\]+\\AppData\\Local\\athena-delta\\com\.athena_delta\.bridge\.json$/);
  const manifestUnix = underWine(['winepath', '-u', manifestWin]).out.trim();
  const manifest = JSON.parse(readFileSync(manifestUnix, 'utf8'));
  const exeWin = underWine(['winepath', '-w', exe]).out.trim();
  assert.deepEqual(manifest, {
    name: HOST,
    description: 'Athena Delta bridge: hands FactPacks from the extension to MCP agents',
    path: exeWin,
    type: 'stdio',
    allowed_origins: [`chrome-extension://${EXTENSION_ID}/`],
  });

  const again = underWine([exe, 'install', '--all']);
  assert.equal(again.code, 0, again.out + again.err);
  assert.equal(again.out.match(/\(already up to date\)/g)?.length, Object.keys(KEYS).length, again.out);

  const doctor = underWine([exe, 'doctor']);
  for (const browser of Object.keys(KEYS)) assert.match(doctor.out, new RegExp(`ok    ${browser}(, [^:]+)?: HKCU`));  // found now (install made its key): named with the channels sharing it
  assert.match(doctor.out, /FAIL  no native host running: no native host is listening on \\\\\.\\pipe\\athena-delta-S-1-5-/);

  const gone = underWine([exe, 'uninstall']);
  assert.equal(gone.code, 0, gone.out + gone.err);
  for (const key of Object.values(KEYS)) assert.equal(regDefault(`${key}\\${HOST}`), null, `HKCU\\${key}\\${HOST} after uninstall`);
  assert.equal(existsSync(manifestUnix), false, `${manifestUnix} after uninstall`);
});

test('athena-bridge.exe install refuses what Windows does not read, before writing anything', () => {
  const r = underWine([exe, 'install', '--user-data-dir', 'C:\\profile']);
  assert.equal(r.code, 2);
  assert.match(r.err, /--user-data-dir is not read on this OS: Chrome finds native hosts in the registry \(HKCU\)/);
  const s = underWine([exe, 'install', '--system']);
  assert.equal(s.code, 2);
  assert.match(s.err, /--system is not supported on this OS/);
});

test('athena-bridge.exe install registers the browsers found by their own HKCU key, and with none found says so and writes nothing', () => {
  underWine([exe, 'uninstall']);
  // A browser keeps its own key under HKCU\Software (Chromium writes HKCU\Software\Chromium on
  // its first start): wine's prefix has none, so nothing is found.
  underWine(['reg', 'delete', 'HKCU\\Software\\Chromium', '/f']);
  const none = underWine([exe, 'install']);
  assert.equal(none.code, 1, none.out + none.err);
  assert.match(none.out, /No Chromium-family browser found here \(looked for: Google Chrome, .* by their keys under HKCU\\Software\)/);
  assert.match(none.out, /pass --all to register for every one/);
  for (const key of Object.values(KEYS)) assert.equal(regDefault(`${key}\\${HOST}`), null, `HKCU\\${key}\\${HOST} after install found none`);

  const added = underWine(['reg', 'add', 'HKCU\\Software\\Chromium\\BLBeacon', '/f']);
  assert.equal(added.code, 0, added.out + added.err);
  try {
    const one = underWine([exe, 'install']);
    assert.equal(one.code, 0, one.out + one.err);
    assert.match(one.out, /Chromium\s+HKCU\\Software\\Chromium\\NativeMessagingHosts\\com\.athena_delta\.bridge -> .*\(written\)/);
    assert.equal(one.out.match(/\(written\)/g)?.length, 1, one.out);
    assert.ok(regDefault(`${KEYS.Chromium}\\${HOST}`), 'the Chromium key is written');
    assert.equal(regDefault(`${KEYS['Google Chrome']}\\${HOST}`), null, 'Chrome, not found, is not written');
  } finally {
    underWine([exe, 'uninstall']);
    underWine(['reg', 'delete', 'HKCU\\Software\\Chromium', '/f']);
  }
});
