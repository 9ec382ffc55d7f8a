// A field the browser's own validation refuses (required, type=email; no aria-invalid, no message
// of the page's), through the whole chain (MCP SDK client -> athena-bridge mcp -> native host ->
// extension -> Chromium): the refused submit marks the field `invalid` with the browser's message
// as its description; once a valid value is typed the mark goes, and the submit goes through.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AgentView } from '../support/factpack-text.mjs';
import { until } from '../support/wait.mjs';
import { useChain } from './lib/use-chain.mjs';

let sites;
let chain;

useChain((s, c) => { sites = s; chain = c; });

/** A tool call whose answer the view takes in; returns it. */
async function act(view, tool, args) {
  const r = await chain.call(tool, args);
  assert.equal(r.isError, false, r.text);
  assert.deepEqual(view.apply(r.text), [], r.text);
  return r;
}

test('a submit the browser refuses marks the field invalid with its own message, and a valid value clears it', async () => {
  const view = new AgentView();
  await act(view, 'navigate', { url: sites.url('/sites/native-invalid.html') });
  const email = view.findElement('Email', 'textbox');
  assert.ok(email, 'the Email field is shown');
  assert.deepEqual(email.flags.filter((f) => f === 'invalid'), []);
  let page;
  await until('the agent\'s page', async () => { page = chain.context.pages().find((p) => p.url().includes('/sites/native-invalid.html')); return !!page; });
  const message = await page.locator('#email').evaluate((el) => /** @type {HTMLInputElement} */ (el).validationMessage);
  assert.notEqual(message, '', 'an empty required field has a validation message');

  const refused = await act(view, 'click', { ref: view.findElement('Subscribe', 'button').ref });
  const after = view.elements.get(email.ref);
  assert.ok(after.flags.includes('invalid'), refused.text);
  assert.equal(after.desc, message, refused.text);
  assert.equal(view.sees('Subscribed.'), false);

  const typed = await act(view, 'type', { ref: email.ref, text: 'ada@example.com' });
  assert.equal(view.elements.get(email.ref).flags.includes('invalid'), false, typed.text);
  assert.equal(view.elements.get(email.ref).desc, undefined, typed.text);

  const sent = await act(view, 'click', { ref: view.findElement('Subscribe', 'button').ref });
  assert.ok(view.sees('Subscribed.'), sent.text);
});
