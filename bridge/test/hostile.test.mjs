// Crafted input on every interface of the built athena-bridge: MCP stdin, the native host's
// stdin (the extension's side) and its socket (an MCP server's side). Each attack once crashed
// or stalled the process; now each gets a clear error and the process goes on serving.
// bench/hostile.mjs replays the same inputs for the before/after table in bench/hostile-before-after.md (docs/security.md).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { until } from '../../tests/support/wait.mjs';
import { bridgeBinary, connect, FakeChrome, frame, reader, sandbox } from './helpers.mjs';
import { MCP_ATTACKS, nested } from './hostile-inputs.mjs';

/** `athena-bridge mcp` on a pipe: send raw lines, read JSON-RPC answers. */
class RawMcp {
  constructor(env) {
    this.proc = spawn(bridgeBinary(), ['mcp'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    this.out = '';
    this.answers = [];
    this.exit = null;
    this.proc.on('exit', (code, signal) => { this.exit = { code, signal }; });
    this.proc.stdout.on('data', (d) => {
      this.out += d;
      let i;
      while ((i = this.out.indexOf('\n')) >= 0) {
        const line = this.out.slice(0, i);
        this.out = this.out.slice(i + 1);
        if (line.trim()) this.answers.push(JSON.parse(line));
      }
    });
    this.proc.stdin.on('error', () => {});
  }
  send(line) { this.proc.stdin.write(line.endsWith('\n') ? line : `${line}\n`); }
  async answer(pred, ms = 5000) {
    const i = await until('an answer from athena-bridge mcp', () => {
      if (this.exit) throw new Error(`athena-bridge mcp exited (${JSON.stringify(this.exit)})`);
      const k = this.answers.findIndex(pred);
      return k >= 0 ? k + 1 : 0;
    }, { ms, last: () => JSON.stringify(this.answers).slice(0, 500) });
    return this.answers.splice(i - 1, 1)[0];
  }
  /** Proves the server still serves: a ping with a fresh id is answered. */
  async alive(id) {
    this.send(JSON.stringify({ jsonrpc: '2.0', id, method: 'ping' }));
    const a = await this.answer((m) => m.id === id);
    assert.deepEqual(a.result, {});
  }
  close() { this.proc.stdin.end(); this.proc.kill(); }
}

for (const attack of MCP_ATTACKS) {
  test(`mcp stdin: ${attack.name} -> ${attack.expect}`, async () => {
    const { env } = sandbox();
    const mcp = new RawMcp(env);
    try {
      mcp.send(attack.line());
      const a = await mcp.answer(() => true, 20_000);
      if (attack.code === null) {
        assert.ok(a.result, `expected an answer, got ${JSON.stringify(a).slice(0, 300)}`);
      } else {
        assert.ok(a.error, `expected a JSON-RPC error, got ${JSON.stringify(a).slice(0, 300)}`);
        assert.equal(a.error.code, attack.code);
        assert.match(a.error.message, attack.message);
        if (attack.data) assert.deepEqual(a.error.data, attack.data);
      }
      // An id is echoed only when it is a string or an integer.
      assert.ok(a.id === null || typeof a.id === 'string' || Number.isInteger(a.id));
      await mcp.alive(990001);
    } finally {
      mcp.close();
    }
  });
}

test('native host: {"type":5} and a deeply nested frame from the extension are refused, the host goes on', async () => {
  const { env } = sandbox();
  const chrome = new FakeChrome(env);
  try {
    assert.equal((await chrome.hello()).protocol, 1);
    chrome.send({ type: 5 });
    const e1 = await chrome.next((m) => m.type === 'error');
    assert.equal(e1.code, 'unknown_type');
    chrome.proc.stdin.write(frame(nested(100_000, '{"type":"result","id":"x","ok":true,"text":', '}')));
    const e2 = await chrome.next((m) => m.type === 'error');
    assert.equal(e2.code, 'bad_json');
    assert.match(e2.message, /nested \d+ levels deep; at most 64/);
    chrome.send({ type: 'chunk', id: 7, seq: 'a', total: [], data: {} });
    const e3 = await chrome.next((m) => m.type === 'error');
    assert.equal(e3.code, 'bad_chunk');
    // Still serving: an agent connects and its session opens.
    const sock = await connect(env);
    sock.write(frame({ type: 'hello', protocol: 1, client: 'after-attack' }));
    const open = await chrome.next((m) => m.type === 'session_open');
    assert.equal(open.client, 'after-attack');
    sock.destroy();
    assert.equal(chrome.proc.exitCode, null);
  } finally {
    await chrome.close();
  }
});

test('native host: a deeply nested frame or a call with a nested id from a socket client is refused, others unaffected', async () => {
  const { env } = sandbox();
  const chrome = new FakeChrome(env);
  try {
    await chrome.hello();
    const evil = await connect(env);
    const evilIn = reader(evil);
    evil.write(frame({ type: 'hello', protocol: 1, client: 'evil' }));
    await chrome.next((m) => m.type === 'session_open');
    evil.write(frame(nested(100_000, '{"type":"call","tool":"snapshot","id":', '}')));
    const e1 = await evilIn.next((m) => m.type === 'error');
    assert.equal(e1.code, 'bad_json');
    evil.write(frame({ type: 'call', tool: 'snapshot', id: { a: [1, 2] }, args: {} }));
    const e2 = await evilIn.next((m) => m.type === 'error');
    assert.equal(e2.code, 'bad_message');
    // Another agent is served as usual.
    const good = await connect(env);
    const goodIn = reader(good);
    good.write(frame({ type: 'hello', protocol: 1, client: 'good' }));
    await chrome.next((m) => m.type === 'session_open' && m.client === 'good');
    good.write(frame({ type: 'call', tool: 'snapshot', id: 'g1', args: {} }));
    const call = await chrome.next((m) => m.type === 'call');
    chrome.send({ type: 'result', id: call.id, ok: true, text: 'fine' });
    const r = await goodIn.next((m) => m.type === 'result');
    assert.equal(r.id, 'g1');
    assert.equal(r.text, 'fine');
    evil.destroy();
    good.destroy();
  } finally {
    await chrome.close();
  }
});


