// Tool-list tokens: the whole tools/list is in every agent's context on every turn, so it is
// budgeted (target: under half of Playwright MCP's). All three servers are started as users
// start them and asked through the official SDK client; tokens are o200k_base of the JSON the
// client receives (name, description, schemas). Writes bench/tool-list-results.md.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { existsSync, writeFileSync } from 'node:fs';
import { tempDir } from '../tests/support/tmp.mjs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { connectPeer } from './lib/peers.mjs';
import { countTokens } from './lib/tokens.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const TOOL_LIST_TARGET = 0.5;  // of Playwright MCP's tokens
/** The default list (the core group) must stay within this many o200k tokens; other groups are served on request. */
export const TOOL_LIST_BUDGET = 2000;

/** Athena Delta's tools/list, with `athena-bridge mcp`'s options (default: the core group only). @param {string[]} [flags] */
export async function athenaTools(flags = []) {
  const bin = [process.env.ATHENA_BRIDGE, 'build/release/bridge/athena-bridge', 'build/dev/bridge/athena-bridge']
    .filter(Boolean).map((p) => path.resolve(root, p)).find(existsSync);
  if (!bin) throw new Error('athena-bridge is not built: ./athena build');
  const home = tempDir('athena-toollist-');
  const client = new Client({ name: 'athena-bench', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: bin, args: ['mcp', ...flags], env: { ...process.env, HOME: home, ATHENA_RUNTIME_DIR: home } }));
  try { return (await client.listTools()).tools; } finally { await client.close(); }
}

async function peerTools(key) {
  const { client, close } = await connectPeer(key);
  try { return (await client.listTools()).tools; } finally { await close(); }
}

export async function measureToolLists() {
  const rows = [];
  for (const [name, get] of [['Athena Delta', () => athenaTools()], ['Athena Delta --tools all', () => athenaTools(['--tools', 'all'])], ['Playwright MCP', () => peerTools('playwright')], ['chrome-devtools-mcp', () => peerTools('devtools')]]) {
    const tools = await get();
    rows.push({ name, count: tools.length, tokens: countTokens(JSON.stringify(tools)), chars: JSON.stringify(tools).length });
  }
  return rows;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const rows = await measureToolLists();
  const pw = rows.find((r) => r.name === 'Playwright MCP');
  const ours = rows[0];
  const ratio = ours.tokens / pw.tokens;
  const md = ['## Tool list tokens', '', 'tools/list as each server returns it to the official SDK client, o200k_base tokens of its JSON.', '',
    '| server | tools | tokens | chars | vs Playwright MCP |', '|---|---|---|---|---|',
    ...rows.map((r) => `| ${r.name} | ${r.count} | ${r.tokens} | ${r.chars} | ${(r.tokens / pw.tokens * 100).toFixed(0)} % |`), '',
    `Target: under ${TOOL_LIST_TARGET * 100} % of Playwright MCP's: ${ratio < TOOL_LIST_TARGET ? 'met' : '**missed**'} (${(ratio * 100).toFixed(0)} %).`,
    `Budget of the default list (the core group): ${TOOL_LIST_BUDGET} tokens: ${ours.tokens <= TOOL_LIST_BUDGET ? 'met' : '**missed**'} (${ours.tokens}). ` +
    'The other groups (input: fill_form, drag; debug: resize, network, console, evaluate) are served with athena-bridge mcp --tools core,input,debug (or all).', ''].join('\n');
  writeFileSync(path.join(root, 'bench/tool-list-results.md'), md);
  console.log(md);
}
