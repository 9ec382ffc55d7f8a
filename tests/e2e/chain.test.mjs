// The whole product chain, end to end, as a user runs it: the official MCP SDK client ->
// athena-bridge mcp -> native host (spawned by Chromium) -> the extension's service worker ->
// chrome.debugger -> real pages on the fixture sites. Nothing is mocked.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { root } from './lib/chain.mjs';
import { useChain } from './lib/use-chain.mjs';
import { AgentView } from '../support/factpack-text.mjs';
import { loadAthena } from '../wasm/load.mjs';

let sites;
let chain;
/** What the first agent holds across the tests (one MCP session), from the text of every answer it got. */
const held = new AgentView();

useChain((s, c) => {
  sites = s;
  // The first agent's answers also go into `held` (a re-navigation to a page it saw shows its regions unchanged).
  chain = { ...c, call: async (name, args = {}, client) => {
    const r = await c.call(name, args, client);
    if (!client && r.fp) held.apply(r.fp);
    return r;
  } };
});

/** The agent tab as Playwright sees it (to check that the page really changed). */
function agentPage(urlPart) {
  const pages = chain.context.pages().filter((p) => p.url().includes(urlPart));
  assert.ok(pages.length > 0, `no tab shows ${urlPart}; tabs: ${chain.context.pages().map((p) => p.url()).join(', ')}`);
  return pages[pages.length - 1];
}

// Everything below reads the FactPack TEXT (parsed: r.fp), exactly what the model gets; never
// structuredContent (clients differ on it; Athena sends none by default).
/** The ref of role+name in this FactPack, else among what the agent holds (regions it was told are unchanged). */
const refOf = (fp, role, name) => {
  assert.ok(fp, 'no FactPack to look in');
  const all = [...fp.elements, ...fp.modified];
  const e = all.find((x) => x.role === role && x.name === name) ?? [...held.elements.values()].find((x) => x.role === role && x.name === name);
  assert.ok(e, `no ${role} "${name}" in the FactPack nor held: ${JSON.stringify(all.map((x) => `${x.role} ${x.name}`))}`);
  return e.ref;
};

/** The ref of role+name from what the agent holds; if the text trimmed it, through the find tool (as its gap line says). */
async function refVia(view, role, name) {
  const held = [...view.elements.values()].find((e) => e.role === role && e.name === name);
  if (held) return held.ref;
  assert.ok(view.gaps.length > 0, `no ${role} "${name}" in the view and no gap line says anything was trimmed`);
  const r = await chain.call('find', { role, name });
  assert.equal(r.isError, false, r.text);
  assert.equal(r.fp?.type, 'find', r.text);
  view.apply(r.fp);
  const found = r.fp.elements.find((e) => e.role === role && e.name === name);
  assert.ok(found, `find did not list ${role} "${name}": ${r.text}`);
  return found.ref;
}

test('navigate gives a full FactPack; a click on Bootstrap opens a modal overlay; closing it says so', async () => {
  const nav = await chain.call('navigate', { url: sites.url('/sites/bootstrap.html') });
  assert.equal(nav.isError, false, nav.text);
  assert.equal(nav.fp.type, 'full');
  assert.match(nav.text, /^<full v="\d+"/);
  let v = nav.fp.version;
  const open = await chain.call('click', { ref: refOf(nav.fp, 'button', 'Add to cart'), version: v });
  assert.equal(open.isError, false, open.text);
  assert.equal(open.fp.type, 'overlay_opened');
  // The modal is named once, by its region's label.
  assert.match(open.text, /^<overlay_opened v="\d+" overlay="modal">\n<region name="dialog" label="Added to cart">\n/);
  assert.equal(open.fp.overlay.name, 'Added to cart');
  assert.ok(await agentPage('/sites/bootstrap.html').locator('#cart.show').isVisible());
  v = open.fp.version;
  const typed = await chain.call('type', { ref: refOf(open.fp, 'textbox', 'Gift note'), text: 'Happy birthday', version: v });
  assert.equal(typed.isError, false, typed.text);
  assert.equal(typed.fp.type, 'delta');
  const gift = refOf(open.fp, 'textbox', 'Gift note');
  assert.deepEqual(typed.fp.modified.map((m) => m.ref), [gift]);
  const view = new AgentView();
  for (const r of [nav, open, typed]) assert.deepEqual(view.apply(r.fp), []);
  assert.equal(view.elements.get(gift).value, 'Happy birthday');
  assert.equal(await agentPage('/sites/bootstrap.html').inputValue('#note'), 'Happy birthday');
  // An agent whose client dropped the earlier answers recovers with a snapshot taken while the modal
  // is open: its region says it is the modal's, so the close below takes exactly its refs along.
  const snap = await chain.call('snapshot', {});
  assert.equal(snap.isError, false, snap.text);
  assert.equal(snap.fp.reason, 'requested', snap.text);
  assert.match(snap.text, /\n<region name="dialog" label="Added to cart" overlay="modal">\n/);
  assert.equal(snap.fp.regions.filter((r) => r.overlay).length, 1, snap.text);
  const recovered = new AgentView();
  assert.deepEqual(recovered.apply(snap.fp), []);
  assert.equal(recovered.elements.get(gift).value, 'Happy birthday');
  const close = await chain.call('click', { ref: refOf(open.fp, 'button', 'Keep shopping'), version: snap.fp.version });
  assert.equal(close.isError, false, close.text);
  assert.equal(close.fp.type, 'overlay_closed');
  // The modal's six refs (heading, Close, Quantity, Gift note, Keep shopping, Checkout) go with it:
  // its tag says so, and nothing else changed.
  assert.equal(close.text.trim(), `<overlay_closed v="${close.fp.version}" overlay="modal"/>`);
  for (const held of [view, recovered]) {
    assert.deepEqual(held.apply(close.fp), []);
    assert.equal(held.elements.has(gift), false);
    assert.ok(held.findElement('Add to cart', 'button'), 'the page under the modal is still held');
  }
  assert.deepEqual(recovered.canonical(), view.canonical());
});

test('a wizard whose next step replaces its dialog: the opened pack says the first closed, and the agent drops its refs', async () => {
  const view = new AgentView();
  const nav = await chain.call('navigate', { url: sites.url('/sites/wizard.html') });
  assert.deepEqual(view.apply(nav.fp), []);
  const first = await chain.call('click', { ref: view.findElement('New project', 'button').ref, version: view.version });
  assert.equal(first.fp.type, 'overlay_opened', first.text);
  assert.match(first.text, /^<overlay_opened v="\d+" overlay="modal">\n/);
  assert.deepEqual(view.apply(first.fp), []);
  const name = view.findElement('Project name', 'textbox').ref;
  const second = await chain.call('click', { ref: view.findElement('Next', 'button').ref, version: view.version });
  assert.equal(second.fp.type, 'overlay_opened', second.text);
  // The tag says one overlay closed; no line counts its refs.
  assert.match(second.text, /^<overlay_opened v="\d+" overlay="modal" closed="1">\n<region name="dialog" label="Step 2 of 2: confirm">\n/);
  assert.doesNotMatch(second.text, /<invalid/);
  assert.deepEqual(view.apply(second.fp), []);
  assert.equal(view.elements.has(name), false, 'the first step\'s field went with its dialog');
  assert.ok(view.sees('Create the project "Apollo"?'), second.text);
  const done = await chain.call('click', { ref: view.findElement('Create', 'button').ref, version: view.version });
  assert.equal(done.fp.type, 'overlay_closed', done.text);
  assert.deepEqual(view.apply(done.fp), []);
  assert.ok(view.sees('Project Apollo created.'), done.text);
  const snap = await chain.call('snapshot', {});
  const fresh = new AgentView();
  assert.deepEqual(fresh.apply(snap.fp), []);
  assert.deepEqual(view.canonical(), fresh.canonical(), snap.text);
});

test('a ref the agent was told is gone is refused, never clicked', async () => {
  const nav = await chain.call('navigate', { url: sites.url('/sites/bootstrap.html') });
  const open = await chain.call('click', { ref: refOf(nav.fp, 'button', 'Add to cart'), version: nav.fp.version });
  const keep = refOf(open.fp, 'button', 'Keep shopping');
  const checkout = refOf(open.fp, 'button', 'Checkout');
  const closed = await chain.call('click', { ref: keep, version: open.fp.version });
  assert.equal(closed.fp.type, 'overlay_closed');
  const stale = await chain.call('click', { ref: checkout, version: closed.fp.version });
  assert.equal(stale.isError, true);
  assert.match(stale.text, new RegExp(checkout));
  assert.equal(await agentPage('/sites/bootstrap.html').textContent('#status'), '');  // Checkout never ran
  const foreign = await chain.call('click', { ref: 'e999999' });  // never issued
  assert.equal(foreign.isError, true);
  const garbage = await chain.call('click', { ref: 'not-a-ref' });
  assert.equal(garbage.isError, true);
});

test('TodoMVC: typing a todo and submitting adds it; no_change when nothing changes', async () => {
  const nav = await chain.call('navigate', { url: sites.url('/todomvc/react/index.html') });
  assert.equal(nav.fp.type, 'full');
  const box = refOf(nav.fp, 'textbox', 'What needs to be done?');
  const add = await chain.call('type', { ref: box, text: 'Buy milk', submit: true, version: nav.fp.version });
  assert.equal(add.isError, false, add.text);
  assert.ok(['delta', 'full'].includes(add.fp.type));
  assert.match(add.text, /Buy milk/);
  assert.equal(await agentPage('/todomvc/react/').locator('#todo-list li, .todo-list li').count(), 1);
  const nothing = await chain.call('press', { keys: 'Shift', version: add.fp.version });
  assert.equal(nothing.isError, false, nothing.text);
  assert.equal(nothing.fp.type, 'no_change');
  assert.ok(nothing.text.length < 80, nothing.text);
});

test('iframes: typing and clicking inside a same-origin and a cross-site (out-of-process) frame', async () => {
  const nav = await chain.call('navigate', { url: sites.url('/sites/frames.html?other=' + encodeURIComponent(sites.otherOrigin)) });
  assert.equal(nav.fp.type, 'full');
  // The cross-site frame's document request ends in the frame's own session: the load is not
  // held up waiting for it (it was, on 5 loads in 6, for the whole settle cap).
  assert.deepEqual(nav.fp.warnings, [], nav.text);
  const email = refOf(nav.fp, 'textbox', 'Email');
  assert.match(nav.fp.elements.find((e) => e.ref === email)?.frame ?? 'f0', /^f[1-9]\d*$/);  // a frame other than the main one
  // A find answer's line says the frame too: it has no region line to say it.
  const found = await chain.call('find', { role: 'textbox', name: 'Email' });
  assert.equal(found.fp.find.elements.length, 1, found.text);
  assert.equal(found.fp.find.elements[0].frame, nav.fp.elements.find((e) => e.ref === email)?.frame, found.text);
  const typed = await chain.call('type', { ref: email, text: 'ada@example.com', version: nav.fp.version });
  assert.equal(typed.isError, false, typed.text);
  const sub = await chain.call('click', { ref: refOf(nav.fp, 'button', 'Subscribe'), version: typed.fp.version });
  assert.equal(sub.isError, false, sub.text);
  assert.match(sub.text, /Subscribed ada@example.com/);
  const apply = await chain.call('click', { ref: refOf(nav.fp, 'button', 'Apply coupon'), version: sub.fp.version });
  assert.equal(apply.isError, false, apply.text);
  assert.match(apply.text, /Coupon applied/);
});

test('radio groups: each question is a line, its answers under it, and a click changes the answers of that one', async () => {
  const nav = await chain.call('navigate', { url: sites.url('/sites/checkout-options.html') });
  assert.equal(nav.fp.type, 'full', nav.text);
  const outline = nav.fp.elements.map((e) => `${' '.repeat(e.depth ?? 0)}${e.role} ${e.name}`);
  assert.deepEqual(outline, ['heading Checkout options', 'group Gift wrap', ' radio Yes', ' radio No', 'group Leave at the door', ' radio Yes',
    ' radio No', ' text The courier takes a photo of the parcel.', 'group Notify me by', ' checkbox Email', ' checkbox SMS',
    'radiogroup Delivery speed', ' radio Standard', ' radio Express'], nav.text);
  const wrapYes = nav.fp.elements[2].ref, wrapNo = nav.fp.elements[3].ref;
  const click = await chain.call('click', { ref: wrapYes, version: nav.fp.version });
  assert.equal(click.isError, false, click.text);
  assert.deepEqual(click.fp.modified.map((m) => m.ref).sort(), [wrapNo, wrapYes].sort(), click.text);
});

test('AG Grid: a sort says which way on its header, and the rows read in the order the page shows them', async () => {
  // 300 rows, virtualized: a sort recycles row elements, so the DOM holds a kept row before the new top rows.
  const nav = await chain.call('navigate', { url: sites.url('/sites/user-grid.html') });
  assert.equal(nav.fp.type, 'full', nav.text);
  const name = refOf(nav.fp, 'columnheader', 'Name');
  const firstRow = (fp) => fp.elements.find((e) => e.role === 'row')?.name.split(' | ')[0];
  let version = nav.fp.version;
  for (const [sort, top, change] of [['ascending', 'Aaron Abbott', '+ sort=ascending'], ['descending', 'Zoe Zimmerman', 'sort=ascending -> sort=descending']]) {
    const click = await chain.call('click', { ref: name, version });
    assert.equal(click.isError, false, click.text);
    assert.deepEqual(click.fp.modified.filter((m) => m.ref === name).map((m) => m.change), [change], click.text);
    const snap = await chain.call('snapshot', {});
    assert.equal(snap.fp.type, 'full', snap.text);
    assert.ok(snap.fp.elements.some((e) => e.ref === name && e.tri.sort === sort), snap.text);
    assert.equal(firstRow(snap.fp), top, snap.text);
    version = snap.fp.version;
  }
});

test('AG Grid: a scroll down at a row scrolls the grid\'s own viewport, and the next rows are added after the last', async () => {
  // As a mouse wheel over the row: the row cannot scroll, the grid's viewport can (the page cannot).
  const nav = await chain.call('navigate', { url: sites.url('/sites/user-grid.html') });
  assert.equal(nav.fp.type, 'full', nav.text);
  const rows = nav.fp.elements.filter((e) => e.role === 'row');
  const last = rows[rows.length - 1];
  const r = await chain.call('scroll', { ref: last.ref, direction: 'down', version: nav.fp.version });
  assert.equal(r.isError, false, r.text);
  assert.equal(r.fp.type, 'delta', r.text);
  const added = r.fp.elements.filter((e) => e.role === 'row');
  assert.ok(added.length > 0, r.text);
  assert.equal(added.filter((e) => rows.some((x) => x.name === e.name)).length, 0, r.text);
  assert.equal(r.fp.added.find((a) => a.elements.some((e) => e.ref === added[0].ref))?.after, last.ref, r.text);
  const page = agentPage('/sites/user-grid.html');
  assert.equal(await page.evaluate(() => scrollY), 0);
  assert.equal(await page.evaluate(() => {  // the box that holds the rows scrolled
    let box = document.querySelector('[role=row][row-index]');
    while (box && box.scrollTop === 0) box = box.parentElement;
    return box?.getAttribute('role') ?? null;
  }), 'grid');
  // An explicit snapshot shows the rows the grid holds now, the scrolled-in ones with their refs.
  const snap = await chain.call('snapshot', {});
  assert.equal(snap.fp.type, 'full', snap.text);
  assert.deepEqual(added.map((e) => snap.fp.elements.find((x) => x.ref === e.ref)?.name), added.map((e) => e.name), snap.text);
});

test('Tabulator and SweetAlert2: the table is read as rows, a confirm dialog says what it asks, and the page keeps its refs behind it', async () => {
  // Tabulator's body takes focus to scroll and has a resize handle between every two cells;
  // SweetAlert2's dialog announces itself (aria-live) and hides the rest of <body> (aria-hidden).
  const view = new AgentView();
  const nav = await chain.call('navigate', { url: sites.url('/sites/orders.html') });
  assert.equal(nav.fp.type, 'full', nav.text);
  assert.deepEqual(view.apply(nav.fp), []);
  const rows = nav.fp.elements.filter((e) => e.role === 'row');
  assert.deepEqual(rows.map((e) => e.name.split(' | ')[0]), Array.from({ length: 10 }, (_, i) => String(1001 + i)), nav.text);
  assert.equal(rows[1].name, '1002 | Alan Brown | Dublin | 74.99 | Refunded');
  assert.deepEqual(nav.fp.elements.filter((e) => e.name === ''), [], `no nameless line:\n${nav.text}`);
  const refs = nav.fp.elements.map((e) => e.ref);
  // Nothing selected: the dialog's message is a line of the overlay, its title the region's label.
  const cancel = view.findElement('Cancel selected order', 'button').ref;
  const refused = await chain.call('click', { ref: cancel, version: view.version });
  assert.equal(refused.fp.type, 'overlay_opened', refused.text);
  assert.deepEqual(view.apply(refused.fp), []);
  assert.equal(refused.fp.overlay.name, 'No order selected');
  assert.deepEqual(refused.fp.elements.map((e) => `${e.role} ${e.name}`),
    ['text Select an order in the table first.', 'button OK'], refused.text);
  assert.match(refused.text, /^<overlay_opened v="\d+" overlay="modal">\n<region name="dialog" label="No order selected">\n/);
  const ok = await chain.call('click', { ref: view.findElement('OK', 'button').ref, version: view.version });
  assert.equal(ok.fp.type, 'overlay_closed', ok.text);
  assert.deepEqual(view.apply(ok.fp), []);
  // Select order 1002 by its row, then cancel it: the dialog names it and its refund.
  const select = await chain.call('click', { ref: rows[1].ref, version: view.version });
  assert.equal(select.isError, false, select.text);
  assert.deepEqual(view.apply(select.fp), []);
  const ask = await chain.call('click', { ref: cancel, version: view.version });
  assert.equal(ask.fp.type, 'overlay_opened', ask.text);
  assert.deepEqual(view.apply(ask.fp), []);
  assert.equal(ask.fp.overlay.name, 'Cancel order 1002?');
  assert.ok(view.sees('The customer gets a refund of 74.99 €.'), ask.text);
  const yes = await chain.call('click', { ref: view.findElement('Yes, cancel it', 'button').ref, version: view.version });
  assert.equal(yes.fp.type, 'overlay_closed', yes.text);
  assert.deepEqual(view.apply(yes.fp), []);
  // What changed behind the dialog, and nothing else: the page's lines kept their refs.
  assert.deepEqual(yes.fp.removed, [], yes.text);
  assert.deepEqual(yes.fp.modified.map((m) => [m.ref, m.name]),
    [[rows[1].ref, '1002 | Alan Brown | Dublin | 74.99 | Cancelled']], yes.text);
  assert.ok(view.sees('Order 1002 cancelled'), yes.text);
  const snap = await chain.call('snapshot', {});
  assert.deepEqual(snap.fp.elements.map((e) => e.ref).filter((r) => refs.includes(r)), refs, snap.text);
  assert.equal(snap.fp.elements.find((e) => e.ref === rows[1].ref)?.name, '1002 | Alan Brown | Dublin | 74.99 | Cancelled');
});

test('Tabulator: typing into its header filter, which filters on keyup, answers with the rows it leaves', async () => {
  const view = new AgentView();
  const nav = await chain.call('navigate', { url: sites.url('/sites/orders.html?filter') });
  assert.equal(nav.isError, false, nav.text);
  view.apply(nav.fp);
  const box = nav.fp.elements.find((e) => e.role === 'searchbox');
  assert.ok(box, nav.text);
  const typed = await chain.call('type', { ref: box.ref, text: 'Radia', version: view.version });
  assert.equal(typed.isError, false, typed.text);
  view.apply(typed.fp);
  const rows = [...view.elements.values()].filter((e) => e.role === 'row').map((e) => e.name.split(' | ')[1]);
  assert.deepEqual([...new Set(rows)].sort(), ['Radia Brown', 'Radia Jones', 'Radia Smith'], typed.text);
  assert.equal(view.elements.get(box.ref).value, 'Radia');
});

test('a table sorted by moving its rows: each moved row says where it went, and the agent\'s order is the page\'s', async () => {
  const nav = await chain.call('navigate', { url: sites.url('/sites/sortable-table.html') });
  assert.equal(nav.fp.type, 'full', nav.text);
  const names = new Map(nav.fp.elements.map((e) => [e.ref, e.name.split(' | ')[0]]));
  const rows = (refs) => refs.filter((r) => /\|/.test(nav.fp.elements.find((e) => e.ref === r)?.name ?? ''));
  let order = nav.fp.elements.map((e) => e.ref);  // every line, in the page's order
  assert.equal(rows(order).length, 5, nav.text);
  let version = nav.fp.version;
  const button = refOf(nav.fp, 'button', 'Name');
  for (const [sort, want] of [['+ sort=ascending', ['Ada Lovelace', 'Alan Turing', 'Edsger Dijkstra', 'Grace Hopper', 'Margaret Hamilton']],
    ['sort=ascending -> sort=descending', ['Margaret Hamilton', 'Grace Hopper', 'Edsger Dijkstra', 'Alan Turing', 'Ada Lovelace']]]) {
    const click = await chain.call('click', { ref: button, version });
    assert.equal(click.fp.type, 'delta', click.text);
    // The header's aria-sort is on the one button in it: its line says which way.
    assert.equal(click.fp.modified.find((m) => m.ref === button)?.change, sort, click.text);
    assert.deepEqual([click.fp.added.length, click.fp.removed.length], [0, 0], click.text);
    // Apply the moves as an agent would: each line goes after the line it names.
    for (const m of click.fp.modified) {
      const to = m.segments.find((x) => x.what === 'order');
      if (!to) continue;
      order = order.filter((r) => r !== m.ref);
      order.splice(to.after ? order.indexOf(to.after) + 1 : 0, 0, m.ref);
    }
    assert.deepEqual(rows(order).map((r) => names.get(r)), want, click.text);
    const snap = await chain.call('snapshot', {});
    assert.deepEqual(snap.fp.elements.map((e) => e.ref), order, snap.text);
    version = snap.fp.version;
  }
});

test('a table of 120 rows sorted the other way: the moves are one line of refs, and the agent\'s order is the page\'s', async (t) => {
  const n = 120;
  const nav = await chain.call('navigate', { url: sites.url(`/sites/sortable-table.html?n=${n}`) });
  assert.equal(nav.fp.type, 'full', nav.text);
  const view = new AgentView();
  assert.deepEqual(view.apply(nav.fp), []);
  const button = refOf(nav.fp, 'button', 'Name');
  const rowsOf = (refs) => refs.filter((r) => /^Member \d+ \|/.test(view.elements.get(r)?.name ?? ''));
  let version = nav.fp.version;
  for (const ascending of [true, false]) {
    const click = await chain.call('click', { ref: button, version });
    assert.equal(click.fp.type, 'delta', click.text);
    // Every row but one moved, each after the one before it: one run, its refs alone.
    const runs = click.text.split('\n').filter((l) => /^e\d+(?: e\d+)*: moved (first|after e\d+)$/.test(l));
    assert.equal(runs.length, 1, click.text);
    assert.equal(click.fp.modified.filter((m) => m.placeOnly).length, n - 1, click.text);
    t.diagnostic(`sort ${ascending ? 'ascending' : 'descending'}: ${click.text.length} characters`);
    assert.deepEqual(view.apply(click.fp), []);
    const want = Array.from({ length: n }, (_, i) => `Member ${String(ascending ? i + 1 : n - i).padStart(3, '0')}`);
    const order = view.order().get('main\t\t') ?? [];
    assert.deepEqual(rowsOf(order).map((r) => view.elements.get(r)?.name.split(' | ')[0]), want, click.text);
    // A fresh snapshot shows the rows in the order the agent now holds.
    const snap = await chain.call('snapshot', {});
    const shown = snap.fp.elements.map((e) => e.ref);
    assert.deepEqual(shown.filter((r) => rowsOf([r]).length), order.filter((r) => shown.includes(r) && rowsOf([r]).length), snap.text);
    assert.deepEqual(view.apply(snap.fp), []);
    version = snap.fp.version;
  }
});

test('Shoelace: the dialog opens and closes through shadow DOM', async () => {
  const nav = await chain.call('navigate', { url: sites.url('/sites/shoelace.html') });
  const open = await chain.call('click', { ref: refOf(nav.fp, 'button', 'Delete account'), version: nav.fp.version });
  assert.equal(open.isError, false, open.text);
  assert.equal(open.fp.type, 'overlay_opened');
  const cancel = await chain.call('click', { ref: refOf(open.fp, 'button', 'Cancel'), version: open.fp.version });
  assert.equal(cancel.fp.type, 'overlay_closed');
  assert.match(cancel.text, /Kept the account/);
});

test('docs: a same-site navigation dedups the shared regions', async () => {
  const nav = await chain.call('navigate', { url: sites.url('/pydoc/library/index.html') });
  assert.equal(nav.fp.type, 'full');
  const view = new AgentView();
  assert.deepEqual(view.apply(nav.fp), []);
  const link = await refVia(view, 'link', 'Text Processing Services');
  const next = await chain.call('click', { ref: link, version: nav.fp.version });
  assert.equal(next.isError, false, next.text);
  assert.equal(next.fp.type, 'full');
  assert.equal(next.fp.reason, 'navigation');
  const unchanged = next.fp.regions.filter((r) => r.unchanged);
  assert.ok(unchanged.length > 0, next.text);
  const kept = [...view.elements.values()].filter((e) => unchanged.some((r) => r.name === e.region && (r.label ?? '') === (e.label ?? '')));
  assert.ok(kept.length > 0);
  assert.deepEqual(view.apply(next.fp), []);
  assert.ok(kept.every((e) => view.elements.has(e.ref)), 'refs of the unchanged regions stay valid');
  assert.equal(view.elements.has(link), false, 'refs of the old document are gone');
  assert.ok(agentPage('/pydoc/library/text.html'));
});

test('docs: back on the index, its regions are the ones the agent held there (seen_in), and a link it held there leads on', async () => {
  await chain.call('navigate', { url: sites.url('/pydoc/library/index.html?back=1') });
  // This tab showed the index before (the test above): the agent's own snapshot shows it whole,
  // as to an agent that starts here.
  const nav = await chain.call('snapshot');
  assert.equal(nav.fp.type, 'full');
  const view = new AgentView();
  assert.deepEqual(view.apply(nav.fp), []);
  // (A page this tab has not shown before: the test above went to Text Processing Services.)
  const topic = await chain.call('click', { ref: await refVia(view, 'link', 'Data Types'), version: nav.fp.version });
  assert.equal(topic.fp.reason, 'navigation', topic.text);
  assert.deepEqual(view.apply(topic.fp), []);
  const back = await chain.call('back', { version: topic.fp.version });
  assert.equal(back.isError, false, back.text);
  assert.equal(back.fp.type, 'full');
  assert.match(back.fp.url, /\/pydoc\/library\/index\.html\?back=1$/);
  // The index's own regions (its search box is the topic page's too: unchanged against that one).
  const main = back.fp.regions.find((r) => r.name === 'main');
  assert.equal(main?.unchanged, true, back.text);
  assert.equal(main.seenIn, nav.fp.version, back.text);
  assert.equal(back.fp.elements.length, 0, 'no element line: every region is one the agent holds');
  assert.ok(back.text.length * 4 < nav.text.length, `back answered ${back.text.length} characters, the snapshot ${nav.text.length}`);
  assert.deepEqual(view.apply(back.fp), []);
  // A link the agent was shown before it left, under the ref it was shown, now acts on the new document.
  const numeric = [...view.elements.values()].find((e) => e.role === 'link' && e.name === 'Numeric and Mathematical Modules');
  assert.ok(numeric, 'the view holds the index\'s links again');
  assert.ok(nav.fp.elements.some((e) => e.ref === numeric.ref), 'the same ref as in the snapshot');
  const next = await chain.call('click', { ref: numeric.ref, version: back.fp.version });
  assert.equal(next.isError, false, next.text);
  assert.match(next.fp.url, /\/pydoc\/library\/numeric\.html$/);
  assert.ok(agentPage('/pydoc/library/numeric.html'));
});

test('an action on a version older than the one delivered is not executed: the answer is the page now, in full', async () => {
  const nav = await chain.call('navigate', { url: sites.url('/todomvc/react/index.html') });
  const box = refOf(nav.fp, 'textbox', 'What needs to be done?');
  const a = await chain.call('type', { ref: box, text: 'One', submit: true, version: nav.fp.version });
  assert.ok(a.fp.version > nav.fp.version);
  const b = await chain.call('type', { ref: box, text: 'Two', submit: true, version: nav.fp.version });  // still v of nav
  assert.equal(b.isError, false, b.text);
  // Nothing changed since the first type's answer: the page is still at that version.
  assert.match(b.text, new RegExp(`^<not_executed reason="stale_version" yours="${nav.fp.version}" current="${a.fp.version}">`), b.text);
  assert.equal(b.fp.type, 'full', b.text);
  assert.match(b.text, /"One"/, 'the first item is on the page');
  assert.doesNotMatch(b.text, /"Two"/, 'the second was never typed');
});

test('a second agent gets its own session and never kicks out the first', async () => {
  const second = await chain.connectClient('second-agent');
  try {
    const r = await chain.call('navigate', { url: sites.url('/sites/login.html') }, second);
    assert.equal(r.isError, false, r.text);
    assert.equal(r.fp.type, 'full');
    const mine = await chain.call('snapshot', {});
    assert.equal(mine.isError, false, mine.text);
    assert.doesNotMatch(mine.text, /Sign in/);  // the first agent still has its own tab
  } finally {
    await second.close();
  }
});

test('the MCP Inspector CLI lists and calls the tools against the real chain', async () => {
  const { execFile } = await import('node:child_process');
  const { promisify } = await import('node:util');
  const path = await import('node:path');
  const run = promisify(execFile);
  const inspector = path.join(root, 'node_modules/.bin/mcp-inspector');
  // The Inspector gives the server only a default environment: name the runtime dir explicitly.
  const env = ['-e', `ATHENA_RUNTIME_DIR=${chain.runtime}`];
  const list = await run(inspector, ['--cli', ...env, chain.bridge, 'mcp', '--method', 'tools/list'], { env: chain.env, timeout: 60_000 });
  assert.ok(JSON.parse(list.stdout).tools.some((t) => t.name === 'navigate'));
  const call = await run(inspector, ['--cli', ...env, chain.bridge, 'mcp', '--method', 'tools/call', '--tool-name', 'tabs', '--tool-arg', 'action=list'],
    { env: chain.env, timeout: 60_000 });
  const r = JSON.parse(call.stdout);
  assert.notEqual(r.isError, true, call.stdout);
});

test('the MCP server restarted mid-session: a new one connects and works at once', async () => {
  const c = await chain.connectClient('restarting-agent');
  const first = await chain.call('navigate', { url: sites.url('/sites/login.html') }, c);
  assert.equal(first.isError, false, first.text);
  await c.close();  // the agent's MCP server process exits (e.g. the desktop app restarted)
  const again = await chain.connectClient('restarting-agent');
  try {
    const nav = await chain.call('navigate', { url: sites.url('/sites/login.html') }, again);
    assert.equal(nav.isError, false, nav.text);
    assert.equal(nav.fp.type, 'full');
    const typed = await chain.call('type', { ref: refOf(nav.fp, 'textbox', 'Username'), text: 'ada', version: nav.fp.version }, again);
    assert.equal(typed.isError, false, typed.text);
  } finally {
    await again.close();
  }
});

test('a live session exported by the extension replays in the playground exactly as the agent got it', async () => {
  const { startPlayground } = await import('../../web/serve.mjs');
  const got = [];
  const nav = await chain.call('navigate', { url: sites.url('/sites/login.html') });
  got.push(nav.text);
  const field = (name) => nav.fp.elements.find((e) => e.name === name).ref;
  let v = nav.fp.version;
  for (const [name, text] of [['Username', 'ada'], ['Password', 'hunter22']]) {
    const r = await chain.call('type', { ref: field(name), text, version: v });
    assert.equal(r.isError, false, r.text);
    got.push(r.text);
    v = r.fp.version;
  }
  const tab = /<tab id="(c\d+p\d+)" current="true"/.exec((await chain.call('tabs', { action: 'list' })).text)[1];  // the agent's tab
  const trace = await chain.worker.evaluate((t) => globalThis.athenaExportTrace(t), tab);
  assert.equal(trace.format, 'athena-trace');
  assert.doesNotMatch(JSON.stringify(trace), /hunter22/);  // secrets never leave the browser in a trace
  const playground = await startPlayground(0);
  const page = await chain.context.newPage();
  try {
    await page.goto(playground.url);
    await page.waitForFunction(() => window.playground?.ready, null, { timeout: 60_000 });
    await page.setInputFiles('#tracefile', { name: 'trace.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(trace)) });
    await page.waitForFunction(() => /every FactPack equals|differ|cannot replay/.test(document.querySelector('#status').textContent), null, { timeout: 120_000 });
    assert.match(await page.textContent('#status'), /every FactPack equals what the extension sent/);
    const texts = await page.evaluate(() => window.playground.replay.steps.map((s) => s.pack.text));
    assert.deepEqual(texts.slice(-got.length), got);
  } finally {
    await page.close();
    await playground.close();
  }
});

test('reading: a long index\'s trimmed link through the gap hint and find paging; read by region label, in a frame, truncated', async () => {
  const nav = await chain.call('navigate', { url: sites.url('/sites/docs-index.html') });
  assert.equal(nav.fp?.type, 'full', nav.text);
  const view = new AgentView();
  view.apply(nav.fp);
  assert.equal(view.findElement('Zebra striping in tables', 'link'), null, 'the target is far down: trimmed');
  const gap = view.gaps.find((g) => g.find);
  assert.ok(gap, `no gap line with a find hint:\n${nav.text}`);
  // Walk the hint's cursor, page by page, as an agent without a name to search for would.
  let args = { ...gap.find, limit: 100 };
  let target = null, pages = 0;
  while (args && !target && pages < 10) {
    const r = await chain.call('find', args);
    assert.equal(r.isError, false, r.text);
    pages++;
    assert.equal(r.fp.type, 'find');
    view.apply(r.fp);
    target = r.fp.elements.find((e) => e.name === 'Zebra striping in tables') ?? null;
    args = r.fp.gaps.find((g) => g.find?.after)?.find ?? null;
    if (args) args = { ...args, limit: 100 };
  }
  assert.ok(target, 'the link was never listed by paging the gap');
  // Each refusal names the argument that is wrong.
  for (const [bad, names] of [[{ region: 'No such region' }, /no region "No such region"/], [{ role: 'no-such-role' }, /no role "no-such-role"/],
    [{ region: 'main', after: 'e999999' }, /after="e999999" is not a ref/]]) {
    const r = await chain.call('find', bad);
    assert.equal(r.isError, true, `find ${JSON.stringify(bad)} should be refused: ${r.text}`);
    assert.match(r.text, names, r.text);
  }
  // By name: one call.
  const byName = await chain.call('find', { name: 'Zebra striping', role: 'link' });
  assert.deepEqual(byName.fp.elements.map((e) => e.ref), [target.ref]);
  const go = await chain.call('click', { ref: target.ref, version: view.version });
  assert.equal(go.fp?.type, 'full', go.text);
  assert.match(go.fp.url, /docs-topic\.html\?t=Zebra/);
  const main = await chain.call('read', { region: 'main' });
  assert.equal(main.fp.type, 'read');
  assert.match(main.fp.read.text, /You are reading the page about Zebra striping in tables\./);
  assert.equal(main.fp.read.truncated, false);
  const crumbs = await chain.call('read', { region: 'Breadcrumbs' });  // a label, as <region name="nav" label="Breadcrumbs"> shows it
  assert.equal(crumbs.isError, false, crumbs.text);
  assert.match(crumbs.fp.read.text, /Documentation index/);
  assert.doesNotMatch(crumbs.fp.read.text, /You are reading/);
  const nope = await chain.call('read', { region: 'No such label' });
  assert.equal(nope.isError, true);
  assert.match(nope.text, /no region/i);
  const frames = await chain.call('navigate', { url: sites.url('/sites/frames.html?other=' + encodeURIComponent(sites.otherOrigin)) });
  const coupon = frames.fp.regions.find((r) => r.elements.some((e) => e.name === 'Apply coupon'));
  assert.ok(coupon?.frame, frames.text);
  const inFrame = await chain.call('read', { region: 'main', frame: coupon.frame });
  assert.equal(inFrame.isError, false, inFrame.text);
  assert.match(inFrame.fp.read.text, /Apply coupon/);
  assert.doesNotMatch(inFrame.fp.read.text, /Embedded widgets/);
  await chain.call('navigate', { url: sites.url('/pydoc/library/functions.html') });
  const long = await chain.call('read', {});
  assert.equal(long.fp.read.truncated, true, long.text.slice(0, 200));
  assert.ok(long.fp.read.shown < long.fp.read.chars && long.fp.read.text.length === long.fp.read.shown);
});

test('reading: a reference page of 2,000 lines opens as its outline within the budget, and a section\'s gap lists that section', async () => {
  // Python's "Built-in Types" (python3-doc): 2,105 lines, 31 headings, the same pairs of type links
  // repeated throughout. Its FactPack was 9,977 characters with no line shown: every repeated pair
  // was a gap line of its own between hidden paragraphs, and no cut could shorten them.
  const url = sites.url('/pydoc/library/stdtypes.html');
  const nav = await chain.call('navigate', { url });
  assert.equal(nav.fp?.type, 'full', nav.text);
  const { limits } = (await loadAthena()).athena;
  assert.ok(nav.text.length <= limits.defaultTokenBudget * limits.bytesPerToken, `the full FactPack is ${nav.text.length} characters:\n${nav.text}`);
  // Every section title the page shows (h1, h2) is a line, in the page's order.
  const page = chain.context.pages().find((p) => p.url() === url);
  const titles = await page.evaluate(() => [...document.querySelectorAll('h1, h2')].map((h) => h.textContent.replace(/\u00b6\s*$/, '').trim()));
  assert.ok(titles.length >= 15, titles.join('\n'));
  const headings = nav.fp.elements.filter((e) => e.role === 'heading').map((e) => e.name);
  assert.deepEqual(headings.filter((h) => titles.includes(h)), titles, nav.text);
  // The gap under "Comparisons" counts exactly the lines of that section: a find after the heading
  // lists them, and the next line is the next heading shown.
  const lines = nav.text.split('\n');
  const at = lines.findIndex((l) => / heading "Comparisons" level=2$/.test(l));
  assert.ok(at >= 0, nav.text);
  const gap = nav.fp.gaps.find((g) => g.line === lines[at + 1]);
  assert.ok(gap?.find?.after, `no gap line under "Comparisons":\n${nav.text}`);
  const next = /^(e\d+) heading/.exec(lines[at + 2]);
  assert.ok(next, nav.text);
  const listed = await chain.call('find', { ...gap.find, limit: gap.count + 1 });
  assert.equal(listed.isError, false, listed.text);
  assert.equal(listed.fp.elements.length, gap.count + 1, listed.text);
  assert.equal(listed.fp.elements.at(-1).ref, next[1], listed.text);
  assert.ok(listed.fp.elements.some((e) => /^Objects of different types, except different numeric types, never compare equal/.test(e.name)), listed.text);
});

test('reading: a reference page: a long paragraph says it is cut, terms head their docs, find ignores spaces, a search removes refs alone', async () => {
  // tests/sites/api-doc.html: the shapes of Node.js, rustdoc and Sphinx pages, small.
  const nav = await chain.call('navigate', { url: sites.url('/sites/api-doc.html') });
  assert.equal(nav.fp?.type, 'full', nav.text);
  // The heading's permalink symbol is not part of its name.
  assert.deepEqual(nav.fp.elements.filter((e) => e.role === 'heading').map((e) => e.name), ['Widgets API'], nav.text);
  // A paragraph past its bound says it is cut; read gives it whole.
  const intro = nav.fp.elements.find((e) => e.role === 'text' && e.name.startsWith('Widgets are the building blocks'));
  assert.equal(intro?.cut, true, nav.text);
  assert.equal(intro.name.includes('the widget you need'), false, nav.text);
  const read = await chain.call('read', { ref: intro.ref });
  assert.equal(read.isError, false, read.text);
  assert.ok(read.fp.read.text.includes('search the index below for the widget you need.'), read.text);
  // A definition's description, and a list in it, sit under its term.
  const depth = (name) => nav.fp.elements.find((e) => e.name === name)?.depth ?? 0;
  assert.deepEqual(['Widget.new(size)', 'Makes a widget of the given size.', 'size is in pixels.'].map(depth), [0, 1, 1], nav.text);
  // rustdoc's <wbr>s are spaces in the name, as Chrome reads them; find matches the path as written.
  const path = nav.fp.elements.find((e) => e.role === 'link' && e.name.startsWith('widgets::'));
  assert.equal(path?.name, 'widgets:: core:: Widget', nav.text);
  const found = await chain.call('find', { role: 'link', name: 'widgets::core::Widget' });
  assert.equal(found.isError, false, found.text);
  assert.deepEqual(found.fp.elements.map((e) => e.ref), [path.ref], found.text);
  // The search replaces the index (a named section, its own region): a delta that gives the region
  // whole, its three results in place of the 30 links, and says nothing else (the 30 go with it).
  const links = nav.fp.elements.filter((e) => e.role === 'link' && /^Widget \d+$/.test(e.name)).map((e) => e.ref);
  assert.equal(links.length, 30, nav.text);
  const view = new AgentView();
  view.apply(nav.text);
  const search = await chain.call('click', { ref: refOf(nav.fp, 'button', 'Search for spin') });
  assert.equal(search.isError, false, search.text);
  assert.equal(search.fp.type, 'delta', search.text);
  assert.match(search.text, /^<delta v="\d+">\n<replaced region="region" label="Widget index">\n(e\d+ link "Spin[^"\n]*"\n){3}<\/replaced>\n<\/delta>\n?$/, search.text);
  view.apply(search.text);
  assert.deepEqual(links.filter((r) => view.elements.has(r)), [], 'the index\'s links are gone from what the agent holds');
  // An explicit snapshot shows the page now: the results, and the paragraph still marked cut.
  const snap = await chain.call('snapshot');
  assert.deepEqual(snap.fp.elements.filter((e) => e.role === 'link' && /^Spin/.test(e.name)).map((e) => e.name), ['Spinner', 'SpinBox', 'Spindle'], snap.text);
  assert.equal(snap.fp.elements.find((e) => e.ref === intro.ref)?.cut, true, snap.text);
});

test('reading: read of a heading is its section, nested in <section>s or flat, up to the next heading of its level', async () => {
  const nav = await chain.call('navigate', { url: sites.url('/sites/sections.html') });
  assert.equal(nav.fp.type, 'full', nav.text);
  const section = async (name) => {
    const r = await chain.call('read', { ref: refOf(nav.fp, 'heading', name) });
    assert.equal(r.isError, false, r.text);
    return r.text.split('\n').slice(1, -1).map((l) => l.trim()).filter(Boolean);
  };
  // Sphinx's shape: the section's own text and its subsections'; no script source, no hidden text.
  assert.deepEqual(await section('Install'), ['Install', 'Run the installer.', 'On Linux', 'Use the package manager.']);
  // It ends where a later wrapper opens with a heading of its level.
  assert.deepEqual(await section('Use'), ['Use', 'Open the app.']);
  // The flat shape: up to the next heading of the same level; a lower one is part of it.
  assert.deepEqual(await section('open(path)'), ['open(path)', 'Opens a file.', "open('a.txt')"]);
  assert.deepEqual(await section('close(fd)'), ['close(fd)', 'Closes it.', 'Errors', 'EBADF when fd is closed.']);
  // The last section ends with its landmark: the footer is no part of it.
  assert.deepEqual(await section('Errors'), ['Errors', 'EBADF when fd is closed.']);
  // A title in an article's <header>: the header is no landmark there, the article is.
  assert.deepEqual(await section('Release notes'), ['Release notes', 'Version 2 reads faster.']);
  // The page's text is in its FactPack too, and an explicit snapshot shows it.
  const snap = await chain.call('snapshot', {});
  assert.equal(snap.fp.type, 'full', snap.text);
  const words = snap.fp.elements.map((e) => e.name);
  for (const line of ['Run the installer.', 'Use the package manager.', 'Opens a file.', 'EBADF when fd is closed.', 'Copyright words that are in no section.']) {
    assert.ok(words.includes(line), `${line} not in:\n${snap.text}`);
  }
});

test('reading: text revealed by a tab, an accordion and a confirm dialog reaches the agent', async () => {
  const view = new AgentView();
  const seen = async (sentence, r) => {
    view.apply(r.fp);
    if (view.sees(sentence)) return 'factpack';
    const read = await chain.call('read', view.overlays.length ? { region: 'dialog' } : { region: 'main' });
    assert.equal(read.isError, false, read.text);
    view.apply(read.fp);
    assert.ok(view.sees(sentence), `"${sentence}" neither in the FactPack nor read:\n${r.text}\n${read.text}`);
    return 'read';
  };
  const tabs = await chain.call('navigate', { url: sites.url('/sites/tabs.html') });
  view.apply(tabs.fp);
  assert.equal(view.sees('Activity history is kept for 90 days'), false, 'a hidden panel is not shown');
  const privacy = await chain.call('click', { ref: view.findElement('Privacy', 'tab').ref, version: view.version });
  const how = [await seen('Activity history is kept for 90 days, then deleted automatically.', privacy)];
  const acc = await chain.call('navigate', { url: sites.url('/sites/accordion.html') });
  view.apply(acc.fp);
  const q = await chain.call('click', { ref: view.findElement('How do I return an item?', 'button').ref, version: view.version });
  assert.equal(view.apply(q.fp).length, 0);
  assert.equal(view.findElement('How do I return an item?', 'button').tri.expanded, 'true', q.text);
  how.push(await seen('Returns are free within 30 days of delivery.', q));
  const confirm = await chain.call('navigate', { url: sites.url('/sites/confirm.html') });
  view.apply(confirm.fp);
  const open = await chain.call('click', { ref: view.findElement('Delete all files', 'button').ref, version: view.version });
  assert.equal(open.fp.type, 'overlay_opened', open.text);
  assert.equal(open.fp.overlay.name, 'Delete files?');
  how.push(await seen('This will delete 12 files.', open));
  const del = await chain.call('click', { ref: view.findElement('Delete', 'button').ref, version: view.version });
  assert.equal(del.fp.type, 'overlay_closed', del.text);
  how.push(await seen('12 files deleted.', del));
  console.log(`# revealed text reached the agent through: ${how.join(', ')}`);
});

test('reading: an image by its alt text, a rating drawn in stars, progress bars that move, a pager\'s current page', async () => {
  const nav = await chain.call('navigate', { url: sites.url('/sites/order-detail.html') });
  assert.equal(nav.isError, false, nav.text);
  const lines = nav.fp.elements.map((e) => `${e.role} ${e.name}${e.value ? ` = ${e.value}` : ''}${e.flags.length ? ` (${e.flags.join(' ')})` : ''}`);
  assert.deepEqual(lines, ['heading Order 1042', 'image Blue ceramic mug, 350 ml', 'text As shipped', 'image Rated 4 out of 5',
    'text Delivery 70% on its way', 'progressbar Refund = 30%', 'button Refresh status', 'link 1041 (current)', 'link 1042'], nav.text);
  const click = await chain.call('click', { ref: refOf(nav.fp, 'button', 'Refresh status'), version: nav.fp.version });
  assert.equal(click.fp.type, 'delta', click.text);
  assert.deepEqual(click.fp.modified.map((m) => `${m.role} ${m.name}: ${m.change}`),
    ['text Delivery 100% on its way: new text', 'progressbar Refund: value="30%" -> value="90%"'], click.text);
  assert.deepEqual([click.fp.added.length, click.fp.removed.length], [0, 0], click.text);
  // An image holds no text: read gives what it says.
  const read = await chain.call('read', { ref: refOf(nav.fp, 'image', 'Blue ceramic mug, 350 ml') });
  assert.match(read.text, /^<read ref="e\d+" chars="24">\nBlue ceramic mug, 350 ml\n<\/read>$/, read.text);
  const page = await chain.call('click', { ref: refOf(nav.fp, 'link', '1042'), version: click.fp.version });
  assert.deepEqual(page.fp.modified.map((m) => `${m.role} ${m.name}: ${m.change}`), ['link 1041: - current', 'link 1042: + current'], page.text);
  // A snapshot (how an agent recovers) shows the page as it is now.
  const snap = await chain.call('snapshot', {});
  const now = snap.fp.elements.map((e) => `${e.role} ${e.name}${e.value ? ` = ${e.value}` : ''}${e.flags.length ? ` (${e.flags.join(' ')})` : ''}`);
  assert.deepEqual(now, ['heading Order 1042', 'image Blue ceramic mug, 350 ml', 'text As shipped', 'image Rated 4 out of 5',
    'text Delivery 100% on its way', 'progressbar Refund = 90%', 'button Refresh status', 'link 1041', 'link 1042 (current)'], snap.text);
});

test('Select2: its label is read, its dropdown opens with the search field, typing filters, the choice names the box', async () => {
  const nav = await chain.call('navigate', { url: sites.url('/sites/assign.html') });
  assert.equal(nav.isError, false, nav.text);
  // The page's <label> names the <select> Select2 hid: its words are a line before the box.
  const lines = nav.fp.elements.map((e) => `${e.role} ${e.name}`);
  assert.deepEqual(lines.slice(0, 3), ['heading Assign ticket', 'text Assignee', 'combobox Choose someone'], nav.text);
  const open = await chain.call('click', { ref: refOf(nav.fp, 'combobox', 'Choose someone'), version: nav.fp.version });
  assert.equal(open.fp.type, 'overlay_opened', open.text);
  const search = open.fp.elements.find((e) => e.role === 'searchbox');
  assert.ok(search, `the dropdown's search field opens with it: ${open.text}`);
  assert.deepEqual(open.fp.elements.filter((e) => e.role === 'option').map((e) => e.name),
    ['Ada Lovelace', 'Alan Turing', 'Grace Hopper', 'Katherine Johnson'], open.text);
  const typed = await chain.call('type', { ref: search.ref, text: 'Gra', version: open.fp.version });
  assert.equal(typed.fp.type, 'delta', typed.text);
  assert.deepEqual(typed.fp.removed.map((r) => r.name).sort(), ['Ada Lovelace', 'Alan Turing', 'Katherine Johnson'], typed.text);
  const grace = open.fp.elements.find((e) => e.role === 'option' && e.name === 'Grace Hopper');
  const chose = await chain.call('click', { ref: grace.ref, version: typed.fp.version });
  assert.equal(chose.fp.type, 'overlay_closed', chose.text);
  assert.ok(chose.fp.modified.some((m) => m.role === 'combobox' && m.name === 'Grace Hopper'), chose.text);
  const save = await chain.call('click', { ref: refOf(nav.fp, 'button', 'Save'), version: chose.fp.version });
  assert.ok(save.fp.elements.some((e) => e.role === 'status' && e.name === 'Assigned to Grace Hopper'), save.text);
});

test('Tom Select: the <select>s it keeps behind its own are no lines; typing into its combobox filters, a choice is saved', async () => {
  const nav = await chain.call('navigate', { url: sites.url('/sites/tags.html') });
  assert.equal(nav.isError, false, nav.text);
  const lines = nav.fp.elements.map((e) => `${e.role} ${e.name}`);
  // One combobox per field, named by the page's label; no nameless copy, no second list of options.
  assert.deepEqual(lines.filter((l) => /^(combobox|listbox|option) /.test(l)), ['combobox Assign to', 'combobox Tags'], nav.text);
  const typed = await chain.call('type', { ref: refOf(nav.fp, 'combobox', 'Assign to'), text: 'Gra', version: nav.fp.version });
  assert.equal(typed.fp.type, 'overlay_opened', typed.text);
  assert.deepEqual(typed.fp.elements.filter((e) => e.role === 'option').map((e) => e.name), ['Grace Hopper'], typed.text);
  const chose = await chain.call('click', { ref: typed.fp.elements.find((e) => e.role === 'option').ref, version: typed.fp.version });
  assert.equal(chose.fp.type, 'overlay_closed', chose.text);
  const save = await chain.call('click', { ref: refOf(nav.fp, 'button', 'Save'), version: chose.fp.version });
  assert.ok(save.fp.elements.some((e) => e.role === 'status' && e.name === 'Saved: Grace Hopper, urgent'), save.text);
});

test('Quill: the editor is one line that reads its text; typing replaces it, and what was sent is what was typed', async () => {
  const nav = await chain.call('navigate', { url: sites.url('/sites/reply.html') });
  assert.equal(nav.isError, false, nav.text);
  const editor = nav.fp.elements.find((e) => e.name === 'Message' && e.role !== 'text');
  assert.ok(editor, nav.text);
  assert.equal(editor.value, 'Hello Ada, Thanks for the report.', nav.text);
  // Its paragraphs and bold words (Chrome calls them clickable) are its value, not lines; the
  // label it is named by is no text line of its own.
  assert.deepEqual(nav.fp.elements.filter((e) => /Ada|report|^Message$/.test(e.name)).map((e) => e.ref), [editor.ref], nav.text);
  const typed = await chain.call('type', { ref: editor.ref, text: 'We fixed it.', version: nav.fp.version });
  assert.deepEqual(typed.fp.modified.map((m) => `${m.ref}: ${m.change}`), [`${editor.ref}: value="Hello Ada, Thanks for the report." -> value="We fixed it."`], typed.text);
  const sent = await chain.call('click', { ref: refOf(nav.fp, 'button', 'Send'), version: typed.fp.version });
  assert.ok(sent.fp.elements.some((e) => e.role === 'status' && e.name === 'Sent: We fixed it.'), sent.text);
  const snap = await chain.call('snapshot', {});
  assert.equal(snap.fp.elements.find((e) => e.ref === editor.ref)?.value, 'We fixed it.', snap.text);
});
