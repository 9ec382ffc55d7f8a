// agent-browser (npm `agent-browser`, a CLI over a native binary that keeps a browser in a
// background daemon) as a small MCP server over stdio, so the agent-flow benchmark
// (bench/flows.mjs) drives it like the other peers (bench/lib/peers.mjs). Each tool runs one CLI
// command and answers with exactly what the CLI printed on stdout: no framing is added, so the
// tokens counted are the tokens an agent calling the CLI from a shell would read. A failed command
// answers isError with what it printed on both streams.
//
// The browser is Debian's Chromium (AGENT_BROWSER_EXECUTABLE_PATH; the CLI never downloads one
// unless told to `install`), headless (its default), in a session of its own whose daemon socket
// lives under this process's TMPDIR; the daemon and its browser are closed when stdin ends.
//
//   node bench/lib/agent-browser-mcp.mjs      (started by bench/lib/peers.mjs)
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { execFile } from 'node:child_process';
import { tempDir } from '../../tests/support/tmp.mjs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const here = path.join(root, 'node_modules/agent-browser');

/** Bounds of the wrapper. */
export const AGENT_BROWSER_LIMITS = Object.freeze({
  commandMs: 60_000,          // one CLI command, including the daemon and browser start on the first
  closeMs: 15_000,            // closing the session when the client goes away
  outputBytes: 64 * 1024 * 1024, // what one command may print (a snapshot of a huge page)
  idleMs: 30 * 60_000,        // the daemon stops by itself after this long without a command
});

/** The platform binary the package's bin/agent-browser.js would start (Linux x64 / arm64 here). */
function binary() {
  const arch = { x64: 'x64', arm64: 'arm64' }[os.arch()];
  if (os.platform() !== 'linux' || !arch) throw new Error(`agent-browser wrapper: no binary for ${os.platform()}-${os.arch()}`);
  return path.join(here, 'bin', `agent-browser-linux-${arch}`);
}

const BIN = binary();
const SESSION = `athena-bench-${process.pid}`;
const SOCKETS = tempDir('agent-browser-');
const ENV = {
  ...process.env,
  AGENT_BROWSER_SESSION: SESSION,
  AGENT_BROWSER_SOCKET_DIR: SOCKETS,
  AGENT_BROWSER_EXECUTABLE_PATH: process.env.CHROMIUM ?? '/usr/bin/chromium',
  // Chromium refuses to start as root without --no-sandbox; the rest keep it off the network.
  AGENT_BROWSER_ARGS: '--no-sandbox,--disable-background-networking,--disable-component-update,--no-first-run',
  AGENT_BROWSER_NO_VERSION_CHECK: '1',   // no request to Google about Chrome versions
  AGENT_BROWSER_IDLE_TIMEOUT_MS: String(AGENT_BROWSER_LIMITS.idleMs),
};

/**
 * Runs `agent-browser <args…>`.
 * @param {string[]} args @param {number} [timeout]
 * @returns {Promise<{ok: boolean, stdout: string, stderr: string}>}
 */
function cli(args, timeout = AGENT_BROWSER_LIMITS.commandMs) {
  return new Promise((resolve) => {
    execFile(BIN, args, { env: ENV, timeout, maxBuffer: AGENT_BROWSER_LIMITS.outputBytes, encoding: 'utf8' }, (err, stdout, stderr) => {
      resolve({ ok: !err, stdout: stdout ?? '', stderr: stderr ?? (err ? String(err.message) : '') });
    });
  });
}

/** The tool result: the CLI's stdout as is; on failure both streams, flagged. */
async function run(args) {
  const r = await cli(args);
  if (r.ok) return { content: [{ type: 'text', text: r.stdout }] };
  return { content: [{ type: 'text', text: [r.stdout, r.stderr].filter(Boolean).join('\n') }], isError: true };
}

/** `e12` or `@e12` -> `@e12` (the CLI's ref syntax). */
const atRef = (ref) => (ref.startsWith('@') ? ref : `@${ref}`);

/** One tool per CLI command an agent uses; `args` turns the call's arguments into the command. */
const refArg = { type: 'string', description: 'An element ref from the latest snapshot, e.g. e12' };
const TOOLS = [
  { name: 'navigate', description: 'Open a URL (agent-browser open).', props: { url: { type: 'string' } }, required: ['url'],
    args: (a) => ['open', a.url] },
  { name: 'snapshot', description: 'The page as an accessibility tree with refs (agent-browser snapshot -c; -i keeps only interactive elements).',
    props: { interactive: { type: 'boolean', description: 'only interactive elements (default true)' } }, required: [],
    args: (a) => ['snapshot', ...(a.interactive === false ? [] : ['-i']), '-c'] },
  { name: 'click', description: 'Click an element (agent-browser click @ref).', props: { ref: refArg }, required: ['ref'],
    args: (a) => ['click', atRef(a.ref)] },
  { name: 'click_text', description: 'Click the element showing this text, for one the snapshot gives no ref (agent-browser find text … click).',
    props: { text: { type: 'string' } }, required: ['text'], args: (a) => ['find', 'text', a.text, 'click'] },
  { name: 'wait', description: 'Wait for the page to load (agent-browser wait --load load|domcontentloaded|networkidle), or for a text to show (wait --text).',
    props: { load: { type: 'string' }, text: { type: 'string' } }, required: [],
    args: (a) => (a.text !== undefined ? ['wait', '--text', a.text] : ['wait', '--load', a.load ?? 'load']) },
  { name: 'fill', description: 'Clear a field and type into it (agent-browser fill @ref text).', props: { ref: refArg, text: { type: 'string' } },
    required: ['ref', 'text'], args: (a) => ['fill', atRef(a.ref), a.text] },
  { name: 'type', description: 'Type after what a field holds (agent-browser type @ref text).', props: { ref: refArg, text: { type: 'string' } },
    required: ['ref', 'text'], args: (a) => ['type', atRef(a.ref), a.text] },
  { name: 'press', description: 'Press a key, e.g. Enter (agent-browser press key).', props: { key: { type: 'string' } }, required: ['key'],
    args: (a) => ['press', a.key] },
  { name: 'back', description: 'Go back (agent-browser back).', props: {}, required: [], args: () => ['back'] },
  { name: 'forward', description: 'Go forward (agent-browser forward).', props: {}, required: [], args: () => ['forward'] },
];

const server = new Server({ name: 'agent-browser (CLI wrapper)', version: '0.41.2' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, () => ({
  tools: TOOLS.map((t) => ({ name: t.name, description: t.description, inputSchema: { type: 'object', properties: t.props, required: t.required } })),
}));
server.setRequestHandler(CallToolRequestSchema, (req) => {
  const tool = TOOLS.find((t) => t.name === req.params.name);
  const a = req.params.arguments ?? {};
  if (!tool) return { content: [{ type: 'text', text: `unknown tool ${req.params.name}` }], isError: true };
  const missing = tool.required.filter((k) => typeof a[k] !== 'string');
  if (missing.length) return { content: [{ type: 'text', text: `${tool.name}: missing ${missing.join(', ')}` }], isError: true };
  return run(tool.args(a));
});

let closing = null;
/** Closes the session's browser and daemon once. */
function close() {
  closing ??= cli(['close'], AGENT_BROWSER_LIMITS.closeMs).finally(() => process.exit(0));
  return closing;
}
process.stdin.on('end', close);
process.stdin.on('close', close);
process.on('SIGTERM', close);
process.on('SIGINT', close);

await server.connect(new StdioServerTransport());
