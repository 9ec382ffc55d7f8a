// A page that multiplies what the browser holds, through the real chain (MCP SDK client ->
// athena-bridge mcp -> native host -> the extension -> Chromium): 10,000 same-origin iframes, and
// a click that opens 100 tabs, one that puts a button in each of 2,000 rows, and 20,000 links
// with long addresses. Each answer is a bounded FactPack that says what it left out, and
// the agent's next call works. The bounds are extension/lib/limits.js's: framesCapturedMax (the
// frames a capture keeps; a load attaching more is stopped) and popupsAdoptedMax (the tabs one
// action opens that become the agent's).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LIMITS } from '../../extension/lib/limits.js';
import { useChain } from './lib/use-chain.mjs';
import { until, within, timed } from '../support/wait.mjs';
import { loadAthena } from '../wasm/load.mjs';
import { AgentView } from '../support/factpack-text.mjs';

/**
 * Longest a call on these pages may take and still be the action's own bounded answer: a
 * navigation's wait for its load, the settle cap, and one capture's CDP bound. Not a speed target
 * (bench/ measures that); past it, the call waited for something it should not have.
 */
const ANSWER_MS = LIMITS.navigationCapMs + LIMITS.stabilizeCapMs + LIMITS.cdpCommandMs;
const FRAMES = 10_000, POPUPS = 100, ROWS = 2_000, LINKS = 20_000;

let sites, chain;
useChain((s, c) => { sites = s; chain = c; });

test(`${FRAMES} same-origin iframes: navigate answers with the first ${LIMITS.framesCapturedMax} frames and says how many it left out; a click then works`, { timeout: 4 * ANSWER_MS }, async (t) => {
  const [nav, ms] = await within(`navigate to a page of ${FRAMES} iframes`, timed(() => chain.call('navigate', { url: sites.url(`/many-frames?n=${FRAMES}`) })), ANSWER_MS);
  assert.equal(nav.isError, false, nav.text);
  assert.equal(nav.fp.type, 'full');
  const said = nav.fp.warnings.join('\n');
  assert.match(said, new RegExp(`the page attached more than ${LIMITS.framesCapturedMax} frames while loading: its loading was stopped there`));
  const m = new RegExp(`this page has (\\d+) frames: this FactPack shows what the first ${LIMITS.framesCapturedMax} hold, and leaves the other (\\d+) out`).exec(said);
  assert.ok(m, said);
  assert.equal(Number(m[2]), Number(m[1]) - LIMITS.framesCapturedMax, said);
  // The frames' document requests the stop cut are not waited for (Chrome never tells their end).
  assert.doesNotMatch(said, /the network was still busy/, said);
  // The page's own button is in the FactPack: the frames' regions, past the budget, fold into one
  // line first (core/src/render/trim.cpp), whose find lists exactly what it counts.
  const top = nav.fp.elements.find((e) => e.role === 'button' && e.name === 'Top button');
  assert.ok(top, nav.text);
  const fold = nav.fp.gaps.find((g) => /^in frames f\d+\.\.f\d+$/.test(g.what));
  t.diagnostic(`navigate FactPack: ${nav.text.length} chars; ${fold ? fold.line : 'no frames folded'}`);
  if (fold) {
    const listed = await chain.call('find', { frame: fold.find?.frame });
    assert.equal(listed.isError, false, listed.text);
    assert.equal(listed.fp.find?.total, fold.count, listed.text);
  }
  t.diagnostic(`navigate to ${FRAMES} iframes (${m[1]} frames in Chromium): ${ms} ms, ${m[2]} frames left out`);
  // The agent's next call on the page: an action on the page's own button.
  const [click, clickMs] = await within('a click on the page of many frames', timed(() => chain.call('click', { ref: top.ref, version: nav.fp.version })), ANSWER_MS);
  assert.equal(click.isError, false, click.text);
  assert.equal(click.fp.type, 'delta', click.text);
  assert.ok(click.fp.added.some((a) => a.elements.some((e) => e.role === 'status' && e.name === 'Top pressed')), click.text);
  t.diagnostic(`the next click: ${clickMs} ms`);
});

test(`${LIMITS.framesCapturedMax} frames whose regions pass the budget fold into one line; its find lists them and a button found there works`, { timeout: 4 * ANSWER_MS }, async (t) => {
  const nav = await within(`navigate to a page of ${LIMITS.framesCapturedMax} iframes`, chain.call('navigate', { url: sites.url(`/many-frames?n=${LIMITS.framesCapturedMax}`) }), ANSWER_MS);
  assert.equal(nav.isError, false, nav.text);
  assert.ok(nav.fp.elements.some((e) => e.role === 'button' && e.name === 'Top button'), nav.text);
  // The last frames fold, as few as make the pack fit: the frames before them show their button.
  // Frame ids (f1, f2, …) are never reused in a tab (core/src/engine/frame_tracker.h): this page's are
  // the framesCapturedMax from the first shown.
  const shown = nav.fp.elements.filter((e) => e.name === 'Widget button');
  const base = Math.min(...shown.map((e) => Number(/^f(\d+)$/.exec(e.frame ?? '')?.[1])));
  const last = base + LIMITS.framesCapturedMax - 1;
  const fold = nav.fp.gaps.find((g) => new RegExp(`^in frames f\\d+\\.\\.f${last}$`).test(g.what));
  assert.ok(fold, nav.text);
  const first = Number(/^in frames f(\d+)/.exec(fold.what)?.[1]);
  assert.deepEqual([fold.count, fold.find], [last - first + 1, { frame: `f${first}..f${last}` }], fold.line);
  assert.equal(shown.length, first - base, nav.text);
  t.diagnostic(`${nav.text.length} chars: ${fold.line}`);
  const listed = await chain.call('find', { frame: fold.find?.frame, name: 'Widget button', limit: 5 });
  assert.equal(listed.isError, false, listed.text);
  assert.equal(listed.fp.find?.total, fold.count, listed.text);
  // A run that is not one, or that the page does not have, is an error that says so.
  const malformed = await chain.call('find', { frame: 'f1..' });
  assert.match(malformed.text, /^error bad_arguments: find: frame is a frame id as the FactPack shows it \(like f1\), or a run of them \(like f2\.\.f9\), got "f1\.\."$/, malformed.text);
  // A run is written low to high (rules/words.json): one backwards is no run at all.
  const backwards = await chain.call('find', { frame: `f${last}..f${base}` });
  assert.match(backwards.text, new RegExp(`^error bad_arguments: find: frame is a frame id as the FactPack shows it \\(like f1\\), or a run of them \\(like f2\\.\\.f9\\), got "f${last}\\.\\.f${base}"$`), backwards.text);
  // A run the page does not have is an error that lists the frames it has.
  const missing = await chain.call('find', { frame: `f${last + 1}..f${last + 5}` });
  assert.match(missing.text, new RegExp(`^error invalid_argument: find: this page has no frame "f${last + 1}\\.\\.f${last + 5}"; frames: f0, f${base}, `), missing.text);
  const widget = listed.fp.find?.elements[0];
  // The first listed is the first folded frame's: a find of that frame alone lists it.
  const inFirst = await chain.call('find', { frame: `f${first}`, name: 'Widget button' });
  assert.deepEqual(inFirst.fp.find?.elements.map((e) => e.ref), [widget?.ref], inFirst.text);
  const click = await chain.call('click', { ref: widget?.ref, version: nav.fp.version });
  assert.equal(click.isError, false, click.text);
  assert.match(click.text, new RegExp(`${widget?.ref} button "Widget button": name -> "Pressed"|${widget?.ref} button "Pressed"`), click.text);
});

test('a click that gives 20 frames new documents: one line says every ref of those frames went, and their new buttons work', { timeout: 4 * ANSWER_MS }, async () => {
  // More frames than kMaxInvalidFrameLines (core/include/athena/limits.h): frames in a row share a
  // line. The page's 100 links keep the change under the reliability rule's ratio (a delta), and
  // the whole page within the budget (the agent holds every frame's line).
  const n = 20;
  const nav = await chain.call('navigate', { url: sites.url(`/many-frames?n=${n}&links=100`) });
  assert.equal(nav.isError, false, nav.text);
  const view = new AgentView();
  assert.deepEqual(view.apply(nav.fp), []);
  const reload = nav.fp.elements.find((e) => e.role === 'button' && e.name === 'Reload widgets');
  assert.ok(reload, nav.text);
  const click = await chain.call('click', { ref: reload.ref, version: nav.fp.version });
  assert.equal(click.isError, false, click.text);
  const lines = click.text.split('\n').filter((l) => l.startsWith('<invalid cause="navigated"'));
  const m = /^<invalid cause="navigated" frame="f(\d+)\.\.f(\d+)" count="(\d+)"\/>$/.exec(lines[0] ?? '');
  assert.ok(lines.length === 1 && m, click.text);
  assert.deepEqual([Number(m[2]) - Number(m[1]) + 1, Number(m[3])], [n, n], click.text);
  // The parser's agent drops exactly the refs it held of those frames (the count checks it).
  assert.deepEqual(view.apply(click.fp), []);
  const found = await chain.call('find', { name: 'Widget button', limit: 100 });
  assert.equal(found.fp.find?.total, n, found.text);
  const widget = found.fp.find.elements[n - 1];
  const pressed = await chain.call('click', { ref: widget.ref, version: found.fp.version });
  assert.equal(pressed.isError, false, pressed.text);
  assert.match(pressed.text, new RegExp(`${widget.ref} button "Pressed"|${widget.ref} button "Widget button": name`), pressed.text);
});

test(`a click that opens ${POPUPS} tabs: the first ${LIMITS.popupsAdoptedMax} become the agent's and are listed, the rest are counted and left open`, { timeout: 4 * ANSWER_MS }, async (t) => {
  const nav = await chain.call('navigate', { url: sites.url(`/sites/ext/many-popups.html?n=${POPUPS}`) });
  assert.equal(nav.isError, false, nav.text);
  const button = nav.fp.elements.find((e) => e.role === 'button' && e.name === 'Open every report');
  assert.ok(button, nav.text);
  const [click, ms] = await within(`a click opening ${POPUPS} tabs`, timed(() => chain.call('click', { ref: button.ref, version: nav.fp.version })), ANSWER_MS);
  assert.equal(click.isError, false, click.text);
  assert.ok(click.fp.added.some((a) => a.elements.some((e) => e.name === `Opened ${POPUPS} of ${POPUPS}`)), click.text);
  const adopted = click.fp.warnings.map((w) => /^this action opened tab (c0p\d+)/.exec(w)?.[1]).filter(Boolean);
  assert.equal(adopted.length, LIMITS.popupsAdoptedMax, click.text);
  const past = POPUPS - LIMITS.popupsAdoptedMax;
  assert.ok(click.fp.warnings.includes(`this action opened ${past} more tabs, left open and not controlled: the agent takes over at most ${LIMITS.popupsAdoptedMax} of the tabs one action opens, and closes none of them (they stay in the user's browser); tabs list shows the tabs you control`), click.text);
  t.diagnostic(`click opening ${POPUPS} tabs: ${ms} ms, ${adopted.length} adopted, ${past} counted`);
  // Nothing was closed: every tab the page opened is still in the browser.
  let open = 0;
  await until(`the ${POPUPS} tabs the page opened, all still open`, () => (open = chain.context.pages().filter((p) => p.url().includes('report=')).length) === POPUPS, { last: () => `${open} open` });
  // tabs list shows the agent's tab and the adopted ones, no other.
  const list = await chain.call('tabs', { action: 'list' });
  assert.equal(list.isError, false, list.text);
  const ids = [...list.text.matchAll(/<tab id="(c0p\d+)"/g)].map((x) => x[1]);
  assert.deepEqual(ids.slice(1).sort(), [...adopted].sort(), list.text);
  // The agent's next call works in an adopted tab.
  const selected = await within('tabs select on an adopted tab', chain.call('tabs', { action: 'select', tab: adopted[0] }), ANSWER_MS);
  assert.equal(selected.isError, false, selected.text);
  assert.match(selected.text, /button "Increment"/);
});

test(`a click that puts a button in each of ${ROWS} rows: a delta within the token budget, its last line the find that lists the rest`, { timeout: 4 * ANSWER_MS }, async (t) => {
  const nav = await chain.call('navigate', { url: sites.url(`/sites/ext/edit-rows.html?n=${ROWS}`) });
  assert.equal(nav.isError, false, nav.text);
  const edit = nav.fp.elements.find((e) => e.role === 'button' && e.name === 'Edit rows');
  assert.ok(edit, nav.text);
  const click = await chain.call('click', { ref: edit.ref, version: nav.fp.version });
  assert.equal(click.isError, false, click.text);
  assert.equal(click.fp.type, 'delta', click.text);
  // Each button sits after its own row: 2,000 places, bounded as one list (core/src/render/text.cpp).
  const { limits } = (await loadAthena()).athena;
  assert.ok(click.text.length <= limits.defaultTokenBudget * limits.bytesPerToken, `the delta is ${click.text.length} characters`);
  const shown = click.fp.added.flatMap((a) => a.elements).filter((e) => /^Remove row \d+$/.test(e.name));
  const rest = click.fp.gaps.find((g) => g.what === 'added interactive');
  assert.ok(shown.length > 0 && rest, click.text);
  assert.equal(shown.length + rest.count, ROWS, click.text);
  t.diagnostic(`${click.text.length} characters: ${shown.length} buttons shown, then ${rest.line}`);
  // The find it names, paged on, lists exactly the buttons left out, and the last of them works.
  const listed = [];
  let page = null;
  for (let after = rest.find.after; after; after = page.fp.find?.next) {
    page = await chain.call('find', { ...rest.find, role: 'button', after, limit: 500 });
    assert.equal(page.isError, false, page.text);
    listed.push(...(page.fp.find?.elements ?? []));
  }
  assert.deepEqual(listed.map((e) => e.name), Array.from({ length: rest.count }, (_, i) => `Remove row ${shown.length + i}`));
  const target = listed.at(-1);
  const removed = await chain.call('click', { ref: target.ref, version: page.fp.version });
  assert.equal(removed.isError, false, removed.text);
  assert.match(removed.text, new RegExp(`${target.ref} button "Remove row ${ROWS - 1}"`), removed.text);
});

test(`${LINKS} links with 400-character addresses: the agent stays connected, and a structured client gets the JSON's size instead of it`, { timeout: 4 * ANSWER_MS }, async (t) => {
  // Each link's address is carried in the FactPack's JSON (cut at kMaxHrefChars), never in its
  // text: before, the JSON went along with every answer, and here it overflowed the native host's
  // queue for the agent's MCP server, which was disconnected and lost its tab.
  const url = sites.url(`/sites/ext/many-links.html?n=${LINKS}&pad=400`);
  const nav = await chain.call('navigate', { url });
  assert.equal(nav.isError, false, nav.text);
  assert.equal(nav.fp.type, 'full', nav.text);
  const { limits } = (await loadAthena()).athena;
  assert.ok(nav.text.length <= limits.defaultTokenBudget * limits.bytesPerToken, `${nav.text.length} characters`);
  const top = nav.fp.elements.find((e) => e.role === 'button' && e.name === 'Top button');
  assert.ok(top, nav.text);
  const click = await chain.call('click', { ref: top.ref, version: nav.fp.version });
  assert.equal(click.isError, false, click.text);
  assert.match(click.text, new RegExp(`${top.ref} button "Pressed"|${top.ref} button "Top button": name was`), click.text);
  // A client of `athena-bridge mcp --structured` gets structuredContent, bounded: this one's JSON
  // is over LIMITS.structuredFactpackMaxBytes, so it says how large it was.
  const structured = await chain.connectClient('athena-e2e-structured', ['--structured']);
  const r = await chain.call('navigate', { url }, structured);
  assert.equal(r.isError, false, r.text);
  const sc = r.raw.structuredContent;
  assert.deepEqual([sc?.type, sc?.version], ['full', r.fp.version], JSON.stringify(sc)?.slice(0, 300));
  const m = /^this FactPack's JSON is (\d+) bytes, over the (\d+)-byte bound of structured results: the text content is the FactPack/.exec(sc.omitted ?? '');
  assert.ok(m, sc.omitted);
  assert.equal(Number(m[2]), LIMITS.structuredFactpackMaxBytes);
  t.diagnostic(`navigate: ${nav.text.length} characters of text; the JSON left out of the structured result: ${m[1]} bytes`);
});
