// The real extension in real headless Chromium, driven through its one dispatch entry
// (globalThis.athenaDispatch, the same function the native port calls) with Playwright's
// sw.evaluate: every tool on the fixture sites, iframes (same- and cross-origin), shadow DOM,
// Bootstrap and Shoelace overlays, a never-settling page, a tab closed mid-action, the debugger
// detached mid-session, a stale ref after a re-render, a blocked origin.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startSites } from '../sites/serve.mjs';
import { parseFactPack } from '../support/factpack-text.mjs';
import { until, within, WAIT } from '../support/wait.mjs';
import { policyApplied } from './lib/worker-state.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const EXT = path.join(root, 'extension');
const EXTENSION_ID = readFileSync(path.join(EXT, 'EXTENSION_ID'), 'utf8').trim();
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
/** Bounds of this suite. */
const E2E = Object.freeze({ workerMs: 20_000, callMs: 45_000 });

let ctx, sw, sites, tmp;
let sessionSeq = 0;

/** One tool call through the worker's dispatch entry. */
function call(session, tool, args = {}) {
  return within(`the ${tool} call`, sw.evaluate(({ session, tool, args }) => globalThis.athenaDispatch({ session, tool, args }), { session, tool, args }), E2E.callMs);
}
/** A call that must succeed. */
async function ok(session, tool, args = {}) {
  const r = await call(session, tool, args);
  assert.equal(r.ok, true, `${tool} ${JSON.stringify(args)} failed: ${JSON.stringify(r.error)}`);
  return r;
}
/** The ref of the first element whose name contains `name` (role optional), from find's text answer. */
async function ref(session, name, role, tab) {
  const r = await ok(session, 'find', { name, ...(role ? { role } : {}), ...(tab ? { tab } : {}) });
  const fp = parseFactPack(r.text);
  assert.equal(fp.type, 'find', r.text);
  assert.ok(fp.elements.length >= 1, `no element named "${name}" in:\n${r.text}`);
  return fp.elements[0].ref;
}
/** The name of the session's current tab (c0p3), from tabs list. */
async function currentTab(session) {
  const list = await ok(session, 'tabs', { action: 'list' });
  return /<tab id="(c\d+p\d+)" current="true"/.exec(list.text)?.[1] ?? '';
}
/** A fresh agent session; the previous one is closed as session_close does (tabs stay open, state dropped). */
async function newSession() {
  if (sessionSeq > 0) await sw.evaluate((prev) => globalThis.athenaAgent.closeSession(prev), `s${sessionSeq}`);
  return `s${++sessionSeq}`;
}
/** The Playwright page of the agent's tab with this URL. */
const pageWith = (fragment) => ctx.pages().find((p) => p.url().includes(fragment));

before(async () => {
  const core = path.join(EXT, 'core');
  if (!existsSync(core) || !readdirSync(core).some((f) => f.endsWith('.wasm')))
    throw new Error(`the extension has no wasm core in ${core}: run ./athena build (it builds and stages the module)`);
  tmp = mkdtempSync(path.join(os.tmpdir(), 'athena-ext-e2e-'));
  sites = await startSites();
  ctx = await chromium.launchPersistentContext(path.join(tmp, 'profile'), {
    executablePath: CHROMIUM,
    headless: true,
    env: { ...process.env, HOME: tmp, TMPDIR: tmp },
    ignoreDefaultArgs: ['--disable-extensions'],
    args: [`--load-extension=${EXT}`, `--disable-extensions-except=${EXT}`, '--no-sandbox', '--disable-gpu', '--disable-quic',
      '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  sw = ctx.serviceWorkers().find((w) => w.url().includes(EXTENSION_ID))
    ?? await ctx.waitForEvent('serviceworker', { timeout: E2E.workerMs });
  await until('the service worker defining athenaDispatch (see its console)',
    () => sw.evaluate(() => typeof globalThis.athenaDispatch === 'function'), { ms: E2E.workerMs });
});

after(async () => {
  await ctx?.close().catch(() => {});
  await sites?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true, maxRetries: 3 });
});

describe('actions on the fixture pages', { timeout: 180_000 }, () => {
  test('navigate gives a full FactPack; click gives a delta; find and read', async (t) => {
    const s = await newSession();
    let t0 = performance.now();
    const nav = await ok(s, 'navigate', { url: sites.url('/sites/ext/actions.html') });
    t.diagnostic(`navigate (attach + load + settle + capture + full FactPack): ${Math.round(performance.now() - t0)} ms`);
    assert.equal(nav.factpack.type, 'full');
    assert.match(nav.text, /Increment/);
    const inc = await ref(s, 'Increment', 'button');
    assert.match(inc, /^e\d+$/);
    t0 = performance.now();
    const r = await ok(s, 'click', { ref: inc, version: nav.version });
    t.diagnostic(`click (capture + resolve + act + settle + capture + delta): ${Math.round(performance.now() - t0)} ms`);
    assert.equal(r.factpack.type, 'delta', r.text);
    assert.match(r.text, /1/);
    assert.equal(await pageWith('/sites/ext/actions.html').locator('#count').textContent(), '1');
    for (const secret of ['hunter2', '4111111111111111']) {
      assert.ok(!nav.text.includes(secret) && !JSON.stringify(nav.factpack).includes(secret), `${secret} left the page in the FactPack`);
    }
    assert.match((await ok(s, 'read', { ref: await ref(s, 'Card number') })).text, /redacted/);
    const read = await ok(s, 'read', { ref: await ref(s, 'Secret') });
    assert.doesNotMatch(read.text, /hunter2/, 'a password value left the page');
    assert.match(read.text, /redacted/);
    const main = await ok(s, 'read', { region: 'main' });
    assert.match(main.text, /Buy now/);
  });

  test('read and screenshot of a ref racing a click wait for it; reads never make the agent stale', async () => {
    const s = await newSession();
    const nav = await ok(s, 'navigate', { url: sites.url('/sites/ext/actions.html') });
    const inc = await ref(s, 'Increment', 'button');
    const [clicked, read, shot] = await Promise.all([
      call(s, 'click', { ref: inc, version: nav.version }),
      call(s, 'read', { ref: inc }),
      call(s, 'screenshot', { ref: inc }),
    ]);
    assert.equal(clicked.ok, true, JSON.stringify(clicked.error));
    assert.equal(clicked.factpack.type, 'delta', clicked.text);
    assert.equal(read.ok, true, JSON.stringify(read.error));
    assert.equal(shot.ok, true, JSON.stringify(shot.error));
    for (let i = 0; i < 3; i++) await ok(s, 'read', { ref: inc });
    const again = await ok(s, 'click', { ref: inc, version: clicked.version });
    assert.doesNotMatch(again.text, /not_executed/);
    assert.equal(again.factpack.type, 'delta', again.text);
  });

  test('type (clear, submit), press chords, select, hover, scroll, upload, wait_for', async () => {
    const s = await newSession();
    await ok(s, 'navigate', { url: sites.url('/sites/ext/actions.html?t=2') });
    const page = pageWith('actions.html?t=2');
    await ok(s, 'type', { ref: await ref(s, 'Name'), text: 'Ada', clear: true });
    assert.equal(await page.locator('#name').inputValue(), 'Ada');
    const sub = await ok(s, 'type', { ref: await ref(s, 'Search'), text: 'hello', submit: true });
    // Name was cleared before "Ada" was typed: the form sends "Ada", not "oldAda" or "old".
    assert.match(sub.text, /Sent Ada"/, sub.text);
    await ok(s, 'click', { ref: await ref(s, 'Key target') });
    const k = await ok(s, 'press', { keys: 'Control+b' });
    assert.equal(await page.locator('#keyout').textContent(), 'Control+b', k.text);
    const sel = await ok(s, 'select', { ref: await ref(s, 'Colour'), values: ['Green'] });
    assert.match(sel.text, /Chose g/);
    const bad = await call(s, 'select', { ref: await ref(s, 'Colour'), values: ['Purple'] });
    assert.equal(bad.ok, false);
    assert.equal(bad.error.code, 'no_such_option');
    const hov = await ok(s, 'hover', { ref: await ref(s, 'Hover me') });
    assert.match(hov.text, /Hovered/);
    await ok(s, 'scroll', { direction: 'down', amount: 600 });
    assert.ok((await page.evaluate(() => scrollY)) >= 500);
    await ok(s, 'scroll', { ref: await ref(s, 'Scroll box'), direction: 'down', amount: 100 });
    assert.ok((await page.evaluate(() => document.getElementById('box').scrollTop)) >= 90);
    // At a slotted element: the box in the shadow tree it is slotted into scrolls, not the page.
    const pageY = await page.evaluate(() => scrollY);
    await ok(s, 'scroll', { ref: await ref(s, 'Slotted button'), direction: 'down', amount: 40 });
    assert.equal(await page.evaluate(() => document.getElementById('panel').shadowRoot.querySelector('[part=body]').scrollTop), 40);
    assert.equal(await page.evaluate(() => scrollY), pageY);
    const far = await ok(s, 'click', { ref: await ref(s, 'Far away button') });
    assert.match(far.text, /Far clicked/);
    const file = path.join(tmp, 'report.txt');
    writeFileSync(file, 'hello');
    // Uploads come only from folders the user allowed (here called without the native host,
    // which resolves paths: the folder is given by its real path).
    await sw.evaluate((folder) => chrome.storage.local.set({ policy: { uploadFolders: [folder] } }), realpathSync(tmp));
    await policyApplied(sw);
    const up = await ok(s, 'upload', { ref: await ref(s, 'Attachment'), files: [realpathSync(file)] });
    await sw.evaluate(() => chrome.storage.local.remove('policy'));
    await policyApplied(sw);
    assert.match(up.text, /Picked report.txt/);
    await ok(s, 'click', { ref: await ref(s, 'Load later') });
    const w = await ok(s, 'wait_for', { text: 'Arrived late', ms: 5000 });
    assert.match(w.text, /Arrived late/);
    const gone = await ok(s, 'wait_for', { text: 'never on this page', ms: 300 });
    assert.match(gone.text, /gave up waiting/);
    const st = await ok(s, 'wait_for', { ref: await ref(s, 'Buy now'), state: 'enabled', ms: 2000 });
    assert.doesNotMatch(st.text, /gave up/);
    const hidden = await ok(s, 'wait_for', { ref: await ref(s, 'Buy now'), state: 'hidden', ms: 300 });
    assert.match(hidden.text, /gave up waiting for e\d+ to be hidden/);
    const sleepy = await ok(s, 'wait_for', { ms: 200 });
    assert.equal(sleepy.factpack.type, 'no_change');
    const inMain = await ok(s, 'find', { region: 'main', role: 'button' });
    const found = parseFactPack(inMain.text);
    assert.ok(found.elements.length >= 8, inMain.text);
    assert.equal(found.find.total, found.elements.length + found.gaps.reduce((a, g) => a + g.count, 0), inMain.text);
    assert.ok(found.elements.every((e) => e.role === 'button'), inMain.text);
    assert.equal(inMain.factpack, undefined, 'find answers carry no JSON: the text is the answer');
    const shot = await ok(s, 'screenshot', {});
    assert.equal(shot.image.mime, 'image/png');
    assert.ok(Buffer.from(shot.image.data, 'base64').subarray(1, 4).toString() === 'PNG');
  });

  test('navigation tools: back, forward, reload; a link opening a new tab is reported', async () => {
    const s = await newSession();
    const first = await ok(s, 'navigate', { url: sites.url('/sites/ext/actions.html?h=1') });
    const increment = parseFactPack(first.text).elements.find((e) => e.name === 'Increment');
    assert.ok(increment, first.text);
    await ok(s, 'navigate', { url: sites.url('/sites/ext/busy.html?h=2') });
    const back = await ok(s, 'back');
    assert.equal(back.factpack.type, 'full');
    assert.match(back.text, /^<full [^>]*url="[^"]*\/sites\/ext\/actions\.html\?h=1"/, back.text);
    // Back on the page it left: the regions it held there are one line each, naming when, and
    // their refs are the ones it held (docs/design.md, "Trimming and dedup across baselines").
    assert.match(back.text, new RegExp(`<region name="main" unchanged="true" count="\\d+" seen_in="${parseFactPack(first.text).version}"/>`), back.text);
    assert.equal(await ref(s, 'Increment'), increment.ref);
    const fwd = await ok(s, 'forward');
    assert.match(fwd.text, /^<full [^>]*url="[^"]*\/sites\/ext\/busy\.html\?h=2"/, fwd.text);
    assert.ok(await ref(s, 'Ticker'));
    await ok(s, 'reload');
    await ok(s, 'back');
    const opened = await ok(s, 'click', { ref: await ref(s, 'Open in new tab') });
    assert.match(opened.text, /opened tab c0p\d+/, opened.text);
    const list = await ok(s, 'tabs', { action: 'list' });
    const ids = [...list.text.matchAll(/id="(c0p\d+)"/g)].map((m) => m[1]);
    assert.equal(ids.length, 2, list.text);
    const other = ids.find((id) => !list.text.includes(`id="${id}" current`));
    const selected = await ok(s, 'tabs', { action: 'select', tab: other });
    assert.match(selected.text, /Increment/);
    await ok(s, 'tabs', { action: 'close', tab: other });
    const fresh = await ok(s, 'tabs', { action: 'new', url: sites.url('/sites/ext/shadow.html?new=1') });
    assert.equal(fresh.factpack.type, 'full');
    assert.match(fresh.text, /Shadow/);
    const freshId = await currentTab(s);
    await ok(s, 'tabs', { action: 'close', tab: freshId });
    const list2 = await ok(s, 'tabs', { action: 'list' });
    assert.equal([...list2.text.matchAll(/id="c0p/g)].length, 1);
  });

  test('two agents on two tabs at once: each tab has its own index and state', async () => {
    const a = await newSession();
    const b = `${a}-b`;
    await Promise.all([
      ok(a, 'navigate', { url: sites.url('/sites/ext/actions.html?agent=a') }),
      ok(b, 'navigate', { url: sites.url('/sites/ext/actions.html?agent=b') }),
    ]);
    const [pa, pb] = [await currentTab(a), await currentTab(b)];
    assert.notEqual(pa, pb);
    const [ia, ib] = [await ref(a, 'Increment'), await ref(b, 'Increment')];
    await Promise.all([ok(a, 'click', { ref: ia }), ok(b, 'click', { ref: ib }), ok(b, 'click', { ref: ib })]);
    assert.equal(await pageWith('agent=a').locator('#count').textContent(), '1');
    assert.equal(await pageWith('agent=b').locator('#count').textContent(), '2', 'calls on one tab run one after the other');
    const cross = await call(a, 'click', { ref: ib });
    assert.equal(cross.error?.code, 'unknown_tab');
    await sw.evaluate((id) => globalThis.athenaAgent.closeSession(id), b);
  });

  test('a navigation during an action: the result is a full snapshot of the new page', async () => {
    const s = await newSession();
    await ok(s, 'navigate', { url: sites.url('/sites/ext/actions.html?nav=1') });
    const r = await ok(s, 'click', { ref: await ref(s, 'Go to the ticker') });
    assert.equal(r.factpack.type, 'full', r.text);
    assert.match(r.text, /Ticker/);
  });

  test('a renderer crash is reported; reload brings the tab back', async () => {
    const s = await newSession();
    await ok(s, 'navigate', { url: sites.url('/sites/ext/actions.html?crash=1') });
    const inc = await ref(s, 'Increment');
    const cdp = await ctx.newCDPSession(pageWith('crash=1'));
    cdp.send('Page.crash').catch(() => { /* never answered: the renderer is gone */ });
    await until('the extension learning that the renderer crashed (Inspector.targetCrashed)',
      () => sw.evaluate(() => [...globalThis.athenaAgent.tabs.values()].some((t) => t.crashed)));
    const r = await call(s, 'click', { ref: inc });
    assert.equal(r.error?.code, 'renderer_crashed', JSON.stringify(r).slice(0, 300));
    assert.match(r.error.message, /reload/);
    const back = await ok(s, 'reload');
    assert.equal(back.factpack.type, 'full');
    assert.match(back.text, /Increment/);
    assert.match(back.text, /crashed/);
    assert.notEqual(await ref(s, 'Increment'), inc, 'refs after a crash never alias refs from before');
  });

  test('JS dialogs: alert, confirm, prompt are surfaced and answered', async () => {
    const s = await newSession();
    await ok(s, 'navigate', { url: sites.url('/sites/ext/actions.html?d=1') });
    pageWith('actions.html?d=1').on('dialog', () => { /* the extension answers; keep Playwright from auto-dismissing */ });
    const a = await ok(s, 'click', { ref: await ref(s, 'Show alert') });
    assert.equal(a.factpack.type, 'dialog');
    assert.match(a.text, /Saved!/);
    const blocked = await call(s, 'click', { ref: await ref(s, 'Increment') });
    assert.equal(blocked.error?.code, 'dialog_open');
    const a2 = await ok(s, 'dialog', { accept: true });
    assert.match(a2.text, /after alert/);
    const c = await ok(s, 'click', { ref: await ref(s, 'Ask confirm') });
    assert.match(c.text, /Really delete/);
    assert.match((await ok(s, 'dialog', { accept: false })).text, /cancelled/);
    await ok(s, 'click', { ref: await ref(s, 'Ask name') });
    assert.match((await ok(s, 'dialog', { accept: true, text: 'Grace' })).text, /Hello Grace/);
  });
});

describe('frames, shadow DOM, overlays', { timeout: 180_000 }, () => {
  test('clicks and typing land inside same-origin and cross-origin iframes', async () => {
    const s = await newSession();
    const nav = await ok(s, 'navigate', { url: sites.url(`/sites/frames.html?other=${encodeURIComponent(sites.otherOrigin)}`) });
    assert.match(nav.text, /Apply coupon/, 'the cross-origin frame is in the snapshot');
    await ok(s, 'type', { ref: await ref(s, 'Email'), text: 'a@b.c' });
    const sub = await ok(s, 'click', { ref: await ref(s, 'Subscribe') });
    assert.match(sub.text, /Subscribed a@b.c/);
    const apply = await ok(s, 'click', { ref: await ref(s, 'Apply coupon') });
    assert.match(apply.text, /Coupon applied/);
  });

  test('shadow DOM button', async () => {
    const s = await newSession();
    await ok(s, 'navigate', { url: sites.url('/sites/ext/shadow.html') });
    const r = await ok(s, 'click', { ref: await ref(s, 'Shadow action') });
    assert.match(r.text, /Shadow clicked/);
  });

  test('Bootstrap modal and Shoelace dialog open and close as overlays', async () => {
    const s = await newSession();
    await ok(s, 'navigate', { url: sites.url('/sites/bootstrap.html') });
    const open = await ok(s, 'click', { ref: await ref(s, 'Add to cart') });
    assert.equal(open.factpack.type, 'overlay_opened', open.text);
    const close = await ok(s, 'click', { ref: await ref(s, 'Keep shopping') });
    assert.equal(close.factpack.type, 'overlay_closed', close.text);

    await ok(s, 'navigate', { url: sites.url('/sites/shoelace.html') });
    const o2 = await ok(s, 'click', { ref: await ref(s, 'Delete account') });
    assert.equal(o2.factpack.type, 'overlay_opened', o2.text);
    const c2 = await ok(s, 'click', { ref: await ref(s, 'Cancel') });
    assert.equal(c2.factpack.type, 'overlay_closed', c2.text);
  });

  test('a cookie banner that stays open (non-modal dialog) and an always-open menu are page regions: clicks give deltas', async () => {
    const s = await newSession();
    const full = await ok(s, 'navigate', { url: sites.url('/sites/cookie-banner.html') });
    assert.doesNotMatch(full.text, /overlay=/, full.text);
    assert.match(full.text, /button "Accept cookies"/);
    const more = await ok(s, 'click', { ref: await ref(s, 'Show more stories'), version: full.version });
    assert.equal(more.factpack.type, 'delta', more.text);
    assert.match(more.text, /link "Read story 2"/);
    const accept = await ok(s, 'click', { ref: await ref(s, 'Accept cookies'), version: more.version });
    assert.equal(accept.factpack.type, 'delta', accept.text);
  });
});

describe('survival and refusals', { timeout: 180_000 }, () => {
  test('a page that never settles returns in bounded time with a warning', async () => {
    const s = await newSession();
    await ok(s, 'navigate', { url: sites.url('/sites/ext/busy.html') });
    // The warning says the stabilization cap ended the wait; how long that takes is bench/'s.
    const r = await within('a click on a page that never settles', ok(s, 'click', { ref: await ref(s, 'Go') }));
    assert.match(r.text, /did not settle/);
  });

  test('a cancelled call stops waiting and says so', async () => {
    const s = await newSession();
    await ok(s, 'navigate', { url: sites.url('/sites/ext/actions.html?cancel=1') });
    const pending = sw.evaluate((session) => globalThis.athenaDispatch({ session, id: 'w1', tool: 'wait_for', args: { text: 'never here', ms: 20000 } }), s);
    await until('the wait_for w1 under way in its tab', () => sw.evaluate(() => [...globalThis.athenaAgent.tabs.values()].some((t) => t.callId === 'w1')));
    await sw.evaluate(() => globalThis.athenaAgent.cancel('w1'));
    // Well before its own 20 s: a wait_for that ignored the cancel would run into this bound.
    const r = await within('the cancelled wait_for', pending, WAIT.stateMs);
    assert.equal(r.ok, true, JSON.stringify(r));
    assert.match(r.text, /cancelled by the agent/);
  });

  test('pre-validation with the agent version: an old version is not acted on; drift since the current one is reported', async () => {
    const s = await newSession();
    const nav = await ok(s, 'navigate', { url: sites.url('/sites/ext/actions.html?ver=1') });
    const page = pageWith('ver=1');
    const inc = await ref(s, 'Increment');
    const one = await ok(s, 'click', { ref: inc, version: nav.version });
    const old = await ok(s, 'click', { ref: inc, version: nav.version });
    assert.match(old.text, /not_executed reason="stale_version"/);
    assert.equal(old.factpack.type, 'full');
    assert.equal(await page.locator('#count').textContent(), '1', 'an action on a stale version ran');
    await page.evaluate(() => { const h = document.createElement('h2'); h.textContent = 'Flash sale'; document.querySelector('main').prepend(h); });
    const drift = await ok(s, 'click', { ref: inc, version: old.version });
    assert.equal(await page.locator('#count').textContent(), '2');
    assert.match(drift.text, /Flash sale/, 'the change made before the action is reported with it');
    assert.ok(one.version < drift.version);
  });

  test('stale ref after a re-render is refused, never clicked', async () => {
    const s = await newSession();
    const nav = await ok(s, 'navigate', { url: sites.url('/sites/ext/actions.html?stale=1') });
    const buy = await ref(s, 'Buy now');
    const page = pageWith('actions.html?stale=1');
    await page.evaluate(() => { document.getElementById('buy').textContent = 'Delete my account'; });
    const r = await call(s, 'click', { ref: buy, version: nav.version });
    assert.equal(r.ok, false, JSON.stringify(r));
    assert.equal(r.error.code, 'identity_changed');
    assert.match(r.error.message, /changed/);
    assert.equal(await page.locator('#bought').textContent(), '', 'the changed element was clicked');
  });

  test('a blocked origin is refused; browser pages are never touched', async () => {
    const s = await newSession();
    await sw.evaluate((origin) => chrome.storage.local.set({ policy: { block: [origin] } }), sites.otherOrigin);
    await policyApplied(sw);
    try {
      const r = await call(s, 'navigate', { url: sites.otherUrl('/sites/ext/actions.html') });
      assert.equal(r.error?.code, 'blocked_origin');
      const c = await call(s, 'navigate', { url: 'chrome://settings' });
      assert.equal(c.error?.code, 'forbidden_page');
      assert.equal((await call(s, 'navigate', { url: sites.url('/sites/ext/actions.html?ok=1') })).ok, true);
    } finally {
      await sw.evaluate(() => chrome.storage.local.remove('policy'));
      await policyApplied(sw);
    }
  });

  test('the tab closed mid-action gives an explicit error', async () => {
    const s = await newSession();
    await ok(s, 'navigate', { url: sites.url('/sites/ext/slow.html') });
    const btn = await ref(s, 'Fetch slowly');
    const page = pageWith('/sites/ext/slow.html');
    // The page's slow request is the click done and the action waiting for the page to settle.
    const requested = page.waitForRequest((req) => req.url().includes('/slow?ms='), { timeout: WAIT.stateMs });
    const pending = call(s, 'click', { ref: btn });
    await requested;
    await page.close();
    const r = await pending;
    assert.equal(r.ok, false, JSON.stringify(r).slice(0, 300));
    assert.equal(r.error.code, 'tab_closed');
    const again = await call(s, 'snapshot');
    assert.equal(again.ok, false);
    assert.equal(again.error.code, 'tab_closed');
    // navigate, the way an agent starts, goes on in a new tab and says so.
    const fresh = await call(s, 'navigate', { url: sites.url('/sites/ext/actions.html') });
    assert.equal(fresh.ok, true, JSON.stringify(fresh).slice(0, 300));
    assert.match(fresh.text, /tab c0p\d+ was closed, so this is a new tab, c0p\d+: refs of the closed one are invalid/);
  });

  test('the debugger detached mid-session: explicit error, state dropped', async () => {
    const s = await newSession();
    await ok(s, 'navigate', { url: sites.url('/sites/ext/actions.html?detach=1') });
    const inc = await ref(s, 'Increment');
    // The browser takes the debugger away for real: an extension may not debug chrome:// pages.
    await pageWith('detach=1').goto('chrome://version').catch(() => {});
    const r = await call(s, 'click', { ref: inc });
    assert.equal(r.error?.code, 'debugger_detached', JSON.stringify(r));
    // The browser detached it (a chrome:// page), not the user's cancel on the debugging bar.
    assert.match(r.error.message, /^the debugger was detached from tab /, r.error.message);
  });
});

describe('the user in control; worker restart', { timeout: 180_000 }, () => {
  test('options page: block-list entries are parsed origins; the agent is refused there', async () => {
    const s = await newSession();
    const opt = await ctx.newPage();
    try {
      await opt.goto(`chrome-extension://${EXTENSION_ID}/ui/options.html`);
      await opt.fill('#block', 'ftp://nope');
      await opt.click('#save');
      await opt.waitForFunction(() => document.getElementById('errors').textContent.includes('only http and https'));
      await opt.fill('#block', `${sites.otherOrigin}/`);
      await opt.click('#save');
      await opt.waitForFunction(() => document.getElementById('msg').textContent === 'Saved.');
      assert.equal(await opt.inputValue('#block'), new URL(sites.otherOrigin).hostname, 'stored as the site (host) it names');
      await policyApplied(sw);
      const r = await call(s, 'navigate', { url: sites.otherUrl('/sites/ext/actions.html') });
      assert.equal(r.error?.code, 'blocked_origin');
      await opt.fill('#block', '');
      await opt.uncheck('#allowScreenshots');
      await opt.click('#save');
      await opt.waitForFunction(() => document.getElementById('msg').textContent === 'Saved.');
      await policyApplied(sw);
      await ok(s, 'navigate', { url: sites.otherUrl('/sites/ext/actions.html') });
      assert.equal((await call(s, 'screenshot')).error?.code, 'screenshots_disabled');
    } finally {
      await sw.evaluate(() => chrome.storage.local.remove('policy'));
      await policyApplied(sw);
      await opt.close();
    }
  });

  test('a tab the user shares can be selected by the agent', async () => {
    const s = await newSession();
    await ok(s, 'navigate', { url: sites.url('/sites/ext/actions.html?own=1') });
    const mine = await ctx.newPage();
    await mine.goto(sites.url('/sites/ext/shadow.html?shared=1'));
    const opt = await ctx.newPage();
    try {
      await opt.goto(`chrome-extension://${EXTENSION_ID}/ui/options.html`);
      const shared = await opt.evaluate(async () => {
        const [t] = await chrome.tabs.query({ url: '*://*/sites/ext/shadow.html?shared=1' });
        return chrome.runtime.sendMessage({ type: 'share', tabId: t.id });
      });
      assert.deepEqual(shared, { ok: true });
      const refused = await opt.evaluate(async () => {
        const [t] = await chrome.tabs.query({ url: 'chrome-extension://*/*' });
        return chrome.runtime.sendMessage({ type: 'share', tabId: t.id });
      });
      assert.match(refused.error, /never touched/);
      const list = await ok(s, 'tabs', { action: 'list' });
      const id = /id="(shared-\d+)"/.exec(list.text)?.[1];
      assert.ok(id, list.text);
      const sel = await ok(s, 'tabs', { action: 'select', tab: id });
      assert.equal(sel.factpack.type, 'full');
      assert.match(sel.text, /Shadow action/);
      const r = await ok(s, 'click', { ref: await ref(s, 'Shadow action') });
      assert.match(r.text, /Shadow clicked/);
      assert.equal(await mine.locator('#out').textContent(), 'Shadow clicked');
    } finally {
      await opt.close();
      await mine.close();
    }
  });

  test('popup: shows the agent tabs and the bridge status; stop releases everything', async () => {
    const s = await newSession();
    await ok(s, 'navigate', { url: sites.url('/sites/ext/actions.html?popup=1') });
    const pop = await ctx.newPage();
    try {
      await pop.goto(`chrome-extension://${EXTENSION_ID}/ui/popup.html`);
      await pop.waitForFunction(() => /c0p\d+: Extension actions/.test(document.getElementById('tabs').textContent));
      // This suite runs the extension without a native host (no manifest under its HOME).
      await pop.waitForFunction(() => document.getElementById('bridge').textContent !== '…');
      assert.equal(await pop.textContent('#bridge'), 'not connected');
      await pop.click('#stop');
      await pop.waitForFunction(() => !document.getElementById('resume').hidden);
      const r = await call(s, 'snapshot');
      assert.equal(r.error?.code, 'stopped_by_user');
      // (getTargets().attached also counts Playwright's own connection: ask the extension's debugger instead)
      const probe = await sw.evaluate(async () => {
        const t = (await chrome.debugger.getTargets()).find((x) => x.tabId !== undefined && x.url.includes('popup=1'));
        try { await chrome.debugger.sendCommand({ tabId: t.tabId }, 'Runtime.evaluate', { expression: '1' }); return 'still attached'; } catch (e) { return String(e.message ?? e); }
      });
      assert.match(probe, /not attached/i, 'stop detaches the debugger');
      await pop.click('#resume');
      await pop.waitForFunction(() => document.getElementById('resume').hidden);
      // The agent's tab works again after Resume (a new tab index, a full snapshot saying why).
      const again = await ok(s, 'snapshot');
      assert.equal(again.factpack.type, 'full', again.text);
      assert.match(again.text, /stopped the agent and resumed it/);
    } finally {
      await pop.close();
    }
  });

  test('service worker stopped and restarted: state rebuilt, the agent gets a full snapshot and the reason', async () => {
    const s = await newSession();
    await ok(s, 'navigate', { url: sites.url('/sites/ext/actions.html?restart=1') });
    const inc = await ref(s, 'Increment');
    const before = await currentTab(s);
    const page = pageWith('restart=1');
    const opt = await ctx.newPage();
    try {
      await opt.goto(`chrome-extension://${EXTENSION_ID}/ui/options.html`);
      const cdp = await ctx.newCDPSession(opt);
      // Stopped is what Chrome reports for the worker's version (Playwright keeps its handle).
      let asked = false;
      const stopped = new Promise((resolve) => cdp.on('ServiceWorker.workerVersionUpdated', ({ versions }) => {
        if (asked && versions.some((v) => v.scriptURL.includes(EXTENSION_ID) && v.runningStatus === 'stopped')) resolve();
      }));
      await cdp.send('ServiceWorker.enable');
      asked = true;
      await cdp.send('ServiceWorker.stopAllWorkers');
      await within('the service worker stopping (ServiceWorker.workerVersionUpdated)', stopped, WAIT.stateMs);
      // Anything the extension receives wakes it again. Playwright loses the worker across a
      // restart (docs/design.md, "Platform facts"), so from here the calls go through an extension page's runtime
      // message to the same dispatch entry.
      const st = await opt.evaluate(() => chrome.runtime.sendMessage({ type: 'status' }));
      assert.ok(st.agent.tabs.length > 0 && st.agent.tabs.every((t) => t.tab !== before), JSON.stringify(st.agent.tabs));
      const viaPage = (tool, args = {}) => opt.evaluate((c) => chrome.runtime.sendMessage({ type: 'dispatch', call: c }), { session: s, tool, args });
      const r = await viaPage('click', { ref: inc });
      assert.equal(r.ok, true, JSON.stringify(r));
      assert.equal(r.factpack.type, 'full');
      assert.match(r.text, /restarted/);
      assert.match(r.text, /not executed/);
      assert.equal(await page.locator('#count').textContent(), '0', 'the old ref was not acted on');
      const found = await viaPage('find', { name: 'Increment' });
      const inc2 = parseFactPack(found.text).elements[0].ref;
      assert.notEqual(inc2, inc, 'refs after a restart never alias refs from before');
      const again = await viaPage('click', { ref: inc2 });
      assert.equal(again.factpack.type, 'delta', JSON.stringify(again).slice(0, 300));
      assert.equal(await page.locator('#count').textContent(), '1');
    } finally {
      await opt.close();
    }
  });
});
