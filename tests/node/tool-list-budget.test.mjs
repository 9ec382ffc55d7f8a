// The tool list is in every agent's context on every turn, so its size is a check, not only a
// benchmark: the default list (the core group) that `athena-bridge mcp` gives an MCP client stays
// within TOOL_LIST_BUDGET o200k_base tokens (bench/tool-list.mjs names the bound and measures the
// peers beside it). Asked as a user's client asks: the official SDK over stdio. A description grown
// by a few words past the budget fails here, where it is written.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { athenaTools, TOOL_LIST_BUDGET } from '../../bench/tool-list.mjs';
import { countTokens } from '../../bench/lib/tokens.mjs';
import { bridgeBinary } from '../../bridge/test/helpers.mjs';
import { CONTRACT, GROUPS } from '../../rules/tools.mjs';

// The bridge this test run built (the dev tree first, as the bridge's own tests take it), not a
// release tree a benchmark left behind.
process.env.ATHENA_BRIDGE ??= bridgeBinary();

test(`the default tools/list of athena-bridge mcp (the core group) is within ${TOOL_LIST_BUDGET} tokens`, async () => {
  const tools = await athenaTools();
  assert.deepEqual(tools.map((t) => t.name), CONTRACT.filter((t) => t.group === GROUPS[0]).map((t) => t.name),
    'athena-bridge mcp serves the core group by default');
  const tokens = countTokens(JSON.stringify(tools));
  assert.ok(tokens <= TOOL_LIST_BUDGET, `${tools.length} tools in ${tokens} tokens, over the budget of ${TOOL_LIST_BUDGET}: ` +
    'shorten descriptions, or serve the tool in a group the user adds (rules/tools.json)');
});
