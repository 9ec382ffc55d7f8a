// The whole product chain, end to end, as a user runs it: the official MCP SDK client ->
// athena-bridge mcp -> native host (spawned by Chromium) -> the extension's service worker ->
// chrome.debugger -> real pages on the fixture sites. Nothing is mocked.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startSites } from '../sites/serve.mjs';
import { root, startChain } from './lib/chain.mjs';

let sites;
let chain;

before(async () => {
  sites = await startSites();
  chain = await startChain();
});

after(async () => {
  await chain?.close();
  await sites?.close();
});

/** The agent tab as Playwright sees it (to check that the page really changed). */
function agentPage(urlPart) {
  const pages = chain.context.pages().filter((p) => p.url().includes(urlPart));
  assert.ok(pages.length > 0, `no tab shows ${urlPart}; tabs: ${chain.context.pages().map((p) => p.url()).join(', ')}`);
  return pages[pages.length - 1];
}

const refOf = (fp, role, name) => {
  const all = [...(fp.regions ?? []).flatMap((r) => r.elements ?? []), ...(fp.added ?? []), ...(fp.modified ?? []).map((m) => m.after)];
  const e = all.find((x) => x.role === role && x.name === name);
  assert.ok(e, `no ${role} "${name}" in the FactPack: ${JSON.stringify(all.map((x) => `${x.role} ${x.name}`))}`);
  return e.ref;
};

test('navigate gives a full FactPack; a click on Bootstrap opens a modal overlay; closing it says so', async () => {
  const nav = await chain.call('navigate', { url: sites.url('/sites/bootstrap.html') });
  assert.equal(nav.isError, false, nav.text);
  assert.equal(nav.structured.type, 'full');
  assert.match(nav.text, /^<full v="\d+"/);
  let v = nav.structured.version;
  const open = await chain.call('click', { ref: refOf(nav.structured, 'button', 'Add to cart'), version: v });
  assert.equal(open.isError, false, open.text);
  assert.equal(open.structured.type, 'overlay_opened');
  assert.match(open.text, /overlay="modal" name="Added to cart"/);
  assert.ok(await agentPage('/sites/bootstrap.html').locator('#cart.show').isVisible());
  v = open.structured.version;
  const typed = await chain.call('type', { ref: refOf(open.structured, 'textbox', 'Gift note'), text: 'Happy birthday', version: v });
  assert.equal(typed.isError, false, typed.text);
  assert.equal(typed.structured.type, 'delta');
  assert.equal(typed.structured.modified[0].after.state.value, 'Happy birthday');
  assert.equal(await agentPage('/sites/bootstrap.html').inputValue('#note'), 'Happy birthday');
  const close = await chain.call('click', { ref: refOf(open.structured, 'button', 'Keep shopping'), version: typed.structured.version });
  assert.equal(close.isError, false, close.text);
  assert.equal(close.structured.type, 'overlay_closed');
  assert.ok(close.structured.invalidated.some((i) => i.cause === 'overlay_closed'));
});

test('a ref the agent was told is gone is refused, never clicked', async () => {
  const nav = await chain.call('navigate', { url: sites.url('/sites/bootstrap.html') });
  const open = await chain.call('click', { ref: refOf(nav.structured, 'button', 'Add to cart'), version: nav.structured.version });
  const keep = refOf(open.structured, 'button', 'Keep shopping');
  const checkout = refOf(open.structured, 'button', 'Checkout');
  const closed = await chain.call('click', { ref: keep, version: open.structured.version });
  assert.equal(closed.structured.type, 'overlay_closed');
  const stale = await chain.call('click', { ref: checkout, version: closed.structured.version });
  assert.equal(stale.isError, true);
  assert.match(stale.text, new RegExp(checkout));
  assert.equal(await agentPage('/sites/bootstrap.html').textContent('#status'), '');  // Checkout never ran
  const foreign = await chain.call('click', { ref: 'c9p9f0e1' });
  assert.equal(foreign.isError, true);
  const garbage = await chain.call('click', { ref: 'not-a-ref' });
  assert.equal(garbage.isError, true);
});

test('TodoMVC: typing a todo and submitting adds it; no_change when nothing changes', async () => {
  const nav = await chain.call('navigate', { url: sites.url('/todomvc/react/index.html') });
  assert.equal(nav.structured.type, 'full');
  const box = refOf(nav.structured, 'textbox', 'What needs to be done?');
  const add = await chain.call('type', { ref: box, text: 'Buy milk', submit: true, version: nav.structured.version });
  assert.equal(add.isError, false, add.text);
  assert.ok(['delta', 'full'].includes(add.structured.type));
  assert.match(add.text, /Buy milk/);
  assert.equal(await agentPage('/todomvc/react/').locator('#todo-list li, .todo-list li').count(), 1);
  const nothing = await chain.call('press', { keys: 'Shift', version: add.structured.version });
  assert.equal(nothing.isError, false, nothing.text);
  assert.equal(nothing.structured.type, 'no_change');
  assert.ok(nothing.text.length < 80, nothing.text);
});

test('iframes: typing and clicking inside a same-origin and a cross-site (out-of-process) frame', async () => {
  const nav = await chain.call('navigate', { url: sites.url('/sites/frames.html?other=' + encodeURIComponent(sites.otherOrigin)) });
  assert.equal(nav.structured.type, 'full');
  const email = refOf(nav.structured, 'textbox', 'Email');
  assert.match(email, /f[1-9]\d*e/);  // a frame other than the main one
  const typed = await chain.call('type', { ref: email, text: 'ada@example.com', version: nav.structured.version });
  assert.equal(typed.isError, false, typed.text);
  const sub = await chain.call('click', { ref: refOf(nav.structured, 'button', 'Subscribe'), version: typed.structured.version });
  assert.equal(sub.isError, false, sub.text);
  assert.match(sub.text, /Subscribed ada@example.com/);
  const apply = await chain.call('click', { ref: refOf(nav.structured, 'button', 'Apply coupon'), version: sub.structured.version });
  assert.equal(apply.isError, false, apply.text);
  assert.match(apply.text, /Coupon applied/);
});

test('Shoelace: the dialog opens and closes through shadow DOM', async () => {
  const nav = await chain.call('navigate', { url: sites.url('/sites/shoelace.html') });
  const open = await chain.call('click', { ref: refOf(nav.structured, 'button', 'Delete account'), version: nav.structured.version });
  assert.equal(open.isError, false, open.text);
  assert.equal(open.structured.type, 'overlay_opened');
  const cancel = await chain.call('click', { ref: refOf(open.structured, 'button', 'Cancel'), version: open.structured.version });
  assert.equal(cancel.structured.type, 'overlay_closed');
  assert.match(cancel.text, /Kept the account/);
});

test('docs: a same-site navigation dedups the shared regions', async () => {
  const nav = await chain.call('navigate', { url: sites.url('/pydoc/library/index.html') });
  assert.equal(nav.structured.type, 'full');
  const next = await chain.call('click', { ref: refOf(nav.structured, 'link', 'Text Processing Services'), version: nav.structured.version });
  assert.equal(next.isError, false, next.text);
  assert.equal(next.structured.type, 'full');
  assert.equal(next.structured.reason, 'navigation');
  assert.match(next.text, /unchanged="true"/);
  assert.ok(agentPage('/pydoc/library/text.html'));
});

test('an old agent version: the answer starts with what changed before the action', async () => {
  const nav = await chain.call('navigate', { url: sites.url('/todomvc/react/index.html') });
  const box = refOf(nav.structured, 'textbox', 'What needs to be done?');
  const a = await chain.call('type', { ref: box, text: 'One', submit: true, version: nav.structured.version });
  const b = await chain.call('type', { ref: box, text: 'Two', submit: true, version: nav.structured.version });  // still v of nav
  assert.equal(b.isError, false, b.text);
  assert.ok(a.structured.version > nav.structured.version);
  assert.ok(b.structured.before_action?.length === 1 || b.structured.type === 'full', b.text);
});

test('a second agent gets its own session and never kicks out the first', async () => {
  const second = await chain.connectClient('second-agent');
  try {
    const r = await chain.call('navigate', { url: sites.url('/sites/login.html') }, second);
    assert.equal(r.isError, false, r.text);
    assert.equal(r.structured.type, 'full');
    const mine = await chain.call('snapshot', {});
    assert.equal(mine.isError, false, mine.text);
    assert.doesNotMatch(mine.text, /Sign in/);  // the first agent still has its own tab
  } finally {
    await second.close();
  }
});

test('the MCP Inspector CLI lists and calls the tools against the real chain', async () => {
  const { execFile } = await import('node:child_process');
  const { promisify } = await import('node:util');
  const path = await import('node:path');
  const run = promisify(execFile);
  const inspector = path.join(root, 'node_modules/.bin/mcp-inspector');
  // The Inspector gives the server only a default environment: name the runtime dir explicitly.
  const env = ['-e', `ATHENA_RUNTIME_DIR=${chain.runtime}`];
  const list = await run(inspector, ['--cli', ...env, chain.bridge, 'mcp', '--method', 'tools/list'], { env: chain.env, timeout: 60_000 });
  assert.ok(JSON.parse(list.stdout).tools.some((t) => t.name === 'navigate'));
  const call = await run(inspector, ['--cli', ...env, chain.bridge, 'mcp', '--method', 'tools/call', '--tool-name', 'tabs', '--tool-arg', 'action=list'],
    { env: chain.env, timeout: 60_000 });
  const r = JSON.parse(call.stdout);
  assert.notEqual(r.isError, true, call.stdout);
});

test('the MCP server restarted mid-session: a new one connects and works at once', async () => {
  const c = await chain.connectClient('restarting-agent');
  const first = await chain.call('navigate', { url: sites.url('/sites/login.html') }, c);
  assert.equal(first.isError, false, first.text);
  await c.close();  // the agent's MCP server process exits (e.g. the desktop app restarted)
  const again = await chain.connectClient('restarting-agent');
  try {
    const nav = await chain.call('navigate', { url: sites.url('/sites/login.html') }, again);
    assert.equal(nav.isError, false, nav.text);
    assert.equal(nav.structured.type, 'full');
    const user = nav.structured.regions.flatMap((r) => r.elements).find((e) => e.name === 'Username');
    const typed = await chain.call('type', { ref: user.ref, text: 'ada', version: nav.structured.version }, again);
    assert.equal(typed.isError, false, typed.text);
  } finally {
    await again.close();
  }
});

test('a live session exported by the extension replays in the playground exactly as the agent got it', async () => {
  const { startPlayground } = await import('../../web/serve.mjs');
  const got = [];
  const nav = await chain.call('navigate', { url: sites.url('/sites/login.html') });
  got.push(nav.text);
  const field = (name) => nav.structured.regions.flatMap((r) => r.elements).find((e) => e.name === name).ref;
  let v = nav.structured.version;
  for (const [name, text] of [['Username', 'ada'], ['Password', 'hunter22']]) {
    const r = await chain.call('type', { ref: field(name), text, version: v });
    assert.equal(r.isError, false, r.text);
    got.push(r.text);
    v = r.structured.version;
  }
  const tab = /c\d+p\d+/.exec(nav.text)[0];  // the agent's tab, from its refs
  const trace = await chain.worker.evaluate((t) => globalThis.athenaExportTrace(t), tab);
  assert.equal(trace.format, 'athena-trace');
  assert.doesNotMatch(JSON.stringify(trace), /hunter22/);  // secrets never leave the browser in a trace
  const playground = await startPlayground(0);
  const page = await chain.context.newPage();
  try {
    await page.goto(playground.url);
    await page.waitForFunction(() => window.playground?.ready, null, { timeout: 60_000 });
    await page.setInputFiles('#tracefile', { name: 'trace.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(trace)) });
    await page.waitForFunction(() => /every FactPack equals|differ|cannot replay/.test(document.querySelector('#status').textContent), null, { timeout: 120_000 });
    assert.match(await page.textContent('#status'), /every FactPack equals what the extension sent/);
    const texts = await page.evaluate(() => window.playground.replay.steps.map((s) => s.pack.text));
    assert.deepEqual(texts.slice(-got.length), got);
  } finally {
    await page.close();
    await playground.close();
  }
});
