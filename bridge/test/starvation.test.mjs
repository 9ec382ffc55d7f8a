// One client must never stall the others: a client that stops reading, connections that hold
// every slot without a hello, a frame that never completes, a host that never accepts. Each is
// answered within its named bound (bridge/src/limits.h) and other agents keep being served.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { WAIT, until, within } from '../../tests/support/wait.mjs';
import { bridgeBinary, connect, FakeChrome, frame, mcpClient, reader, sandbox, text } from './helpers.mjs';

const run = promisify(execFile);
// The bounds of bridge/src/limits.h these tests wait on.
const HELLO_TIMEOUT_MS = 5_000, PARTIAL_FRAME_TIMEOUT_MS = 10_000, CONNECT_TIMEOUT_MS = 2_000, MAX_CLIENTS = 32, SLOT_WAIT_MS = 20_000;

const socketOf = (env) => path.join(env.ATHENA_RUNTIME_DIR, 'bridge.sock');
// Resolves when the peer closed `sock` (it is read to EOF: a paused socket never sees 'close').
const closed = (sock) => new Promise((resolve) => {
  if (sock.destroyed) return resolve();
  sock.on('close', resolve);
  sock.resume();
});


test('a client that stops reading is disconnected at its queue bound; another agent is served meanwhile', async () => {
  const { env } = sandbox();
  const chrome = new FakeChrome(env);
  try {
    await chrome.hello();
    const slow = await connect(env);
    slow.pause();  // never reads again
    slow.write(frame({ type: 'hello', protocol: 1, client: 'slow' }));
    const slowSession = (await chrome.next((m) => m.type === 'session_open' && m.client === 'slow')).session;
    const big = 'x'.repeat(900_000);
    for (let i = 0; i < 14; i++) slow.write(frame({ type: 'call', id: `s${i}`, tool: 'snapshot', args: {} }));
    const good = await mcpClient(env, 'good');
    try {
      // The extension answers the slow client's calls with ~0.9 MB each: 12.6 MB, over its 8 MiB queue.
      for (let i = 0; i < 14; i++) {
        const call = await chrome.next((m) => m.type === 'call' && m.session === slowSession);
        chrome.send({ type: 'result', id: call.id, ok: true, text: big });
      }
      const gone = await chrome.next((m) => m.type === 'session_close' && m.session === slowSession, 10_000);
      assert.equal(gone.session, slowSession);
      assert.match(chrome.stderr, /disconnected: it stopped reading: \d+ bytes were waiting for it \(limit 8388608\)/);
      // The good agent's call goes through at once.
      const p = good.callTool({ name: 'snapshot', arguments: {} });
      const call = await chrome.next((m) => m.type === 'call' && m.session !== slowSession);
      chrome.send({ type: 'result', id: call.id, ok: true, text: '<full v="1"/>' });
      assert.equal(text(await p), '<full v="1"/>');
    } finally {
      await good.close();
      slow.destroy();
    }
  } finally {
    await chrome.close();
  }
});

test(`${MAX_CLIENTS} silent connections: the next agent waits for a slot, and is served once the hello timeout frees them`, async () => {
  const { env } = sandbox();
  const chrome = new FakeChrome(env);
  const silent = [];
  try {
    await chrome.hello();
    // Every silent connection is in the host's listen queue before the agent's, and the host
    // accepts in queue order: the agent is the one over the limit.
    for (let i = 0; i < MAX_CLIENTS; i++) silent.push(await connect(env));
    const agent = await mcpClient(env, 'late');
    try {
      // It waits (its call held by the host) instead of being turned away; the silent
      // connections are dropped after the hello timeout, and its call goes through.
      const p = agent.callTool({ name: 'snapshot', arguments: {} });
      const call = await chrome.next((m) => m.type === 'call', HELLO_TIMEOUT_MS * 2);
      chrome.send({ type: 'result', id: call.id, ok: true, text: 'served' });
      assert.equal(text(await p), 'served');
      await Promise.all(silent.map(closed));
    } finally {
      await agent.close();
    }
    assert.match(chrome.stderr, /disconnected: no hello within 5000 ms/);
  } finally {
    for (const s of silent) s.destroy();
    await chrome.close();
  }
});

/** `n` MCP agents (athena-bridge mcp each), each with one snapshot in flight that the extension holds. */
async function agentsInFlight(env, chrome, n) {
  const agents = [];
  for (let i = 0; i < n; i++) {
    const client = await mcpClient(env, `busy${i}`);
    const answer = client.callTool({ name: 'snapshot', arguments: {} });
    answer.catch(() => {});  // a test that ends early closes the client under it; awaiting it still sees the outcome
    const open = await chrome.next((m) => m.type === 'session_open' && m.client === `busy${i}`);
    const call = await chrome.next((m) => m.type === 'call' && m.session === open.session);
    agents.push({ client, answer, session: open.session, call });
  }
  return agents;
}

/**
 * Runs `body` with a host whose every slot is taken by an agent with a call in flight
 * (agentsInFlight) and one more agent, `late`, connected; closes them all after.
 * @param {(o: {chrome: FakeChrome, agents: Awaited<ReturnType<typeof agentsInFlight>>, late: any}) => Promise<void>} body
 */
async function withEverySlotBusy(body) {
  const { env } = sandbox();
  const chrome = new FakeChrome(env);
  let agents = [];
  try {
    await chrome.hello();
    agents = await agentsInFlight(env, chrome, MAX_CLIENTS);
    const late = await mcpClient(env, 'late');
    try {
      await body({ chrome, agents, late });
    } finally {
      await late.close();
    }
  } finally {
    await Promise.all(agents.map((a) => a.client.close()));
    await chrome.close();
  }
}

test(`${MAX_CLIENTS} agents that each keep a call in flight: a new agent waits, and the first to finish makes room; nothing is cancelled`, () =>
  withEverySlotBusy(async ({ chrome, agents, late }) => {
    const lateAnswer = late.callTool({ name: 'snapshot', arguments: {} });
    await until('the late agent waiting for a slot', () => /client \d+ waits for a slot: all 32 are taken/.test(chrome.stderr), { last: () => chrome.stderr });
    // One of the 32 finishes its call: it is answered, then gives its slot to the waiting agent.
    chrome.send({ type: 'result', id: agents[7].call.id, ok: true, text: 'busy7 done' });
    assert.equal(text(await agents[7].answer), 'busy7 done');
    const lateOpen = await chrome.next((m) => m.type === 'session_open' && m.client === 'late');
    const lateCall = await chrome.next((m) => m.type === 'call' && m.session === lateOpen.session);
    chrome.send({ type: 'result', id: lateCall.id, ok: true, text: 'late served' });
    assert.equal(text(await lateAnswer), 'late served');
    // The agent that made room is served on its next call, with its own session: now the
    // late agent, idle, makes room for it.
    const again = agents[7].client.callTool({ name: 'snapshot', arguments: {} });
    const back = await chrome.next((m) => m.type === 'call' && m.session === agents[7].session, 10_000);
    chrome.send({ type: 'result', id: back.id, ok: true, text: 'busy7 again' });
    assert.equal(text(await again), 'busy7 again');
    // The other 31 calls were never cancelled, and each is answered when the extension is done.
    for (const [i, a] of agents.entries()) {
      if (i === 7) continue;
      chrome.send({ type: 'result', id: a.call.id, ok: true, text: `busy${i} done` });
      assert.equal(text(await a.answer), `busy${i} done`);
    }
    assert.equal(chrome.messages.filter((m) => m.type === 'cancel').length, 0, JSON.stringify(chrome.messages.filter((m) => m.type === 'cancel')));
  }));

test(`${MAX_CLIENTS} agents whose calls never finish: a new agent is told why after its wait for a slot, and the way on`, () =>
  withEverySlotBusy(async ({ chrome, agents, late }) => {
    try {
      const r = await late.callTool({ name: 'snapshot', arguments: {} });
      assert.equal(r.isError, true);
      assert.equal(text(r), `athena-bridge disconnected this client: it waited ${SLOT_WAIT_MS} ms for a slot while all 32 agents kept a call ` +
        'in flight: retry (it waits again), or close an agent you no longer need');
      // Its call never reached the extension, and the 32 in flight were left alone.
      assert.equal(chrome.messages.filter((m) => m.type === 'cancel' || m.type === 'session_open').length, 0, JSON.stringify(chrome.messages));
      chrome.send({ type: 'result', id: agents[0].call.id, ok: true, text: 'busy0 done' });
      assert.equal(text(await agents[0].answer), 'busy0 done');
    } finally {
      for (const a of agents) chrome.send({ type: 'result', id: a.call.id, ok: true, text: 'done' });
    }
  }));

test(`${MAX_CLIENTS} agents that said hello and stay idle: a new agent is served, and the one idle the longest gives its slot up`, async () => {
  const { env } = sandbox();
  const chrome = new FakeChrome(env);
  const idle = [];
  try {
    await chrome.hello();
    // Each says hello in turn (the host has its session open before the next one comes).
    for (let i = 0; i < MAX_CLIENTS; i++) {
      const s = await connect(env);
      const r = reader(s);
      s.write(frame({ type: 'hello', protocol: 1, client: `idle${i}` }));
      await chrome.next((m) => m.type === 'session_open' && m.client === `idle${i}`);
      idle.push({ s, r });
    }
    const agent = await mcpClient(env, 'late');
    try {
      const p = agent.callTool({ name: 'snapshot', arguments: {} });
      const call = await chrome.next((m) => m.type === 'call');
      chrome.send({ type: 'result', id: call.id, ok: true, text: 'served' });
      assert.equal(text(await p), 'served');
      // The first to say hello (idle the longest) was told why and let go; the others stay.
      const told = await idle[0].r.next((m) => m.type === 'error' && m.code === 'disconnected');
      assert.match(told.message, /^athena-bridge disconnected this client: idle the longest while a new agent needed its slot \(at most 32 agents\); it reconnects on its next call$/);
      await closed(idle[0].s);
      assert.equal(idle.slice(1).filter(({ s }) => s.destroyed).length, 0);
    } finally {
      await agent.close();
    }
  } finally {
    for (const { s } of idle) s.destroy();
    await chrome.close();
  }
});

test('a frame announced at 64 MiB that never completes is dropped after the partial-frame timeout', async () => {
  const { env } = sandbox();
  const chrome = new FakeChrome(env);
  try {
    await chrome.hello();
    const s = await connect(env);
    s.write(frame({ type: 'hello', protocol: 1, client: 'partial' }));
    await chrome.next((m) => m.type === 'session_open' && m.client === 'partial');
    const head = Buffer.alloc(4);
    head.writeUInt32LE(64 * 1024 * 1024 - 1, 0);
    s.write(Buffer.concat([head, Buffer.from('{"type":"call"')]));
    const t0 = Date.now();
    await closed(s);
    const waited = Date.now() - t0;
    assert.ok(waited >= PARTIAL_FRAME_TIMEOUT_MS - 500, `dropped after ${waited} ms`);
    assert.match(chrome.stderr, /disconnected: a message of which only \d+ bytes arrived in 10000 ms/);
    await chrome.next((m) => m.type === 'session_close');
  } finally {
    await chrome.close();
  }
});

test('a host that never accepts: doctor and an MCP call answer within the connect timeout', async () => {
  const { env } = sandbox();
  // A listening socket whose owner never accepts, its queue already full.
  const stuck = spawn('python3', ['-c', `
import socket, sys, time
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.bind(sys.argv[1]); s.listen(0)
held = []
for _ in range(8):
    c = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM); c.setblocking(False)
    try: c.connect(sys.argv[1])
    except OSError: pass
    held.append(c)
print("ready", flush=True)
time.sleep(120)
`, socketOf(env)], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    await new Promise((resolve) => stuck.stdout.once('data', resolve));
    // The peer holds the socket for 120 s: an answer that names the connect timeout, well before
    // that, is the bound at work (how fast is bench/'s business).
    const doctor = await within('doctor against a host that never accepts', run(bridgeBinary(), ['doctor'], { env }).catch((e) => e), WAIT.hangMs);
    assert.match(doctor.stdout, new RegExp(`did not accept the connection within ${CONNECT_TIMEOUT_MS} ms`));
    const agent = await mcpClient(env, 'stuck');
    try {
      const r = await within('an MCP call against a host that never accepts', agent.callTool({ name: 'snapshot', arguments: {} }), WAIT.hangMs);
      assert.equal(r.isError, true);
      assert.match(text(r), new RegExp(`did not accept the connection within ${CONNECT_TIMEOUT_MS} ms`));
    } finally {
      await agent.close();
    }
  } finally {
    stuck.kill();
  }
});

test('a second browser\'s host tells its extension which browser the agents are connected to and how to switch, and never says hello', async () => {
  const { env } = sandbox();
  const first = new FakeChrome(env);
  try {
    await first.hello('Google Chrome 131');
    const second = new FakeChrome(env);
    try {
      const e = await second.next((m) => m.type === 'error');
      assert.equal(e.code, 'endpoint');
      assert.equal(e.message, 'your agents are connected to Athena Delta in Google Chrome 131 (another browser, or another profile of ' +
        'this one), and one browser is served at a time. To use this one instead: close that browser, or turn Athena Delta off ' +
        'there (chrome://extensions), then reload Athena Delta here (chrome://extensions, its reload button).');
      second.send({ type: 'hello', protocol: 1, extension: 'test' });
      const again = await second.next((m) => m.type === 'error' || m.type === 'hello');
      assert.equal(again.type, 'error');
      assert.equal(again.code, 'endpoint');
    } finally {
      await second.close();
    }
  } finally {
    await first.close();
  }
});

test('a host that stops reading with megabytes of calls queued: athena-bridge mcp still answers ping at once, and each call at its deadline', async () => {
  const { env } = sandbox();
  const net = await import('node:net');
  // A host that says the extension is there, then never reads again (as one that is stopped).
  /** @type {import('node:net').Socket[]} */
  const held = [];
  const host = net.createServer((sock) => {
    held.push(sock);
    sock.once('data', () => { sock.write(frame({ type: 'status', extension: true })); sock.pause(); });
  });
  await new Promise((resolve) => host.listen(socketOf(env), resolve));
  const agent = await mcpClient(env, 'swamped');
  try {
    // 40 calls of 64 KiB each: about 2.5 MiB the host never reads.
    const big = 'x'.repeat(64 * 1024);
    const calls = Array.from({ length: 40 }, () => agent.callTool({ name: 'type', arguments: { ref: 'e1', text: big } }).then((r) => r, (e) => e));
    await new Promise((resolve) => setImmediate(resolve));
    for (let i = 0; i < 3; i++) {
      const pong = await within('ping while the host reads nothing', agent.ping(), WAIT.hangMs);
      assert.deepEqual(pong, {});
    }
    const r = await within('the first queued call answered at its deadline', calls[0], WAIT.hangMs * 10);
    assert.ok(r instanceof Error || r.isError, 'a call the host never answered is an error');
  } finally {
    await agent.close();
    for (const s of held) s.destroy();
    host.close();
  }
});
