// The MCP servers we are measured against, started exactly as a user would start them,
// driving Debian's Chromium headless (never a downloaded browser), through the official SDK client.
// agent-browser is a CLI; its wrapper (bench/lib/agent-browser-mcp.mjs) is started the same way.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { tempDir } from '../../tests/support/tmp.mjs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const bin = (name) => path.join(root, 'node_modules/.bin', name);
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';

/** @typedef {{name: string, command: string, args: string[], env?: Record<string,string>}} PeerSpec */

/** @type {Record<string, () => PeerSpec>} */
export const PEERS = {
  playwright: () => ({
    name: 'Playwright MCP',
    command: bin('playwright-mcp'),
    args: ['--headless', '--isolated', '--no-sandbox', '--browser', 'chromium', '--executable-path', CHROMIUM],
  }),
  devtools: () => ({
    name: 'chrome-devtools-mcp',
    command: bin('chrome-devtools-mcp'),
    args: ['--headless', '--isolated', '--executablePath', CHROMIUM, '--usageStatistics=false',
           '--chromeArg=--no-sandbox', '--chromeArg=--disable-background-networking',
           '--chromeArg=--disable-component-update', '--chromeArg=--no-first-run'],
    // No update check: it runs npm in a detached process that outlives the peer, asks the
    // registry, and wrote into the peer's temporary HOME after it was removed (38 left in /tmp).
    env: { CHROME_DEVTOOLS_MCP_NO_USAGE_STATISTICS: '1', CHROME_DEVTOOLS_MCP_NO_UPDATE_CHECKS: '1' },
  }),
  // A CLI, not an MCP server: bench/lib/agent-browser-mcp.mjs runs its commands as tools and
  // answers with exactly what it prints.
  'agent-browser': () => ({
    name: 'agent-browser',
    command: process.execPath,
    args: [path.join(root, 'bench/lib/agent-browser-mcp.mjs')],
    env: { CHROMIUM },
  }),
};

/** Starts a peer and returns a connected SDK client. */
export async function connectPeer(key) {
  const spec = PEERS[key]();
  const home = tempDir(`athena-peer-${key}-`);
  const transport = new StdioClientTransport({
    command: spec.command,
    args: spec.args,
    env: { ...process.env, HOME: home, TMPDIR: home, ...(spec.env ?? {}) },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'athena-bench', version: '0.1.0' });
  await client.connect(transport);
  return { client, spec, close: () => client.close() };
}

/** Concatenated text of a tool result (what lands in the agent's context). */
export function resultText(result) {
  return (result.content ?? []).filter((c) => c.type === 'text').map((c) => c.text).join('\n');
}
