// The native messaging client to athena-bridge (docs/wire-protocol.md): one port, hello first,
// calls dispatched to the tools, results back (chunked above Chrome's 1 MB limit), and a
// reconnect with exponential backoff whenever the port drops. Chrome APIs are injected so the
// logic runs under Node with a fake port.
import { LIMITS, PROTOCOL_VERSION } from './limits.js';

export const HOST_NAME = 'com.athena_delta.bridge';

/**
 * @typedef {{postMessage(m: any): void, disconnect(): void,
 *   onMessage: {addListener(f: (m: any) => void): void},
 *   onDisconnect: {addListener(f: () => void): void}}} Port
 * @typedef {{
 *   connect: () => Port,
 *   lastError?: () => string | undefined,
 *   onCall: (call: {id: any, session: string, tool: string, args: any, deadline_ms?: number}) => Promise<any>,
 *   onSessionOpen?: (session: string, client: string) => void,
 *   onSessionClose?: (session: string) => void,
 *   onCancel?: (id: any, why?: string) => void,
 *   onStatus?: (status: NativeStatus) => void,
 *   extensionVersion?: string,
 *   browser?: string,
 *   setTimer?: (f: () => void, ms: number) => any,
 *   clearTimer?: (t: any) => void,
 *   setCallTimer?: (f: () => void, ms: number) => any,
 *   clearCallTimer?: (t: any) => void,
 * }} NativeOptions
 * @typedef {{connected: boolean, bridge: string | null, error: string | null, attempts: number, nextRetryMs: number | null}} NativeStatus
 */

/**
 * How long a call may run: the bridge's deadline_ms, bounded by LIMITS.callDeadlineMaxMs (which
 * a call without a valid one gets).
 * @param {unknown} asked
 */
export function callDeadlineMs(asked) {
  return typeof asked === 'number' && Number.isFinite(asked) && asked > 0 ? Math.min(asked, LIMITS.callDeadlineMaxMs) : LIMITS.callDeadlineMaxMs;
}

/** Delay before reconnect attempt n (0-based): start * 2^n, capped. @param {number} attempt */
export function backoffMs(attempt) {
  return Math.min(LIMITS.nativeBackoffMaxMs, LIMITS.nativeBackoffStartMs * 2 ** Math.min(attempt, 30));
}

/**
 * Splits one outgoing message into wire messages: itself, or `chunk` pieces when its JSON is
 * larger than LIMITS.nativeChunkBytes (measured in UTF-8 bytes; pieces cut on characters).
 * @param {any} message  must carry an `id`
 * @param {number} [limit]
 * @returns {any[]}
 */
export function toWire(message, limit = LIMITS.nativeChunkBytes) {
  const text = JSON.stringify(message);
  const bytes = new TextEncoder().encode(text).length;
  if (bytes <= limit) return [message];
  // Cut on UTF-16 code units, keeping surrogate pairs whole; a piece is <= limit/3 code units
  // so its UTF-8 (plus JSON escaping overhead of the envelope) stays under the limit.
  const step = Math.max(1, Math.floor(limit / 3) - 64);
  /** @type {string[]} */
  const pieces = [];
  for (let i = 0; i < text.length;) {
    let end = Math.min(text.length, i + step);
    const c = text.charCodeAt(end - 1);
    if (end < text.length && c >= 0xd800 && c <= 0xdbff) end -= 1;
    pieces.push(text.slice(i, end));
    i = end;
  }
  return pieces.map((data, seq) => ({ type: 'chunk', id: message.id, seq, total: pieces.length, data }));
}

/**
 * Reassembles incoming chunks; returns the whole message when its last piece arrives. The rule,
 * pieces of one id strictly in order, is athena-bridge's too (bridge/src/framing.cpp): one table,
 * rules/native-chunks.json, with the same refusals.
 */
export class ChunkAssembler {
  /** @type {Map<string, {total: number, next: number, parts: string[], bytes: number}>} */
  #pending = new Map();
  #maxChunks;
  #maxBytes;
  #utf8 = new TextEncoder();

  constructor({ maxChunks = LIMITS.nativeMaxChunks, maxBytes = LIMITS.nativeMaxMessageBytes } = {}) {
    this.#maxChunks = maxChunks;
    this.#maxBytes = maxBytes;
  }

  /**
   * @param {{id: unknown, seq: unknown, total: unknown, data: unknown}} c
   * @returns {any | null} the parsed message, or null while pieces are missing
   */
  add(c) {
    const count = (/** @type {unknown} */ n) => Number.isSafeInteger(n) && /** @type {number} */ (n) >= 0;
    if (typeof c.id !== 'string' || !count(c.seq) || !count(c.total) || typeof c.data !== 'string')
      throw new Error('chunk: needs string id, unsigned seq and total, string data');
    const id = c.id, seq = /** @type {number} */ (c.seq), total = /** @type {number} */ (c.total);
    if (total === 0 || total > this.#maxChunks) throw new Error(`chunk ${id}: total ${total} outside 1..${this.#maxChunks}`);
    let p = this.#pending.get(id);
    if (!p) { p = { total, next: 0, parts: [], bytes: 0 }; this.#pending.set(id, p); }
    if (p.total !== total || seq !== p.next) {
      this.#pending.delete(id);
      throw new Error(`chunk ${id}: piece ${seq} of ${total} out of order (expected ${p.next})`);
    }
    p.parts.push(c.data);
    p.bytes += this.#utf8.encode(c.data).length;
    if (p.bytes > this.#maxBytes) { this.#pending.delete(id); throw new Error(`chunk ${id}: reassembled message exceeds ${this.#maxBytes} bytes`); }
    if (++p.next < p.total) return null;
    this.#pending.delete(id);
    return JSON.parse(p.parts.join(''));
  }
}

export class NativeClient {
  /** @type {NativeOptions} */
  #o;
  /** @type {Port | null} */
  #port = null;
  #attempts = 0;
  /** @type {any} */
  #timer = null;
  #stopped = false;
  #chunks = new ChunkAssembler();
  /** Which port the calls came on: bumped on every connection. */
  #generation = 0;
  /** Calls under way: id -> the generation of the port they came on. */
  #inflight = new Map();
  /** @type {NativeStatus} */
  status = { connected: false, bridge: null, error: null, attempts: 0, nextRetryMs: null };
  /** Sessions the bridge opened: id -> client name. */
  sessions = new Map();

  /** @param {NativeOptions} options */
  constructor(options) {
    this.#o = options;
  }

  start() {
    this.#stopped = false;
    this.#connect();
  }

  /**
   * The worker was woken (its alarm): a port that is down reconnects now instead of at the end of
   * its backoff. Nothing happens while connected or stopped.
   */
  wake() {
    if (this.#stopped || this.#port) return;
    if (this.#timer !== null) (this.#o.clearTimer ?? clearTimeout)(this.#timer);
    this.#connect();
  }

  stop() {
    this.#stopped = true;
    if (this.#timer !== null) (this.#o.clearTimer ?? clearTimeout)(this.#timer);
    this.#timer = null;
    const p = this.#port;
    this.#port = null;
    if (p) try { p.disconnect(); } catch { /* already gone */ }
    this.#abandonCalls();
    this.#setStatus({ connected: false, nextRetryMs: null });
  }

  /** @param {Partial<NativeStatus>} s */
  #setStatus(s) {
    Object.assign(this.status, s, { attempts: this.#attempts });
    this.#o.onStatus?.({ ...this.status });
  }

  #connect() {
    this.#timer = null;
    let port;
    try {
      port = this.#o.connect();
    } catch (e) {
      this.#dropped(`connectNative failed: ${e instanceof Error ? e.message : e}`);
      return;
    }
    this.#port = port;
    this.#generation += 1;
    port.onMessage.addListener((m) => { if (this.#port === port) this.#onMessage(m); });
    port.onDisconnect.addListener(() => {
      if (this.#port !== port) return;
      this.#port = null;
      this.#dropped(this.#o.lastError?.() ?? 'the bridge closed the connection');
    });
    this.#post({ type: 'hello', protocol: PROTOCOL_VERSION, extension: this.#o.extensionVersion ?? '0', browser: this.#o.browser ?? '' });
  }

  /** @param {string} why */
  #dropped(why) {
    // The agents are still connected to the bridge: a new host announces them again
    // (session_open with the same ids) and their tabs and state are kept; only session_close drops them.
    this.#abandonCalls();
    if (this.#stopped) return;
    const delay = backoffMs(this.#attempts);
    this.#attempts += 1;
    this.#setStatus({ connected: false, bridge: null, error: why, nextRetryMs: delay });
    this.#timer = (this.#o.setTimer ?? setTimeout)(() => this.#connect(), delay);
  }

  /** @param {any} m */
  #post(m) {
    if (!this.#port) return false;
    try {
      for (const w of (m.type === 'result' ? toWire(m) : [m])) this.#port.postMessage(w);
      return true;
    } catch {
      return false;
    }
  }

  /** @param {any} m */
  #onMessage(m) {
    if (!m || typeof m !== 'object') return;
    if (m.type === 'chunk') {
      let whole;
      try { whole = this.#chunks.add(m); } catch (e) { this.#post({ type: 'error', code: 'malformed_chunk', message: String(e instanceof Error ? e.message : e) }); return; }
      if (whole) this.#onMessage(whole);
      return;
    }
    switch (m.type) {
      case 'hello':
        if (m.protocol !== PROTOCOL_VERSION) {
          const message = `extension speaks ${PROTOCOL_VERSION}, bridge ${m.protocol}: update ${m.protocol < PROTOCOL_VERSION ? 'athena-bridge' : 'the extension'}`;
          this.#post({ type: 'error', code: 'protocol_mismatch', message });
          this.#setStatus({ connected: false, error: message });
          return;
        }
        this.#attempts = 0;
        this.#setStatus({ connected: true, bridge: String(m.bridge ?? ''), error: null, nextRetryMs: null });
        return;
      case 'error':
        this.#setStatus({ error: `${m.code}: ${m.message}` });
        return;
      case 'session_open':
        if (typeof m.session !== 'string') return;
        this.sessions.set(m.session, String(m.client ?? 'agent'));
        this.#o.onSessionOpen?.(m.session, String(m.client ?? 'agent'));
        this.#setStatus({});
        return;
      case 'session_close':
        this.sessions.delete(m.session);
        this.#o.onSessionClose?.(m.session);
        this.#setStatus({});
        return;
      case 'cancel':
        this.#o.onCancel?.(m.id);
        return;
      case 'call':
        this.#call(m);
        return;
      default:
        this.#post({ type: 'error', code: 'unknown_type', message: `unknown message type "${m.type}" (wire protocol ${PROTOCOL_VERSION})` });
    }
  }

  /**
   * The port the calls under way came on is gone, and with it the host that would route their
   * answers: they are cancelled (the tab stops waiting) and their answers dropped. A new host
   * numbers its calls afresh, so an old answer must never reach it.
   */
  #abandonCalls() {
    const ids = [...this.#inflight.keys()];
    this.#inflight.clear();
    for (const id of ids) { this.#stopTimers(id); this.#o.onCancel?.(id); }
  }

  /** Deadline timers of the calls under way, by id. @type {Map<any, any[]>} */
  #timers = new Map();

  /** @param {any} id */
  #stopTimers(id) {
    for (const timer of this.#timers.get(id) ?? []) (this.#o.clearCallTimer ?? clearTimeout)(timer);
    this.#timers.delete(id);
  }

  /**
   * A call runs until its deadline (callDeadlineMs of the bridge's deadline_ms): then it is
   * cancelled as the agent would cancel it (the tab stops waiting and answers what was done);
   * one that has still not answered LIMITS.callDeadlineGraceMs later is answered `deadline` here,
   * before the bridge gives up on it, and its late answer is dropped.
   * @param {any} m
   */
  async #call(m) {
    const generation = this.#generation;
    this.#inflight.set(m.id, generation);
    const ms = callDeadlineMs(m.deadline_ms);
    const set = this.#o.setCallTimer ?? setTimeout;
    const timers = [set(() => {
      if (!this.#current(m.id, generation)) return;
      this.#o.onCancel?.(m.id, `the call reached its deadline (${ms} ms)`);
      timers.push(set(() => this.#answer(m.id, generation, {
        ok: false, error: { code: 'deadline', message: `${m.tool} ran past its deadline of ${ms} ms and did not stop when told to; the page may still be busy: take a snapshot to see where it stands` },
      }), LIMITS.callDeadlineGraceMs));
    }, ms)];
    this.#timers.set(m.id, timers);
    let reply;
    try {
      reply = await this.#o.onCall({ id: m.id, session: m.session, tool: m.tool, args: m.args ?? {}, deadline_ms: ms });
    } catch (e) {
      reply = { ok: false, error: { code: 'internal', message: String(e instanceof Error ? e.message : e) } };
    }
    // The FactPack's JSON goes only to a server that hands it on (structuredContent): the
    // text is the FactPack, and on a large page the JSON is megabytes more. Copied key by key,
    // so a reply whose JSON is parsed when read (action-flow.js reply) is never parsed.
    if (m.structured !== true && reply && typeof reply === 'object' && 'factpack' in reply) {
      const r = reply;
      reply = Object.fromEntries(Object.keys(r).filter((k) => k !== 'factpack').map((k) => [k, r[k]]));
    }
    this.#answer(m.id, generation, reply);
  }

  /** Whether call id of that port generation is still waiting for its answer. @param {any} id @param {number} generation */
  #current(id, generation) {
    return this.#inflight.get(id) === generation && generation === this.#generation;
  }

  /** Posts a call's one answer; later ones (and those of abandoned calls) are dropped. @param {any} id @param {number} generation @param {any} r */
  #answer(id, generation, r) {
    if (!this.#current(id, generation)) return;
    this.#inflight.delete(id);
    this.#stopTimers(id);
    this.#post({ type: 'result', id, ...r });
  }

  /** Progress of a long call. @param {any} id @param {string} message @param {number} progress @param {number} [total] */
  progress(id, message, progress, total) {
    this.#post({ type: 'progress', id, message, progress, ...(total !== undefined ? { total } : {}) });
  }
}
