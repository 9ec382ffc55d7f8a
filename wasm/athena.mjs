// One file past 400 lines: the whole typed face of the wasm module (argument checks, heap writes, errors), one module the extension, the web demo and Node import alike.
//
// The typed face of the wasm core: what the extension, the web demo and Node import.
//
//   import { loadAthena, AthenaError } from './athena.mjs';
//   const athena = await loadAthena();                 // Node: loadAthena({ wasmBinary })
//   const engine = athena.createEngine();              // one per browser
//   engine.openPage({ context: 0, page: 1 });
//   const pack = engine.snapshot(key, capture);        // { type, version, text, json, factpack, inputBytes }
//
// A capture is the object extension/lib/capture.js returns (packed here into the binary form of
// docs/capture-format.md: no JSON.stringify, no JSON parse in wasm), its JSON text, or its binary
// form as a Uint8Array. All three give the same FactPack byte for byte.
//
// Every method is one call into wasm (one per CDP result, event or action). Arguments are
// checked here first, so bad input never reaches the Embind glue (which would throw untyped
// errors, or copy a huge string into the heap); the core answers errors as values, which
// become an AthenaError with a stable `.code` (core/include/athena/error.h). Nothing is thrown
// but AthenaError. The module stays usable after any error, except after a wasm trap, which
// this wrapper reports once as code "internal" and then refuses every call ("reload the core").
import createAthenaCore from './athena_core.mjs';
import { BINARY_MAGIC, packCapture } from './capture_pack.mjs';

export { packCapture };

/**
 * The glue's surface (wasm/athena_core.d.mts) and the public types (athena.d.ts), for the typecheck.
 * @typedef {import('./athena_core.mjs').RawModule} RawModule
 * @typedef {import('./athena_core.mjs').RawEngine} RawEngine
 * @typedef {import('./athena_core.mjs').RawReply} RawReply
 * @typedef {import('./athena.js').PageKey} PageKey
 * @typedef {import('./athena.js').CaptureInput} CaptureInput
 * @typedef {import('./athena.js').ActionInfo} ActionInfo
 * @typedef {import('./athena.js').Limits} Limits
 * @typedef {{broken: string | null}} State  a wasm trap makes the module unusable: its message
 */

/** An error from the core or from checking arguments at the boundary. */
export class AthenaError extends Error {
  /** @param {string} code @param {string} message */
  constructor(code, message) {
    super(message);
    this.name = 'AthenaError';
    this.code = code;
  }
}

const encoder = new TextEncoder();
const describe = (/** @type {unknown} */ v) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);
const isIndex = (/** @type {any} */ v) => Number.isInteger(v) && v >= 0 && v <= 0x7fffffff;
/** The settings createEngine accepts (athena::Config in core/include/athena/engine.h). */
const CONFIG_KEYS = ['maxChangeRatio', 'dedupRegions', 'tokenBudget', 'firstRef'];

/**
 * Loads and instantiates the wasm module. `moduleOptions` go to the Emscripten factory
 * (`wasmBinary` under Node, `locateFile` to serve the .wasm from elsewhere).
 * @param {import('./athena.js').ModuleOptions} [moduleOptions]
 */
export async function loadAthena(moduleOptions = {}) {
  const raw = await createAthenaCore(moduleOptions);
  return new Athena(raw);
}

/** The loaded module: facts about the core and a factory of engines. */
export class Athena {
  #raw;
  /** @type {State} */
  #state = { broken: null };

  /** @param {RawModule} raw */
  constructor(raw) {
    this.#raw = raw;
    this.version = raw.version();
    /** @type {Readonly<Limits>} */
    this.limits = Object.freeze(JSON.parse(raw.limits()));
    this.errorCodes = Object.freeze(JSON.parse(raw.errorCodes()));
  }

  /** Bytes of wasm memory (it grows on demand and never shrinks): for diagnostics and leak checks. */
  heapBytes() {
    return this.#raw.HEAPU8.length;
  }

  /**
   * A new engine (one per browser). config: { maxChangeRatio?, dedupRegions?, tokenBudget?,
   * firstRef? (the first ref's number: past every one a previous engine handed out) }; any
   * other key is refused, so a setting the core does not have is never silently ignored.
   * @param {import('./athena.js').EngineConfig} [config]
   */
  createEngine(config = {}) {
    if (config === null || typeof config !== 'object' || Array.isArray(config))
      throw new AthenaError('invalid_argument', `createEngine: config must be an object, got ${describe(config)}`);
    const unknown = Object.keys(config).filter((k) => !CONFIG_KEYS.includes(k));
    if (unknown.length)
      throw new AthenaError('invalid_argument', `createEngine: config.${unknown[0]} is not a setting of the core; settings: ${CONFIG_KEYS.join(', ')}`);
    const ratio = config.maxChangeRatio ?? this.limits.defaultMaxChangeRatio;
    const dedup = config.dedupRegions ?? true;
    if (typeof ratio !== 'number')
      throw new AthenaError('invalid_argument', 'createEngine: config.maxChangeRatio must be a number');
    if (typeof dedup !== 'boolean')
      throw new AthenaError('invalid_argument', 'createEngine: config.dedupRegions must be true or false');
    const budget = config.tokenBudget ?? this.limits.defaultTokenBudget;
    if (!Number.isInteger(budget) || budget < 1 || budget > this.limits.maxTokenBudget)
      throw new AthenaError('invalid_argument', `createEngine: config.tokenBudget must be an integer from 1 to ${this.limits.maxTokenBudget}, got ${String(budget)}`);
    const firstRef = config.firstRef ?? 1;
    if (!Number.isSafeInteger(firstRef) || firstRef < 1 || firstRef > this.limits.maxFirstRef)
      throw new AthenaError('invalid_argument', `createEngine: config.firstRef must be an integer from 1 to ${this.limits.maxFirstRef}, got ${String(firstRef)}`);
    const check = call(this.#state, () => this.#raw.Engine.validateConfig(ratio));
    unwrap(check);
    const handle = call(this.#state, () => new this.#raw.Engine(ratio, dedup, budget, firstRef));
    return new Engine(this.#raw, handle, this.#state, this.limits, budget);
  }
}

/** One browser's delta engine; methods mirror core/include/athena/engine.h one for one. */
export class Engine {
  #raw;
  /** @type {RawEngine | null} null once disposed */
  #handle;
  #state;
  #limits;

  /** @param {RawModule} raw @param {RawEngine} handle @param {State} state @param {Readonly<Limits>} limits @param {number} tokenBudget */
  constructor(raw, handle, state, limits, tokenBudget) {
    this.#raw = raw;
    this.#handle = handle;
    this.#state = state;
    this.#limits = limits;
    /** The bounds of core/include/athena/limits.h (the module's `limits`), for callers that hold only an engine. */
    this.limits = limits;
    /** The estimated tokens every answer about this engine's pages keeps to (FactPacks, find, and the extension's read). */
    this.tokenBudget = tokenBudget;
  }

  /** Starts tracking a tab (idempotent). @param {PageKey} key */
  openPage(key) {
    const [c, p] = this.#key(key, 'openPage');
    unwrap(this.#call((h) => h.openPage(c, p)));
  }

  /** Forgets a tab and all its refs. @param {PageKey} key */
  closePage(key) {
    const [c, p] = this.#key(key, 'closePage');
    unwrap(this.#call((h) => h.closePage(c, p)));
  }

  /** A CDP event for this page as JSON text: {"method": "...", "params": {...}}. @param {PageKey} key @param {string} eventJson */
  onEvent(key, eventJson) {
    const [c, p] = this.#key(key, 'onEvent');
    const [ptr, len] = this.#bytes(eventJson, 'onEvent', 'eventJson', 'malformed_event');
    unwrap(this.#call((h) => h.onEvent(c, p, ptr, len)));
  }

  /** Baseline (navigate result, snapshot tool): always a full FactPack. @param {PageKey} key @param {CaptureInput} capture @param {ActionInfo} [info] */
  snapshot(key, capture, info) {
    const [c, p] = this.#key(key, 'snapshot');
    const infoJson = actionInfo(info, 'snapshot');
    const [ptr, len] = this.#capture(capture, 'snapshot');
    return pack(unwrap(this.#call((h) => h.snapshot(c, p, ptr, len, infoJson))), len);
  }

  /**
   * Pre-validation before acting; agentVersion = the version of the agent's last FactPack, if it sent one.
   * @param {PageKey} key @param {CaptureInput} capture @param {number | null} [agentVersion]
   */
  beginAction(key, capture, agentVersion) {
    const [c, p] = this.#key(key, 'beginAction');
    this.#checkCapture(capture, 'beginAction');
    let v = -1;
    if (agentVersion !== undefined && agentVersion !== null) {
      if (!Number.isSafeInteger(agentVersion) || agentVersion < 0)
        throw new AthenaError('invalid_argument', `beginAction: agentVersion must be a non-negative integer (the version of the agent's last FactPack) or absent, got ${String(agentVersion)}`);
      v = agentVersion;
    }
    const [ptr, len] = this.#capture(capture, 'beginAction');
    const reply = unwrap(this.#call((h) => h.beginAction(c, p, ptr, len, v)));
    const extra = JSON.parse(reply.extra);
    return { freshness: extra.freshness, currentVersion: extra.currentVersion, pack: reply.json ? pack(reply, len) : null, inputBytes: len };
  }

  /** A ref -> the live node to act on, or an AthenaError saying why not (ref_removed, ...). @param {PageKey} key @param {string} ref */
  resolve(key, ref) {
    const [c, p] = this.#key(key, 'resolve');
    ref = this.#text(ref, 'resolve', 'ref', 'malformed_ref');
    return JSON.parse(unwrap(this.#call((h) => h.resolve(c, p, ref))).json);
  }

  /**
   * A ref -> the live node, against a fresh capture and outside any action (read, screenshot):
   * commits no version, delivers nothing, leaves a pending action alone.
   * @param {PageKey} key @param {CaptureInput} capture @param {string} ref
   */
  resolveNow(key, capture, ref) {
    const [c, p] = this.#key(key, 'resolveNow');
    this.#checkCapture(capture, 'resolveNow');
    ref = this.#text(ref, 'resolveNow', 'ref', 'malformed_ref');
    const [ptr, len] = this.#capture(capture, 'resolveNow');
    return JSON.parse(unwrap(this.#call((h) => h.resolveNow(c, p, ptr, len, ref))).json);
  }

  /** After the action: the FactPack (delta / no_change / overlay_* / full). @param {PageKey} key @param {CaptureInput} capture @param {ActionInfo} [info] */
  finishAction(key, capture, info) {
    const [c, p] = this.#key(key, 'finishAction');
    const infoJson = actionInfo(info, 'finishAction');
    const [ptr, len] = this.#capture(capture, 'finishAction');
    return pack(unwrap(this.#call((h) => h.finishAction(c, p, ptr, len, infoJson))), len);
  }

  /** The action failed: nothing advances. @param {PageKey} key */
  abortAction(key) {
    const [c, p] = this.#key(key, 'abortAction');
    unwrap(this.#call((h) => h.abortAction(c, p)));
  }

  /** Elements the agent holds matching { role?, name?, region?, limit? } (limit default limits.defaultFindLimit). @param {PageKey} key @param {import('./athena.js').FindQuery} [query] */
  find(key, query = {}) {
    const [c, p] = this.#key(key, 'find');
    if (query === null || typeof query !== 'object' || Array.isArray(query))
      throw new AthenaError('invalid_argument', `find: query must be an object {role?, name?, region?, limit?}, got ${describe(query)}`);
    const s = (/** @type {'role' | 'name' | 'region'} */ name) => {
      const v = query[name] ?? '';
      if (typeof v !== 'string') throw new AthenaError('invalid_argument', `find: query.${name} must be a string, got ${describe(v)}`);
      if (v.length > this.#limits.maxFindQueryChars) throw new AthenaError('input_too_large', `find: query.${name} is over ${this.#limits.maxFindQueryChars} characters`);
      return wellFormed(v);
    };
    const role = s('role'), name = s('name'), region = s('region');
    const limit = query.limit ?? this.#limits.defaultFindLimit;
    if (!Number.isInteger(limit) || limit < 1 || limit > this.#limits.maxFindLimit)
      throw new AthenaError('invalid_argument', `find: query.limit must be an integer from 1 to ${this.#limits.maxFindLimit}, got ${String(limit)}`);
    return JSON.parse(unwrap(this.#call((h) => h.find(c, p, role, name, region, limit))).json);
  }

  /**
   * find with paging, answered in the FactPack element grammar:
   * query { role?, name?, region?, frame?, after?, within?, limit? } -> { text, total, shown, next, version }
   * (next: the ref to pass as `after` for the following page, null when none). A region, role or
   * frame the page does not have, or an `after` that is not one of its refs, is an AthenaError
   * (no_such_region, invalid_argument) whose message names what exists.
   * @param {PageKey} key @param {import('./athena.js').FindTextQuery} [query]
   */
  findText(key, query = {}) {
    const [c, p] = this.#key(key, 'findText');
    if (query === null || typeof query !== 'object' || Array.isArray(query))
      throw new AthenaError('invalid_argument', `findText: query must be an object {role?, name?, region?, frame?, after?, within?, limit?}, got ${describe(query)}`);
    const s = (/** @type {'role' | 'name' | 'region' | 'frame' | 'after' | 'within'} */ name) => {
      const v = query[name] ?? '';
      if (typeof v !== 'string') throw new AthenaError('invalid_argument', `findText: query.${name} must be a string, got ${describe(v)}`);
      if (v.length > this.#limits.maxFindQueryChars) throw new AthenaError('input_too_large', `findText: query.${name} is over ${this.#limits.maxFindQueryChars} characters`);
      return wellFormed(v);
    };
    const role = s('role'), name = s('name'), region = s('region'), frame = s('frame'), after = s('after'), within = s('within');
    const limit = query.limit ?? this.#limits.defaultFindLimit;
    if (!Number.isInteger(limit) || limit < 1 || limit > this.#limits.maxFindLimit)
      throw new AthenaError('invalid_argument', `findText: query.limit must be an integer from 1 to ${this.#limits.maxFindLimit}, got ${String(limit)}`);
    return JSON.parse(unwrap(this.#call((h) => h.findText(c, p, role, name, region, frame, after, within, limit))).json);
  }

  /**
   * The core's role and name of a node of the page, as the agent knows it: with its ref when it
   * holds one, else as the latest capture compiled it (ref ''); null when the compiler made no
   * line of it. What the extension says about a node (what covers a target) comes from here, so
   * a role or name is computed in one place. @param {PageKey} key @param {number} backendNodeId
   * @param {string} frameId the frame of its document ('' when not known: any frame) @returns {{ref: string, role: string, name: string} | null}
   */
  describeNode(key, backendNodeId, frameId) {
    const [c, p] = this.#key(key, 'describeNode');
    if (!Number.isSafeInteger(backendNodeId)) throw new AthenaError('invalid_argument', `describeNode: backendNodeId must be an integer, got ${describe(backendNodeId)}`);
    frameId = this.#text(frameId, 'describeNode', 'frameId', 'invalid_argument');
    return JSON.parse(unwrap(this.#call((h) => h.describeNode(c, p, backendNodeId, frameId))).json);
  }

  /**
   * The tab that issued a ref (refs are e{n}, unique among this engine's tabs), or an AthenaError
   * (malformed_ref, unknown_ref). @param {string} ref @returns {PageKey}
   */
  owner(ref) {
    ref = this.#text(ref, 'owner', 'ref', 'malformed_ref');
    return JSON.parse(unwrap(this.#call((h) => h.owner(ref))).json);
  }

  /** The number the next new ref gets: a host that outlives this engine starts the next one past it (firstRef). */
  nextRef() {
    return this.#call((h) => h.nextRef());
  }

  /**
   * Moves the next ref's number forward to `next` (never back): a replay of one tab's calls
   * numbers refs as the engine that served several tabs did. @param {number} next
   */
  advanceRefs(next) {
    if (!Number.isSafeInteger(next) || next < 1) throw new AthenaError('invalid_argument', `advanceRefs: next must be a positive integer, got ${describe(next)}`);
    this.#call((h) => h.advanceRefs(next));
  }

  /** Sizes of the page's bounded state (limits.h). @param {PageKey} key */
  stats(key) {
    const [c, p] = this.#key(key, 'stats');
    return JSON.parse(unwrap(this.#call((h) => h.stats(c, p))).json);
  }

  /** Frees the engine's wasm memory; any later call is an AthenaError (wrong_call_order). Idempotent. */
  dispose() {
    if (!this.#handle) return;
    const h = this.#handle;
    this.#handle = null;
    try { h.delete(); } catch { /* already gone: nothing to free */ }
  }

  // A capture in a fresh heap block, for the very next raw call (which frees it): an object is
  // packed into the binary form; one it cannot express exactly goes as JSON, so the core names
  // its defect. Every other argument is checked before this.
  /** @param {unknown} value @param {string} method @returns {[number, number]} */
  #capture(value, method) {
    this.#checkCapture(value, method);
    if (typeof value === 'string') return this.#bytes(value, method, 'capture', 'malformed_capture');
    if (value instanceof Uint8Array) {
      if (!BINARY_MAGIC.every((b, i) => value[i] === b))
        throw new AthenaError('malformed_capture', `${method}: these ${value.length} bytes are not a capture in binary form (it starts with "ATHB": docs/capture-format.md); pass the capture object or its JSON text`);
      return this.#heap(value, method, 'capture');
    }
    // Packed straight into a heap block sized by the packer's bound. A bound over the input limit
    // goes the JSON way, whose size check words the error (or which fits, for a bound too loose).
    let ptr = 0;
    /** @type {Uint8Array | null} */
    let packed = null;
    try {
      packed = packCapture(value, (bytes) => {
        if (bytes > this.#limits.maxInputBytes) return null;
        ptr = this.#alloc(bytes, method);
        return this.#raw.HEAPU8.subarray(ptr, ptr + bytes);  // read after malloc: growth replaces the buffer
      });
    } finally {
      if (!packed && ptr) this.#raw._free(ptr);
    }
    if (packed) return [ptr, packed.length];
    let text;
    try {
      text = JSON.stringify(value);
    } catch (e) {
      const message = /** @type {{message?: unknown} | null | undefined} */ (e)?.message;
      throw new AthenaError('malformed_capture', `${method}: the capture object cannot be serialized (${message ? message : e}); pass it as capture() returned it`);
    }
    return this.#bytes(text, method, 'capture', 'malformed_capture');
  }

  /** @param {unknown} value @param {string} method */
  #checkCapture(value, method) {
    if (typeof value === 'string') return this.#check(value, method, 'capture', 'malformed_capture');
    if (value instanceof Uint8Array || (value !== null && typeof value === 'object' && !Array.isArray(value))) return;
    throw new AthenaError('malformed_capture', `${method}: capture must be a capture object (as capture() returns it), its JSON text or its binary form (Uint8Array), got ${describe(value)}`);
  }

  // A string (a capture's JSON text, an event) as UTF-8 in a fresh heap block: one TextEncoder
  // pass and one copy, instead of the glue's per-character loop.
  /** @param {unknown} value @param {string} method @param {string} what @param {string} code @returns {[number, number]} */
  #bytes(value, method, what, code) {
    this.#check(value, method, what, code);
    return this.#heap(encoder.encode(value), method, what);  // lone surrogates become U+FFFD, as in CDP
  }

  /** @param {Uint8Array} bytes @param {string} method @param {string} what @returns {[number, number]} */
  #heap(bytes, method, what) {
    if (bytes.length > this.#limits.maxInputBytes)
      throw new AthenaError('input_too_large', `${method}: ${what} is ${bytes.length} bytes, over limits::kMaxInputBytes (${this.#limits.maxInputBytes}); capture a smaller page or frame`);
    const ptr = this.#alloc(bytes.length, method);
    this.#raw.HEAPU8.set(bytes, ptr);  // HEAPU8 read after malloc: growth replaces the buffer
    return [ptr, bytes.length];
  }

  // A heap block for the next raw call's input (the binding frees it).
  /** @param {number} bytes @param {string} method @returns {number} */
  #alloc(bytes, method) {
    const raw = this.#raw;
    const ptr = this.#call(() => raw._malloc(bytes || 1));
    if (!ptr)
      throw new AthenaError('input_too_large', `${method}: no room for ${bytes} bytes in the wasm heap; close unused pages or capture a smaller frame`);
    return ptr;
  }

  /** A raw call on the live handle. @template T @param {(handle: RawEngine) => T} fn @returns {T} */
  #call(fn) {
    const handle = this.#handle;
    if (!handle) throw new AthenaError('wrong_call_order', 'this engine was disposed; create a new one with createEngine()');
    return call(this.#state, () => fn(handle));
  }

  /** @param {any} key checked here @param {string} method @returns {[number, number]} */
  #key(key, method) {
    if (key === null || typeof key !== 'object' || !isIndex(key.context) || !isIndex(key.page))
      throw new AthenaError('invalid_argument', `${method}: the page key must be {context, page} with non-negative integers, got ${safeShow(key)}`);
    return [key.context, key.page];
  }

  // Checks a string argument's type and size.
  /** @param {unknown} value @param {string} method @param {string} what @param {string} code @returns {asserts value is string} */
  #check(value, method, what, code) {
    if (typeof value !== 'string')
      throw new AthenaError(code, `${method}: ${what} must be a string${code === 'malformed_ref' ? ' like "e17"' : ' of JSON (JSON.stringify it first)'}, got ${describe(value)}`);
    // A UTF-16 length over the byte limit is over it in UTF-8 too: refuse before encoding.
    if (value.length > this.#limits.maxInputBytes)
      throw new AthenaError('input_too_large', `${method}: ${what} is ${value.length} characters, over limits::kMaxInputBytes (${this.#limits.maxInputBytes} bytes); capture a smaller page or frame`);
  }

  // A small string argument, checked, as the glue should encode it.
  /** @param {unknown} value @param {string} method @param {string} what @param {string} code @returns {string} */
  #text(value, method, what, code) {
    this.#check(value, method, what, code);
    // A lone surrogate has no UTF-8 form, and the glue's encoder would merge it with the next
    // character. Replace it with U+FFFD, as TextEncoder and CDP do.
    return wellFormed(value);
  }
}

// String.prototype.toWellFormed (Node 20+, Chrome 111+), also on Node 18: every lone surrogate
// (a high one not followed by a low one, a low one not preceded by a high one) becomes U+FFFD.
const SURROGATE = /[\uD800-\uDFFF]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
/** @param {string} s */
function wellFormed(s) {
  return SURROGATE.test(s) ? s.replace(LONE_SURROGATE, '\uFFFD') : s;
}

/** @param {unknown} v */
function safeShow(v) {
  try {
    const s = JSON.stringify(v);
    return s === undefined ? describe(v) : s.length > 80 ? s.slice(0, 77) + '...' : s;
  } catch {
    return describe(v);
  }
}

// {kind?, warnings?, forceFull?, collapseUnchanged?, inDocument?} -> JSON for the core ('' = defaults).
/** @param {any} info checked here @param {string} method @returns {string} */
function actionInfo(info, method) {
  if (info === undefined || info === null) return '';
  if (typeof info !== 'object' || Array.isArray(info))
    throw new AthenaError('invalid_argument', `${method}: info must be an object {kind?, warnings?, forceFull?, collapseUnchanged?, inDocument?}, got ${describe(info)}`);
  /** @type {{kind?: string, warnings?: string[], forceFull?: boolean, collapseUnchanged?: boolean, inDocument?: boolean}} */
  const out = {};
  if (info.kind !== undefined) {
    if (typeof info.kind !== 'string') throw new AthenaError('invalid_argument', `${method}: info.kind must be a string ("click", "type", ...)`);
    out.kind = wellFormed(info.kind);
  }
  if (info.warnings !== undefined) {
    if (!Array.isArray(info.warnings) || !info.warnings.every((/** @type {unknown} */ w) => typeof w === 'string'))
      throw new AthenaError('invalid_argument', `${method}: info.warnings must be an array of strings`);
    out.warnings = info.warnings.map(wellFormed);
  }
  if (info.forceFull !== undefined) {
    if (typeof info.forceFull !== 'boolean') throw new AthenaError('invalid_argument', `${method}: info.forceFull must be true or false`);
    out.forceFull = info.forceFull;
  }
  if (info.collapseUnchanged !== undefined) {
    if (typeof info.collapseUnchanged !== 'boolean') throw new AthenaError('invalid_argument', `${method}: info.collapseUnchanged must be true or false`);
    out.collapseUnchanged = info.collapseUnchanged;
  }
  if (info.inDocument !== undefined) {
    if (typeof info.inDocument !== 'boolean') throw new AthenaError('invalid_argument', `${method}: info.inDocument must be true or false`);
    out.inDocument = info.inDocument;
  }
  return JSON.stringify(out);
}

// Runs one raw call. Anything thrown here is not an error value from the core but a trap of the
// wasm instance (or a glue error): its memory can no longer be trusted, so every later call is refused.
/** @template T @param {State} state @param {() => T} fn @returns {T} */
function call(state, fn) {
  if (state.broken) throw new AthenaError('internal', `the wasm core stopped after an earlier failure (${state.broken}); reload it with loadAthena()`);
  try {
    return fn();
  } catch (e) {
    const message = /** @type {{message?: unknown} | null | undefined} */ (e)?.message;
    state.broken = String(message ? message : e).slice(0, 200);
    throw new AthenaError('internal', `the wasm core failed (${state.broken}); reload it with loadAthena() and report the input`);
  }
}

/** @param {RawReply} reply @returns {RawReply} */
function unwrap(reply) {
  if (!reply.ok) throw new AthenaError(reply.code || 'internal', reply.message || 'the core ran out of memory while reporting an error; reload it with loadAthena()');
  return reply;
}

// A FactPack as both renderings; `factpack` parses the JSON on first use only.
/** @param {RawReply} reply @param {number} inputBytes */
function pack(reply, inputBytes) {
  /** @type {import('./athena.js').FactPackJson | undefined} */
  let parsed;
  return {
    type: reply.type,
    version: reply.version,
    text: reply.text,
    json: reply.json,
    inputBytes,
    get factpack() {
      return (parsed ??= JSON.parse(reply.json));
    },
  };
}
