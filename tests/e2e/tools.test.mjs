// The tools agents expect from every peer (issue #55): fill_form, drag, resize, through the
// whole chain (MCP SDK client -> athena-bridge mcp -> native host -> extension -> Chromium).
// Each test reads the answer's text as the model gets it, and checks the page itself through
// Playwright: the one right outcome, and for bad input the clear error and nothing lost.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useChain } from './lib/use-chain.mjs';
import { AgentView } from '../support/factpack-text.mjs';
import { actFitting, refOf } from './lib/agent-steps.mjs';

let sites;
let chain;
// These tools are outside the core group: the agent's server serves them all.
useChain((s, c) => { sites = s; chain = c; }, { mcpFlags: ['--tools', 'all'] });

/** The agent tab as Playwright sees it. @param {string} urlPart */
function agentPage(urlPart) {
  const pages = chain.context.pages().filter((p) => p.url().includes(urlPart));
  assert.ok(pages.length > 0, `no tab shows ${urlPart}`);
  return pages[pages.length - 1];
}

/** What the agent holds, from every FactPack it got (a page seen before comes back as unchanged regions). */
const view = new AgentView();
/** Calls a tool as the agent; FactPacks go into `view` (tests/e2e/lib/agent-steps.mjs). @param {string} name @param {object} args */
const call = (name, args) => actFitting(chain, view, name, args);

/** Navigates to the sign-up form: its FactPack and the refs of its fields. */
async function openSignup() {
  const nav = await call('navigate', { url: sites.url('/sites/signup.html') });
  assert.equal(nav.isError, false, nav.text);
  return {
    nav, page: agentPage('/sites/signup.html'),
    name: refOf(view, 'textbox', 'Full name'), email: refOf(view, 'textbox', 'Email'), age: refOf(view, 'spinbutton', 'Age'),
    about: refOf(view, 'textbox', 'About you'), country: refOf(view, 'combobox', 'Country'), city: refOf(view, 'combobox', 'City'),
    news: refOf(view, 'checkbox', 'Send me news'), pro: refOf(view, 'radio', 'Pro'), dark: refOf(view, 'switch', 'Dark mode'),
    code: refOf(view, 'textbox', 'Referral code'), submit: refOf(view, 'button', 'Create account'),
  };
}

/** What the form holds, read from the page. @param {import('playwright-core').Page} page */
const formValues = (page) => page.evaluate(() => {
  const f = /** @type {HTMLFormElement} */ (document.getElementById('f'));
  return { ...Object.fromEntries(new FormData(f)), dark: document.getElementById('dark')?.getAttribute('aria-checked') };
});
const UNTOUCHED = { name: 'Old Name', email: '', age: '', about: 'old text', country: '', city: '', plan: 'free', dark: 'false' };

test('fill_form fills nine fields of five kinds in one call, replacing values, answered by one FactPack', async () => {
  const f = await openSignup();
  const r = await call('fill_form', { version: f.nav.fp.version, fields: [
    { ref: f.name, value: 'Ada Lovelace' }, { ref: f.email, value: 'ada@example.org' }, { ref: f.age, value: '36' },
    { ref: f.about, value: 'Analyst' }, { ref: f.country, value: 'Japan' }, { ref: f.city, value: 'Tokyo' },
    { ref: f.news, value: true }, { ref: f.pro, value: true }, { ref: f.dark, value: true },
  ] });
  assert.equal(r.isError, false, r.text);
  assert.deepEqual(await formValues(f.page), { name: 'Ada Lovelace', email: 'ada@example.org', age: '36', about: 'Analyst', country: 'jp', city: 'Tokyo', news: 'on', plan: 'pro', dark: 'true' });
  // The one FactPack shows the new values of what was filled (a delta, or a full one when the
  // core finds most of the page changed: either way applied to what the agent holds).
  const v = (/** @type {string} */ ref) => view.elements.get(ref);
  assert.deepEqual([v(f.name)?.value, v(f.age)?.value, v(f.country)?.value, v(f.city)?.value], ['Ada Lovelace', '36', 'Japan', 'Tokyo'], r.text);
  assert.deepEqual([v(f.news)?.tri?.checked, v(f.pro)?.tri?.checked, v(f.dark)?.tri?.checked], ['true', 'true', 'true'], r.text);
  // Submitting sends what fill_form put there.
  const sent = await call('click', { ref: f.submit, version: r.fp.version });
  assert.equal(sent.isError, false, sent.text);
  assert.match(await f.page.locator('#result').textContent(), /^Received \{"name":"Ada Lovelace","email":"ada@example.org","age":"36","about":"Analyst","country":"jp","city":"Tokyo","news":"on","plan":"pro","dark":"true"\}$/);
});

test('fill_form with a disabled field fills nothing and names that field', async () => {
  const f = await openSignup();
  const r = await call('fill_form', { version: f.nav.fp.version, fields: [
    { ref: f.name, value: 'Ada' }, { ref: f.code, value: 'XYZ' }, { ref: f.email, value: 'a@b.c' },
  ] });
  assert.equal(r.isError, true, r.text);
  assert.match(r.text, new RegExp(`^error element_disabled: fill_form: field 2 of 3 \\(${f.code}\\): ${f.code} \\(textbox "Referral code"\\) is disabled: fill_form refused; nothing was filled$`));
  assert.deepEqual(await formValues(f.page), UNTOUCHED);
});

test('fill_form with a stale ref or a field of the wrong kind fills nothing and names it', async () => {
  const f = await openSignup();
  // The page's own script removes the Email field: the agent's ref of it is stale.
  await f.page.evaluate(() => document.querySelector('[name=email]')?.closest('label')?.remove());
  const stale = await call('fill_form', { fields: [{ ref: f.name, value: 'Ada' }, { ref: f.email, value: 'a@b.c' }] });
  assert.equal(stale.isError, true, stale.text);
  assert.match(stale.text, new RegExp(`^error ref_removed: fill_form: field 2 of 2 \\(${f.email}\\): .*nothing was filled: take a snapshot and use its refs$`));
  const button = await call('fill_form', { fields: [{ ref: f.name, value: 'Ada' }, { ref: f.submit, value: 'x' }] });
  assert.equal(button.isError, true, button.text);
  assert.match(button.text, new RegExp(`^error not_a_field: fill_form: field 2 of 2 \\(${f.submit} button "Create account"\\) is not a form field .*: nothing was filled; use click for buttons and links$`));
  const kind = await call('fill_form', { fields: [{ ref: f.news, value: 'yes' }] });
  assert.equal(kind.isError, true, kind.text);
  assert.match(kind.text, new RegExp(`^error bad_arguments: fill_form: field 1 of 1 \\(${f.news} checkbox "Send me news"\\) is a check box: its value is true or false; nothing was filled$`));
  const { email, ...rest } = UNTOUCHED;
  assert.deepEqual(await formValues(f.page), rest);
});

test('fill_form that fails while filling stops there and says which fields were filled', async () => {
  const f = await openSignup();
  const r = await call('fill_form', { fields: [
    { ref: f.name, value: 'Ada' }, { ref: f.email, value: 'ada@example.org' }, { ref: f.country, value: 'Atlantis' }, { ref: f.city, value: 'Paris' },
  ] });
  assert.equal(r.isError, true, r.text);
  assert.match(r.text, new RegExp(`^error no_such_option: fill_form stopped at field 3 of 4 \\(${f.country} combobox "Country"\\): fill_form: none of \\["Atlantis"\\] is an option of ${f.country} .*\\. Filled before it: ${f.name}, ${f.email}; not filled: ${f.country}, ${f.city}\\. The page has changed: take a snapshot to see it$`));
  assert.deepEqual(await formValues(f.page), { ...UNTOUCHED, name: 'Ada', email: 'ada@example.org' });
  // Nothing lost: the next FactPack shows the two filled fields as changed.
  const snap = await call('snapshot');
  assert.equal(snap.isError, false, snap.text);
  assert.equal(view.elements.get(f.name)?.value, 'Ada', snap.text);
});

/** Navigates to the board; the order of its columns as the page holds them. */
async function openBoard() {
  const nav = await call('navigate', { url: sites.url('/sites/kanban.html') });
  assert.equal(nav.isError, false, nav.text);
  const page = agentPage('/sites/kanban.html');
  const order = () => page.evaluate(() => ['todo', 'done'].map((id) => [...document.querySelectorAll(`#${id} .card`)].map((c) => c.dataset.id).join(',')).join(' | '));
  return { nav, page, order };
}

test('drag moves a card to another column of a SortableJS board (pointer-driven), answered with a FactPack', async () => {
  const b = await openBoard();
  assert.equal(await b.order(), 'spec,tests,docs | setup,ci');
  const r = await call('drag', { ref: refOf(view, 'button', 'Write spec'), to: refOf(view, 'button', 'Configure CI'), version: b.nav.fp.version });
  assert.equal(r.isError, false, r.text);
  assert.equal(await b.order(), 'tests,docs | setup,spec,ci');
  assert.match(r.text, /Moved\. todo: tests,docs; done: setup,spec,ci/);
});

test('drag does a native HTML5 drag and drop (draggable onto a drop zone)', async () => {
  const b = await openBoard();
  const r = await call('drag', { ref: refOf(view, 'button', 'report.pdf'), to: refOf(view, 'button', 'Trash'), version: b.nav.fp.version });
  assert.equal(r.isError, false, r.text);
  assert.equal(await b.page.locator('#log').textContent(), 'Deleted report.pdf');
  assert.match(r.text, /Deleted report\.pdf/);
  assert.equal(await b.page.locator('#report').count(), 0);
});

test('drag refuses a drop target in another frame, a stale target and a bad offset, and drags nothing', async () => {
  const b = await openBoard();
  const report = refOf(view, 'button', 'report.pdf');
  const archive = refOf(view, 'button', 'Archive bin');
  const other = await call('drag', { ref: report, to: archive });
  assert.equal(other.isError, true, other.text);
  assert.equal(other.text, `error other_frame: drag: the drop target ${archive} button "Archive bin" is in another frame than ${report} button "report.pdf": a drag cannot carry an element from one frame's document to another's; nothing was dragged`);
  await b.page.evaluate(() => document.getElementById('trash')?.remove());
  const stale = await call('drag', { ref: report, to: refOf(view, 'button', 'Trash') });
  assert.equal(stale.isError, true, stale.text);
  assert.match(stale.text, /^error ref_removed: drag: the drop target e\d+: .*nothing was dragged: take a snapshot and use its refs$/);
  const both = await call('drag', { ref: report, to: archive, dx: 10 });
  assert.equal(both.text, 'error bad_arguments: drag: give to (the ref to drop on) or dx/dy (CSS pixels to move by), one of the two');
  assert.equal(await b.page.locator('#log').textContent(), '');
  assert.equal(await b.page.locator('#report').count(), 1);
  assert.equal(await b.order(), 'spec,tests,docs | setup,ci');
});

test('drag by an offset moves a card down its column', async () => {
  const b = await openBoard();
  const box = await b.page.locator('[data-id=spec]').boundingBox();
  const r = await call('drag', { ref: refOf(view, 'button', 'Write spec'), dy: Math.round(box.height * 2.5), version: b.nav.fp.version });
  assert.equal(r.isError, false, r.text);
  assert.equal(await b.order(), 'tests,docs,spec | setup,ci');
});

test('resize to a phone collapses a responsive menu, desktop brings it back; each answer says the viewport', async () => {
  const nav = await call('navigate', { url: sites.url('/sites/responsive.html') });
  assert.equal(nav.isError, false, nav.text);
  const page = agentPage('/sites/responsive.html');
  const wide = await page.evaluate(() => `${innerWidth}x${innerHeight}`);
  const deals = refOf(view, 'link', 'Deals');
  const phone = await call('resize', { device: 'phone', version: nav.fp.version });
  assert.equal(phone.isError, false, phone.text);
  assert.equal(await page.evaluate(() => `${innerWidth}x${innerHeight}`), '390x844');
  assert.ok(phone.text.includes(`viewport 390x844 (phone), was ${wide}`), phone.text);
  assert.equal(phone.fp.type, 'delta', phone.text);
  assert.deepEqual(phone.fp.added.flatMap((a) => a.elements).map((e) => `${e.role} ${e.name}`), ['button Menu'], phone.text);
  const menu = refOf(view, 'button', 'Menu');
  assert.ok(phone.fp.removed.some((r) => r.ref === deals), phone.text);
  const desk = await call('resize', { device: 'desktop' });
  assert.equal(desk.isError, false, desk.text);
  // The window's own size (Playwright's 1280x720 was an override of its own, which this clears too).
  const own = await page.evaluate(() => `${innerWidth}x${innerHeight}`);
  assert.ok(desk.text.includes(`viewport ${own} (desktop), was 390x844`), desk.text);
  assert.equal(desk.fp.type, 'delta', desk.text);
  assert.deepEqual(desk.fp.removed.map((r) => r.ref), [menu], desk.text);
  assert.deepEqual(desk.fp.added.flatMap((a) => a.elements).map((e) => `${e.role} ${e.name}`), ['link Shop', 'link Deals', 'link Help'], desk.text);
  const bad = await call('resize', { width: 100, height: 800 });
  assert.equal(bad.text, 'error bad_arguments: resize: width and height are both needed, whole CSS px from 200 to 4000');
});

test('network finds the failing API call behind a vague error, and shows it with every credential redacted', async () => {
  const nav = await call('navigate', { url: sites.url('/sites/failing-api.html') });
  assert.equal(nav.isError, false, nav.text);
  const clicked = await call('click', { ref: refOf(view, 'button', 'Load orders'), version: nav.fp.version });
  assert.equal(clicked.isError, false, clicked.text);
  assert.match(clicked.text, /Something went wrong/);
  const failed = await chain.call('network', { failed: true });
  assert.equal(failed.isError, false, failed.text);
  // Size and time come with the request's end, which the browser may report after the page drew its error.
  const api = `${sites.origin}/api/fail?page=2&api_key=[redacted]`;
  assert.match(failed.text, new RegExp(`^<network tab="c\\d+p\\d+" since="${sites.url('/sites/failing-api.html').replace(/[.?]/g, '\\$&')}" count="1">\\n#(\\d+) POST 500 fetch( \\d+B \\d+ms)? "${api.replace(/[.?[\]]/g, '\\$&')}"\\n</network>$`));
  const id = Number(/#(\d+) POST/.exec(failed.text)[1]);
  const all = await chain.call('network', {});
  assert.match(all.text, /count="2">\n#\d+ GET 200 document .*failing-api\.html"\n#\d+ POST 500 fetch /);
  const one = await chain.call('network', { id });
  assert.equal(one.isError, false, one.text);
  assert.match(one.text, /\nrequest header Authorization: "\[redacted\]"\n/);
  assert.match(one.text, /\nrequest body "\{\\?"page\\?":2,\\?"password\\?":\\?"\[redacted\]\\?"\}"\n/);
  assert.match(one.text, /\nresponse body "\{\\?"error\\?":\\?"database unavailable\\?",\\?"retry\\?":true,\\?"access_token\\?":\\?"\[redacted\]\\?"\}"\n<\/request>$/);
  for (const secret of ['abc.def.ghi', 'hunter2', 'key-456-secret', 'tok-123-secret', 's3cr3t-session'])
    assert.ok(!one.text.includes(secret) && !all.text.includes(secret), `${secret} reached the agent:\n${one.text}`);
  const none = await chain.call('network', { id: 999 });
  assert.equal(none.isError, true);
  assert.match(none.text, /^error unknown_request: network: no request #999 since the last navigation of this tab/);
});

test('network lists a 50 MiB response and, asked for it, says it is too large to show; nothing is lost and the tab answers on', async () => {
  const nav = await call('navigate', { url: sites.url('/sites/big-download.html') });
  assert.equal(nav.isError, false, nav.text);
  const got = await call('click', { ref: refOf(view, 'button', 'Download the yearly report'), version: nav.fp.version });
  assert.equal(got.isError, false, got.text);
  // The page's own count: the whole body arrived (50 MiB and its two quotes).
  const done = await call('wait_for', { text: `Downloaded ${50 * 1024 * 1024 + 2} characters`, ms: 20_000 });
  assert.equal(done.isError, false, done.text);
  const list = await chain.call('network', {});
  const row = /\n#(\d+) GET 200 fetch 50\.0MB \d+ms "[^"\n]*\/api\/big\?mb=50"\n/.exec(list.text);
  assert.ok(row, list.text);
  const one = await chain.call('network', { id: Number(row[1]) });
  assert.equal(one.isError, false, one.text);
  assert.match(one.text, /\nresponse body: 50\.0MB, over the 976\.6kB shown; not fetched\n?/, one.text);
  assert.ok(one.text.length < 4_000, `the answer stays small: ${one.text.length} characters`);
  const after = await call('snapshot', {});
  assert.equal(after.isError, false, after.text);
  assert.ok(after.fp.elements.some((e) => e.name === `Downloaded ${50 * 1024 * 1024 + 2} characters`), after.text);
});
