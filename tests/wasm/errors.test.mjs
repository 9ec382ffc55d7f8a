// Bad input through the wasm boundary: every refusal is an AthenaError with a stable code and a
// message that names the problem; nothing aborts, and the module answers exactly as before
// afterwards (the same session replayed gives byte-identical FactPacks).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { capture } from './capture.mjs';
import { loadAthena, loadTestCore } from './load.mjs';

const { athena, AthenaError } = await loadAthena();
const KEY = { context: 0, page: 1 };

const c0 = capture();
const c1 = capture({ dialog: { name: 'Added', buttons: ['OK'] } });
const c2 = capture({ buttons: ['Add to cart', 'Checkout'] });

// One fixed session; its outputs are the reference every "still usable" check compares with.
/**
 * Refs renumbered by first appearance: an engine numbers refs across all its pages, so a session
 * on an engine that issued refs before is the reference's but for where its numbers start.
 * @param {string[]} out
 */
function byAppearance(out) {
  const seen = new Map();
  return out.map((s) => String(s).replace(/\be(\d+)\b/g, (m) => {
    if (!seen.has(m)) seen.set(m, `e${seen.size + 1}`);
    return seen.get(m);
  }));
}

function session(engine, key = KEY) {
  const out = [];
  engine.openPage(key);
  const full = engine.snapshot(key, c0);
  out.push(full.text, full.json);
  const add = engine.find(key, { role: 'button', name: 'add to' })[0].ref;
  out.push(JSON.stringify(engine.resolve(key, add)));
  out.push(JSON.stringify(engine.beginAction(key, c0, full.version)));
  const open = engine.finishAction(key, c1, { kind: 'click' });
  out.push(open.type, open.text, open.json);
  engine.beginAction(key, c1, open.version);
  const closed = engine.finishAction(key, c2, { kind: 'click', warnings: ['page still changing'] });
  out.push(closed.type, closed.text, closed.json, JSON.stringify(engine.stats(key)));
  engine.closePage(key);
  return byAppearance(out);
}

const reference = session(athena.createEngine());

// The same session with refused calls between every step: each must leave the page exactly as it
// was (engine.h), so the answers are the reference's, byte for byte.
function sessionWithRefusals(engine, key = KEY) {
  const noise = () => {
    for (const bad of [() => engine.snapshot(key, '{'), () => engine.snapshot(key, '{"v":1}'), () => engine.onEvent(key, '{"method":5}'),
      () => engine.resolve(key, 'e99999'), () => engine.find(key, { limit: -1 }), () => engine.snapshot(key, 7)]) {
      assert.throws(bad, AthenaError);
    }
  };
  const out = [];
  engine.openPage(key);
  noise();
  const full = engine.snapshot(key, c0);
  out.push(full.text, full.json);
  noise();
  const add = engine.find(key, { role: 'button', name: 'add to' })[0].ref;
  out.push(JSON.stringify(engine.resolve(key, add)));
  out.push(JSON.stringify(engine.beginAction(key, c0, full.version)));
  noise();
  assert.throws(() => engine.finishAction(key, c1.slice(0, 100)), AthenaError);  // a bad capture keeps the action open
  const open = engine.finishAction(key, c1, { kind: 'click' });
  out.push(open.type, open.text, open.json);
  noise();
  engine.beginAction(key, c1, open.version);
  noise();
  const closed = engine.finishAction(key, c2, { kind: 'click', warnings: ['page still changing'] });
  out.push(closed.type, closed.text, closed.json, JSON.stringify(engine.stats(key)));
  engine.closePage(key);
  return byAppearance(out);
}

function refused(fn, code, pattern) {
  let error;
  try {
    fn();
  } catch (e) {
    error = e;
  }
  assert.ok(error, `expected an AthenaError ${code}, nothing was thrown`);
  assert.ok(error instanceof AthenaError, `expected an AthenaError, got ${error?.constructor?.name}: ${error?.message}`);
  assert.equal(error.name, 'AthenaError');
  assert.equal(error.code, code, `code of: ${error.message}`);
  assert.ok(athena.errorCodes.includes(error.code), `${error.code} is one of the core's codes`);
  if (pattern) assert.match(error.message, pattern);
  return error;
}

test('the reference session exercises full, overlay and delta packs', () => {
  assert.equal(reference[4], 'overlay_opened');
  assert.equal(reference[7], 'overlay_closed');
});

test('refused calls between the steps of a session change nothing', () => {
  assert.deepEqual(sessionWithRefusals(athena.createEngine()), reference);
});

test('inputs of the wrong type are refused before reaching the glue', () => {
  const e = athena.createEngine();
  e.openPage(KEY);
  for (const bad of [42, null, undefined, [], true, Symbol('x'), () => c0, 10n]) {
    refused(() => e.snapshot(KEY, bad), 'malformed_capture', /capture must be a capture object \(as capture\(\) returns it\), its JSON text or its binary form/);
    refused(() => e.beginAction(KEY, bad), 'malformed_capture', /capture must be a capture object/);
    refused(() => e.finishAction(KEY, bad), 'malformed_capture', /capture must be a capture object/);
  }
  for (const bad of [42, null, undefined, {}, [], new Uint8Array(4), true, Symbol('x'), () => c0, 10n]) {
    refused(() => e.onEvent(KEY, bad), 'malformed_event', /eventJson must be a string/);
    refused(() => e.resolve(KEY, bad), 'malformed_ref', /ref must be a string/);
  }
  // Objects and bytes are captures' types: an empty object is a capture missing everything, bytes
  // that are not the binary form say so.
  refused(() => e.snapshot(KEY, {}), 'malformed_capture', /^styles: missing array/);
  refused(() => e.snapshot(KEY, new Uint8Array(4)), 'malformed_capture', /these 4 bytes are not a capture in binary form/);
  const cyclic = JSON.parse(c0);
  cyclic.snapshot.self = cyclic;
  cyclic.styles = 'not a list';  // unpackable: the JSON fallback meets the cycle
  refused(() => e.snapshot(KEY, cyclic), 'malformed_capture', /the capture object cannot be serialized/);
  assert.deepEqual(session(e), reference);
});

// Every argument of the wrong shape or range is invalid_argument, named; other codes are about the page.
test('bad page keys, options and versions', () => {
  const e = athena.createEngine();
  for (const key of [null, undefined, 1, 'c0p1', {}, { context: 0 }, { context: -1, page: 0 }, { context: 0.5, page: 1 },
    { context: 0, page: 2 ** 31 }, { context: '0', page: '1' }, { context: NaN, page: 0 }]) {
    refused(() => e.openPage(key), 'invalid_argument', /page key must be \{context, page\}/);
  }
  refused(() => e.snapshot({ context: 0, page: 7 }, c0), 'unknown_page', /no page c0p7 is open; call open_page first/);
  for (const firstRef of [0, -1, 1.5, '7', athena.limits.maxFirstRef + 1])
    refused(() => athena.createEngine({ firstRef }), 'invalid_argument', /config\.firstRef must be an integer from 1 to/);
  // An engine after another (a restarted worker) numbers past the refs that one handed out.
  const later = athena.createEngine({ firstRef: 500 });
  later.openPage(KEY);
  assert.match(later.snapshot(KEY, c0).text, /^e500 link "Home"$/m);
  assert.equal(later.nextRef(), 503);
  later.dispose();
  e.openPage(KEY);
  for (const info of [1, 'click', [], { kind: 3 }, { warnings: 'x' }, { warnings: [1] }, { forceFull: 'yes' }])
    refused(() => e.snapshot(KEY, c0, info), 'invalid_argument', /info/);
  for (const v of [-1, 1.5, NaN, Infinity, '3', 2 ** 53])
    refused(() => e.beginAction(KEY, c0, v), 'invalid_argument', /agentVersion must be a non-negative integer/);
  for (const q of [null, 'button', { role: 1 }, { limit: 0 }, { limit: 1.5 }, { limit: 1e9 }, { name: 'x'.repeat(5000) }])
    refused(() => e.find(KEY, q), /x{5000}/.test(JSON.stringify(q)) ? 'input_too_large' : 'invalid_argument');
  // The bounds are the core's (limits.h), not numbers the wrapper spells again.
  const { maxFindLimit, maxFindQueryChars } = athena.limits;
  refused(() => e.find(KEY, { limit: maxFindLimit + 1 }), 'invalid_argument', new RegExp(`^find: query\\.limit must be an integer from 1 to ${maxFindLimit}, got ${maxFindLimit + 1}$`));
  refused(() => e.find(KEY, { name: 'x'.repeat(maxFindQueryChars + 1) }), 'input_too_large', new RegExp(`^find: query\\.name is over ${maxFindQueryChars} characters$`));
  for (const c of [null, 'x', { maxChangeRatio: 0 }, { maxChangeRatio: 1.5 }, { maxChangeRatio: 'a' }, { dedupRegions: 1 }])
    refused(() => athena.createEngine(c), 'invalid_argument', /config/);
  // A setting the core does not have is refused, not ignored (no version history is kept to size).
  refused(() => athena.createEngine({ history: 3 }), 'invalid_argument',
    /^createEngine: config\.history is not a setting of the core; settings: maxChangeRatio, dedupRegions, tokenBudget, firstRef$/);
  e.closePage(KEY);
  assert.deepEqual(session(e), reference);
});

test('malformed JSON, captures and events give their codes, exact where the core words them', () => {
  const e = athena.createEngine();
  e.openPage(KEY);
  refused(() => e.snapshot(KEY, '{'), 'malformed_json', /^capture: not valid JSON \(error at byte 1 of 1; truncated\?\); re-capture the page$/);
  refused(() => e.snapshot(KEY, ''), 'malformed_json');
  refused(() => e.snapshot(KEY, c0.slice(0, c0.length / 2)), 'malformed_json', /truncated/);
  for (const bad of ['null', '[]', '42', '"x"', '{}', '{"v":1}', '{"v":2,"snapshot":{}}', c0.replace('"documents":[', '"documents":[5,')])
    refused(() => e.snapshot(KEY, bad), 'malformed_capture');
  // A lone surrogate (page text may hold one) has no UTF-8 form: it arrives as U+FFFD, as
  // TextEncoder and CDP would send it, never merged with its neighbour.
  const odd = athena.createEngine();
  odd.openPage(KEY);
  odd.snapshot(KEY, c0.replace('Add to cart', 'Add \ud800 cart'));
  assert.deepEqual(odd.find(KEY, { role: 'button' }).map((x) => x.name), ['Add \ufffd cart']);
  assert.equal(odd.find(KEY, { name: '\udc00' }).length, 1);  // the query goes through the same replacement
  odd.dispose();
  // 100,000 nested arrays: no stack overflow inside wasm.
  const deep = '['.repeat(100000) + ']'.repeat(100000);
  const err = (() => { try { e.snapshot(KEY, deep); } catch (x) { return x; } })();
  assert.ok(err instanceof AthenaError && ['malformed_json', 'malformed_capture'].includes(err.code), err?.message);
  for (const ev of ['{', '[]', '{"method":5}', '{"method":"Page.frameNavigated","params":{"frame":7}}'])
    refused(() => e.onEvent(KEY, ev), 'malformed_event');
  e.onEvent(KEY, '{"method":"Some.unknownEvent","params":{}}');  // unknown methods are ignored
  e.closePage(KEY);
  assert.deepEqual(session(e), reference);
});

test('inputs over limits::kMaxInputBytes are refused (UTF-16 length in the wrapper, UTF-8 bytes in the core)', () => {
  const e = athena.createEngine();
  e.openPage(KEY);
  const max = athena.limits.maxInputBytes;
  assert.equal(max, 64 * 1024 * 1024);
  refused(() => e.snapshot(KEY, ' '.repeat(max + 1)), 'input_too_large', /over limits::kMaxInputBytes/);
  refused(() => e.onEvent(KEY, ' '.repeat(max + 1)), 'input_too_large');
  // Fewer UTF-16 units than the limit, more UTF-8 bytes: the core's own check answers.
  refused(() => e.snapshot(KEY, 'é'.repeat(max / 2 + 1)), 'input_too_large', /exceed limits::kMaxInputBytes|over limits::kMaxInputBytes/);
  e.closePage(KEY);
  assert.deepEqual(session(e), reference);
});

test('wrong call order', () => {
  const e = athena.createEngine();
  e.openPage(KEY);
  refused(() => e.finishAction(KEY, c0), 'wrong_call_order', /without begin_action/);
  refused(() => e.resolve(KEY, 'e1'), 'unknown_ref');
  const full = e.snapshot(KEY, c0);
  e.beginAction(KEY, c0, full.version);
  e.abortAction(KEY);
  refused(() => e.finishAction(KEY, c0), 'wrong_call_order');
  // Refs are numbered across the engine's tabs: another tab's ref is refused, naming that tab.
  e.openPage({ context: 0, page: 2 });
  e.openPage({ context: 1, page: 1 });
  const ref = full.text.match(/\be\d+(?= button "Add to cart")/)[0];
  refused(() => e.resolve({ context: 0, page: 2 }, ref), 'page_mismatch', /belongs to tab c0p1, not c0p2/);
  refused(() => e.resolve({ context: 1, page: 1 }, ref), 'context_mismatch', /belongs to tab c0p1, in browser context 0/);
  assert.deepEqual(e.owner(ref), KEY);
  refused(() => e.owner('c0p1f0e1'), 'malformed_ref', /like e17/);
  refused(() => e.resolve(KEY, 'e999'), 'unknown_ref');
  e.closePage(KEY);
  refused(() => e.snapshot(KEY, c0), 'unknown_page');
  refused(() => e.closePage(KEY), 'unknown_page');
  assert.deepEqual(session(e), reference);
  e.dispose();
  e.dispose();  // idempotent
  refused(() => e.openPage(KEY), 'wrong_call_order', /disposed; create a new one/);
  assert.deepEqual(session(athena.createEngine()), reference);
});

test('random corruptions of a capture never abort the module', () => {
  const e = athena.createEngine();
  e.openPage(KEY);
  let seed = 12345;
  const rnd = (n) => { seed = (seed * 1103515245 + 12345) % 2 ** 31; return seed % n; };
  const alphabet = '{}[]",:0123456789-.eEtrufalsn \\u';
  let accepted = 0, refusedCount = 0;
  for (let i = 0; i < 600; i++) {
    let s = c1;
    const edits = 1 + rnd(4);
    for (let k = 0; k < edits; k++) {
      const at = rnd(s.length);
      const op = rnd(3);
      if (op === 0) s = s.slice(0, at) + s.slice(at + 1 + rnd(8));
      else if (op === 1) s = s.slice(0, at) + alphabet[rnd(alphabet.length)] + s.slice(at);
      else s = s.slice(0, at);
    }
    const call = [() => e.snapshot(KEY, s), () => e.beginAction(KEY, s), () => e.finishAction(KEY, s), () => e.onEvent(KEY, s)][rnd(4)];
    try {
      call();
      accepted++;
    } catch (err) {
      assert.ok(err instanceof AthenaError, `not an AthenaError: ${err}`);
      assert.ok(athena.errorCodes.includes(err.code));
      refusedCount++;
    }
  }
  assert.ok(refusedCount > 100 && accepted > 0, `accepted ${accepted}, refused ${refusedCount}`);
  e.closePage(KEY);
  assert.deepEqual(session(e), reference);
});

test('many engines and pages are independent', () => {
  const engines = Array.from({ length: 8 }, () => athena.createEngine());
  for (const e of engines) assert.deepEqual(session(e), reference);
  const e = engines[0];
  for (let p = 0; p < athena.limits.maxPages; p++) e.openPage({ context: 0, page: p });
  refused(() => e.openPage({ context: 1, page: 0 }), 'input_too_large', /too many open pages/);
  for (let p = 0; p < athena.limits.maxPages; p++) e.closePage({ context: 0, page: p });
  assert.deepEqual(session(e), reference);
  for (const x of engines) x.dispose();
});

test('inputs are freed on every path: 400 large calls, mostly refused, do not grow the heap', () => {
  const e = athena.createEngine();
  e.openPage(KEY);
  const bigCap = capture({ buttons: Array.from({ length: 3000 }, (_, i) => `Button ${i}`) });  // ~250 KB
  const bad = bigCap.slice(0, -1);
  const warm = () => {
    e.snapshot(KEY, bigCap);
    for (const f of [() => e.snapshot({ context: 0, page: 42 }, bigCap), () => e.snapshot(KEY, bad), () => e.finishAction(KEY, bigCap),
      () => e.onEvent(KEY, bad), () => e.beginAction({ context: 3, page: 3 }, bigCap)])
      assert.throws(f, AthenaError);
  };
  for (let i = 0; i < 10; i++) warm();
  const before = athena.heapBytes();
  for (let i = 0; i < 80; i++) warm();  // 400 calls, 20 MB through the boundary if nothing were freed
  assert.equal(athena.heapBytes(), before, 'the wasm heap grew: a capture copy was not freed');
  e.dispose();
});

test('no C++ exception escapes the boundary guard (bad_alloc included), and the module stays usable', async () => {
  const core = await loadTestCore();
  const cases = {
    bad_alloc: ['input_too_large', /out of memory/],
    huge_alloc: ['input_too_large', /out of memory/],
    runtime_error: ['internal', /internal error \(boom\)/],
    int: ['internal', /unknown exception/],
  };
  for (let round = 0; round < 3; round++) {
    for (const [kind, [code, pattern]] of Object.entries(cases)) {
      const r = core.throwInsideGuard(kind);
      assert.equal(r.ok, false, kind);
      assert.equal(r.code, code, kind);
      assert.match(r.message, pattern);
    }
    assert.equal(core.throwInsideGuard('none').ok, true);
  }
  const run = JSON.parse(core.runFidelity(1, 5, 12).json);
  assert.deepEqual(run.failures, []);
  assert.equal(run.sequences, 5);
});
