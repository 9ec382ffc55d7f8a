// Delayed renders through the real chain (tests/sites/delayed.html): whatever an action changes
// after 50, 150 or 400 ms, after two chained timers, after a 300 ms fetch, with a CSS transition
// or when one ends, or after a debounce and a request (search as you type) is in the FactPack the
// action answers; a timer longer than the ones waited for is reported as work for later; a loop the
// action starts, or a spinner inside an aria-hidden subtree (not in the FactPack), does not hold
// the answer until the stabilization cap; a DOM that keeps changing where the agent sees it does,
// and says so (tests/e2e/faults.test.mjs). An answer that waited for what it should only report
// shows it in its FactPack ("did not settle", the late render): that is what is asserted. Each
// click's time is printed as a diagnostic only (the figures that matter are in bench/RESULTS.md).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useChain } from './lib/use-chain.mjs';
import { WAIT } from '../support/wait.mjs';

let sites;
let chain;

useChain((s, c) => { sites = s; chain = c; });

/**
 * The ref of the element named `name`: from the FactPack, else (a region the agent has seen
 * before is summarised as unchanged) from find.
 */
async function refOf(fp, name) {
  const shown = fp.elements.find((e) => e.name === name)?.ref;
  if (shown) return shown;
  const found = await chain.call('find', { name });
  const m = new RegExp(`^\\s*(e\\d+) \\w+ "${name}"`, 'm').exec(found.text);
  assert.ok(m, `no element "${name}": ${found.text}`);
  return m[1];
}

/** Clicks a button of a fresh delayed.html: [the click's answer, its milliseconds]. */
async function clickOnFreshPage(name) {
  const nav = await chain.call('navigate', { url: sites.url('/sites/delayed.html') });
  assert.equal(nav.isError, false, nav.text);
  const ref = await refOf(nav.fp, name);
  const t0 = Date.now();
  const r = await chain.call('click', { ref, version: nav.fp.version });
  assert.equal(r.isError, false, r.text);
  return [r, Date.now() - t0];
}

for (const [button, shows] of [
  ['Render in 50 ms', 'Rendered after 50 ms'],
  ['Render in 150 ms', 'Rendered after 150 ms'],
  ['Render in 400 ms', 'Rendered after 400 ms'],
  ['Fetch for 300 ms', 'Fetched after 300 ms'],
  ['Fade in', 'Faded in'],
  ['Render after two timers', 'Rendered after a chain of timers'],
  ['Fade, then say', 'Said after the fade'],
  ['Change at once', 'Clicked at once'],
]) {
  test(`${button}: the click's FactPack shows "${shows}"`, async (t) => {
    const [r, ms] = await clickOnFreshPage(button);
    assert.match(r.text, new RegExp(`status "${shows}"`));
    assert.doesNotMatch(r.text, /did not settle|scheduled more work/);
    t.diagnostic(`${button}: ${ms} ms`);
  });
}

// A transition that ends at opacity 0 takes its text off the page: the click's FactPack is taken
// once it has ended (page/watcher.js `inert`), so the text is gone from it, not shown faded.
test('Fade out: the faded text is gone from the click\'s FactPack', async (t) => {
  const nav = await chain.call('navigate', { url: sites.url('/sites/delayed.html') });
  assert.equal(nav.isError, false, nav.text);
  const text = await refOf(nav.fp, 'About to fade away');
  const t0 = Date.now();
  const r = await chain.call('click', { ref: await refOf(nav.fp, 'Fade out'), version: nav.fp.version });
  assert.equal(r.isError, false, r.text);
  assert.match(r.text, /status "Fading out"/);
  assert.match(r.text, new RegExp(`<removed>[^<]*\\b${text}\\b`), r.text);
  t.diagnostic(`Fade out: ${Date.now() - t0} ms`);
});

// A transition that only moves a box inside the viewport and paints it changes no line: the
// FactPack shows the banner as it is, and the page's status.
test('Slide the banner: a move and a colour change leave the banner\'s line as it was', async (t) => {
  const [r, ms] = await clickOnFreshPage('Slide the banner');
  assert.match(r.text, /status "Slid"/);
  assert.doesNotMatch(r.text, /A banner that slides/, 'the banner\'s line did not change: a delta does not repeat it');
  assert.doesNotMatch(r.text, /did not settle/);
  t.diagnostic(`Slide the banner: ${ms} ms`);
});

test('a click that changes nothing answers "no change" without waiting for anything', async (t) => {
  const [r, ms] = await clickOnFreshPage('Do nothing');
  assert.equal(r.fp.type, 'no_change', r.text);
  t.diagnostic(`click that changes nothing: ${ms} ms`);
});

test('a timer longer than the ones waited for is reported, and what it renders is in the next FactPack', async (t) => {
  const [r, ms] = await clickOnFreshPage('Render in 1500 ms');
  // How much of the 1,500 ms is left when the click answers depends on the machine's load; that
  // some is left, and said, does not.
  const left = Number(/scheduled more work (\d+) ms from now/.exec(r.text)?.[1] ?? NaN);
  assert.ok(left > 0 && left <= 1500, `the pending timer is reported with what is left of it: ${r.text}`);
  assert.doesNotMatch(r.text, /Rendered after 1500 ms/, 'the click waited for a timer it should only report');
  const page = chain.context.pages().find((p) => p.url().endsWith('/sites/delayed.html'));
  await page.waitForFunction(() => document.body.textContent.includes('Rendered after 1500 ms'), null, { timeout: WAIT.stateMs });
  const next = await chain.call('snapshot', {});
  assert.match(next.text, /status "Rendered after 1500 ms"/);
  t.diagnostic(`click with a 1,500 ms timer: ${ms} ms`);
});

test('a loop the action starts is waited for at most a couple of rounds, not until the cap', async (t) => {
  const [r, ms] = await clickOnFreshPage('Start polling');
  assert.match(r.text, /status "Polling"/);
  assert.doesNotMatch(r.text, /did not settle/);
  // The loop keeps running: the next action is not held by it either.
  const nav = await chain.call('snapshot', {});
  const ref = await refOf(nav.fp, 'Change at once');
  const t0 = Date.now();
  const again = await chain.call('click', { ref, version: nav.fp.version });
  assert.match(again.text, /status "Clicked at once"/);
  assert.doesNotMatch(again.text, /did not settle/);
  t.diagnostic(`click that starts a 100 ms loop: ${ms} ms; next click ${Date.now() - t0} ms`);
});

test('search as you type: the debounce, the request and the results are all waited for', async (t) => {
  const nav = await chain.call('navigate', { url: sites.url('/sites/delayed.html') });
  const ref = await refOf(nav.fp, 'Search');
  const t0 = Date.now();
  const r = await chain.call('type', { ref, text: 'tea', version: nav.fp.version });
  assert.match(r.text, /link "Result for tea"/);
  assert.doesNotMatch(r.text, /did not settle/);
  t.diagnostic(`type with a 250 ms debounce and a 200 ms request: ${Date.now() - t0} ms`);
});

test('a spinner the agent cannot see (aria-hidden) does not hold the answer until the cap', async (t) => {
  const [r, ms] = await clickOnFreshPage('Start the spinner');
  assert.match(r.text, /status "Working"/);
  assert.doesNotMatch(r.text, /did not settle/);
  t.diagnostic(`click with an aria-hidden spinner running: ${ms} ms`);
});
