// Secrets by meaning through the whole chain (MCP client -> athena-bridge mcp -> native host ->
// extension -> Chromium): fields that say what they hold only by a <label>, a placeholder, a
// masking style, a contenteditable's label, a show-password toggle that replaces the field, the
// boxes of a one-time code, or a label written after the field. No value of theirs is in any
// FactPack, `find` or `read` answer, nor in the trace export; a plain field's value is.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useChain } from './lib/use-chain.mjs';

let sites;
let chain;

useChain((s, c) => { sites = s; chain = c; });

const SECRETS = ['SECRET-CARD-4111', 'SECRET-CVC-737', 'SECRET-EDITOR-PW', 'SECRET-PIN-2468', 'SECRET-SHOWN-PW', 'SECRET-LATE-CSC'];
const noSecret = (text, what) => { for (const s of SECRETS) assert.ok(!text.includes(s), `${what} holds ${s}:\n${text}`); };

test('fields secret by their meaning: no value in FactPacks, find, read or the trace; a plain one is shown', async () => {
  const nav = await chain.call('navigate', { url: sites.url('/sites/secrets-meaning.html') });
  assert.equal(nav.isError, false, nav.text);
  noSecret(nav.text, 'navigate');
  assert.match(nav.text, /PLAIN-AMOUNT-42/, 'a plain field keeps its value');
  const boxes = nav.fp.elements.filter((e) => /^Box \d$/.test(e.name));
  assert.equal(boxes.length, 6, nav.text);
  for (const b of boxes) {
    const line = nav.text.split('\n').find((l) => l.includes(`"${b.name}"`));
    assert.match(line, /value=redacted/, `each box of the one-time code is a secret: ${line}`);
  }

  const show = nav.fp.elements.find((e) => e.role === 'button' && e.name === 'Show it');
  const shown = await chain.call('click', { ref: show.ref, version: nav.fp.version });
  assert.equal(shown.isError, false, shown.text);
  noSecret(shown.text, 'click on the show-password toggle');
  const found = await chain.call('find', {});
  noSecret(found.text, 'find');
  const snap = await chain.call('snapshot', {});
  noSecret(snap.text, 'snapshot');
  // The toggle put a new text field in the password field's place: still a secret.
  assert.match(snap.text, /"Sign-in key"[^\n]*value=redacted/, snap.text);
  for (const e of snap.fp.elements.filter((x) => /textbox/.test(x.role))) {
    const r = await chain.call('read', { ref: e.ref });
    noSecret(r.text, `read ${e.ref} (${e.name})`);
  }

  const tab = /<tab id="(c\d+p\d+)" current="true"/.exec((await chain.call('tabs', { action: 'list' })).text)[1];
  const trace = await chain.worker.evaluate((t) => globalThis.athenaExportTrace(t), tab);
  assert.equal(trace.format, 'athena-trace');
  const all = JSON.stringify(trace);
  noSecret(all, 'the trace export');
  assert.ok(all.includes('PLAIN-AMOUNT-42'), 'the trace still holds the page as the agent saw it');
});
