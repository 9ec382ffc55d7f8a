// The tool list's budget as a check, not only a benchmark: the whole tools/list is in every
// agent's context on every turn, and the default list (the core group) must stay within
// TOOL_LIST_BUDGET o200k tokens. Measured as bench/tool-list.mjs measures it: athena-bridge mcp
// started as a user starts it, asked through the official SDK client, tokens of the JSON it
// receives. A description grown by a few words past the budget fails here, where it is written.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { athenaTools, TOOL_LIST_BUDGET } from '../../bench/tool-list.mjs';
import { countTokens } from '../../bench/lib/tokens.mjs';
import { GROUPS, TOOLS } from '../../extension/lib/tool-contract.js';

test(`the default tool list (the core group) fits its budget of ${TOOL_LIST_BUDGET} o200k tokens`, async () => {
  const tools = await athenaTools();
  assert.deepEqual(tools.map((t) => t.name), TOOLS.filter((t) => t.group === GROUPS[0]).map((t) => t.name), 'athena-bridge mcp serves the core group by default');
  const tokens = countTokens(JSON.stringify(tools));
  assert.ok(tokens <= TOOL_LIST_BUDGET, `the core tool list is ${tokens} tokens, over its budget of ${TOOL_LIST_BUDGET}: shorten descriptions, or serve a tool in another group`);
});
