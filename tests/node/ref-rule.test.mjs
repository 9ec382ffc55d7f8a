// The ref grammar is one table (rules/ref.json): every case through extension/lib/ref.js, and the
// grammar's fields against its constants (tests/unit/engine/ref_rule_test.cpp runs the same
// cases through the core's parse_ref).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { FRAME_MAX_DIGITS, frameWord, isFrameWord, isRef, parseFrameRun, parseRef, REF_FIELDS, REF_TEXT, MAX_DIGITS } from '../../extension/lib/ref.js';
import { parseTabName, tabName } from '../../extension/lib/tabs.js';

const rule = JSON.parse(readFileSync(new URL('../../rules/ref.json', import.meta.url), 'utf8'));

test('ref grammar: the fields, digit bound and leading-zero rule of rules/ref.json are those of extension/lib/ref.js', () => {
  assert.deepEqual([...REF_FIELDS], rule.fields);
  assert.equal(MAX_DIGITS, rule.maxDigits);
  assert.equal(rule.leadingZeros, false);
  assert.equal(isRef(`e${'9'.repeat(rule.maxDigits)}`), true);
  assert.equal(isRef(`e${'9'.repeat(rule.maxDigits + 1)}`), false);
  assert.equal(isRef('e01'), false);
});

test('ref grammar: every valid case of rules/ref.json parses to its fields, every invalid one is refused', () => {
  for (const { ref, fields } of rule.valid) {
    assert.equal(isRef(ref), true, ref);
    assert.deepEqual(parseRef(ref), { element: fields[0] }, ref);
    // The embeddable spelling is the same grammar; a ref is never a tab's name.
    assert.equal(new RegExp(`^${REF_TEXT}$`).test(ref), true, ref);
    assert.equal(parseTabName(ref), null, ref);
  }
  for (const ref of rule.invalid) {
    assert.equal(isRef(ref), false, JSON.stringify(ref));
    assert.equal(parseRef(ref), null, JSON.stringify(ref));
    assert.equal(new RegExp(`^${REF_TEXT}$`).test(ref), false, JSON.stringify(ref));
  }
  assert.equal(isRef(17), false);
  assert.deepEqual(parseTabName('c1p12'), { context: 1, page: 12 });
});

const words = JSON.parse(readFileSync(new URL('../../rules/words.json', import.meta.url), 'utf8'));

test('tab word: every case of rules/words.json through extension/lib/tabs.js', () => {
  for (const { word, context, page } of words.tab.valid) {
    assert.equal(tabName({ context, page }), word);
    assert.deepEqual(parseTabName(word), { context, page }, word);
  }
  for (const word of words.tab.invalid) assert.equal(parseTabName(word), null, JSON.stringify(word));
});

test('frame word: every case of rules/words.json through extension/lib/ref.js', () => {
  assert.equal(FRAME_MAX_DIGITS, words.frame.maxDigits);
  for (const { word, index } of words.frame.valid) {
    assert.equal(frameWord(index), word);
    assert.equal(isFrameWord(word), true, word);
    assert.deepEqual(parseFrameRun(word), { from: index, to: index }, word);
  }
  for (const word of words.frame.invalid) {
    assert.equal(isFrameWord(word), false, JSON.stringify(word));
    assert.equal(parseFrameRun(word), null, JSON.stringify(word));
  }
  for (const { word, from, to } of words.frame.runs) assert.deepEqual(parseFrameRun(word), { from, to }, word);
  for (const word of words.frame.invalidRuns) assert.equal(parseFrameRun(word), null, JSON.stringify(word));
});
