// Delayed renders through the real chain (tests/sites/delayed.html): whatever an action changes
// after 50, 150 or 400 ms, after a 300 ms fetch or with a CSS transition is in the FactPack the
// action answers; a spinner inside an aria-hidden subtree (not in the FactPack) does not hold the
// answer until the stabilization cap; a DOM that keeps changing where the agent sees it does, and
// says so (tests/e2e/faults.test.mjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useChain } from './lib/use-chain.mjs';
import { LIMITS } from '../../extension/lib/limits.js';

let sites;
let chain;

useChain((s, c) => { sites = s; chain = c; });

/** Clicks a button of a fresh delayed.html: [the click's answer, its milliseconds]. */
async function clickOnFreshPage(name) {
  const nav = await chain.call('navigate', { url: sites.url('/sites/delayed.html') });
  assert.equal(nav.isError, false, nav.text);
  const ref = nav.fp.elements.find((e) => e.name === name)?.ref;
  assert.ok(ref, `no button "${name}": ${nav.text}`);
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
]) {
  test(`${button}: the click's FactPack shows "${shows}"`, async () => {
    const [r] = await clickOnFreshPage(button);
    assert.match(r.text, new RegExp(`status "${shows}"`));
    assert.doesNotMatch(r.text, /did not settle/);
  });
}

test('a spinner the agent cannot see (aria-hidden) does not hold the answer until the cap', async (t) => {
  const [r, ms] = await clickOnFreshPage('Start the spinner');
  assert.match(r.text, /status "Working"/);
  assert.doesNotMatch(r.text, /did not settle/);
  assert.ok(ms < LIMITS.stabilizeCapMs / 2, `the click took ${ms} ms`);
  t.diagnostic(`click with an aria-hidden spinner running: ${ms} ms`);
});
