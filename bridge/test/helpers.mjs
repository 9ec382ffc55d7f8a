// Test helpers for athena-bridge: find the binary, give each test a private runtime dir and
// HOME, and play Chrome's side of native messaging (spawn `athena-bridge native-host` exactly as
// Chrome does: 4-byte little-endian length + JSON on its stdin/stdout).
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export function bridgeBinary() {
  const c = [process.env.ATHENA_BRIDGE, 'build/dev/bridge/athena-bridge', 'build/release/bridge/athena-bridge']
    .filter(Boolean).map((p) => path.resolve(root, p));
  const found = c.find(existsSync);
  if (!found) throw new Error(`athena-bridge is not built (looked in ${c.join(', ')}): run ./athena build`);
  return found;
}

export function sandbox() {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'athena-bridge-test-'));
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
  async hello() {
    this.send({ type: 'hello', protocol: 1, extension: 'test' });
    return this.next((m) => m.type === 'hello');
  }
  close() { this.proc.stdin.end(); return this.exited; }
}
