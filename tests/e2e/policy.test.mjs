// The user's policy through the whole chain (MCP SDK client -> athena-bridge mcp -> native host
// -> extension -> Chromium), wherever the page goes: a server redirect or a link to a blocked
// site gives blocked_origin and nothing of that page; a blocked site's iframe is left out of an
// allowed page; a popup to a blocked site is not adopted; uploads come only from the folders the
// user allowed, symlinks resolved by the native host, and no refusal tells which files exist. A
// page that goes to a blocked site on its own, after the action answered, shows nothing of it to
// any tool; a popup sent there by script is not adopted nor named; screenshot paints the blocked
// frame of an allowed page; every spelling of a blocked address is that address.
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

  sites.otherRequests.length = 0;
  const away = await chain.call('click', { ref: link.ref, version: opened.fp.version });
  assert.equal(away.isError, true, away.text);
  assert.match(away.text, /blocked_origin/);
  assert.doesNotMatch(away.text, /Sign in|Username/);
  assert.deepEqual(sites.otherRequests, [], 'the blocked site received no request');
  const snap = await chain.call('snapshot', {});
  assert.equal(snap.isError, false, snap.text);
  assert.match(snap.text, /^<full [^>]*url="[^"]*\/sites\/policy\.html/, 'the tab stayed on the allowed page');
});

test('a link, a redirect, a form, a script, a frame: no request reaches the blocked site, the tab stays', async (t) => {
  await setPolicy({ block: [otherHost()] });
  const page = sites.url(`/sites/policy-nav.html?other=${encodeURIComponent(sites.otherOrigin)}`);
  const tries = [['link', 'Pay by bank'], ['button', 'Pay by bank form'], ['button', 'Pay by bank script'], ['link', 'Pay by bank (via redirect)'], ['button', 'Show bank in frame']];
  let runs = 0;
  for (let round = 0; round < 4; round++) {
    for (const [role, name] of tries) {
      const nav = await chain.call('navigate', { url: page });
      assert.equal(nav.isError, false, nav.text);
      sites.otherRequests.length = 0;
      // The page the agent comes back to may be told as unchanged: find lists its controls.
      const found = await chain.call('find', { role, name });
      const el = found.fp.find.elements.find((e) => e.role === role && e.name === name);
      assert.ok(el, `${name} in ${found.text}`);
      const r = await chain.call('click', { ref: el.ref, version: nav.fp.version });
      // The frame's navigation may be judged after the click answered: the next call says it.
      const told = r.isError ? r : await chain.call('snapshot', {});
      assert.equal(told.isError, true, `${name}: ${told.text}`);
      assert.match(told.text, /blocked_origin[^\n]*localhost is on the user's block-list[^\n]*stopped before it left the browser/, told.text);
      const snap = await chain.call('snapshot', {});
      assert.equal(snap.isError, false, snap.text);
      assert.match(snap.text, /^<full [^>]*url="[^"]*\/sites\/policy-nav\.html/, `${name}: the tab stayed on the shop`);
      assert.deepEqual(sites.otherRequests, [], `${name}: the blocked site received no request`);
      runs++;
    }
  }
  // navigate itself to an allowed address that redirects to the blocked site.
  sites.otherRequests.length = 0;
  const bounce = await chain.call('navigate', { url: sites.url(`/redirect?to=${encodeURIComponent(sites.otherUrl('/transfer?to=mallory'))}`) });
  assert.equal(bounce.isError, true, bounce.text);
  assert.match(bounce.text, /blocked_origin/);
  assert.deepEqual(sites.otherRequests, [], 'navigate through a redirect: no request');
  t.diagnostic(`${runs + 1} attempts, ${sites.otherRequests.length} requests at the blocked site`);
});

test('the cost of interception on navigate: median of the same navigations with a block-list and without', async (t) => {
  const page = sites.url('/sites/login.html');
  const times = async (policy) => {
    await setPolicy(policy);
    const ms = [];
    for (let i = 0; i < 15; i++) {
      const t0 = performance.now();
      const r = await chain.call('navigate', { url: page });
      ms.push(performance.now() - t0);
      assert.equal(r.isError, false, r.text);
    }
    return ms.sort((a, b) => a - b)[7];
  };
  const off = await times({ block: [] });
  const on = await times({ block: [otherHost()] });
  const off2 = await times({ block: [] });
  t.diagnostic(`navigate median: interception off ${off.toFixed(1)} ms, on ${on.toFixed(1)} ms, off again ${off2.toFixed(1)} ms`);
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
  // With uploads off, one answer whatever the path: an existing file, a missing one, a path
  // with "..", a link: nothing tells which files exist.
  const off = new Set();
  for (const f of [path.join(folder, 'cv.txt'), outside, path.join(folder, 'nope.txt'), path.join(folder, '..', 'nope.txt'), path.join(folder, 'innocent.txt')]) {
    const r = await chain.call('upload', { ref: input.ref, files: [f] });
    assert.equal(r.isError, true, r.text);
    off.add(r.text);
  }
  assert.deepEqual([...off], ["error upload_refused: upload: the user allows no folder for uploads (they can add one in the extension's options)"]);

  await setPolicy({ uploadFolders: [folder] });
  // Outside the folder, existing or not, through a link or "..": the same refusal, no path named.
  const outsideAnswers = new Set();
  for (const f of [outside, path.join(folder, 'innocent.txt'), path.join(folder, '..', 'secret.txt'), path.join(chain.tmp, 'nope.txt'), path.join(folder, '..', 'nope.txt')]) {
    const r = await chain.call('upload', { ref: input.ref, files: [f] });
    assert.equal(r.isError, true, `${f}: ${r.text}`);
    assert.match(r.text, /not inside a folder the user allows/);
    assert.doesNotMatch(r.text, /secret|nope|innocent/, 'no path is named');
    outsideAnswers.add(r.text);
  }
  assert.equal(outsideAnswers.size, 1, [...outsideAnswers].join('\n'));
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

const selfNavPage = () => sites.url(`/sites/self-nav.html?other=${encodeURIComponent(sites.otherOrigin)}`);
const NOTHING_OF_IT = /Sign in|Username|login\.html|acct|5678/;

test('a page that goes to a blocked site on its own after the action answered: stopped before the request, the next answer says so, the tab stays', async () => {
  await setPolicy({ block: [otherHost()] });
  const nav = await chain.call('navigate', { url: selfNavPage() });
  assert.equal(nav.isError, false, nav.text);
  const later = nav.fp.elements.find((e) => e.role === 'button' && e.name === 'Open report');
  const heading = nav.fp.elements.find((e) => e.role === 'heading');
  assert.ok(later && heading, nav.text);
  sites.otherRequests.length = 0;
  const page = chain.context.pages().find((p) => p.url().includes('/sites/self-nav.html'));
  assert.ok(page, 'the tab of the fixture');
  const stopped = page.waitForEvent('requestfailed', (r) => r.url().includes('/sites/login.html'));
  const click = await chain.call('click', { ref: later.ref, version: nav.fp.version });
  assert.equal(click.isError, false, `the click answers before the page leaves: ${click.text}`);
  // The page's own timer sends the tab to the blocked site: wait for that request to be stopped.
  await stopped;
  assert.deepEqual(sites.otherRequests, [], 'the blocked site received no request');
  const told = await chain.call('read', { ref: heading.ref });
  assert.equal(told.isError, true, told.text);
  assert.match(told.text, /^error blocked_origin: .*localhost is on the user's block-list.*stopped before it left the browser/, told.text);
  assert.doesNotMatch(told.text, NOTHING_OF_IT);
  for (const [tool, args] of [['read', {}], ['snapshot', {}], ['find', { role: 'button' }]]) {
    const r = await chain.call(tool, args);
    const what = `${tool} ${JSON.stringify(args)}`;
    assert.equal(r.isError, false, `${what}: ${r.text}`);
    assert.doesNotMatch(r.text, NOTHING_OF_IT, what);
  }
  const list = await chain.call('tabs', { action: 'list' });
  assert.match(list.text, /current="true" url="[^"]*\/sites\/self-nav\.html/, 'the tab stayed on the allowed page');
  assert.deepEqual(sites.otherRequests, []);
});

test('a popup the page opens blank and sends to a blocked site: not adopted, neither its URL nor its title shown', async () => {
  await setPolicy({ block: [otherHost()] });
  // A fresh tab for it: the page of the test before is left behind.
  const fresh = await chain.call('tabs', { action: 'new', url: `${selfNavPage()}&popup=1` });
  assert.equal(fresh.isError, false, fresh.text);
  const nav = await chain.call('snapshot', {});
  assert.equal(nav.isError, false, nav.text);
  const popup = nav.fp.elements.find((e) => e.role === 'button' && /new tab/.test(e.name));
  assert.ok(popup, nav.text);
  const before = await chain.call('tabs', { action: 'list' });
  const opened = await chain.call('click', { ref: popup.ref, version: nav.fp.version });
  assert.equal(opened.isError, false, opened.text);
  assert.match(opened.text, /a tab the agent may not control \(localhost is on the user's block-list/);
  assert.doesNotMatch(opened.text, NOTHING_OF_IT);
  const after = await chain.call('tabs', { action: 'list' });
  assert.equal(after.text.match(/<tab /g)?.length, before.text.match(/<tab /g)?.length, after.text);
  assert.doesNotMatch(after.text, NOTHING_OF_IT);
  for (const p of chain.context.pages()) if (p.url().includes('/sites/login.html')) await p.close();
});

test('screenshot of an allowed page: the blocked site\'s frame is painted over, the rest is the page', async () => {
  await setPolicy({ block: [otherHost()] });
  const nav = await chain.call('navigate', { url: policyPage() });
  assert.equal(nav.isError, false, nav.text);
  const shot = await chain.call('screenshot', {});
  assert.equal(shot.isError, false, shot.text);
  assert.match(shot.text, /withheld_frames_blanked="1"/);
  const png = shot.raw.content.find((c) => c.type === 'image')?.data;
  assert.ok(png, 'a picture');
  const page = chain.context.pages().find((p) => p.url().includes('/sites/policy.html'));
  const box = await page.locator('#cross').boundingBox();
  const width = await page.evaluate(() => window.innerWidth);
  // Decoded by the browser, in a page of its own (not the agent's).
  const viewer = await chain.context.newPage();
  try {
    const px = await viewer.evaluate(async ({ png, box, width }) => {
      const img = new Image();
      img.src = `data:image/png;base64,${png}`;
      await img.decode();
      const c = document.createElement('canvas');
      c.width = img.width; c.height = img.height;
      const g = c.getContext('2d');
      g.drawImage(img, 0, 0);
      const s = img.width / width;
      const at = (x, y) => [...g.getImageData(Math.floor(x * s), Math.floor(y * s), 1, 1).data.slice(0, 3)];
      const inside = [[0.5, 0.5], [0.1, 0.1], [0.9, 0.1], [0.1, 0.9], [0.9, 0.9]].map(([fx, fy]) => at(box.x + box.width * fx, box.y + box.height * fy));
      return { inside, outside: at(2, 2) };
    }, { png, box, width });
    for (const p of px.inside) assert.deepEqual(p, [128, 128, 128], 'the blocked frame is grey');
    assert.notDeepEqual(px.outside, [128, 128, 128], 'the page around it is shown');
  } finally {
    await viewer.close();
  }
});

test('screenshot of a blocked frame that jumps and toggles display every animation frame: none of its pixels in 50 pictures', async (t) => {
  await setPolicy({ block: [otherHost()] });
  const nav = await chain.call('navigate', { url: sites.url(`/sites/jumping-frame.html?other=${encodeURIComponent(sites.otherOrigin)}`) });
  assert.equal(nav.isError, false, nav.text);
  // The bank's frame has loaded in the user's tab (its colour is on screen there).
  const page = chain.context.pages().find((p) => p.url().includes('/sites/jumping-frame.html'));
  await page.frameLocator('#bank').locator('p').waitFor();
  const viewer = await chain.context.newPage();
  let shown = 0;
  try {
    for (let k = 0; k < 50; k++) {
      const shot = await chain.call('screenshot', {});
      assert.equal(shot.isError, false, shot.text);
      const png = shot.raw.content.find((c) => c.type === 'image')?.data;
      assert.ok(png, 'a picture');
      // Decoded by the browser, in a page of its own: how many pixels of the bank's colour.
      const n = await viewer.evaluate(async (data) => {
        const img = new Image();
        img.src = `data:image/png;base64,${data}`;
        await img.decode();
        const c = document.createElement('canvas');
        c.width = img.width; c.height = img.height;
        const g = c.getContext('2d');
        g.drawImage(img, 0, 0);
        const d = g.getImageData(0, 0, img.width, img.height).data;
        let m = 0;
        for (let i = 0; i < d.length; i += 4) if (d[i] === 255 && d[i + 1] === 0 && d[i + 2] === 255) m++;
        return m;
      }, png);
      if (n > 0) shown++;
    }
  } finally {
    await viewer.close();
  }
  t.diagnostic(`${shown} of 50 screenshots show the blocked frame's pixels`);
  assert.equal(shown, 0, `${shown} of 50 screenshots show the blocked frame`);
  // The page is put back as it was: the frame is the page's again (its own script shows it).
  assert.equal(await page.evaluate(() => document.getElementById('bank').style.getPropertyPriority('visibility')), '');
});

test('every spelling of a blocked address is that address: IPv4 forms, IPv4-mapped IPv6, trailing dot', async () => {
  const port = new URL(sites.origin).port;
  await setPolicy({ block: ['[::ffff:127.0.0.1]'] });
  for (const host of ['127.0.0.1', '127.0.0.1.', '0x7f.1', '2130706433', '0177.0.0.1', '[::ffff:7f00:1]', '[0:0:0:0:0:ffff:127.0.0.1]']) {
    const r = await chain.call('navigate', { url: `http://${host}:${port}/sites/login.html` });
    assert.equal(r.isError, true, `${host}: ${r.text}`);
    assert.match(r.text, /^error blocked_origin: 127\.0\.0\.1 is on the user's block-list/, host);
  }
  // And where a redirect leads, however it spells the address.
  const r = await chain.call('navigate', { url: sites.otherUrl(`/redirect?to=${encodeURIComponent(`http://0x7f.1:${port}/sites/login.html`)}`) });
  assert.equal(r.isError, true, r.text);
  assert.match(r.text, /blocked_origin: .*127\.0\.0\.1 is on the user's block-list/);
  assert.doesNotMatch(r.text, NOTHING_OF_IT);
  await setPolicy({});
});
