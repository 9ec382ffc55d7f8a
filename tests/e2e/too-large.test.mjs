// A page too large to capture (1,000,000 elements): the answer names the real cause (our own
// snapshot did not come back in time, not a script of the page) and the way on.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useChain } from './lib/use-chain.mjs';

let sites;
let chain;

useChain((s, c) => { sites = s; chain = c; });

test('a page of 1,000,000 elements: page_too_large, naming the capture and what still works', async () => {
  const r = await chain.call('navigate', { url: sites.url('/sites/million.html') });
  assert.equal(r.isError, true, r.text);
  assert.match(r.text, /^error page_too_large: .*too large to capture.*not a script of the page.*read with a region or a ref/, r.text);
  assert.doesNotMatch(r.text, /a script of the page is still running/);
});
