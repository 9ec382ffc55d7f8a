// Test helpers for athena-bridge: find the binary, give each test a private runtime dir and
// HOME, and play Chrome's side of native messaging (spawn `athena-bridge native-host` exactly as
// Chrome does: 4-byte little-endian length + JSON on its stdin/stdout).
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from '../../tests/support/tmp.mjs';
import { until } from '../../tests/support/wait.mjs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Client as ModernClient } from '@modelcontextprotocol/client';
import { StdioClientTransport as ModernStdio } from '@modelcontextprotocol/client/stdio';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export function bridgeBinary() {
  const c = [process.env.ATHENA_BRIDGE, 'build/dev/bridge/athena-bridge', 'build/release/bridge/athena-bridge']
    .filter(Boolean).map((p) => path.resolve(root, p));
  const found = c.find(existsSync);
  if (!found) throw new Error(`athena-bridge is not built (looked in ${c.join(', ')}): run ./athena build`);
  return found;
}

export function sandbox() {
  const tmp = tempDir('athena-bridge-test-');
  const runtime = path.join(tmp, 'run');
  mkdirSync(runtime, { mode: 0o700 });
  mkdirSync(path.join(tmp, 'home'));
  return { tmp, runtime, env: { ...process.env, HOME: path.join(tmp, 'home'), ATHENA_RUNTIME_DIR: runtime, XDG_RUNTIME_DIR: runtime } };
}

export function frame(obj) {
  const body = Buffer.from(typeof obj === 'string' ? obj : JSON.stringify(obj), 'utf8');
  const head = Buffer.alloc(4);
  head.writeUInt32LE(body.length, 0);
  return Buffer.concat([head, body]);
}

/** Chrome's side: spawns the native host and exchanges framed messages with it. */
export class FakeChrome {
  constructor(env, extensionId = 'moghbgobfpekbghiggmlgdfdfbebnaek') {
    this.proc = spawn(bridgeBinary(), [`chrome-extension://${extensionId}/`], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    this.buf = Buffer.alloc(0);
    this.messages = [];
    this.waiters = [];
    this.stderr = '';
    this.proc.stderr.on('data', (d) => { this.stderr += d; });
    this.exited = new Promise((r) => this.proc.on('exit', (code) => r(code)));
    this.proc.stdout.on('data', (d) => {
      this.buf = Buffer.concat([this.buf, d]);
      while (this.buf.length >= 4) {
        const n = this.buf.readUInt32LE(0);
        if (this.buf.length < 4 + n) break;
        const msg = JSON.parse(this.buf.subarray(4, 4 + n).toString('utf8'));
        this.buf = this.buf.subarray(4 + n);
        this.messages.push(msg);
        this.waiters = this.waiters.filter((w) => !w());
      }
    });
  }
  send(obj) { this.proc.stdin.write(frame(obj)); }
  /** Resolves with the first message (seen or future) matching `pred`, removing it. */
  next(pred = () => true, ms = 5000) {
    return new Promise((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`no matching message within ${ms} ms; got ${JSON.stringify(this.messages)}; stderr: ${this.stderr}`)), ms);
      const check = () => {
        const i = this.messages.findIndex(pred);
        if (i < 0) return false;
        clearTimeout(t);
        resolve(this.messages.splice(i, 1)[0]);
        return true;
      };
      if (!check()) this.waiters.push(check);
    });
  }
  /**
   * Says hello as the extension does and resolves with the host's answer. The host listens on its
   * socket before it reads anything from Chrome, so once this resolves agents can connect.
   */
  async hello(browser = 'Test Browser 1') {
    this.send({ type: 'hello', protocol: 1, extension: 'test', browser });
    return this.next((m) => m.type === 'hello');
  }
  close() { this.proc.stdin.end(); return this.exited; }
}

/** An MCP client of the initialize era (the official TypeScript SDK 1.x) on `athena-bridge mcp [args]`. */
export async function mcpClient(env, name = 'test-agent', args = []) {
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: bridgeBinary(), args: ['mcp', ...args], env, stderr: 'pipe' }));
  return client;
}

/**
 * An MCP 2026-07-28 client (the official TypeScript SDK 2.x) on `athena-bridge mcp [args]`.
 * `negotiation` is its versionNegotiation: by default pinned to 2026-07-28, so it connects only
 * if the server offers that revision through server/discover. (The package says Node >= 20; what
 * these tests use of it runs on Debian's Node 18 too, so they run there as well.)
 */
export async function modernClient(env, { name = 'modern-agent', args = [], negotiation = { mode: { pin: '2026-07-28' } } } = {}) {
  const client = new ModernClient({ name, version: '2.4.0' }, { versionNegotiation: negotiation });
  await client.connect(new ModernStdio({ command: bridgeBinary(), args: ['mcp', ...args], env, stderr: 'pipe' }));
  return client;
}

/** The text content of a tool result (what the model gets). */
export const text = (r) => r.content.filter((c) => c.type === 'text').map((c) => c.text).join('\n');

/** A raw connection to the native host's socket, as an MCP server makes one. */
export function connect(env) {
  return new Promise((resolve, reject) => {
    const s = net.connect(path.join(env.ATHENA_RUNTIME_DIR, 'bridge.sock'), () => resolve(s));
    s.on('error', reject);
  });
}

/** Framed messages arriving on a socket: `next(pred)` resolves with the first that matches. */
export function reader(sock) {
  let buf = Buffer.alloc(0);
  const msgs = [];
  sock.on('data', (d) => {
    buf = Buffer.concat([buf, d]);
    while (buf.length >= 4 && buf.length >= 4 + buf.readUInt32LE(0)) {
      const n = buf.readUInt32LE(0);
      msgs.push(JSON.parse(buf.subarray(4, 4 + n).toString('utf8')));
      buf = buf.subarray(4 + n);
    }
  });
  return {
    async next(pred, ms = 5000) {
      const i = await until('a matching message on the socket', () => { const k = msgs.findIndex(pred); return k >= 0 ? k + 1 : 0; },
        { ms, last: () => JSON.stringify(msgs).slice(0, 300) });
      return msgs.splice(i - 1, 1)[0];
    },
  };
}
