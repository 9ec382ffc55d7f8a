// The tool contract through the real chain (MCP SDK client -> athena-bridge mcp -> native host ->
// extension -> Chromium), never athenaDispatch: every declared tool (extension/lib/tool-contract.js)
// is called with valid arguments and works; bad arguments are refused with a message naming the
// argument; `tabs select`/`close` with a tab id and `wait_for {ref, state}` work end to end.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { useChain } from './lib/use-chain.mjs';
import { TOOLS } from '../../extension/lib/tool-contract.js';
import { AgentView } from '../support/factpack-text.mjs';

let sites;
let chain;
let fp;  // the newest FactPack
let view = new AgentView();  // what the agent holds (regions it was told are unchanged included)
const called = new Set();

// Every group is served: every declared tool is called.
useChain((s, c) => { sites = s; chain = c; }, { mcpFlags: ['--tools', 'all'] });

/** A tool call that must succeed; the FactPack it returns (if any) becomes the one held. */
async function ok(name, args = {}) {
  called.add(name);
  const r = await chain.call(name, args);
  assert.equal(r.isError, false, `${name} ${JSON.stringify(args)}: ${r.text}`);
  if (r.fp && r.fp.type !== 'find' && r.fp.type !== 'read') fp = r.fp;
  if (r.fp) view.apply(r.fp);
  return r;
}
const refOf = (name) => {
  const e = [...view.elements.values()].find((x) => x.name === name);
  assert.ok(e, `no "${name}" held: ${JSON.stringify([...view.elements.values()].map((x) => x.name))}`);
  return e.ref;
};

test('every declared tool works through athena-bridge mcp with valid arguments', async () => {
  const folder = realpathSync(chain.tmp);
  await chain.worker.evaluate((f) => chrome.storage.local.set({ policy: { uploadFolders: [f], evaluateSites: ['127.0.0.1'] } }), folder);
  mkdirSync(path.join(folder, 'up'), { recursive: true });
  writeFileSync(path.join(folder, 'up', 'a.txt'), 'a');

  await ok('navigate', { url: sites.url('/sites/ext/actions.html') });
  await ok('snapshot', {});
  await ok('click', { ref: refOf('Increment'), version: fp.version });
  await ok('type', { ref: refOf('Name'), text: 'ada', clear: true, version: fp.version });
  await ok('press', { keys: 'Tab' });
  await ok('select', { ref: refOf('Colour'), values: ['Green'] });
  await ok('hover', { ref: refOf('Hover me') });
  await ok('fill_form', { fields: [{ ref: refOf('Name'), value: 'ada' }, { ref: refOf('Colour'), value: 'Green' }] });
  await ok('drag', { ref: refOf('Hover me'), dx: 5, dy: 0 });
  await ok('resize', { device: 'phone' });
  await ok('resize', { width: 1000, height: 700 });
  await ok('resize', { device: 'desktop' });
  const net = await ok('network', {});
  const logged = await ok('console', {});
  assert.match(logged.text, /^<console tab="c\d+p\d+" since="[^"]*actions\.html" count="\d+">/);
  const title = await ok('evaluate', { function: '() => document.title' });
  assert.match(title.text, /^<evaluate tab="c\d+p\d+" origin="http:\/\/127\.0\.0\.1:\d+">\n"[^"\n]*"\n<\/evaluate>$/);
  assert.match(net.text, /^<network tab="c\d+p\d+" since="[^"]*actions\.html" count="\d+">\n#\d+ GET 200 document /);
  await ok('scroll', { direction: 'down', amount: 300 });
  await ok('scroll', { ref: refOf('Scroll box'), direction: 'down', amount: 60 });
  await ok('click', { ref: refOf('Load later') });
  const late = await ok('wait_for', { text: 'Arrived late', ms: 5000 });
  assert.match(late.text, /Arrived late/);
  // wait_for {ref, state}: the button is visible already; then the text goes.
  await ok('wait_for', { ref: refOf('Increment'), state: 'visible', ms: 2000 });
  await ok('wait_for', { gone: 'no such text anywhere', ms: 1000 });
  await ok('wait_for', { ms: 100 });
  const found = await ok('find', { role: 'button', name: 'Buy', limit: 5 });
  assert.match(found.text, /Buy now/);
  const read = await ok('read', { region: 'main' });
  assert.match(read.text, /Increment/);
  const shot = await ok('screenshot', { ref: refOf('Buy now') });
  assert.ok(shot.raw.content.some((c) => c.type === 'image'));
  await ok('upload', { ref: refOf('Attachment'), files: [path.join(folder, 'up', 'a.txt')] });
  // A JavaScript alert answers with a <dialog> note instead of a FactPack (raw call: not parsed).
  const alerted = await chain.client.callTool({ name: 'click', arguments: { ref: refOf('Show alert') } });
  assert.match(alerted.content[0].text, /^<dialog [^>]*type="alert"/, JSON.stringify(alerted));
  await ok('dialog', { accept: true });
  await ok('navigate', { url: sites.url('/sites/login.html') });
  await ok('back', {});
  await ok('forward', {});
  await ok('reload', {});

  // tabs: new, list, select by id, close by id.
  const opened = await ok('tabs', { action: 'new', url: sites.url('/sites/ext/actions.html') });
  assert.match(opened.text, /^<full /);
  const list = await ok('tabs', { action: 'list' });
  const ids = [...list.text.matchAll(/<tab id="(c\d+p\d+)"/g)].map((m) => m[1]);
  assert.ok(ids.length >= 2, list.text);
  const selected = await ok('tabs', { action: 'select', tab: ids[0] });
  assert.match(selected.text, /^<full [^>]*login\.html/);
  const snapOther = await ok('snapshot', { tab: ids[1] });
  assert.match(snapOther.text, /actions\.html/);
  const closed = await ok('tabs', { action: 'close', tab: ids[1] });
  assert.match(closed.text, new RegExp(`closed="${ids[1]}"`));
  const after = await ok('tabs', { action: 'list' });
  assert.doesNotMatch(after.text, new RegExp(`id="${ids[1]}"`));

  await chain.worker.evaluate(() => chrome.storage.local.remove('policy'));
  assert.deepEqual(TOOLS.map((t) => t.name).filter((n) => !called.has(n)), [], 'a declared tool was never called here');
});

test('bad arguments are refused with the argument named, before anything runs', async () => {
  for (const [name, args, words] of [
    ['click', {}, /missing required argument 'ref'/],
    ['tabs', { action: 'select', tab: 3 }, /argument 'tab' must be string/],
    ['wait_for', { ref: 'e1', state: 'shiny' }, /argument 'state' must be one of/],
    ['find', { limit: 'ten' }, /argument 'limit' must be integer/],
    ['navigate', { url: 'https://a.test/', bogus: 1 }, /unknown argument 'bogus'/],
  ]) {
    // athena-bridge refuses them as JSON-RPC errors (invalid params): the SDK client throws.
    const r = await chain.call(name, args).then((x) => ({ isError: x.isError, text: x.text }), (e) => ({ isError: true, text: String(e.message) }));
    assert.equal(r.isError, true, `${name} ${JSON.stringify(args)}: ${r.text}`);
    assert.match(r.text, words);
  }
});
