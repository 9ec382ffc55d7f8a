// Look before pressing (docs/design.md, "Before pressing"), through the whole chain (MCP SDK client ->
// athena-bridge mcp -> native host -> extension -> Chromium): a button under a fixed cookie banner
// is not pressed and the error names the banner's button by its ref; a scroll that clears it is
// used; a transparent iframe from a blocked site laid over a button never gets the click; type
// replaces what a field holds, append adds to it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AgentView } from '../support/factpack-text.mjs';
import { until } from '../support/wait.mjs';
import { useChain } from './lib/use-chain.mjs';
import { act as actAs, pageShowing as pageAt, refOf } from './lib/agent-steps.mjs';
import { policyApplied } from './lib/worker-state.mjs';

let sites;
let chain;

useChain((s, c) => { sites = s; chain = c; });

/** Sets the user's policy as the options page stores it, and waits until the worker follows it. */
async function setPolicy(policy) {
  await chain.worker.evaluate((p) => chrome.storage.local.set({ policy: p }), policy);
  await policyApplied(chain.worker);
}

const act = (/** @type {AgentView} */ view, /** @type {string} */ tool, /** @type {object} */ args) => actAs(chain, view, tool, args);
const pageShowing = (/** @type {string} */ path) => pageAt(chain, path);

test('a button under a fixed cookie banner: nothing pressed, the banner\'s button named; once it is accepted, the order is placed', async () => {
  await setPolicy({});
  const view = new AgentView();
  const nav = await act(view, 'navigate', { url: sites.url('/sites/covered.html') });
  assert.equal(nav.isError, false, nav.text);
  const place = refOf(view, 'button', 'Place order');
  const accept = refOf(view, 'button', 'Accept all cookies');

  const blocked = await chain.call('click', { ref: place, version: nav.fp.version });
  assert.equal(blocked.isError, true, blocked.text);
  assert.ok(blocked.text.startsWith(`error covered: button "Accept all cookies" (${accept}) is over ${place} button "Place order": nothing was pressed`), blocked.text);
  const page = await pageShowing('/sites/covered.html');
  assert.equal(await page.locator('#log').textContent(), 'Nothing yet', 'neither button was pressed');

  const accepted = await act(view, 'click', { ref: accept, version: nav.fp.version });
  assert.equal(accepted.isError, false, accepted.text);
  assert.ok(view.sees('Cookies accepted'), accepted.text);
  const placed = await act(view, 'click', { ref: place, version: accepted.fp.version });
  assert.equal(placed.isError, false, placed.text);
  assert.ok(view.sees('Order placed'), placed.text);
});

test('a button the banner covers until the page scrolls it up: scrolled clear and pressed', async () => {
  await setPolicy({});
  const view = new AgentView();
  const nav = await act(view, 'navigate', { url: sites.url('/sites/covered.html') });
  assert.equal(nav.isError, false, nav.text);
  const r = await act(view, 'click', { ref: refOf(view, 'button', 'Subscribe'), version: nav.fp.version });
  assert.equal(r.isError, false, r.text);
  assert.ok(view.sees('Subscribed'), r.text);
  const page = await pageShowing('/sites/covered.html');
  assert.equal(await page.locator('#log').textContent(), 'Subscribed', 'the click reached Subscribe, not the banner');
});

test('a transparent iframe from a blocked site over a button: refused, and the blocked frame got no press', async () => {
  const other = new URL(sites.otherOrigin);
  await setPolicy({ block: [other.hostname] });
  const view = new AgentView();
  const nav = await act(view, 'navigate', { url: sites.url(`/sites/clickjack.html?other=${encodeURIComponent(sites.otherOrigin)}`) });
  assert.equal(nav.isError, false, nav.text);
  const page = await pageShowing('/sites/clickjack.html');
  let frame;
  await until('the blocked site\'s frame loaded', async () => {
    frame = page.frames().find((f) => f.url().includes('/sites/clickjack-frame.html'));
    return !!frame && (await frame.evaluate(() => document.readyState).catch(() => '')) === 'complete';
  });
  const confirm = refOf(view, 'button', 'Confirm transfer');
  const r = await chain.call('click', { ref: confirm, version: nav.fp.version });
  assert.equal(r.isError, true, r.text);
  assert.ok(r.text.startsWith(`error blocked_origin: a frame from ${other.host} that the user's policy withholds is over ${confirm} button "Confirm transfer": a press there would land in a frame the user's policy withholds, so nothing was pressed`), r.text);
  assert.equal(await frame.evaluate(() => document.body.dataset.pressed ?? 'no'), 'no', 'the blocked frame received no press');
  assert.equal(await page.locator('#log').textContent(), 'Nothing yet');
});

test('type replaces what a field holds ("50", type "25": "25"); append adds to it', async () => {
  await setPolicy({});
  const view = new AgentView();
  const nav = await act(view, 'navigate', { url: sites.url('/sites/prefilled.html') });
  assert.equal(nav.isError, false, nav.text);
  const limit = refOf(view, 'textbox', 'Daily limit');
  assert.equal(view.elements.get(limit).value, '50');

  const typed = await act(view, 'type', { ref: limit, text: '25', version: nav.fp.version });
  assert.equal(typed.isError, false, typed.text);
  assert.equal(view.elements.get(limit).value, '25', typed.text);
  assert.ok(view.sees('Limit 25'), typed.text);

  const appended = await act(view, 'type', { ref: limit, text: '0', append: true, version: typed.fp.version });
  assert.equal(appended.isError, false, appended.text);
  assert.equal(view.elements.get(limit).value, '250', appended.text);

  const note = refOf(view, 'textbox', 'Note');
  const replaced = await act(view, 'type', { ref: note, text: 'only line', version: appended.fp.version });
  assert.equal(replaced.isError, false, replaced.text);
  const page = await pageShowing('/sites/prefilled.html');
  assert.equal(await page.locator('#note').inputValue(), 'only line');
  assert.equal(await page.locator('#limit').inputValue(), '250');
});

test('scroll at a button a banner covers moves the page that holds it and presses nothing; at a field that holds a value, the value stays', async () => {
  await setPolicy({});
  const view = new AgentView();
  const nav = await act(view, 'navigate', { url: sites.url('/sites/covered.html') });
  assert.equal(nav.isError, false, nav.text);
  const page = await pageShowing('/sites/covered.html');
  // "Subscribe" lies under the cookie banner: scroll aims at the box that holds it (the page), never at the banner.
  const r = await act(view, 'scroll', { ref: refOf(view, 'button', 'Subscribe'), direction: 'down', amount: 100, version: nav.fp.version });
  assert.equal(r.isError, false, r.text);
  assert.equal(await page.evaluate(() => scrollY), 100);
  assert.equal(await page.locator('#log').textContent(), 'Nothing yet', 'nothing was pressed');

  const filled = await act(view, 'navigate', { url: sites.url('/sites/prefilled.html') });
  assert.equal(filled.isError, false, filled.text);
  const limit = refOf(view, 'textbox', 'Daily limit');
  // A page shorter than the window: nothing can scroll, and the answer says nothing changed.
  const s = await act(view, 'scroll', { ref: limit, direction: 'down', version: filled.fp.version });
  assert.equal(s.isError, false, s.text);
  assert.equal(s.fp.type, 'no_change', s.text);
  assert.equal(await (await pageShowing('/sites/prefilled.html')).locator('#limit').inputValue(), '50');
});

test('a press lands on what the agent aimed at, not on a control at its centre: an open folder, a row around its Edit button', async () => {
  // tests/sites/tree.html: Shoelace's open "docs" folder has README.md at its centre; the row's
  // centre is its Edit button. Each press is tried at the other points inside the element.
  await setPolicy({});
  const view = new AgentView();
  const nav = await act(view, 'navigate', { url: sites.url('/sites/tree.html') });
  assert.equal(nav.isError, false, nav.text);
  const page = await pageShowing('/sites/tree.html');
  const docs = refOf(view, 'treeitem', 'docs');
  const folder = await act(view, 'click', { ref: docs, version: view.version });
  assert.equal(folder.isError, false, folder.text);
  assert.equal(await page.locator('#log').textContent(), 'Selected docs');
  assert.equal(await page.locator('sl-tree-item[data-name="docs"]').getAttribute('aria-selected'), 'true');
  const row = [...view.elements.values()].find((e) => e.role === 'row' && e.name.startsWith('Order 1002'));
  assert.ok(row, nav.text);
  const selected = await act(view, 'click', { ref: row.ref, version: view.version });
  assert.equal(selected.isError, false, selected.text);
  assert.equal(await page.locator('#log').textContent(), 'Selected order 1002');
  assert.ok(view.sees('Selected order 1002'), selected.text);
  // The Edit button itself still takes its own press.
  const edit = await act(view, 'click', { ref: refOf(view, 'button', 'Edit'), version: view.version });
  assert.equal(edit.isError, false, edit.text);
  assert.equal(await page.locator('#log').textContent(), 'Editing order 1002');
});

test('a button that never stops moving is not pressed; one that lifts on :hover as the pointer arrives is pressed and hovered', async () => {
  // tests/sites/moving.html. A click waits one animation frame before the pointer moves and takes
  // the move's own frame as the second (extension/lib/actionability.js confirm): "Sliding" moves
  // in every frame, so it is refused before the pointer goes; "Lift" changes its box in the frame
  // the pointer arrives in, by its :hover style, which is the page answering the pointer.
  await setPolicy({});
  const view = new AgentView();
  const nav = await act(view, 'navigate', { url: sites.url('/sites/moving.html') });
  assert.equal(nav.isError, false, nav.text);
  const page = await pageShowing('/sites/moving.html');
  const slide = refOf(view, 'button', 'Sliding');
  const moving = await chain.call('click', { ref: slide, version: view.version });
  assert.equal(moving.isError, true, moving.text);
  assert.ok(moving.text.startsWith(`error not_stable: ${slide} button "Sliding" kept moving`), moving.text);
  assert.equal(await page.locator('#log').textContent(), 'Nothing yet', 'the sliding button was not pressed');

  const lift = refOf(view, 'button', 'Lift');
  const hovered = await act(view, 'hover', { ref: lift, version: view.version });
  assert.equal(hovered.isError, false, hovered.text);
  assert.equal(await page.evaluate(() => document.body.dataset.hovered ?? ''), 'lift', 'the pointer is over Lift');
  // Away and back, so that the click's own move is the one that brings the pointer over it.
  const away = await act(view, 'hover', { ref: refOf(view, 'heading', 'Moving buttons'), version: view.version });
  assert.equal(away.isError, false, away.text);
  const pressed = await act(view, 'click', { ref: lift, version: view.version });
  assert.equal(pressed.isError, false, pressed.text);
  assert.equal(await page.locator('#log').textContent(), 'Lift pressed');
  assert.ok(view.sees('Lift pressed'), pressed.text);
});
