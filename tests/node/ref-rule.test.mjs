// The ref grammar is one table (rules/ref.json): every case through extension/lib/ref.js, and the
// grammar's fields against its constants (tests/unit/engine/ref_rule_test.cpp runs the same
// cases through the core's parse_ref).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { isRef, parseRef, REF_FIELDS, REF_TEXT, MAX_DIGITS } from '../../extension/lib/ref.js';
import { parseTabName } from '../../extension/lib/tabs.js';

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
