// The tool contract is rules/tools.json (the bridge's tool list and the docs table are generated
// from it); each tool's declaration in extension/lib/tools/*.js holds the same fields beside its
// handler, because Chrome loads the extension from its own folder only. This test fails when the
// two disagree: a tool added, removed, moved or changed on one side only.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TOOLS } from '../../extension/lib/tool-contract.js';
import { CONTRACT, CONTRACT_FIELDS, GROUPS } from '../../rules/tools.mjs';

test('rules/tools.json and extension/lib/tool-contract.js list the same tools in the same order', () => {
  assert.deepEqual(TOOLS.map((t) => t.name), CONTRACT.map((t) => t.name));
});

test('each declaration states what rules/tools.json says of its tool', () => {
  for (const [i, d] of TOOLS.entries()) {
    const declared = Object.fromEntries(CONTRACT_FIELDS.map((k) => [k, /** @type {any} */ (d)[k]]));
    const contract = Object.fromEntries(CONTRACT_FIELDS.map((k) => [k, /** @type {any} */ (CONTRACT[i])[k]]));
    assert.deepEqual(declared, contract, `${d.name}: extension/lib/tools/*.js and rules/tools.json disagree`);
  }
});

test('rules/tools.json holds exactly the contract\'s fields, and each tool is in one of its groups', () => {
  for (const t of CONTRACT) {
    assert.deepEqual(Object.keys(t), [...CONTRACT_FIELDS], t.name);
    assert.ok(GROUPS.includes(t.group), `${t.name}: group ${t.group} is not one of ${GROUPS.join(', ')}`);
  }
  assert.deepEqual(GROUPS, ['core', 'input', 'debug']);
});
