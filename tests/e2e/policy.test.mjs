// The user's policy through the whole chain (MCP SDK client -> athena-bridge mcp -> native host
// -> extension -> Chromium), wherever the page goes: a server redirect or a link to a blocked
// site gives blocked_origin and nothing of that page; a blocked site's iframe is left out of an
// allowed page; a popup to a blocked site is not adopted; uploads come only from the folders the
// user allowed, symlinks resolved by the native host.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { useChain } from './lib/use-chain.mjs';
import { policyApplied } from './lib/worker-state.mjs';

let sites;
let chain;

useChain((s, c) => { sites = s; chain = c; });

/** Sets the user's policy as the options page stores it, and waits until the worker follows it. */
async function setPolicy(policy) {
  await chain.worker.evaluate((p) => chrome.storage.local.set({ policy: p }), policy);
  await policyApplied(chain.worker);
}

const otherHost = () => new URL(sites.otherOrigin).hostname;  // "localhost": the site the user blocks
const policyPage = () => sites.url(`/sites/policy.html?other=${encodeURIComponent(sites.otherOrigin)}`);

test('a redirect to a blocked site: blocked_origin, and nothing of the page reaches the agent', async () => {
  await setPolicy({ block: [otherHost()] });
  const r = await chain.call('navigate', { url: sites.url(`/redirect?to=${encodeURIComponent(sites.otherUrl('/sites/login.html'))}`) });
  assert.equal(r.isError, true, r.text);
  assert.match(r.text, /blocked_origin/);
  assert.match(r.text, /localhost.*block-list/);
  assert.doesNotMatch(r.text, /Sign in|Username|Password/);
});

test('an allowed page: the blocked iframe is left out, a link there is refused, a popup there is not adopted', async () => {
  await setPolicy({ block: [otherHost()] });
  const nav = await chain.call('navigate', { url: policyPage() });
  assert.equal(nav.isError, false, nav.text);
  assert.match(nav.text, /a frame from localhost:\d+ was left out/);
  assert.doesNotMatch(nav.text, /Coupon|Apply coupon/, 'the blocked frame\'s content is not shown');
  const link = nav.fp.elements.find((e) => e.role === 'link' && e.name === 'Statements');
  const popup = nav.fp.elements.find((e) => e.role === 'button' && /new tab/.test(e.name));
  assert.ok(link && popup, nav.text);

  const opened = await chain.call('click', { ref: popup.ref, version: nav.fp.version });
  assert.equal(opened.isError, false, opened.text);
  assert.match(opened.text, /a tab the agent may not control/);
  const tabs = await chain.call('tabs', { action: 'list' });
  assert.doesNotMatch(tabs.text, /login\.html/, 'the popup on the blocked site is not the agent\'s');

  const away = await chain.call('click', { ref: link.ref, version: opened.fp.version });
  assert.equal(away.isError, true, away.text);
  assert.match(away.text, /blocked_origin/);
  assert.doesNotMatch(away.text, /Sign in|Username/);
  const snap = await chain.call('snapshot', {});
  assert.equal(snap.isError, true, 'the tab stays refused while it shows the blocked site');
  const back = await chain.call('back', {});
  assert.equal(back.isError, false, back.text);
  assert.match(back.text, /^<full [^>]*url="[^"]*\/sites\/policy\.html/, 'back on the allowed page: a full FactPack of it');
});

test('uploads: a file in an allowed folder is set; outside it, or through a symlink leading out, refused', async () => {
  const folder = path.join(chain.tmp, 'uploads');
  const outside = path.join(chain.tmp, 'secret.txt');
  mkdirSync(folder, { recursive: true });
  writeFileSync(path.join(folder, 'cv.txt'), 'curriculum');
  writeFileSync(outside, 'do not send');
  symlinkSync(outside, path.join(folder, 'innocent.txt'));
  await setPolicy({ uploadFolders: [] });
  const nav = await chain.call('navigate', { url: sites.url('/sites/ext/actions.html') });
  assert.equal(nav.isError, false, nav.text);
  const input = nav.fp.elements.find((e) => e.name === 'Attachment');
  assert.ok(input, nav.text);
  const none = await chain.call('upload', { ref: input.ref, files: [path.join(folder, 'cv.txt')] });
  assert.equal(none.isError, true);
  assert.match(none.text, /allows no folder/);

  await setPolicy({ uploadFolders: [folder] });
  for (const f of [outside, path.join(folder, 'innocent.txt'), path.join(folder, '..', 'secret.txt')]) {
    const r = await chain.call('upload', { ref: input.ref, files: [f] });
    assert.equal(r.isError, true, `${f}: ${r.text}`);
    assert.match(r.text, /not inside a folder the user allows/);
    assert.match(r.text, new RegExp(outside.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')), 'the message names the real file');
  }
  const missing = await chain.call('upload', { ref: input.ref, files: [path.join(folder, 'nope.txt')] });
  assert.equal(missing.isError, true);
  assert.match(missing.text, /No such file/);
  const ok = await chain.call('upload', { ref: input.ref, files: [path.join(folder, 'cv.txt')] });
  assert.equal(ok.isError, false, ok.text);
  assert.match(ok.text, /Picked cv\.txt/);
});

test('secrets: wait_for cannot be used as an oracle for a password or card value; screenshot text carries none', async () => {
  await setPolicy({});
  const nav = await chain.call('navigate', { url: sites.url('/sites/ext/actions.html') });
  assert.equal(nav.isError, false, nav.text);
  assert.doesNotMatch(nav.text, /hunter2-secret|4111111111111111/);
  for (const secret of ['hunter2-secret', '4111111111111111']) {
    const r = await chain.call('wait_for', { text: secret, ms: 300 });
    assert.equal(r.isError, false, r.text);
    // Its note repeats the agent's own query, nothing of the page.
    assert.match(r.text, /gave up waiting/, 'the secret value is not page text wait_for can find');
  }
  const shot = await chain.client.callTool({ name: 'screenshot', arguments: {} });
  const words = shot.content.filter((c) => c.type === 'text').map((c) => c.text).join('\n');
  assert.doesNotMatch(words, /hunter2-secret|4111111111111111/);
});
