// Chrome restarts the extension's service worker: the native host of the old port exits as the
// new one starts, both on the same socket path (bridge/src/host.cpp). Agents must reach the host
// Chrome is talking to: the old host removes the socket file only when it is still its own, and a
// host whose file was removed anyway makes it again (within limits::kPollMs, waited for here).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, unlinkSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { until } from '../../tests/support/wait.mjs';
import { connect, FakeChrome, frame, sandbox } from './helpers.mjs';

const socketOf = (env) => path.join(env.ATHENA_RUNTIME_DIR, 'bridge.sock');

test('a host whose socket file was removed makes it again, and an agent reaches it', async () => {
  const { env } = sandbox();
  const chrome = new FakeChrome(env);
  try {
    await chrome.hello();
    unlinkSync(socketOf(env));
    await until('the host making its socket file again', () => existsSync(socketOf(env)));
    const agent = await connect(env);
    agent.write(frame({ type: 'hello', protocol: 1, client: 'after-removal' }));
    const open = await chrome.next((m) => m.type === 'session_open' && m.client === 'after-removal');
    assert.equal(open.client, 'after-removal');
    agent.destroy();
  } finally {
    await chrome.close();
  }
});

test('a host on its way out leaves a newer host\'s socket file alone', async () => {
  const { env } = sandbox();
  const chrome = new FakeChrome(env);
  const newer = net.createServer((c) => c.end('newer'));
  try {
    await chrome.hello();
    // A newer listener takes the path, as a host Chrome starts for the restarted worker does (the
    // old host may make its file again first: then the path is taken once more).
    await until('a newer listener on the socket path', () => new Promise((resolve) => {
      try { unlinkSync(socketOf(env)); } catch { /* already gone */ }
      newer.once('error', () => resolve(false));
      newer.listen(socketOf(env), () => resolve(true));
    }));
    assert.equal(await chrome.close(), 0);  // Chrome closed the old port: the host exited
    assert.ok(existsSync(socketOf(env)), 'the newer socket file is still there');
    const said = await new Promise((resolve, reject) => {
      const s = net.connect(socketOf(env));
      let got = '';
      s.on('data', (d) => { got += d; });
      s.on('end', () => resolve(got));
      s.on('error', reject);
    });
    assert.equal(said, 'newer');
  } finally {
    newer.close();
  }
});
