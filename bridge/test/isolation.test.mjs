// Agents stay apart and the user's machine is left as it was: a reconnecting MCP server gets back
// only its own session (even after the native host restarted), a shared runtime folder is never
// chmodded, and install refuses options it cannot honour.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { bridgeBinary, FakeChrome, mcpClient, sandbox, text } from './helpers.mjs';


/** Calls snapshot through `client`, answers it as the extension, returns the call's session. */
async function sessionOf(chrome, client) {
  const p = client.callTool({ name: 'snapshot', arguments: {} });
  const call = await chrome.next((m) => m.type === 'call');
  chrome.send({ type: 'result', id: call.id, ok: true, text: 'ok' });
  await p;
  return call.session;
}

test('after a host restart each MCP server resumes its own session, and a new one gets a fresh id', async () => {
  const { env } = sandbox();
  let chrome = new FakeChrome(env);
  await chrome.hello();
  const a = await mcpClient(env, 'agent-a');
  const b = await mcpClient(env, 'agent-b');
  try {
    const sa = await sessionOf(chrome, a);
    const sb = await sessionOf(chrome, b);
    assert.match(sa, /^s[0-9a-f]{32}$/);
    assert.notEqual(sa, sb);
    // Each MCP server has a call in flight when the host exits with Chrome's port: that call's
    // error shows the server saw the host go, so its next call connects to the new host.
    const inFlight = [a, b].map((c) => c.callTool({ name: 'snapshot', arguments: {} }));
    await chrome.next((m) => m.type === 'call');
    await chrome.next((m) => m.type === 'call');
    await chrome.close();
    for (const r of await Promise.all(inFlight)) {
      assert.equal(r.isError, true);
      assert.match(text(r), /the native host went away/);
    }
    chrome = new FakeChrome(env);        // Chrome starts a new host
    await chrome.hello();
    // b reconnects first: it must not inherit a's session (ids restarted at s1 before).
    assert.equal(await sessionOf(chrome, b), sb);
    assert.equal(await sessionOf(chrome, a), sa);
    const c = await mcpClient(env, 'agent-c');
    try {
      const sc = await sessionOf(chrome, c);
      assert.ok(![sa, sb].includes(sc));
    } finally {
      await c.close();
    }
  } finally {
    await a.close();
    await b.close();
    await chrome.close();
  }
});

test('a shared runtime folder is left as it is: the socket goes in a private subfolder', async () => {
  const { env, tmp } = sandbox();
  const shared = path.join(tmp, 'shared');
  mkdirSync(shared);
  chmodSync(shared, 0o1777);
  const e = { ...env, ATHENA_RUNTIME_DIR: shared };
  const chrome = new FakeChrome(e);
  try {
    await chrome.hello();
    assert.equal(statSync(shared).mode & 0o7777, 0o1777);
    const mine = path.join(shared, `athena-delta-${process.getuid()}`);
    assert.equal(statSync(mine).mode & 0o777, 0o700);
    assert.ok(existsSync(path.join(mine, 'bridge.sock')));
    const a = await mcpClient(e, 'agent');
    try {
      assert.match(await sessionOf(chrome, a), /^s[0-9a-f]{32}$/);
    } finally {
      await a.close();
    }
  } finally {
    await chrome.close();
  }
});

test('install refuses what it cannot honour, before writing anything', () => {
  const { env, tmp } = sandbox();
  const noHome = { ...env };
  delete noHome.HOME;
  delete noHome.XDG_CONFIG_HOME;
  const r = spawnSync(bridgeBinary(), ['install'], { env: noHome, encoding: 'utf8', cwd: tmp });
  assert.equal(r.status, 2);
  assert.match(r.stderr, /HOME is not set to an absolute folder/);
  const bad = (args) => spawnSync(bridgeBinary(), ['install', '--user-data-dir', path.join(tmp, 'p'), ...args], { env, encoding: 'utf8' });
  assert.match(bad(['--extension-id', 'not-an-id']).stderr, /'not-an-id' is not an extension id/);
  assert.match(bad(['--binary', 'relative/bin']).stderr, /must be an absolute path/);
  assert.match(bad(['--binary', path.join(tmp, 'missing')]).stderr, /is not an executable file/);
  assert.ok(!existsSync(path.join(tmp, 'p')));
});
