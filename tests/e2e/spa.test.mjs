// A single-page app through the whole chain (issue 52, "Single-page apps as deltas"): Vue and
// vue-router from npm (tests/sites/spa.html), an agent that filters a list, opens an item, goes
// back and forward. Every step stays in one document (pushState), so every answer is a delta:
// the region where most changed replaced, the header and nav the agent holds never repeated, and
// back and forward give the agent the refs it already had for what is the same.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useChain } from './lib/use-chain.mjs';
import { AgentView, canonicalLine } from '../support/factpack-text.mjs';

/** @type {any} */ let sites;
/** @type {any} */ let chain;
useChain((s, c) => { sites = s; chain = c; });

/** Tokens as the core estimates them (limits.h kBytesPerToken: 3 bytes a token). */
const tokens = (/** @type {string} */ s) => Math.ceil(Buffer.byteLength(s) / 3);

/** The lines the agent holds now that it did not hold, as a full writes them (outline indent aside): what changed. */
function changedLines(/** @type {AgentView} */ before, /** @type {AgentView} */ after) {
  const had = new Set(before.canonical());
  return [...after.elements.values()].map(canonicalLine).filter((line) => !had.has(line));
}

/** A copy of what the agent holds (to measure what a step changed). */
function copy(/** @type {AgentView} */ v) {
  const c = new AgentView();
  c.elements = new Map(v.elements);
  return c;
}

test('a Vue app with routes: filter, open an item, back, forward are deltas that keep the header, the nav and the refs', async () => {
  const view = new AgentView();
  const figures = [];
  const step = (/** @type {string} */ name, /** @type {any} */ r, /** @type {AgentView} */ was) => {
    assert.equal(r.isError, false, r.text);
    assert.deepEqual(view.apply(r.fp), [], r.text);
    const changed = changedLines(was, view).join('\n');
    figures.push({ step: name, type: r.fp.type, tokens: tokens(r.text), changed: tokens(changed) });
  };

  const nav = await chain.call('navigate', { url: sites.url('/sites/spa.html') });
  assert.equal(nav.fp.type, 'full', nav.text);
  step('navigate', nav, new AgentView());
  const link = (/** @type {string} */ name) => view.findElement(name, 'link')?.ref;
  const listRefs = Object.fromEntries(['Apple', 'Apricot', 'Banana', 'Cherry', 'Pear'].map((n) => [n, link(n)]));
  for (const [n, ref] of Object.entries(listRefs)) assert.ok(ref, `no link "${n}" in\n${nav.text}`);
  // The header's and the nav's links (the list's heading says "All fruit" too: a heading).
  const header = ['Fruit stand', 'All fruit', 'About us', 'Contact'];
  for (const name of header) assert.ok(nav.fp.elements.some((e) => e.role === 'link' && e.name === name), nav.text);
  /** No line of the header or the nav is listed again (a nav link that stops being `current` is a modified line, not the nav). */
  const notRepeated = (/** @type {any} */ r) => {
    const again = r.fp.elements.filter((/** @type {any} */ e) => e.role === 'link' && header.includes(e.name));
    assert.deepEqual(again.map((/** @type {any} */ e) => e.name), [], `the header and nav are not repeated:\n${r.text}`);
    assert.ok(!r.fp.regions.some((/** @type {any} */ g) => g.name === 'header' || g.name === 'nav'), r.text);
  };

  // Typing into the filter: most of the list goes, in the same document. A delta, no <removed> list.
  let was = copy(view);
  const filter = view.findElement('Filter', 'textbox');
  assert.ok(filter, nav.text);
  const typed = await chain.call('type', { ref: filter.ref, text: 'ap', version: nav.fp.version });
  assert.equal(typed.fp?.type, 'delta', typed.text);
  assert.doesNotMatch(typed.text, /<removed>/);
  notRepeated(typed);
  step('filter', typed, was);
  assert.ok(view.findElement('Apricot', 'link') && view.findElement('Grape', 'link'), typed.text);
  assert.equal(view.findElement('Banana', 'link'), null, typed.text);
  // What still matches keeps its ref.
  assert.equal(link('Apricot'), listRefs.Apricot);

  // Opening an item: a route change (pushState). A delta whose changed region comes whole.
  was = copy(view);
  const open = await chain.call('click', { ref: listRefs.Apricot, version: typed.fp.version });
  assert.equal(open.fp?.type, 'delta', open.text);
  assert.ok(open.fp.regions.some((r) => r.replaced), open.text);
  assert.doesNotMatch(open.text, /<removed>/);
  notRepeated(open);
  step('open item', open, was);
  const heading = view.findElement('Apricot', 'heading');
  assert.ok(heading, open.text);
  assert.ok(view.sees('Price: 1.75 per kilo'), open.text);

  // Back: the list again (Vue renders it anew). A delta, and every line the agent was shown
  // before keeps the ref it had.
  was = copy(view);
  const back = await chain.call('back', { version: open.fp.version });
  assert.equal(back.fp?.type, 'delta', back.text);
  notRepeated(back);
  step('back', back, was);
  for (const [n, ref] of Object.entries(listRefs)) assert.equal(link(n), ref, `link "${n}" after back:\n${back.text}`);

  // Forward: the item again, its heading under the ref it was first shown by.
  was = copy(view);
  const forward = await chain.call('forward', { version: back.fp.version });
  assert.equal(forward.fp?.type, 'delta', forward.text);
  step('forward', forward, was);
  assert.equal(view.findElement('Apricot', 'heading')?.ref, heading.ref, forward.text);

  // The refs act: the item's button, by the ref the agent held since it opened the item.
  const add = await chain.call('click', { ref: view.findElement('Add to basket', 'button').ref, version: forward.fp.version });
  assert.equal(add.fp?.type, 'delta', add.text);
  step('add to basket', add, copy(view));
  assert.ok(view.sees('Apricot is in your basket'), add.text);

  // What the agent holds is the page: its own snapshot shows the same lines.
  const snap = await chain.call('snapshot');
  const fresh = new AgentView();
  assert.deepEqual(fresh.apply(snap.fp), []);
  assert.deepEqual(view.canonical(), fresh.canonical());

  // A route change costs little more than what changed (the measure: at most 1.5x), each
  // one: a delta that is main replaced names it in its tag (no <replaced> block around the lines),
  // so what is left beside the lines is the pack's tag, the nav link's <modified> block and the
  // outline's indent (bench/spa-results.md).
  for (const f of figures) console.log(`# spa ${f.step}: ${f.type}, ${f.tokens} tokens; the lines that changed ${f.changed} tokens (${(f.tokens / Math.max(1, f.changed)).toFixed(2)}x)`);
  const routes = figures.filter((f) => ['open item', 'back', 'forward'].includes(f.step));
  const sent = routes.reduce((n, f) => n + f.tokens, 0), changed = routes.reduce((n, f) => n + f.changed, 0);
  console.log(`# spa route changes: ${sent} tokens for ${changed} of changed lines (${(sent / changed).toFixed(2)}x)`);
  for (const f of routes) assert.ok(f.tokens <= 1.5 * f.changed, `${f.step}: ${f.tokens} tokens for ${f.changed} of changed lines:\n${open.text}\n${back.text}\n${forward.text}`);
  assert.match(open.text, /^<delta v="\d+" replaced="main">\ne\d+ heading "Apricot"/, open.text);
});
