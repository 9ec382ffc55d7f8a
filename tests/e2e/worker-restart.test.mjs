// Chrome stops the extension's service worker (it does so to idle workers, and restarts one only
// for an event): through the real chain (MCP SDK client -> athena-bridge mcp -> native host ->
// extension -> Chromium), a call made while it is stopped waits for it instead of failing, the
// worker's alarm wakes it (extension/lib/limits.js wakeAlarmMinutes), the native port comes back,
// and the agent goes on in its tab. The worker is stopped over CDP (ServiceWorker.stopAllWorkers).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useChain } from './lib/use-chain.mjs';
import { timed } from '../support/wait.mjs';

let chain, sites;
useChain((s, c) => { sites = s; chain = c; });

/**
 * Navigates the agent to `url` (its tab found by `part`), stops the extension's worker over CDP,
 * then calls snapshot as the agent would: the answer is a full FactPack of the same tab, rebuilt
 * from storage.session under a new page index. Returns it, the Playwright page and the wait in ms.
 */
async function restartedSnapshot(url, part) {
  const nav = await chain.call('navigate', { url });
  assert.equal(nav.isError, false, nav.text);
  const page = chain.context.pages().find((p) => p.url().includes(part));
  assert.ok(page, 'the agent\'s tab');
  const cdp = await chain.context.newCDPSession(page);
  await cdp.send('ServiceWorker.enable');
  await cdp.send('ServiceWorker.stopAllWorkers');
  // Playwright loses a stopped worker's handle: from here on only the agent's own calls are used.
  const [again, ms] = await timed(() => chain.call('snapshot', {}));
  assert.equal(again.isError, false, again.text);
  assert.equal(again.fp.type, 'full');
  assert.match(again.text, /the extension was restarted by the browser \(service worker stopped\); its state was rebuilt: tab c0p\d+ is now c0p\d+/);
  return { again, page, ms };
}

test('a call made while Chrome has the worker stopped is answered once the worker wakes on its alarm', { timeout: 150_000 }, async (t) => {
  const { again, ms } = await restartedSnapshot(sites.url('/sites/ext/actions.html?restart=1'), 'restart=1');
  assert.match(again.text, /button "Increment"/);
  t.diagnostic(`first good answer ${ms} ms after the worker was stopped`);
  // And the next action works on the refs of that answer.
  const inc = /(e\d+) button "Increment"/.exec(again.text)?.[1];
  const click = await chain.call('click', { ref: inc, version: again.fp.version });
  assert.equal(click.isError, false, click.text);
  assert.match(click.text, /^<delta /);
});

test('a page polling every 2 s: the worker stopped is back with the same tab, and navigate goes on in it (no second tab)', { timeout: 150_000 }, async (t) => {
  const { again, page, ms } = await restartedSnapshot(sites.url('/sites/ext/poll.html?restart=2'), 'restart=2');
  assert.match(again.text, /heading "Inbox"/);
  t.diagnostic(`first good answer ${ms} ms after the worker was stopped (the page polling every 2 s)`);
  const tab = /tab c0p\d+ is now (c0p\d+)/.exec(again.text)?.[1];
  // The agent's current tab survived the restart: navigate goes on in it.
  const away = await chain.call('navigate', { url: sites.url('/sites/ext/actions.html?after=restart') });
  assert.equal(away.isError, false, away.text);
  assert.doesNotMatch(away.text, /so this is a new tab/);
  const list = await chain.call('tabs', { action: 'list' });
  assert.equal(list.isError, false, list.text);
  const ids = [...list.text.matchAll(/id="(c0p\d+)"/g)].map((m) => m[1]);
  assert.ok(ids.includes(tab), list.text);
  assert.equal(page.url(), sites.url('/sites/ext/actions.html?after=restart'), 'navigate went on in the tab the agent had before the restart');
});

