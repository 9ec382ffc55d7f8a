// The ref grammar is one table (rules/ref.json): every case through extension/lib/ref.js, and the
// grammar's fields against its constants (tests/unit/engine/ref_rule_test.cpp runs the same
// cases through the core's parse_ref).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { isRef, parseRef, refFrame, REF_FIELDS, REF_TEXT, MAX_DIGITS } from '../../extension/lib/ref.js';
import { parseTabName } from '../../extension/lib/tabs.js';

const rule = JSON.parse(readFileSync(new URL('../../rules/ref.json', import.meta.url), 'utf8'));

test('ref grammar: the fields, digit bound and leading-zero rule of rules/ref.json are those of extension/lib/ref.js', () => {
  assert.deepEqual([...REF_FIELDS], rule.fields);
  assert.equal(MAX_DIGITS, rule.maxDigits);
  assert.equal(rule.leadingZeros, false);
  assert.equal(isRef(`c0p1f0e${'9'.repeat(rule.maxDigits)}`), true);
  assert.equal(isRef(`c0p1f0e${'9'.repeat(rule.maxDigits + 1)}`), false);
  assert.equal(isRef('c0p1f0e01'), false);
});

test('ref grammar: every valid case of rules/ref.json parses to its fields, every invalid one is refused', () => {
  for (const { ref, fields } of rule.valid) {
    assert.equal(isRef(ref), true, ref);
    const [context, page, frame, element] = fields;
    assert.deepEqual(parseRef(ref), { context, page, frame, element }, ref);
    assert.equal(refFrame(ref), `f${frame}`, ref);
    // The other spellings are made of ref.js's: the embeddable one, and a tab's name.
    assert.equal(new RegExp(`^${REF_TEXT}$`).test(ref), true, ref);
    assert.deepEqual(parseTabName(ref), { context, page }, ref);
    assert.deepEqual(parseTabName(`c${context}p${page}`), { context, page }, ref);
  }
  for (const ref of rule.invalid) {
    assert.equal(isRef(ref), false, JSON.stringify(ref));
    assert.equal(parseRef(ref), null, JSON.stringify(ref));
    assert.equal(refFrame(ref), '', JSON.stringify(ref));
    assert.equal(new RegExp(`^${REF_TEXT}$`).test(ref), false, JSON.stringify(ref));
    assert.equal(parseTabName(ref), null, JSON.stringify(ref));
  }
  assert.equal(isRef(17), false);
});
