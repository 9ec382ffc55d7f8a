// The FactPack text parser and AgentView (tests/support/factpack-text.mjs) against the real
// goldens (tests/golden/<case>/<NN-step>.txt, and the .json of the same FactPack as the truth),
// plus hand-written edge cases.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  AgentView, canonicalLine, parseElementLine, parseFactPack, parseGapLine, parseModifiedLine, quote,
} from '../support/factpack-text.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const goldenDir = path.join(root, 'tests/golden');
const cases = readdirSync(goldenDir, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort();
const steps = (c) => readdirSync(path.join(goldenDir, c)).filter((f) => f.endsWith('.txt')).sort()
  .map((f) => ({ name: f, text: readFileSync(path.join(goldenDir, c, f), 'utf8'), json: JSON.parse(readFileSync(path.join(goldenDir, c, f.replace(/\.txt$/, '.json')), 'utf8')) }));

/** The canonical line of a JSON element (docs/factpack-format.md, JSON section), as the text renders it. */
function jsonLine(e) {
  const s = e.state ?? {};
  const w = [];
  if (e.category === 'heading' && e.level) w.push(`level=${e.level}`);
  for (const f of ['disabled', 'focused', 'required', 'invalid', 'readonly', 'selected', 'current']) if (s[f]) w.push(f);
  for (const k of ['checked', 'expanded', 'pressed']) {
    const v = s[k];
    if (v === undefined || v === null || v === 'unset') continue;
    if (v === true || v === 'true') w.push(k);
    else w.push(`${k}=${v}`);
  }
  if (s.sort) w.push(`sort=${s.sort}`);
  if (s.value_redacted) w.push('value=redacted');
  else if (s.value) w.push(`value=${quote(s.value)}`);
  let line = `${e.ref} ${e.role || e.category} ${quote(e.name)}`;
  if (w.length) line += ' ' + w.join(' ');
  if (e.href && !e.name) line += ` href=${quote(e.href)}`;  // a named link shows no address (read gives it)
  if (e.description) line += ` desc=${quote(e.description)}`;
  if (e.cut) line += ' cut';  // its words are the start of longer ones
  return line;
}

/** The reference: what the old bench agent did with structuredContent (every element, nothing trimmed). */
function applyJson(map, fp) {
  for (const b of fp.before_action ?? []) applyJson(map, b);
  if (fp.type === 'full') map.clear();
  for (const i of fp.invalidated ?? []) map.delete(i.ref);
  for (const r of fp.regions ?? []) for (const e of r.elements ?? []) map.set(e.ref, e);
  for (const e of fp.added ?? []) map.set(e.ref, e);
  for (const m of fp.modified ?? []) map.set(m.ref, m.after);
}

/** A held line is on the page: the same line, or for a text line cut to its first words, a line it starts. */
function onPage(line, lines) {
  if (lines.has(line)) return true;
  if (!line.endsWith('" cut')) return false;
  const start = line.slice(0, -'" cut'.length);
  return [...lines].some((l) => l.startsWith(start));
}

test('every golden parses; type, version, url, summary and element lines agree with its JSON', () => {
  let n = 0;
  for (const c of cases) {
    for (const s of steps(c)) {
      const fp = parseFactPack(s.text);
      n++;
      const where = `${c}/${s.name}`;
      assert.equal(fp.type, s.json.type, where);
      assert.equal(fp.version, s.json.version, where);
      if (fp.type === 'full') { assert.equal(fp.url, s.json.url, where); assert.equal(fp.title, s.json.title, where); }
      const jsonByRef = new Map([...(s.json.regions ?? []).flatMap((r) => r.elements ?? []), ...(s.json.added ?? [])].map((e) => [e.ref, e]));
      for (const e of fp.elements) {
        assert.ok(jsonByRef.has(e.ref), `${where}: ${e.ref} not in the JSON`);
        if (e.cut) {
          // A text line trimmed to its first words: the JSON has it whole.
          const whole = jsonByRef.get(e.ref);
          assert.ok(whole.name.startsWith(e.name) && whole.name.length > e.name.length, `${where}: ${e.line}`);
          assert.equal(canonicalLine({ ...e, name: whole.name, cut: whole.cut === true }), jsonLine(whole), where);
        } else {
          assert.equal(canonicalLine(e), jsonLine(jsonByRef.get(e.ref)), where);
        }
        assert.equal(canonicalLine(e), e.line, `${where}: the canonical line is the line as rendered`);
        // Its indentation is its outline depth, in a full's regions and in <added> alike.
        assert.equal(e.depth ?? 0, jsonByRef.get(e.ref).depth ?? 0, `${where}: depth of ${e.line}`);
      }
      // Gaps + shown = every element of a baseline region.
      for (const [i, r] of fp.regions.entries()) {
        const jr = s.json.regions[i];
        assert.equal(r.name, jr.region, where);
        assert.equal(r.seenIn, jr.seen_in, `${where}: seen_in of region ${r.name}`);
        if (r.unchanged) assert.equal(r.count, jr.elements.length, where);
        else assert.equal(r.elements.length + r.gaps.reduce((a, g) => a + g.count, 0), jr.elements.length, `${where} region ${r.name}`);
      }
      const removedShown = fp.invalid.reduce((a, inv) => a + (inv.count ?? inv.refs.length + inv.gaps.reduce((x, g) => x + g.count, 0)), 0);
      // A full says nothing of the documents and overlays it replaced (the agent drops what it held).
      // Nor does an overlay_closed of the refs of the overlay it closed: its tag says them.
      const replaced = (inv) => (fp.type === 'full' && ['navigated', 'detached', 'overlay_closed'].includes(inv.cause)) ||
        (fp.type === 'overlay_closed' && inv.cause === 'overlay_closed');
      assert.equal(removedShown, (s.json.invalidated ?? []).filter((inv) => !replaced(inv)).length, where);
      assert.equal(fp.modified.length + fp.gaps.filter((g) => / modified /.test(g.line)).reduce((a, g) => a + g.count, 0), (s.json.modified ?? []).length, where);
      assert.equal(fp.beforeAction.length, (s.json.before_action ?? []).length, where);
    }
  }
  assert.ok(n >= 40, `only ${n} goldens`);
});

test('AgentView from the text equals the JSON view at every step of every untrimmed flow', () => {
  let checked = 0;
  for (const c of cases) {
    const all = steps(c);
    const trimmed = all.some((s) => parseFactPack(s.text).gaps.length > 0);
    const view = new AgentView();
    const ref = new Map();
    for (const s of all) {
      const problems = view.apply(s.text);
      applyJson(ref, s.json);
      assert.deepEqual(problems, [], `${c}/${s.name}`);
      const want = [...ref.values()].map(jsonLine).sort();
      if (!trimmed) { assert.deepEqual(view.canonical(), want, `${c}/${s.name}`); checked++; continue; }
      // Trimmed regions: what the agent holds is a subset of the page, each element exactly as it is
      // (a line cut to its first words, as its start).
      const have = new Set(want);
      for (const l of view.canonical()) assert.ok(onPage(l, have), `${c}/${s.name}: ${l} is not on the page`);
      checked++;
    }
  }
  assert.ok(checked > 30);
});

test("after a recorded flow, the view holds its last full snapshot's elements (shown + unchanged regions)", () => {
  for (const c of cases) {
    const all = steps(c);
    const lastFull = all.map((s) => s.json.type).lastIndexOf('full');
    if (lastFull < 0) continue;
    const view = new AgentView();
    for (const s of all.slice(0, lastFull + 1)) view.apply(s.text);
    const fp = parseFactPack(all[lastFull].text);
    const json = all[lastFull].json;
    const expected = new Set();
    const mayHold = new Set();
    json.regions.forEach((jr, i) => {
      const r = fp.regions[i];
      // An untrimmed region: every element; a trimmed one: the lines shown; an unchanged one: what
      // the agent was shown of it before (all of it, or what a trimmed listing showed).
      if (r.unchanged) for (const e of jr.elements) mayHold.add(jsonLine(e));
      else if (!r.gaps.length) for (const e of jr.elements) expected.add(jsonLine(e));
      else for (const e of r.elements) expected.add(canonicalLine(e));
    });
    const held = new Set(view.canonical());
    for (const l of held) assert.ok(onPage(l, expected) || onPage(l, mayHold), `${c}: holds ${l}`);
    const missing = [...expected].filter((l) => !held.has(l) && ![...held].some((h) => onPage(h, new Set([l]))));
    assert.deepEqual(missing, [], `${c}: the view lacks elements of the last full`);
    assert.equal(view.url, json.url);
  }
});

test('pydocs: a navigation keeps the unchanged regions the agent holds and drops the old document', () => {
  const all = steps('pydocs');
  const view = new AgentView();
  view.apply(all[0].text);
  const search = [...view.elements.values()].filter((e) => e.region === 'search').map((e) => e.ref);
  // The second search box repeats the first: shown once, the repeat one gap line.
  assert.deepEqual(search, ['e9', 'e10']);
  assert.ok(view.findElement('Built-in Functions', 'link'));
  view.apply(all[1].text);
  assert.ok(search.every((r) => view.elements.has(r)), 'the unchanged search region keeps its refs');
  assert.equal(view.findElement('Built-in Functions', 'link'), null, 'refs of the old document are gone');
  const fp = parseFactPack(all[1].text);
  const main = fp.regions.find((r) => r.name === 'main');
  const jsonMain = all[1].json.regions.find((r) => r.region === 'main');
  assert.equal(main.gaps.reduce((a, g) => a + g.count, 0), jsonMain.elements.length - main.elements.length);
  // What it holds: the lines shown now, and of each unchanged region what it was shown before
  // (a repeat it was shown once is not held twice).
  const unchanged = fp.regions.filter((r) => r.unchanged).reduce((a, r) => a + r.count, 0);
  assert.ok(view.elements.size > fp.summary.shown && view.elements.size <= fp.summary.shown + unchanged, `${view.elements.size}`);
});

test('pydocs: back on a page it left, the agent holds again what it held there (seen_in), under the same refs', () => {
  const all = steps('pydocs');
  const back = all.findIndex((s) => s.name === '03-back.txt');
  const fp = parseFactPack(all[back].text);
  const recalled = fp.regions.filter((r) => r.seenIn !== undefined);
  assert.deepEqual(recalled.map((r) => r.name), ['nav', 'main', 'nav'], 'the page\'s own regions, not the search box the site repeats');
  const view = new AgentView();
  for (const s of all.slice(0, back)) view.apply(s.text);
  const seen = recalled[0].seenIn;
  // What it held at that version, of those regions: before the page it went to replaced it.
  const replay = new AgentView();
  for (const s of all.slice(0, back)) { replay.apply(s.text); if (replay.version === seen) break; }
  const keyOf = (/** @type {any} */ e) => `${e.region}\t${e.label ?? ''}`;
  const keys = new Set(recalled.map((r) => `${r.name}\t${r.label ?? ''}`));
  const then = [...replay.elements.values()].filter((e) => keys.has(keyOf(e))).map((e) => e.line);
  assert.ok(then.length > 50, `${then.length} lines held at v${seen}`);
  assert.deepEqual(view.apply(all[back].text), []);
  const now = [...view.elements.values()].filter((e) => keys.has(keyOf(e))).map((e) => e.line);
  assert.deepEqual(now, then);
  assert.equal(view.url, all[back].json.url);
});

test('element lines: escaped quotes and backslashes, "<" and "-> " inside names, every state word', () => {
  const line = String.raw`e7 button "Say \"hi\" <b> -> C:\\dir\\" disabled focused checked=false expanded pressed=mixed value="a \"b\", c -> d" href="x.html?a=\"1\"" desc="in: <li> -> x"`;
  const e = parseElementLine(line);
  assert.equal(e.ref, 'e7');
  assert.equal(e.role, 'button');
  assert.equal(e.name, 'Say "hi" <b> -> C:\\dir\\');
  assert.deepEqual(e.flags, ['disabled', 'focused']);
  assert.deepEqual(e.tri, { checked: 'false', expanded: 'true', pressed: 'mixed' });
  assert.equal(e.value, 'a "b", c -> d');
  assert.equal(e.href, 'x.html?a="1"');
  assert.equal(e.desc, 'in: <li> -> x');
  // A named element is known by its name: its line as the renderer writes it has no address.
  assert.equal(canonicalLine(e), line.replace(String.raw` href="x.html?a=\"1\""`, ''));
  const nameless = String.raw`e8 link "" href="x.html?a=\"1\"" desc="in: <li> -> x"`;
  assert.equal(canonicalLine(parseElementLine(nameless)), nameless);
  const red = parseElementLine('e3 textbox "Password" required value=redacted');
  assert.equal(red.valueRedacted, true);
  assert.equal(red.value, undefined);
  const literal = parseElementLine('e4 textbox "Note" value="redacted"');
  assert.equal(literal.value, 'redacted');
  assert.equal(literal.valueRedacted, undefined);
  const text = parseElementLine('e31 text "This will delete 12 files."');
  assert.equal(text.role, 'text');
  assert.equal(parseElementLine('... 3 more here'), null);
  assert.equal(parseElementLine('<region name="main">'), null);
});

test('modified lines: names with ": " and "-> ", several changes, state words only cleared', () => {
  const m = parseModifiedLine(String.raw`e5 status "Saved: a -> b, c": name was "Saving: x -> y", desc "d\"q -> x", checked=false value="1, 2" -> checked value="3 -> 4"`);
  assert.equal(m.name, 'Saved: a -> b, c');
  assert.deepEqual(m.segments.map((s) => s.what), ['name', 'desc', 'state']);
  assert.deepEqual(m.segments[0], { what: 'name', before: '"Saving: x -> y"', after: '"Saved: a -> b, c"' });
  // A text line that changed says only that: its line is the new text.
  const t = parseModifiedLine('e9 row "Item 3 | 99": new text');
  assert.deepEqual(t.segments, [{ what: 'name', before: '', after: '"Item 3 | 99"' }]);
  const v = new AgentView();
  v.apply('<full v="1" reason="first" url="u" title="t">\n<region name="main">\ne5 status "Saving: x -> y" checked=false value="1, 2"\n</region>\n<summary elements="1"/>\n</full>\n');
  assert.deepEqual(v.apply(`<delta v="2">\n<modified>\n${m.change ? String.raw`e5 status "Saved: a -> b, c": ` + m.change : ''}\n</modified>\n<summary modified="1"/>\n</delta>\n`), []);
  const e = v.elements.get('e5');
  assert.equal(e.name, 'Saved: a -> b, c');
  assert.equal(e.desc, 'd"q -> x');
  assert.equal(e.value, '3 -> 4');
  assert.equal(e.tri.checked, 'true');
  assert.equal(e.region, 'main', 'a modified element stays in its region');
  v.apply('<delta v="3">\n<modified>\ne5 status "Saved: a -> b, c": - checked value="3 -> 4"\n</modified>\n<summary modified="1"/>\n</delta>\n');
  assert.equal(canonicalLine(v.elements.get('e5')), 'e5 status "Saved: a -> b, c" desc="d\\"q -> x"');
  v.apply('<delta v="4">\n<modified>\ne5 status "Saved: a -> b, c": desc ""\n</modified>\n</delta>\n');
  assert.equal(canonicalLine(v.elements.get('e5')), 'e5 status "Saved: a -> b, c"', 'desc "" is a description that went');
  assert.deepEqual(parseModifiedLine('e9 link "x": moved').segments, [{ what: 'moved', before: '', after: '' }]);
  assert.deepEqual(parseModifiedLine('e9 tab "x": role button -> tab').segments, [{ what: 'role', before: 'button', after: 'tab' }]);
  // A line that changed places: the line it follows now, or first in its region.
  assert.deepEqual(parseModifiedLine('e9 row "Ada | Analyst": moved after e3').segments, [{ what: 'order', before: '', after: 'e3' }]);
  assert.deepEqual(parseModifiedLine('e9 row "x": new text, moved first').segments.map((x) => [x.what, x.after]), [['name', '"x"'], ['order', '']]);
  assert.throws(() => parseModifiedLine('e9 row "x": moved after nowhere'), /before -> after/);
  // A line that moved in the outline: the agent's copy moves with it.
  v.apply('<delta v="5">\n<modified>\ne5 status "Saved: a -> b, c": depth 0 -> 2\n</modified>\n</delta>\n');
  assert.equal(v.elements.get('e5').depth, 2);
});

test('modified state: only the words that differ, the rest of the line kept as the agent holds it', () => {
  const v = new AgentView();
  v.apply('<full v="1" reason="first" url="u" title="t">\n<region name="main">\ne9 textbox "Email" disabled required value="ada"\ne10 checkbox "Keep" focused checked=false\n</region>\n<summary elements="2"/>\n</full>\n');
  // Enabled, its value unchanged and not repeated; a box ticked, still focused.
  assert.deepEqual(v.apply('<delta v="2">\n<modified>\ne9 textbox "Email": - disabled\ne10 checkbox "Keep": checked=false -> checked\n</modified>\n</delta>\n'), []);
  assert.equal(canonicalLine(v.elements.get('e9')), 'e9 textbox "Email" required value="ada"');
  assert.equal(canonicalLine(v.elements.get('e10')), 'e10 checkbox "Keep" focused checked');
  // Typed into and focused; then a value the page made secret; then cleared and required no more.
  v.apply('<delta v="3">\n<modified>\ne9 textbox "Email": value="ada" -> focused value="ada@x"\n</modified>\n</delta>\n');
  assert.equal(canonicalLine(v.elements.get('e9')), 'e9 textbox "Email" focused required value="ada@x"');
  v.apply('<delta v="4">\n<modified>\ne9 textbox "Email": value="ada@x" -> value=redacted\n</modified>\n</delta>\n');
  assert.equal(canonicalLine(v.elements.get('e9')), 'e9 textbox "Email" focused required value=redacted');
  v.apply('<delta v="5">\n<modified>\ne9 textbox "Email": - required value=redacted\n</modified>\n</delta>\n');
  assert.equal(canonicalLine(v.elements.get('e9')), 'e9 textbox "Email" focused');
  // Words only set: the rest of the line stays.
  v.apply('<delta v="6">\n<modified>\ne9 textbox "Email": + invalid value="x"\ne10 checkbox "Keep": - focused\n</modified>\n</delta>\n');
  assert.equal(canonicalLine(v.elements.get('e9')), 'e9 textbox "Email" focused invalid value="x"');
  assert.equal(canonicalLine(v.elements.get('e10')), 'e10 checkbox "Keep" checked');
  assert.deepEqual(parseModifiedLine('e9 textbox "Email": + focused value="a -> b"').segments, [{ what: 'state', before: '', after: 'focused value="a -> b"' }]);
  assert.deepEqual(parseModifiedLine('e9 textbox "Email": - disabled, depth 1 -> 2').segments.map((x) => x.what), ['state', 'depth']);
  // A column sorted, then sorted the other way.
  v.apply('<full v="7" reason="first" url="u" title="t">\n<region name="main">\ne3 columnheader "Name"\n</region>\n</full>\n');
  v.apply('<delta v="8">\n<modified>\ne3 columnheader "Name": + sort=ascending\n</modified>\n</delta>\n');
  assert.equal(canonicalLine(v.elements.get('e3')), 'e3 columnheader "Name" sort=ascending');
  v.apply('<delta v="9">\n<modified>\ne3 columnheader "Name": sort=ascending -> sort=descending\n</modified>\n</delta>\n');
  assert.equal(canonicalLine(v.elements.get('e3')), 'e3 columnheader "Name" sort=descending');
});

test('order: lines sit where the FactPacks put them (added after a line, moved, first of a region), announcements nowhere', () => {
  const v = new AgentView();
  v.apply('<full v="1" reason="first" url="u" title="t">\n<region name="nav">\ne1 link "Home"\n</region>\n<region name="main">\ne2 columnheader "Name"\ne3 row "Cy"\ne4 row "Al"\ne5 row "Bo"\n</region>\n</full>\n');
  const main = () => v.order().get('main\t\t');
  assert.deepEqual(main(), ['e2', 'e3', 'e4', 'e5']);
  // Sorted: two rows move, one new row under the header, one at the top of the region, and a status.
  v.apply('<delta v="2">\n<added region="main" after="e2">\ne6 row "Ab"\n</added>\n<added region="main">\ne7 heading "People" level=2\n</added>\n' +
    '<added region="main">\ne8 status "Sorted"\n</added>\n<modified>\ne4 row "Al": moved after e6\ne5 row "Bo": moved after e4\n</modified>\n</delta>\n');
  assert.deepEqual(main(), ['e7', 'e2', 'e6', 'e4', 'e5', 'e3']);  // a status says no place: e8 is not in the order
  assert.deepEqual(v.order().get('nav\t\t'), ['e1']);
  v.apply('<delta v="3">\n<modified>\ne3 row "Cy": moved first\n</modified>\n</delta>\n');
  assert.deepEqual(main(), ['e3', 'e7', 'e2', 'e6', 'e4', 'e5']);
  // Lines that only moved come as a run of refs, each after the one before: the lines stay as held.
  const run = v.apply('<delta v="4">\n<modified>\ne5 e4: moved first\ne2 columnheader "Name": + sort=ascending\n</modified>\n</delta>\n');
  assert.deepEqual(run, []);
  assert.deepEqual(main(), ['e5', 'e4', 'e3', 'e7', 'e2', 'e6']);
  assert.equal(v.elements.get('e5')?.name, 'Bo');
  assert.deepEqual(parseFactPack('<delta v="9">\n<modified>\ne9 e8: moved after e1\n</modified>\n</delta>\n').modified.map((m) => [m.ref, m.change, m.placeOnly]),
    [['e9', 'moved after e1', true], ['e8', 'moved after e9', true]]);
  // After a line the agent never held (a gap hid it): no known place, left out of the order.
  v.apply('<delta v="5">\n<added region="main" after="e99">\ne9 row "Zed"\n</added>\n</delta>\n');
  assert.equal(main().includes('e9'), false);
  assert.equal(v.elements.has('e9'), true);
});

test('gap lines: today\'s and the new hint forms, with the find arguments they carry', () => {
  assert.deepEqual(parseGapLine('... 373 more here (use find with region=main)').find, { region: 'main' });
  const g = parseGapLine('... 40 more here: "Built-in Types" … "Exceptions \\"x\\"" (find region=main after=e20)');
  assert.equal(g.count, 40);
  assert.deepEqual(g.samples, ['Built-in Types', 'Exceptions "x"']);
  assert.deepEqual(g.find, { region: 'main', after: 'e20' });
  const l = parseGapLine('... 12 more here (find region="related navigation" after=e7)');
  assert.deepEqual(l.find, { region: 'related navigation', after: 'e7' });
  assert.deepEqual(parseGapLine('... 159 more: find region=main after=e80').find, { region: 'main', after: 'e80' });
  assert.equal(parseGapLine('... 4 more added heading (snapshot shows the page now)').what, 'added heading');
});

test('a capped added list: runs with their lines, then one block that only counts the rest and names its find', () => {
  const view = new AgentView();
  assert.deepEqual(view.apply('<full v="1" reason="first" url="http://x/" title="T">\n<region name="main">\ne10 row "A"\ne12 row "B"\ne14 row "C"\n</region>\n</full>\n'), []);
  const fp = parseFactPack('<delta v="2">\n<added region="main" after="e10">\ne3000 button "Remove A"\n</added>\n' +
    '<added region="main" after="e12">\ne3001 button "Remove B"\n</added>\n' +
    '<added region="main">\n... 1 more added interactive (find region=main after=e3001)\n</added>\n</delta>\n');
  assert.deepEqual(fp.gaps.map((g) => [g.count, g.what, g.find]), [[1, 'added interactive', { region: 'main', after: 'e3001' }]]);
  assert.deepEqual(view.apply(fp), []);
  assert.deepEqual([...view.elements.keys()].sort(), ['e10', 'e12', 'e14', 'e3000', 'e3001']);
  assert.deepEqual(view.order().get('main\t\t'), ['e10', 'e3000', 'e12', 'e3001', 'e14']);
  // Left out in several places: the block has no place, and the line points at a snapshot.
  const many = parseFactPack('<delta v="3">\n<added>\n... 7 more added interactive (snapshot shows the page now)\n</added>\n</delta>\n');
  assert.deepEqual(many.gaps.map((g) => [g.count, g.find]), [[7, null]]);
  assert.deepEqual(view.apply(many), []);
});

test('frames whose documents went, one line for a run of them: the refs of every frame of the run go', () => {
  const view = new AgentView();
  const regions = [2, 3, 4, 9].map((f) => `<region name="main" frame="f${f}">\ne${f}0 button "In f${f}"\ne${f}1 button "Also f${f}"\n</region>\n`).join('');
  assert.deepEqual(view.apply(`<full v="1" reason="first" url="http://x/" title="T">\n<region name="main">\ne1 button "Top"\n</region>\n${regions}</full>\n`), []);
  assert.deepEqual(view.apply('<delta v="2">\n<invalid cause="navigated" frame="f2..f4" count="6"/>\n</delta>\n'), []);
  assert.deepEqual([...view.elements.keys()].sort(), ['e1', 'e90', 'e91']);
  // A count that is not what the agent holds of the run is a problem the parser reports.
  assert.deepEqual(view.apply('<delta v="3">\n<invalid cause="navigated" frame="f8..f9" count="5"/>\n</delta>\n'),
    ['<invalid cause="navigated" frame="f8..f9" count="5"/>: the agent holds 2 refs of f8..f9']);
});

test('nested before_action, warnings, invalid blocks and count lines, overlays', () => {
  const text = [
    '<delta v="7">',
    '<warning>the page was still changing after 3000 ms</warning>',
    '<before_action>',
    '<delta v="6">',
    '<added region="main">',
    'e3 button "B"',
    '</added>',
    '<summary added="1"/>',
    '</delta>',
    '</before_action>',
    '<removed>',
    'e1 button "A"',
    '</removed>',
    '<invalid cause="identity_changed">',
    'e2 link "L"',
    '</invalid>',
    '<invalid cause="detached" frame="f1" count="2"/>',
    '<added>',
    'e4 text "This will delete 12 files."',
    '</added>',
    '<summary added="1" removed="4"/>',
    '</delta>', ''].join('\n');
  const fp = parseFactPack(text);
  assert.equal(fp.warnings[0], 'the page was still changing after 3000 ms');
  assert.equal(fp.beforeAction[0].version, 6);
  assert.deepEqual(fp.invalid.map((i) => [i.cause, i.count, i.refs.length]), [['removed', undefined, 1], ['identity_changed', undefined, 1], ['detached', 2, 0]]);
  const v = new AgentView();
  v.apply('<full v="5" reason="first" url="u" title="t">\n<region name="main">\ne1 button "A"\ne2 link "L"\n</region>\n<region name="main" frame="f1">\ne8 button "In frame"\ne9 button "Too"\n</region>\n<summary elements="4"/>\n</full>\n');
  assert.deepEqual(v.apply(text), []);
  assert.deepEqual([...v.elements.keys()].sort(), ['e3', 'e4']);
  assert.ok(v.sees('this will delete 12 FILES.'));
  assert.equal(v.version, 7);
  v.apply('<overlay_opened v="8" overlay="modal" name="Delete \\"x\\"?">\n<region name="dialog" label="Delete">\ne10 button "OK"\n</region>\n</overlay_opened>\n');
  assert.deepEqual(v.overlays.map(({ type, name, depth }) => ({ type, name, depth })), [{ type: 'modal', name: 'Delete "x"?', depth: 1 }]);
  // The page under an open overlay is frozen (a delta diffs the top one only, core/src/engine/transition.cpp):
  // what a delta adds while it is open is the overlay's, in its region or another (a list it fills in).
  assert.deepEqual(v.apply('<delta v="9">\n<added region="dialog" label="Delete">\ne11 text "Are you sure?"\n</added>\n<added region="page">\ne12 option "Also the backups"\n</added>\n</delta>\n'), []);
  // A closed overlay takes its refs along: the agent drops the ones it was shown in it; what its
  // closing added to the page stays.
  assert.deepEqual(v.apply('<overlay_closed v="10" overlay="modal">\n<added region="main">\ne15 status "Saved"\n</added>\n</overlay_closed>\n'), []);
  assert.deepEqual(v.overlays, []);
  assert.equal(v.elements.has('e10'), false);
  assert.equal(v.elements.has('e11'), false);
  assert.equal(v.elements.has('e12'), false);
  assert.equal(v.elements.has('e15'), true);
  // A dialog's name is said once, by its region's label; one action can close nested overlays.
  v.apply('<overlay_opened v="11" overlay="modal">\n<region name="dialog" label="Again">\ne13 button "OK"\n</region>\n</overlay_opened>\n');
  v.apply('<overlay_opened v="12" overlay="dropdown" depth="2">\n<region name="page">\ne14 option "One"\n</region>\n</overlay_opened>\n');
  assert.deepEqual(v.overlays.map(({ name, depth }) => [name, depth]), [['Again', 1], [undefined, 2]]);
  assert.deepEqual(v.apply('<overlay_closed v="12" overlay="dropdown" depth="2" closed="2"/>\n'), []);
  assert.deepEqual([v.elements.has('e13'), v.elements.has('e14'), v.overlays.length], [false, false, 0]);
  // A dialog replaced by another: the opened pack says how many it closed; their refs go.
  v.apply('<overlay_opened v="12" overlay="modal">\n<region name="dialog" label="First">\ne20 button "Next"\n</region>\n</overlay_opened>\n');
  assert.deepEqual(v.apply('<overlay_opened v="12" overlay="modal" closed="1">\n<region name="dialog" label="Second">\ne21 button "Done"\n</region>\n</overlay_opened>\n'), []);
  assert.deepEqual(v.overlays.map(({ name }) => name), ['Second']);
  assert.deepEqual([v.elements.has('e20'), v.elements.has('e21')], [false, true]);
  assert.deepEqual(v.apply('<overlay_closed v="12" overlay="modal"/>\n'), []);
  assert.deepEqual([v.elements.has('e21'), v.overlays.length], [false, 0]);
  // A snapshot taken while overlays are open (an agent recovering its context) marks their regions:
  // the closes that follow take exactly those refs along.
  assert.deepEqual(v.apply(['<full v="13" reason="requested" url="u" title="t" overlay="dropdown" depth="2">', '<region name="main">', 'e1 button "A"', '</region>',
    '<region name="dialog" label="Again" overlay="modal">', 'e13 button "OK"', '</region>',
    '<region name="page" overlay="dropdown" depth="2">', 'e14 option "One"', 'e15 option "Two"', '</region>', '</full>', ''].join('\n')), []);
  assert.deepEqual(v.overlays.map(({ type, refs }) => [type, [...refs]]), [['modal', ['e13']], ['dropdown', ['e14', 'e15']]]);
  // An open overlay with nothing to show has no region: the tag still says it is open.
  const w = new AgentView();
  assert.deepEqual(w.apply('<full v="3" reason="requested" url="u" title="t" overlay="modal">\n<region name="main">\ne1 button "A"\n</region>\n</full>\n'), []);
  assert.equal(w.overlays.length, 1);
  assert.deepEqual(w.apply('<overlay_closed v="4" overlay="modal"/>\n'), []);
  assert.deepEqual(w.apply('<full v="5" reason="requested" url="u" title="t">\n<region name="dialog" overlay="modal">\ne2 button "B"\n</region>\n</full>\n'),
    ['regions of 1 overlays in a full whose tag says 0 are open']);
  assert.deepEqual(v.apply('<overlay_closed v="14" overlay="modal"/>\n'), []);
  assert.deepEqual([...v.elements.keys()], ['e1', 'e13']);
  assert.deepEqual(v.apply('<overlay_closed v="15" overlay="modal"/>\n'), []);
  assert.deepEqual([...v.elements.keys()], ['e1']);
  // A close with no overlay open is a fault the view reports.
  assert.deepEqual(v.apply('<overlay_closed v="12" overlay="modal"/>\n'), ['an overlay_closed that closed an overlay while the agent holds no open overlay']);
  v.apply('<no_change v="12"/>\n');
  assert.equal(v.version, 12);
  assert.throws(() => parseFactPack('<delta v="1">\nnonsense\n</delta>\n'), /unexpected line/);
  assert.throws(() => parseFactPack('<delta v="1">\n<summary/>\n'), /no <\/delta>/);
});

test('find and read answers: find adds the elements it lists, read keeps the text', () => {
  const v = new AgentView();
  v.apply(readFileSync(path.join(goldenDir, 'pydocs/00-load.txt'), 'utf8'));
  assert.equal(v.findElement('Data Types', 'link').ref, 'e126');  // a chapter: the outline shows it
  assert.equal(v.findElement('datetime — Basic date and time types', 'link'), null);  // an entry under it: collapsed
  const find = parseFactPack('<find v="1" total="209" shown="2" next="e81">\ne80 link "Data Types" href="datatypes.html"\ne81 link "datetime — Basic date and time types" href="datetime.html"\n... 207 more: find region=main after=e81\n</find>\n');
  assert.equal(find.find.total, 209);
  assert.equal(find.find.next, 'e81');
  assert.deepEqual(find.find.gaps[0].find, { region: 'main', after: 'e81' });
  v.apply(find);
  assert.equal(v.findElement('datetime — Basic date and time types', 'link').ref, 'e81');
  const read = parseFactPack('<read region="main" chars="9000" truncated="true" shown="4000">\nLine one "quoted" <b>\n\nThis will delete 12 files.\n</read>\n');
  assert.deepEqual({ ...read.read, text: undefined }, { region: 'main', chars: 9000, truncated: true, shown: 4000, text: undefined });
  assert.equal(read.text, 'Line one "quoted" <b>\n\nThis will delete 12 files.');
  assert.equal(v.sees('This will delete 12 files.'), false);
  v.apply(read);
  assert.ok(v.sees('this will   delete 12 files.'));
});

test('a find line in an iframe names its frame: that frame navigating drops exactly what find listed there', () => {
  const v = new AgentView();
  v.apply('<full v="1" reason="first" url="u" title="t">\n<region name="main">\ne1 button "Top"\n</region>\n<summary elements="3" shown="1"/>\n</full>\n');
  assert.deepEqual(v.apply('<find v="1" total="2" shown="2">\ne2 button "Framed" frame=f2\ne3 button "Main"\n</find>\n'), []);
  assert.equal(v.elements.get('e2').frame, 'f2');
  assert.equal(v.elements.get('e3').frame, undefined);
  assert.deepEqual(v.apply('<delta v="2">\n<invalid cause="navigated" frame="f2" count="1"/>\n</delta>\n'), []);
  assert.deepEqual([...v.elements.keys()].sort(), ['e1', 'e3']);
});

test('removed refs: named lines and ranges, expanded, are the pack\'s removed list', () => {
  const fp = parseFactPack('<delta v="4">\n<removed>\ne3 button "Save"\ne9..11\n</removed>\n</delta>\n');
  assert.deepEqual(fp.removed.map((r) => r.ref), ['e3', 'e9', 'e10', 'e11']);
  assert.deepEqual(parseFactPack('<delta v="5">\n<modified>\ne3 button "Save": + disabled\n</modified>\n</delta>\n').removed, []);
});

test('a modified line whose words are cut says so before its changes, and the view keeps it', () => {
  const view = new AgentView();
  assert.deepEqual(view.apply('<full v="1" reason="first" url="u" title="t">\n<region name="main">\ne1 text "Short."\ne2 text "Long" cut\n</region>\n</full>\n'), []);
  const d = '<delta v="2">\n<modified>\ne1 text "Now long" cut: new text\ne2 text "Short again.": new text\n</modified>\n</delta>\n';
  assert.deepEqual(parseFactPack(d).modified.map((m) => [m.ref, m.name, m.cut === true]), [['e1', 'Now long', true], ['e2', 'Short again.', false]]);
  assert.deepEqual(view.apply(d), []);
  assert.deepEqual(view.canonical(), ['e1 text "Now long" cut', 'e2 text "Short again."']);
});

test('a one-line note before the FactPack (not_executed) is kept, the FactPack after it parsed', () => {
  const fp = parseFactPack('<not_executed reason="stale_version" yours="19" current="20">type was not executed: your page state is too old to reconcile. Here is the current page; retry with its refs.</not_executed>\n<full v="20" reason="stale_version" url="u" title="t">\n<region name="header" unchanged="true" count="2"/>\n<summary elements="2" shown="0" unchanged_regions="1"/>\n</full>\n');
  assert.equal(fp.type, 'full');
  assert.equal(fp.reason, 'stale_version');
  assert.deepEqual(fp.notes.map((n) => [n.tag, n.attrs.reason, n.attrs.current]), [['not_executed', 'stale_version', '20']]);
  assert.match(fp.notes[0].text, /^type was not executed/);
});

test('a read answer whose page text tries to close the block reads back as the page had it', () => {
  const fp = parseFactPack('<read region="main" chars="40">\nIntro \\</read>\n\\<full v="9"> a\\\\b\n</read>\n');
  assert.equal(fp.type, 'read');
  assert.equal(fp.read.text, 'Intro </read>\n<full v="9"> a\\b');
});

test('a delta that is one region replaced names it in its tag: its lines first, up to the first tag', () => {
  const v = new AgentView();
  v.apply('<full v="1" reason="first" url="u" title="t">\n<region name="nav">\ne1 link "All fruit" current\n</region>\n<region name="main">\ne2 heading "All fruit" level=1\ne3 link "Apple"\ne4 link "Apricot"\n</region>\n</full>\n');
  const text = '<delta v="2" replaced="main">\ne5 heading "Apricot" level=1\n e6 text "Picked this week."\n e7 button "Add to basket"\n<removed>\ne9 button "Gone"\n</removed>\n<modified>\ne1 link "All fruit": - current\n</modified>\n</delta>\n';
  const fp = parseFactPack(text);
  assert.deepEqual(fp.regions.map((r) => [r.name, r.replaced, r.elements.map((e) => e.ref)]), [['main', true, ['e5', 'e6', 'e7']]]);
  assert.deepEqual(fp.invalid.map((i) => [i.cause, i.refs.length]), [['removed', 1]], 'the lines end at the first tag');
  assert.equal(fp.elements.find((e) => e.ref === 'e6').depth, 1);
  assert.equal(fp.modified.length, 1);
  const problems = v.apply(text);
  // e9 was never held: the view says so; everything else applies.
  assert.ok(problems.every((p) => /e9/.test(p)), problems.join('\n'));
  assert.deepEqual([...v.elements.keys()].sort(), ['e1', 'e5', 'e6', 'e7']);
  assert.equal(v.elements.get('e5').region, 'main');
  assert.equal(canonicalLine(v.elements.get('e1')), 'e1 link "All fruit"');
  // A full the agent did not ask for, without url and title: the view keeps the ones it held.
  v.apply('<full v="3" reason="unreliable_delta">\n<region name="main">\ne5 heading "Apricot" level=1\n</region>\n</full>\n');
  assert.equal(v.url, 'u');
  assert.equal(v.title, 't');
});
