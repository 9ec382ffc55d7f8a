// Actions do what a person's pointer would do (issue 52), through the whole chain (MCP SDK client
// -> athena-bridge mcp -> native host -> extension -> Chromium), on pages built from the real
// libraries from npm: a jQuery UI tab is pressed through its own link, a jQuery UI check box hidden
// the screen-reader way is pressed through its label, a ribbon that is not part of a tab is still
// refused by name, and AG Grid's header sorts on every press (its sort arrow, an icon font's
// ::before, is the header's own).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AgentView } from '../support/factpack-text.mjs';
import { useChain } from './lib/use-chain.mjs';
import { act as actAs, pageShowing as pageAt, refOf } from './lib/agent-steps.mjs';
import { policyApplied } from './lib/worker-state.mjs';

let sites;
let chain;

useChain((s, c) => { sites = s; chain = c; });

const act = (/** @type {AgentView} */ view, /** @type {string} */ tool, /** @type {object} */ args) => actAs(chain, view, tool, args);
const pageShowing = (/** @type {string} */ path) => pageAt(chain, path);

/** Opens `path` with no policy; answers the view and the page. */
async function open(path) {
  await chain.worker.evaluate(() => chrome.storage.local.set({ policy: {} }));
  await policyApplied(chain.worker);
  const view = new AgentView();
  const nav = await act(view, 'navigate', { url: sites.url(path) });
  assert.equal(nav.isError, false, nav.text);
  return { view, nav, page: await pageShowing(path) };
}

test('jQuery UI tabs: a press on the tab lands on its own link and opens it', async () => {
  const { view, page } = await open('/sites/jquery-tabs.html');
  const settings = refOf(view, 'tab', 'Settings');
  // The tab's whole content is its <a role=presentation href>: one thing to a person, one line (the tab's).
  assert.equal(view.findElement('Settings', 'link'), null, 'the tab\'s own link is no line of its own');
  const r = await act(view, 'click', { ref: settings, version: view.version });
  assert.equal(r.isError, false, r.text);
  assert.equal(await page.locator('#log').textContent(), 'Opened Settings');
  assert.ok(view.elements.get(settings).flags.includes('selected'), r.text);
  assert.ok(view.sees('Choose what we send you.'), r.text);
  // The open tab again: performed, jQuery UI does nothing, the answer says so, and the refs stay.
  const again = await act(view, 'click', { ref: settings, version: view.version });
  assert.equal(again.isError, false, again.text);
  assert.equal(again.fp.type, 'no_change', again.text);
  assert.equal(await page.locator('#prefs li a[href="#panel-settings"]').getAttribute('data-presses'), '2');
  const general = await act(view, 'click', { ref: refOf(view, 'tab', 'General'), version: view.version });
  assert.equal(general.isError, false, general.text);
  assert.equal(await page.locator('#log').textContent(), 'Opened General');
});

test('jQuery UI check box, its input hidden the screen-reader way: pressed through its label, and checked', async () => {
  const { view, page } = await open('/sites/jquery-tabs.html');
  const opened = await act(view, 'click', { ref: refOf(view, 'tab', 'Settings'), version: view.version });
  assert.equal(opened.isError, false, opened.text);
  const news = refOf(view, 'checkbox', 'Weekly newsletter');
  assert.equal(view.elements.get(news).tri.checked, 'false', opened.text);
  const r = await act(view, 'click', { ref: news, version: view.version });
  assert.equal(r.isError, false, r.text);
  assert.equal(view.elements.get(news).tri.checked, 'true', r.text);
  assert.equal(await page.locator('#news').isChecked(), true);
  assert.equal(await page.locator('#log').textContent(), 'Weekly newsletter on');
});

test('a ribbon over a tab is not part of it: refused, the ribbon named by its ref, nothing pressed', async () => {
  const { view, page } = await open('/sites/jquery-tabs.html');
  const billing = refOf(view, 'tab', 'Billing');
  const ribbon = refOf(view, 'note', 'New plans available');
  const r = await chain.call('click', { ref: billing, version: view.version });
  assert.equal(r.isError, true, r.text);
  assert.ok(r.text.startsWith(`error covered: note "New plans available" (${ribbon}) is over ${billing} tab "Billing": nothing was pressed`), r.text);
  assert.equal(await page.locator('#log').textContent(), 'Nothing yet', 'neither the ribbon nor the tab got a press');
  assert.equal(await page.locator('#prefs li').nth(2).getAttribute('aria-selected'), 'false');
});

test('AG Grid: a second press on the sorted "Total" header sorts it descending, and the answer says the new order', async () => {
  const { view, page } = await open('/sites/grid-sort.html');
  const total = refOf(view, 'columnheader', 'Total');
  const first = await act(view, 'click', { ref: total, version: view.version });
  assert.equal(first.isError, false, first.text);
  assert.equal(first.fp.type, 'delta', first.text);
  assert.equal(view.elements.get(total).tri.sort, 'ascending', first.text);
  assert.equal(await page.locator('#log').textContent(), 'Sort 1: total asc');
  // AG Grid's screen-reader instructions, in a 1px box that clips them, are no line of the answer.
  assert.ok(!/Press ENTER/.test(first.text), first.text);
  // The same header again: the press is performed (its centre is now the sort arrow's ::before).
  const second = await act(view, 'click', { ref: total, version: view.version });
  assert.equal(second.isError, false, second.text);
  assert.equal(second.fp.type, 'delta', second.text);
  assert.ok(second.text.includes(`${total} columnheader "Total": sort=ascending -> sort=descending`), second.text);
  assert.equal(view.elements.get(total).tri.sort, 'descending', second.text);
  assert.equal(await page.locator('#log').textContent(), 'Sort 2: total desc');
  assert.equal(await page.locator('[role=columnheader][col-id=total]').getAttribute('aria-sort'), 'descending');
  // The rows the agent holds, in the order its view now has them: highest total first.
  const rows = [...view.order().values()].flat().map((ref) => view.elements.get(ref))
    .filter((e) => e?.role === 'row' && e.name.startsWith('A-')).map((e) => e.name.split(' | ')[2]);
  assert.deepEqual(rows, ['310', '205', '120', '99', '45', '8'], second.text);
  // A third press: AG Grid's next state is unsorted; performed too.
  const third = await act(view, 'click', { ref: total, version: view.version });
  assert.equal(third.isError, false, third.text);
  assert.equal(await page.locator('#log').textContent(), 'Sort 3: none');
  assert.ok(third.text.includes(`${total} columnheader "Total": - sort=descending`) || !view.elements.get(total).tri.sort, third.text);
});
