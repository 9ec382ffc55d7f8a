// The policy holds for the whole input, not an instant (issue 53), through the whole chain (MCP
// SDK client -> athena-bridge mcp -> native host -> extension -> Chromium), against an allowed page
// that frames a blocked site's transfer form (tests/sites/ext/bank-form.html, which records every
// key, press and submit it receives): the page moves the keyboard focus into the blocked frame on
// load, in the focus handler of the field the agent types into, or in its keydown handler (the
// frame also inside an open or a closed shadow root of the page); or it
// lays the blocked frame over "Continue" and switches its pointer-events every animation frame.
// Each time the call is refused naming the frame that took the focus or the pointer, and the
// blocked frame receives nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AgentView } from '../support/factpack-text.mjs';
import { until } from '../support/wait.mjs';
import { useChain } from './lib/use-chain.mjs';
import { policyApplied } from './lib/worker-state.mjs';

let sites;
let chain;
/** What the agent holds (one agent: a page it saw before comes back as unchanged regions). */
const view = new AgentView();

useChain((s, c) => { sites = s; chain = c; });

/** Runs of the pointer-events race (issue 53 asks for at least 50). */
const RACE_RUNS = 50;

const other = () => new URL(sites.otherOrigin);

/** Blocks the other fixture site, opens `path` (?other= added) and waits for the bank's frame to load. */
async function openJacked(path) {
  await chain.worker.evaluate((p) => chrome.storage.local.set({ policy: p }), { block: [other().hostname] });
  await policyApplied(chain.worker);
  const url = sites.url(`${path}${path.includes('?') ? '&' : '?'}other=${encodeURIComponent(sites.otherOrigin)}`);
  const nav = await chain.call('navigate', { url });
  assert.equal(nav.isError, false, nav.text);
  view.apply(nav.text);
  const pathname = path.split('?')[0];
  let page, bank;
  await until('the blocked site\'s frame loaded', async () => {
    page = chain.context.pages().find((p) => p.url().includes(pathname));
    bank = page?.frames().find((f) => f.url().includes('/sites/ext/bank-form.html'));
    return !!bank && (await bank.evaluate(() => document.readyState).catch(() => '')) === 'complete';
  });
  return { view, page, bank };
}

/** What the blocked frame received (bank-form.html's record). */
const received = (bank) => bank.evaluate(() => document.body.dataset.received ?? '');

const refOf = (view, role, name) => {
  const e = [...view.elements.values()].find((x) => x.role === role && x.name === name);
  assert.ok(e, `no ${role} "${name}" among ${[...view.elements.values()].map((x) => `${x.role} "${x.name}"`).join(', ')}`);
  return e.ref;
};

test('the page put the focus in the blocked frame on load: press Enter with no ref is refused, the frame gets no key', async () => {
  const { page, bank } = await openJacked('/sites/ext/focus-jack.html?mode=load');
  await until('the focus in the blocked frame', async () => (await page.evaluate(() => document.activeElement?.id)) === 'bank');
  const r = await chain.call('press', { keys: 'Enter' });
  assert.equal(r.isError, true, r.text);
  assert.ok(r.text.startsWith(`error blocked_origin: the focus is in iframe "Partner offers" from ${other().host}, a frame the user's policy withholds (the page put it there): press stopped, nothing was sent there`), r.text);
  const tab = await chain.call('press', { keys: 'Tab' });
  assert.equal(tab.isError, true, tab.text);
  assert.equal(await received(bank), '', 'the blocked frame received nothing');
});

test('the field\'s focus handler moves the focus into the blocked frame: type, and press on the field, are refused before a key, the frame gets nothing', async () => {
  const { view, bank } = await openJacked('/sites/ext/focus-jack.html?mode=focus');
  const field = refOf(view, 'searchbox', 'Search products');
  const r = await chain.call('type', { ref: field, text: 'shoes', submit: true, version: view.version });
  assert.equal(r.isError, true, r.text);
  assert.ok(r.text.startsWith(`error blocked_origin: the focus is in iframe "Partner offers" from ${other().host}`), r.text);
  // press on a ref focuses it first: the same handler takes the focus before the first key.
  const p = await chain.call('press', { ref: field, keys: 'Enter', version: view.version });
  assert.equal(p.isError, true, p.text);
  assert.ok(p.text.startsWith(`error blocked_origin: the focus is in iframe "Partner offers" from ${other().host}, a frame the user's policy withholds (the page put it there): press stopped, nothing was sent there`), p.text);
  assert.equal(await received(bank), '', 'the blocked frame received nothing');
});

test('the field\'s keydown handler moves the focus into the blocked frame: the rest of the keys and Enter are not sent', async () => {
  const { view, page, bank } = await openJacked('/sites/ext/focus-jack.html?mode=keydown');
  const field = refOf(view, 'searchbox', 'Search products');
  const r = await chain.call('type', { ref: field, text: 'shoes', submit: true, version: view.version });
  assert.equal(r.isError, true, r.text);
  assert.ok(r.text.startsWith(`error blocked_origin: the focus is in iframe "Partner offers" from ${other().host}`), r.text);
  assert.ok(r.text.includes(`the first 4 characters were typed into ${field}`), r.text);
  assert.equal(await page.locator('#q').inputValue(), 'shoe');
  const p = await chain.call('press', { ref: field, keys: 'Enter', version: view.version });
  assert.equal(p.isError, true, p.text);
  assert.equal(await received(bank), '', 'the blocked frame received nothing');
});

// The frame inside a shadow root of the allowed page: document.activeElement stops at the shadow
// host, so the guard must follow the focus into the root (an open one from the page, a closed one
// through CDP, which reaches closed roots the page's own script cannot).
for (const mode of ['open', 'closed']) {
  test(`the blocked frame in the ${mode} shadow root of a custom element takes the focus on load: press Enter with no ref is refused naming it, the frame gets no key`, async () => {
    const { page, bank } = await openJacked(`/sites/ext/focus-jack.html?mode=load&shadow=${mode}`);
    // The page's own record: only its script can read a closed root's activeElement.
    await until('the focus in the blocked frame', async () => (await page.evaluate(() => document.body.dataset.focus)) === 'bank');
    const r = await chain.call('press', { keys: 'Enter' });
    assert.equal(r.isError, true, r.text);
    assert.ok(r.text.startsWith(`error blocked_origin: the focus is in iframe "Partner offers" from ${other().host}, a frame the user's policy withholds (the page put it there): press stopped, nothing was sent there`), r.text);
    assert.equal(await received(bank), '', 'the blocked frame received nothing');
  });

  test(`the field's focus handler moves the focus into the blocked frame in the ${mode} shadow root of a custom element: type, and press on the field, are refused naming it, the frame gets nothing`, async () => {
    const { view, bank } = await openJacked(`/sites/ext/focus-jack.html?mode=focus&shadow=${mode}`);
    const field = refOf(view, 'searchbox', 'Search products');
    const r = await chain.call('type', { ref: field, text: 'shoes', submit: true, version: view.version });
    assert.equal(r.isError, true, r.text);
    assert.ok(r.text.startsWith(`error blocked_origin: the focus is in iframe "Partner offers" from ${other().host}, a frame the user's policy withholds (the page put it there): type stopped, nothing was sent there`), r.text);
    const p = await chain.call('press', { ref: field, keys: 'Enter', version: view.version });
    assert.equal(p.isError, true, p.text);
    assert.ok(p.text.startsWith(`error blocked_origin: the focus is in iframe "Partner offers" from ${other().host}, a frame the user's policy withholds (the page put it there): press stopped, nothing was sent there`), p.text);
    assert.equal(await received(bank), '', 'the blocked frame received nothing');
  });
}

test(`a blocked frame over "Continue" that switches its pointer-events every frame: ${RACE_RUNS} clicks, none reaches it`, async () => {
  const { view, page, bank } = await openJacked('/sites/ext/pointer-jack.html');
  const go = refOf(view, 'button', 'Continue');
  let pressed = 0;
  for (let run = 0; run < RACE_RUNS; run++) {
    const r = await chain.call('click', { ref: go });
    if (r.isError) assert.ok(r.text.startsWith('error blocked_origin: '), r.text);
    else pressed++;
    assert.equal(await received(bank), '', `run ${run + 1}: the blocked frame received nothing (${r.text.slice(0, 200)})`);
  }
  // Each click that answered went to the button itself.
  assert.equal(await page.locator('#log').textContent(), pressed ? `Continued ${pressed}` : 'Nothing yet');
});

test('the page swaps "Delete account" under the pointer as it arrives over "Continue": nothing is pressed, the swapped-in button is named', async () => {
  await chain.worker.evaluate(() => chrome.storage.local.set({ policy: {} }));
  await policyApplied(chain.worker);
  const nav = await chain.call('navigate', { url: sites.url('/sites/ext/swap-jack.html') });
  assert.equal(nav.isError, false, nav.text);
  view.apply(nav.text);
  const go = refOf(view, 'button', 'Continue');
  const del = refOf(view, 'button', 'Delete account');
  const r = await chain.call('click', { ref: go, version: view.version });
  assert.equal(r.isError, true, r.text);
  assert.ok(r.text.startsWith(`error covered: button "Delete account" (${del}) came over ${go} button "Continue" as the pointer reached it`), r.text);
  const page = chain.context.pages().find((p) => p.url().includes('/sites/ext/swap-jack.html'));
  assert.equal(await page.locator('#log').textContent(), 'Nothing yet', 'neither button was pressed');
});

test(`the page swaps "Delete account" under the pointer after the last look, its busy main thread holding the press back: ${RACE_RUNS / 2} clicks, none presses it`, async (t) => {
  // tests/sites/ext/swap-race.html: 1 ms after the pointer comes over "Continue" the page keeps its
  // main thread busy for 30 ms, then puts "Delete account" there. The look once the pointer is
  // there has passed by then, and the press waits behind the busy task: without the page's guard
  // over the press (Actionability.guardPress) "Delete account" took 9 of 12 such clicks, and the
  // agent was told the click went well. Now the press is cancelled in the page and named.
  await chain.worker.evaluate(() => chrome.storage.local.set({ policy: {} }));
  await policyApplied(chain.worker);
  const nav = await chain.call('navigate', { url: sites.url('/sites/ext/swap-race.html') });
  assert.equal(nav.isError, false, nav.text);
  view.apply(nav.text);
  const go = refOf(view, 'button', 'Continue');
  const del = refOf(view, 'button', 'Delete account');
  const heading = refOf(view, 'heading', 'Settings');
  const page = chain.context.pages().find((p) => p.url().includes('/sites/ext/swap-race.html'));
  let pressed = 0, atPress = 0, atLook = 0;
  for (let run = 0; run < RACE_RUNS / 2; run++) {
    // The pointer away, and "Continue" back in its place: the click's own move brings the pointer over it.
    const away = await chain.call('hover', { ref: heading });
    assert.equal(away.isError, false, away.text);
    await until('"Continue" back in its place', async () => (await page.evaluate(() => document.body.dataset.swapped ?? '0')) === '0');
    const r = await chain.call('click', { ref: go });
    if (!r.isError) pressed++;
    else if (r.text.startsWith(`error covered: button "Delete account" (${del}) was under the pointer at the moment of the press on ${go} button "Continue"`)) atPress++;
    else {
      assert.ok(r.text.startsWith(`error covered: button "Delete account" (${del}) came over ${go} button "Continue" as the pointer reached it`), r.text);
      atLook++;
    }
    assert.equal(await page.evaluate(() => document.body.dataset.deleted ?? '0'), '0', `run ${run + 1}: "Delete account" was not pressed (${r.text.slice(0, 200)})`);
  }
  t.diagnostic(`${RACE_RUNS / 2} clicks: ${pressed} pressed "Continue", ${atPress} cancelled at the press, ${atLook} refused at the look`);
  assert.equal(await page.locator('#log').textContent(), pressed ? `Continued ${pressed}` : 'Nothing yet');
});
