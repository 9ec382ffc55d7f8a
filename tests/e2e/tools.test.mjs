// The tools agents expect from every peer (issue #55): fill_form, drag, resize, through the
// whole chain (MCP SDK client -> athena-bridge mcp -> native host -> extension -> Chromium).
// Each test reads the answer's text as the model gets it, and checks the page itself through
// Playwright: the one right outcome, and for bad input the clear error and nothing lost.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useChain } from './lib/use-chain.mjs';
import { AgentView } from '../support/factpack-text.mjs';

let sites;
let chain;
useChain((s, c) => { sites = s; chain = c; });

/** The agent tab as Playwright sees it. @param {string} urlPart */
function agentPage(urlPart) {
  const pages = chain.context.pages().filter((p) => p.url().includes(urlPart));
  assert.ok(pages.length > 0, `no tab shows ${urlPart}`);
  return pages[pages.length - 1];
}

/** What the agent holds, from every FactPack it got (a page seen before comes back as unchanged regions). */
const view = new AgentView();
/** Calls a tool as the agent; FactPacks go into `view`. */
async function call(name, args) {
  const r = await chain.call(name, args);
  if (r.fp) assert.deepEqual(view.apply(r.fp), [], `${name}: the FactPack does not apply to what the agent holds:\n${r.text}`);
  return r;
}

/** The ref of role+name among what the agent holds. */
function refOf(role, name) {
  const e = [...view.elements.values()].find((x) => x.role === role && x.name === name);
  assert.ok(e, `no ${role} "${name}" held: ${JSON.stringify([...view.elements.values()].map((x) => `${x.role} ${x.name}`))}`);
  return e.ref;
}

/** Navigates to the sign-up form: its FactPack and the refs of its fields. */
async function openSignup() {
  const nav = await call('navigate', { url: sites.url('/sites/signup.html') });
  assert.equal(nav.isError, false, nav.text);
  return {
    nav, page: agentPage('/sites/signup.html'),
    name: refOf('textbox', 'Full name'), email: refOf('textbox', 'Email'), age: refOf('spinbutton', 'Age'),
    about: refOf('textbox', 'About you'), country: refOf('combobox', 'Country'), city: refOf('combobox', 'City'),
    news: refOf('checkbox', 'Send me news'), pro: refOf('radio', 'Pro'), dark: refOf('switch', 'Dark mode'),
    code: refOf('textbox', 'Referral code'), submit: refOf('button', 'Create account'),
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
