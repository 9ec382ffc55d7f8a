import { test } from 'node:test';
import assert from 'node:assert/strict';
import { countTokens, measure } from '../../bench/lib/tokens.mjs';

test('o200k_base counts known strings exactly', () => {
  assert.equal(countTokens(''), 0);
  assert.equal(countTokens('hello world'), 2);
  // One token per common word; a ref is two.
  assert.equal(countTokens('e17'), 2);
});

test('measure reports characters next to tokens', () => {
  const m = measure('<no_change v="6"/>\n');
  assert.equal(m.chars, 19);
  assert.ok(m.tokens > 3 && m.tokens < 12, `no_change costs ${m.tokens} tokens`);
});

test('non-strings are refused with a clear error', () => {
  assert.throws(() => countTokens(undefined), /expected a string/);
});
