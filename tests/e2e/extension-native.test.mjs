// The extension's native port through the real chain (MCP SDK client -> athena-bridge mcp ->
// native host spawned by Chromium -> extension): tools reach the extension's dispatch, and when
// the native host dies the extension reconnects with backoff (a new host process) and the agent
// can go on.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { useChain } from './lib/use-chain.mjs';
import { until } from '../support/wait.mjs';

/** Bounds of this suite. */
const NATIVE_E2E = Object.freeze({ reconnectMs: 20_000 });

let chain, sites;

/** Pids of the native hosts of this test's Chromium (found by the TMPDIR the chain gave it). */
function nativeHostPids(tmp) {
  const pids = [];
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const cmd = readFileSync(`/proc/${d}/cmdline`, 'utf8').split('\0');
      // Chromium runs the host manifest's path with the caller origin as argument.
      if (!cmd.some((a) => a.startsWith('chrome-extension://')) || cmd.some((a) => /chrom(e|ium)$/.test(a))) continue;
      const env = readFileSync(`/proc/${d}/environ`, 'utf8').split('\0');
      if (env.includes(`TMPDIR=${tmp}`)) pids.push(Number(d));
    } catch { /* gone or not ours */ }
  }
  return pids;
}

useChain((s, c) => { sites = s; chain = c; });

test('tools reach the extension over native messaging; a dead native host is replaced by a reconnect', { timeout: 120_000 }, async () => {
  const nav = await chain.call('navigate', { url: sites.url('/sites/ext/actions.html?native=1') });
  assert.equal(nav.isError, false, nav.text);
  assert.match(nav.text, /<full /);
  const inc = /(e\d+) button "Increment"/.exec(nav.text)?.[1];
  assert.ok(inc, nav.text);
  const click = await chain.call('click', { ref: inc });
  assert.match(click.text, /<delta /);

  const before = nativeHostPids(chain.tmp);
  assert.equal(before.length, 1, `expected one native host, found ${before.join(', ')}`);
  process.kill(before[0], 'SIGKILL');
  let status, now = before;
  await until('the extension reconnecting to a new native host', async () => {
    status = await chain.worker.evaluate(() => ({ ...globalThis.athenaNative.status }));
    now = nativeHostPids(chain.tmp);
    return status.connected && now.length === 1 && now[0] !== before[0];
  }, { ms: NATIVE_E2E.reconnectMs, last: () => `${JSON.stringify(status)}, hosts ${now}` });
  assert.equal(status.error, null);

  // The agent goes on (the bridge reopens its session on the new host).
  let again;
  await until('the agent served again on the new host', async () => { again = await chain.call('snapshot', {}); return !again.isError; },
    { ms: NATIVE_E2E.reconnectMs, last: () => again?.text ?? '' });
  assert.equal(again.isError, false, again.text);
  // Same page state as before the drop, under the same refs; a requested snapshot shows every
  // region (it is how an agent recovers), never an unchanged="true" collapse.
  assert.doesNotMatch(again.text, /unchanged="true"/);
  assert.match(again.text, new RegExp(`^${inc} button "Increment"$`, 'm'));
  const after = await chain.call('click', { ref: inc });
  assert.equal(after.isError, false, after.text);
  assert.match(after.text, /<delta /, 'the ref from before the drop still acts');
});
