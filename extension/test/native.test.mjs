import { test } from 'node:test';
import assert from 'node:assert/strict';
import { backoffMs, callDeadlineMs, ChunkAssembler, NativeClient, toWire } from '../lib/native.js';
import { LIMITS, PROTOCOL_VERSION } from '../lib/limits.js';
import { until } from '../../tests/support/wait.mjs';

/** A fake chrome.runtime.Port: records what the extension posts; the test plays the host. */
function fakePort() {
  const msg = [], disc = [];
  return {
    posted: /** @type {any[]} */ ([]),
    postMessage(m) { this.posted.push(JSON.parse(JSON.stringify(m))); },
    disconnect() {},
    onMessage: { addListener: (f) => msg.push(f) },
    onDisconnect: { addListener: (f) => disc.push(f) },
    host(m) { for (const f of msg) f(m); },
    drop() { for (const f of disc) f(); },
  };
}

/** Fake timers: run by hand. */
function fakeTimers() {
  const pending = [];
  return { pending, setTimer: (f, ms) => { pending.push({ f, ms }); return pending.length; }, clearTimer: () => {}, fire() { const t = pending.shift(); t.f(); return t.ms; } };
}

test('hello first, calls answered as results, sessions tracked', async () => {
  const ports = [];
  const calls = [];
  const opened = [], closed = [];
  const c = new NativeClient({
    connect: () => { const p = fakePort(); ports.push(p); return p; },
    onCall: async (call) => { calls.push(call); return { ok: true, text: `did ${call.tool}`, version: 3 }; },
    onSessionOpen: (s, client) => opened.push([s, client]),
    onSessionClose: (s) => closed.push(s),
    extensionVersion: '0.1.0',
    browser: 'Chromium 156',
  });
  c.start();
  const p = ports[0];
  assert.deepEqual(p.posted[0], { type: 'hello', protocol: PROTOCOL_VERSION, extension: '0.1.0', browser: 'Chromium 156' });
  p.host({ type: 'hello', protocol: PROTOCOL_VERSION, bridge: '0.3.0' });
  assert.equal(c.status.connected, true);
  assert.equal(c.status.bridge, '0.3.0');
  p.host({ type: 'session_open', session: 'a', client: 'claude' });
  assert.deepEqual(opened, [['a', 'claude']]);
  p.host({ type: 'call', id: 7, session: 'a', tool: 'snapshot', args: {}, deadline_ms: 1000 });
  await until('the result of call 7 posted', () => p.posted.at(-1)?.type === 'result');
  assert.deepEqual(calls[0], { id: 7, session: 'a', tool: 'snapshot', args: {}, deadline_ms: 1000 });
  assert.deepEqual(p.posted.at(-1), { type: 'result', id: 7, ok: true, text: 'did snapshot', version: 3 });
  p.host({ type: 'session_close', session: 'a' });
  assert.deepEqual(closed, ['a']);
  p.host({ type: 'bogus' });
  assert.equal(p.posted.at(-1).code, 'unknown_type');
});

test('a result carries the FactPack JSON only when its call asked for it (a --structured server)', async () => {
  const ports = [];
  const factpack = { type: 'delta', version: 4, added: [] };
  let reads = 0;
  const c = new NativeClient({
    connect: () => { const p = fakePort(); ports.push(p); return p; },
    // As action-flow.js's reply(): the JSON is worked out when read, and only a structured call reads it.
    onCall: async () => ({ ok: true, text: '<delta v="4">\n</delta>\n', version: 4, get factpack() { reads++; return factpack; } }),
  });
  c.start();
  const p = ports[0];
  p.host({ type: 'hello', protocol: PROTOCOL_VERSION, bridge: '0.3.0' });
  p.host({ type: 'call', id: 1, session: 'a', tool: 'click', args: {}, deadline_ms: 1000 });
  await until('the result of call 1 posted', () => p.posted.at(-1)?.id === 1);
  assert.deepEqual(p.posted.at(-1), { type: 'result', id: 1, ok: true, text: '<delta v="4">\n</delta>\n', version: 4 });
  assert.equal(reads, 0, 'a result for a text-only server never reads the JSON');
  p.host({ type: 'call', id: 2, session: 'a', tool: 'click', args: {}, deadline_ms: 1000, structured: true });
  await until('the result of call 2 posted', () => p.posted.at(-1)?.id === 2);
  assert.deepEqual(p.posted.at(-1), { type: 'result', id: 2, ok: true, text: '<delta v="4">\n</delta>\n', factpack, version: 4 });
});

test('a throwing tool becomes an error result, never a lost call', async () => {
  const ports = [];
  const c = new NativeClient({ connect: () => { const p = fakePort(); ports.push(p); return p; }, onCall: async () => { throw new Error('boom'); } });
  c.start();
  ports[0].host({ type: 'call', id: 'x', session: 's', tool: 'click', args: {} });
  await until('the result of call x posted', () => ports[0].posted.at(-1)?.type === 'result');
  assert.deepEqual(ports[0].posted.at(-1), { type: 'result', id: 'x', ok: false, error: { code: 'internal', message: 'boom' } });
});

test('protocol mismatch is reported, not ignored', () => {
  const ports = [];
  const c = new NativeClient({ connect: () => { const p = fakePort(); ports.push(p); return p; }, onCall: async () => ({}) });
  c.start();
  ports[0].host({ type: 'hello', protocol: PROTOCOL_VERSION + 1, bridge: '9' });
  assert.equal(c.status.connected, false);
  assert.equal(ports[0].posted.at(-1).code, 'protocol_mismatch');
  assert.match(ports[0].posted.at(-1).message, /update the extension/);
});

test('a dropped port reconnects with exponential backoff, reset by a good hello; sessions are kept', () => {
  const ports = [];
  const timers = fakeTimers();
  const closed = [];
  let fail = 0;
  const c = new NativeClient({
    connect: () => { if (fail > 0) { fail--; throw new Error('Specified native messaging host not found.'); } const p = fakePort(); ports.push(p); return p; },
    lastError: () => 'Native host has exited.',
    onCall: async () => ({}), onSessionClose: (s) => closed.push(s), setTimer: timers.setTimer, clearTimer: timers.clearTimer,
  });
  c.start();
  ports[0].host({ type: 'hello', protocol: PROTOCOL_VERSION, bridge: '1' });
  ports[0].host({ type: 'session_open', session: 'a', client: 'x' });
  ports[0].drop();
  assert.deepEqual(closed, [], 'the agents are still connected to the bridge: their state is kept over a reconnect');
  assert.equal(c.status.connected, false);
  assert.equal(c.status.error, 'Native host has exited.');
  fail = 3;
  const delays = [timers.fire(), timers.fire(), timers.fire()];
  assert.deepEqual(delays, [LIMITS.nativeBackoffStartMs, LIMITS.nativeBackoffStartMs * 2, LIMITS.nativeBackoffStartMs * 4]);
  assert.match(c.status.error ?? '', /host not found/);
  assert.equal(timers.fire(), LIMITS.nativeBackoffStartMs * 8);
  assert.equal(ports.length, 2);
  ports[1].host({ type: 'hello', protocol: PROTOCOL_VERSION, bridge: '1' });
  ports[1].drop();
  assert.equal(timers.pending[0].ms, LIMITS.nativeBackoffStartMs, 'a good hello resets the backoff');
  assert.equal(backoffMs(100), LIMITS.nativeBackoffMaxMs);
});

test('the wake alarm reconnects a dropped port at once, not at the end of its backoff; it does nothing while connected', () => {
  const ports = [];
  const timers = fakeTimers();
  let cleared = 0;
  const c = new NativeClient({
    connect: () => { const p = fakePort(); ports.push(p); return p; },
    lastError: () => 'Native host has exited.',
    onCall: async () => ({}), setTimer: timers.setTimer, clearTimer: () => { cleared++; },
  });
  c.start();
  c.wake();
  assert.equal(ports.length, 1, 'connected: a wake changes nothing');
  ports[0].drop();
  assert.equal(timers.pending.length, 1, 'a reconnect is scheduled after its backoff');
  c.wake();
  assert.equal(ports.length, 2, 'the wake connects now');
  assert.equal(cleared, 1, 'and the backoff timer is dropped');
  c.stop();
  c.wake();
  assert.equal(ports.length, 2, 'a stopped client stays stopped');
});

test('a call under way when the port drops is cancelled, and its late answer never reaches the next host', async () => {
  const ports = [];
  const timers = fakeTimers();
  const cancelled = [];
  /** @type {(v: any) => void} */
  let finish = () => {};
  const c = new NativeClient({
    connect: () => { const p = fakePort(); ports.push(p); return p; },
    onCall: () => new Promise((r) => { finish = r; }),
    onCancel: (id) => cancelled.push(id),
    setTimer: timers.setTimer, clearTimer: timers.clearTimer,
  });
  c.start();
  ports[0].host({ type: 'hello', protocol: PROTOCOL_VERSION, bridge: '1' });
  ports[0].host({ type: 'call', id: 'h3', session: 'a', tool: 'wait_for', args: {} });
  ports[0].drop();  // the host was killed mid-call
  assert.deepEqual(cancelled, ['h3'], 'the tab stops waiting for an answer nobody can receive');
  timers.fire();
  ports[1].host({ type: 'hello', protocol: PROTOCOL_VERSION, bridge: '1' });
  finish({ ok: true, text: 'late' });
  await new Promise((r) => setImmediate(r));  // one event-loop turn: the late answer's promise has settled
  // A new host numbers its calls from h1 again: "h3" there is another agent's call.
  assert.deepEqual(ports[1].posted.filter((m) => m.type === 'result'), []);
  assert.deepEqual(ports[0].posted.filter((m) => m.type === 'result'), []);
});

test('results above the 1 MB limit go out as chunks and reassemble exactly', () => {
  const big = { type: 'result', id: 'h5', ok: true, text: 'é😀x'.repeat(200_000), version: 1 };
  const wire = toWire(big);
  assert.ok(wire.length > 1);
  for (const w of wire) assert.ok(new TextEncoder().encode(JSON.stringify(w)).length <= LIMITS.nativeChunkBytes);
  const a = new ChunkAssembler();
  let out = null;
  for (const w of wire) out = a.add(w) ?? out;
  assert.deepEqual(out, big);
  assert.deepEqual(toWire({ type: 'result', id: 1, text: 'small' }), [{ type: 'result', id: 1, text: 'small' }]);
  assert.throws(() => a.add({ id: 'h1', seq: 3, total: 2, data: '' }), { message: 'chunk h1: piece 3 of 2 out of order (expected 0)' });
});

test('incoming chunked calls are reassembled and dispatched', async () => {
  const ports = [];
  const calls = [];
  const c = new NativeClient({ connect: () => { const p = fakePort(); ports.push(p); return p; }, onCall: async (x) => { calls.push(x); return { ok: true, text: '' }; } });
  c.start();
  const text = JSON.stringify({ type: 'call', id: 9, session: 's', tool: 'type', args: { ref: 'e1', text: 'y'.repeat(50) } });
  const half = Math.floor(text.length / 2);
  ports[0].host({ type: 'chunk', id: 'c9', seq: 0, total: 2, data: text.slice(0, half) });
  ports[0].host({ type: 'chunk', id: 'c9', seq: 1, total: 2, data: text.slice(half) });
  await until('the reassembled call reaching onCall', () => calls.length > 0);
  assert.equal(calls[0].args.text.length, 50);
});

/** Call timers run by hand, apart from the reconnect timers. */
function callTimers() {
  const pending = [];
  return {
    pending,
    setCallTimer: (f, ms) => { const t = { f, ms, live: true }; pending.push(t); return t; },
    clearCallTimer: (t) => { t.live = false; },
    /** Fires the oldest live timer; its delay. */
    fire() { const t = pending.find((x) => x.live); t.live = false; t.f(); return t.ms; },
    live() { return pending.filter((x) => x.live).map((x) => x.ms); },
  };
}

test('the bridge\'s deadline is honoured: at deadline_ms the call is cancelled and answers what was done', async () => {
  const ports = [];
  const timers = callTimers();
  const cancelled = [];
  /** @type {(v: any) => void} */
  let finish = () => {};
  const c = new NativeClient({
    connect: () => { const p = fakePort(); ports.push(p); return p; },
    onCall: () => new Promise((r) => { finish = r; }),
    // The tab stops waiting when told to, and answers with what was done.
    onCancel: (id, why) => { cancelled.push([id, why]); finish({ ok: true, text: '<delta v="4">…</delta>' }); },
    setCallTimer: timers.setCallTimer, clearCallTimer: timers.clearCallTimer,
  });
  c.start();
  const p = ports[0];
  p.host({ type: 'hello', protocol: PROTOCOL_VERSION, bridge: '1' });
  p.host({ type: 'call', id: 'm1', session: 'a', tool: 'wait_for', args: { text: 'never' }, deadline_ms: 50_000 });
  assert.deepEqual(timers.live(), [50_000], 'one timer, at the deadline the bridge sent');
  assert.deepEqual(cancelled, []);
  assert.equal(timers.fire(), 50_000);
  assert.deepEqual(cancelled, [['m1', 'the call reached its deadline (50000 ms)']], 'at its deadline the call is cancelled, and the tab is told why');
  await until('the call\'s answer posted', () => p.posted.some((m) => m.type === 'result'));
  assert.deepEqual(p.posted.filter((m) => m.type === 'result'), [{ type: 'result', id: 'm1', ok: true, text: '<delta v="4">…</delta>' }]);
  assert.deepEqual(timers.live(), [], 'answered: no timer left');
});

test('a call that does not stop when cancelled is answered `deadline` before the bridge gives up; its late answer is dropped', async () => {
  const ports = [];
  const timers = callTimers();
  /** @type {(v: any) => void} */
  let finish = () => {};
  const c = new NativeClient({
    connect: () => { const p = fakePort(); ports.push(p); return p; },
    onCall: () => new Promise((r) => { finish = r; }),
    onCancel: () => {},
    setCallTimer: timers.setCallTimer, clearCallTimer: timers.clearCallTimer,
  });
  c.start();
  const p = ports[0];
  p.host({ type: 'hello', protocol: PROTOCOL_VERSION, bridge: '1' });
  p.host({ type: 'call', id: 'm2', session: 'a', tool: 'click', args: {}, deadline_ms: 10 ** 9 });
  assert.deepEqual(timers.live(), [LIMITS.callDeadlineMaxMs], 'a deadline past the limit is bounded by it');
  timers.fire();
  assert.deepEqual(timers.live(), [LIMITS.callDeadlineGraceMs]);
  assert.ok(LIMITS.callDeadlineGraceMs < 2_000, 'within the bridge\'s margin (bridge/src/limits.h kDeadlineMarginMs)');
  timers.fire();
  const results = () => p.posted.filter((m) => m.type === 'result');
  assert.equal(results().length, 1);
  assert.equal(results()[0].id, 'm2');
  assert.equal(results()[0].ok, false);
  assert.equal(results()[0].error.code, 'deadline');
  finish({ ok: true, text: 'late' });
  await new Promise((r) => setImmediate(r));  // one event-loop turn: the late answer's promise has settled
  assert.equal(results().length, 1, 'the late answer is dropped');
});

test('a call without a valid deadline gets the limit', () => {
  assert.equal(callDeadlineMs(undefined), LIMITS.callDeadlineMaxMs);
  assert.equal(callDeadlineMs(-5), LIMITS.callDeadlineMaxMs);
  assert.equal(callDeadlineMs(Number.NaN), LIMITS.callDeadlineMaxMs);
  assert.equal(callDeadlineMs('58000'), LIMITS.callDeadlineMaxMs);
  assert.equal(callDeadlineMs(1234), 1234);
});
