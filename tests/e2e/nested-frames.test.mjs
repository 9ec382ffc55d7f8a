// Nested cross-site frames through the whole chain: shop (127.0.0.1) -> widget (localhost) ->
// payment (127.0.0.1), each document cross-site to its parent, so each frame is attached through
// its parent frame's session. Loaded again and again, and left: the payment page loads in the
// user's tab each time, its button is in the FactPack, and no answer carries a warning of a frame
// session left behind (one more "could not be captured" per page, before).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useChain } from './lib/use-chain.mjs';

let sites;
let chain;

useChain((s, c) => { sites = s; chain = c; });

test('shop -> cdn -> bank frames: each load shows the innermost frame, and nothing is left behind', async (t) => {
  const shop = sites.url(`/sites/nested-shop.html?other=${encodeURIComponent(sites.otherOrigin)}`);
  const rounds = 8;
  let warned = 0;
  for (let i = 0; i < rounds; i++) {
    const nav = await chain.call('navigate', { url: shop });
    assert.equal(nav.isError, false, nav.text);
    // The innermost frame loaded in the user's tab, and the agent sees its button.
    const page = chain.context.pages().find((p) => p.url().includes('/sites/nested-shop.html'));
    await page.frameLocator('#cdn').frameLocator('#pay').locator('#pay').waitFor();
    const shown = nav.fp.elements.some((e) => e.role === 'button' && e.name === 'Pay 10.00') ? nav : await chain.call('snapshot', {});
    assert.ok(shown.fp.elements.some((e) => e.role === 'button' && e.name === 'Pay 10.00'), shown.text);
    const away = await chain.call('navigate', { url: sites.url('/sites/login.html') });
    assert.equal(away.isError, false, away.text);
    for (const r of [nav, shown, away]) if (/could not be captured/.test(r.text)) warned++;
  }
  const last = await chain.call('snapshot', {});
  t.diagnostic(`${rounds} rounds: ${warned} answers warned of a frame that could not be captured`);
  assert.equal(warned, 0);
  assert.doesNotMatch(last.text, /could not be captured/, last.text);
});
