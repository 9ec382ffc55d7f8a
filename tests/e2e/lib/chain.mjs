// The whole product chain as a user runs it, for end-to-end tests, the demo and the benchmark:
//   MCP client (official SDK: 1.x, which opens with initialize, or with `era: 'modern'` the 2.x
//   client pinned to MCP 2026-07-28) -> athena-bridge mcp -> socket -> athena-bridge native-host
//   (spawned by Chromium through native messaging) -> extension service worker -> chrome.debugger.
// Everything is real; the only thing chosen for tests is where it lives: a throwaway profile
// with the native host registered in <profile>/NativeMessagingHosts (docs/design.md, "Platform facts"), a private
// runtime dir for the bridge's socket, and HOME/TMPDIR inside a temp folder.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Client as ModernClient } from '@modelcontextprotocol/client';
import { StdioClientTransport as ModernStdio } from '@modelcontextprotocol/client/stdio';
import { chromium } from 'playwright-core';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseFactPack } from '../../support/factpack-text.mjs';
import { until } from '../../support/wait.mjs';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
export const EXTENSION_DIR = path.join(root, 'extension');
export const EXTENSION_ID = readFileSync(path.join(EXTENSION_DIR, 'EXTENSION_ID'), 'utf8').trim();

/** Bounds of the harness (all waits are bounded; named here only). */
export const CHAIN_LIMITS = Object.freeze({
  connectMs: 20_000,      // extension <-> bridge connected after Chromium starts
  toolCallMs: 60_000,     // one MCP tool call, end to end
});

/**
 * The athena-bridge binary: ATHENA_BRIDGE, else the most recently built of the release and dev
 * builds (a release build left from an earlier checkout must not answer for today's sources).
 */
export function bridgeBinary() {
  if (process.env.ATHENA_BRIDGE) return path.resolve(root, process.env.ATHENA_BRIDGE);
  const candidates = ['build/release/bridge/athena-bridge', 'build/dev/bridge/athena-bridge'].map((p) => path.resolve(root, p));
  const built = candidates.filter((p) => existsSync(p)).sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
  if (built.length === 0) throw new Error(`athena-bridge is not built (looked in ${candidates.join(', ')}): run ./athena build`);
  return built[0];
}

/** Fails with a clear message when the wasm core has not been staged into the extension. */
export function checkExtensionBuilt() {
  const core = path.join(EXTENSION_DIR, 'core');
  if (!existsSync(core) || !readdirSafe(core).some((f) => f.endsWith('.wasm'))) {
    throw new Error(`the extension has no wasm core in ${core}: run ./athena build`);
  }
}

function readdirSafe(dir) {
  try { return readdirSync(dir); } catch { return []; }
}

/** Tools whose answer is a FactPack (or a find / read answer): chain.call parses them. */
export const FACTPACK_TOOLS = new Set(['navigate', 'back', 'forward', 'reload', 'snapshot', 'click', 'hover', 'type', 'press',
  'select', 'scroll', 'upload', 'find', 'read', 'fill_form', 'drag', 'resize']);

/** Text of an MCP tool result (what lands in the agent's context). */
export function resultText(result) {
  return (result.content ?? []).filter((c) => c.type === 'text').map((c) => c.text).join('\n');
}

/**
 * Starts Chromium with the extension and the native host registered, then an MCP client on
 * `athena-bridge mcp`, and waits until the extension is connected.
 *
 * The release test runs the same chain from the release artefacts alone: `extensionDir` (the
 * installed package's extension), `register` (which installs and registers the bridge in the
 * profile, here `npx athena-delta install --user-data-dir`), `mcp` (the command an agent starts,
 * `npx athena-delta mcp`) and `tmp` (a fresh folder it already set up with home/ in it).
 * `mcpFlags` are the first client's `athena-bridge mcp` options (e.g. ['--tools', 'all']).
 * `era`: 'legacy' (default) connects the SDK 1.x client, 'modern' the SDK 2.x client pinned to
 * 2026-07-28 (server/discover, the per-request _meta); connectClient may choose per client.
 * @param {{headless?: boolean, clientName?: string, mcpFlags?: string[], era?: 'legacy' | 'modern', log?: (s: string) => void, extensionDir?: string,
 *   register?: (env: NodeJS.ProcessEnv, profile: string) => void, mcp?: {command: string, args: string[], cwd?: string},
 *   tmp?: string}} [opts]
 */
export async function startChain(opts = {}) {
  const headless = opts.headless ?? true;
  const log = opts.log ?? (() => {});
  const extensionDir = opts.extensionDir ?? EXTENSION_DIR;
  if (!opts.extensionDir) checkExtensionBuilt();
  const bridge = opts.mcp ? opts.mcp.command : bridgeBinary();
  const tmp = opts.tmp ?? mkdtempSync(path.join(os.tmpdir(), 'athena-chain-'));
  const profile = path.join(tmp, 'profile');
  const runtime = path.join(tmp, 'run');
  const home = path.join(tmp, 'home');
  for (const d of [profile, home]) mkdirSync(d, { recursive: true });
  mkdirSync(runtime, { recursive: true, mode: 0o700 });
  const env = { ...process.env, HOME: home, TMPDIR: tmp, ATHENA_RUNTIME_DIR: runtime, XDG_RUNTIME_DIR: runtime };

  log(`registering the native host in ${profile}/NativeMessagingHosts`);
  if (opts.register) opts.register(env, profile);
  else execFileSync(bridge, ['install', '--user-data-dir', profile], { env, stdio: 'pipe' });

  log(`starting Chromium (${headless ? 'headless' : 'headed'}) with the extension ${EXTENSION_ID}`);
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless,
    env,
    ignoreDefaultArgs: ['--disable-extensions'],
    args: [`--load-extension=${extensionDir}`, `--disable-extensions-except=${extensionDir}`, '--no-sandbox',
      '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  });
  // Playwright dismisses every JavaScript dialog of a page nobody listens on: in the user's browser
  // the extension answers them (the agent's `dialog` tool), so listen and leave them alone.
  const leaveDialogs = (/** @type {import('playwright-core').Page} */ p) => p.on('dialog', () => {});
  context.pages().forEach(leaveDialogs);
  context.on('page', leaveDialogs);
  const clients = [];
  // A chain that fails to come up closes what it started (Chromium, bridges): left running, they
  // keep the test process alive and the suite hangs instead of failing.
  const abandon = async (/** @type {unknown} */ e) => {
    for (const c of clients) await c.close().catch(() => {});
    await context.close().catch(() => {});
    rmSync(tmp, { recursive: true, force: true, maxRetries: 3 });
    throw e;
  };
  let worker = context.serviceWorkers().find((w) => w.url().includes(EXTENSION_ID));
  if (!worker) worker = await context.waitForEvent('serviceworker', { timeout: CHAIN_LIMITS.connectMs }).catch(abandon);

  /** The clients of the 2026-07-28 SDK, whose callTool takes its options second. */
  const modern = new WeakSet();
  /**
   * A new MCP client on `athena-bridge mcp` (each is its own agent session).
   * @param {string} [name] @param {string[]} [flags] e.g. ['--structured'] @param {'legacy' | 'modern'} [era]
   */
  async function connectClient(name = opts.clientName ?? 'athena-e2e', flags = [], era = opts.era ?? 'legacy') {
    const params = opts.mcp
      ? { command: opts.mcp.command, args: [...opts.mcp.args, ...flags], cwd: opts.mcp.cwd, env, stderr: /** @type {'pipe'} */ ('pipe') }
      : { command: bridge, args: ['mcp', ...flags], env, stderr: /** @type {'pipe'} */ ('pipe') };
    /** @type {any} */
    let client;
    if (era === 'modern') {
      client = new ModernClient({ name, version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
      await client.connect(new ModernStdio(params));
      modern.add(client);
    } else {
      client = new Client({ name, version: '1.0.0' });
      await client.connect(new StdioClientTransport(params));
    }
    clients.push(client);
    return client;
  }
  /** tools/call on either SDK, bounded by CHAIN_LIMITS.toolCallMs. @param {any} c @param {{name: string, arguments: any}} params */
  const callTool = (c, params) => (modern.has(c) ? c.callTool(params, { timeout: CHAIN_LIMITS.toolCallMs })
    : c.callTool(params, undefined, { timeout: CHAIN_LIMITS.toolCallMs }));

  const client = await connectClient(undefined, opts.mcpFlags ?? []).catch(abandon);
  log('waiting for the extension to connect to the bridge');
  let last = '';
  await until('the extension connecting to the bridge', async () => {
    const r = await callTool(client, { name: 'tabs', arguments: { action: 'list' } });
    last = resultText(r);
    return !r.isError;
  }, { ms: CHAIN_LIMITS.connectMs, last: () => last }).catch(abandon);

  /**
   * Calls a tool; returns {text, fp, isError, raw}: `text` is what the model gets, `fp` that text
   * parsed (tests/support/factpack-text.mjs; null for an error or a non-FactPack answer such as
   * tabs). Never structuredContent: clients differ on it and Athena sends none by default.
   */
  async function call(name, args = {}, c = client) {
    const r = await callTool(c, { name, arguments: args });
    const text = resultText(r);
    let fp = null;
    if (!r.isError && FACTPACK_TOOLS.has(name)) {
      try { fp = parseFactPack(text); } catch (e) { throw new Error(`${name}: the answer is not a FactPack (${e.message}):\n${text}`); }
    }
    return { text, fp, isError: !!r.isError, raw: r };
  }

  let closed = false;
  async function close() {
    if (closed) return;
    closed = true;
    for (const c of clients) await c.close().catch(() => {});
    await context.close().catch(() => {});
    rmSync(tmp, { recursive: true, force: true, maxRetries: 3 });
  }

  return { client, call, connectClient, context, worker, bridge, env, profile, runtime, tmp, close };
}
