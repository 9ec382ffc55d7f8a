// Traces of live sessions: every call the extension makes into the core for one agent tab
// (openPage, snapshot, beginAction, onEvent, finishAction, abortAction, resolveNow), with its input and
// the FactPack it answered, so the web playground can replay the session on the same wasm core
// and show what the agent saw. Bounded (limits.js); secret field values are scrubbed from the
// captures at export (the core redacts them anyway, so the replay is unchanged).
//
// Captures are kept as the objects the core was given (serializing each one for the trace would
// cost what the object boundary saves), charged by the heap they hold, and written out as JSON
// text only when a trace is exported.
import { isSecretField } from './secrets.js';
import { LIMITS } from './limits.js';
import { tabName } from './tabs.js';

/** @typedef {{context: number, page: number}} PageKey */
/** @typedef {{call: string, capture?: string|object, version?: number|null, event?: string, ref?: string, info?: object, out?: {type: string, version: number, text: string}, error?: string, refsFrom?: number}} Entry */
/** @typedef {{entries: Entry[], bytes: number, truncated: string, started: number, closed: boolean, held: WeakSet<object>}} Log */

const keyName = tabName;

export class TraceLog {
  /** @type {Map<string, Log>} */
  pages = new Map();

  /** @param {PageKey} key */
  #log(key) { return this.pages.get(keyName(key)); }

  /** @param {PageKey} key @param {Entry} e */
  #add(key, e) {
    const log = this.#log(key);
    if (!log || log.truncated) return;
    // An object given to two calls (beginAction and finishAction of a dialog) is held once.
    const capture = e.capture === undefined || (typeof e.capture === 'object' && log.held.has(e.capture)) ? 0 : heldBytes(e.capture);
    const size = capture + (e.event?.length ?? 0) + (e.out?.text.length ?? 0) + 64;
    if (log.entries.length >= LIMITS.traceMaxEntries || log.bytes + size > LIMITS.traceMaxBytes) {
      log.truncated = `recording stopped after ${log.entries.length} calls (limits.js traceMaxEntries ${LIMITS.traceMaxEntries}, traceMaxBytes ${LIMITS.traceMaxBytes})`;
      return;
    }
    log.bytes += size;
    if (e.capture !== null && typeof e.capture === 'object') log.held.add(e.capture);
    log.entries.push(e);
  }

  /**
   * The engine, recording every call per page. Errors are recorded and thrown on unchanged.
   * @template T @param {T & Record<string, any>} engine @returns {T}
   */
  wrap(engine) {
    const self = this;
    const out = (/** @type {{type: string, version: number, text: string}} */ r) => ({ type: r.type, version: r.version, text: r.text });
    /** @type {(key: PageKey, entry: Entry, fn: () => any, done?: (e: Entry, r: any) => Entry) => any} */
    const rec = (key, entry, fn, done = (e) => e) => {
      // Where the engine's ref numbers stood: one tab's replay numbers its refs the same way.
      if (typeof engine.nextRef === 'function') entry = { ...entry, refsFrom: engine.nextRef() };
      try {
        const r = fn();
        self.#add(key, done(entry, r) ?? entry);
        return r;
      } catch (err) {
        self.#add(key, { ...entry, error: String(/** @type {any} */ (err)?.code ?? err) });
        throw err;
      }
    };
    return new Proxy(engine, {
      get(target, prop) {
        if (typeof prop === 'symbol') return Reflect.get(target, prop);
        const v = target[prop];
        if (typeof v !== 'function') return v;
        switch (prop) {
          case 'openPage': return (/** @type {PageKey} */ key) => {
            const r = v.call(target, key);
            const log = self.pages.get(keyName(key));
            // The engine keeps an open page's state (openPage again is a no-op): so does the trace.
            if (log && !log.closed) {
              self.#add(key, { call: 'openPage' });
              return r;
            }
            // A new page, or the same tab again after closePage: a new trace.
            self.pages.delete(keyName(key));
            self.pages.set(keyName(key), { entries: [{ call: 'openPage' }], bytes: 0, truncated: '', started: Date.now(), closed: false, held: new WeakSet() });
            while (self.pages.size > LIMITS.traceMaxPages) self.pages.delete(/** @type {string} */ (self.pages.keys().next().value));
            return r;
          };
          case 'closePage': return (/** @type {PageKey} */ key) => {
            const r = v.call(target, key);
            const log = self.pages.get(keyName(key));
            if (log) log.closed = true;
            return r;
          };
          case 'snapshot': return (/** @type {PageKey} */ key, /** @type {string | object} */ capture, /** @type {object | undefined} */ info) => rec(key, { call: 'snapshot', capture, info }, () => v.call(target, key, capture, info), (e, r) => ({ ...e, out: out(r) }));
          case 'finishAction': return (/** @type {PageKey} */ key, /** @type {string | object} */ capture, /** @type {object | undefined} */ info) => rec(key, { call: 'finishAction', capture, info }, () => v.call(target, key, capture, info), (e, r) => ({ ...e, out: out(r) }));
          case 'beginAction': return (/** @type {PageKey} */ key, /** @type {string | object} */ capture, /** @type {number | undefined} */ version) => rec(key, { call: 'beginAction', capture, version: version ?? null }, () => v.call(target, key, capture, version));
          case 'onEvent': return (/** @type {PageKey} */ key, /** @type {string} */ event) => rec(key, { call: 'onEvent', event }, () => v.call(target, key, event));
          case 'abortAction': return (/** @type {PageKey} */ key) => rec(key, { call: 'abortAction' }, () => v.call(target, key));
          // Its capture moves the core's live state (refs rebind): a replay must feed it too.
          case 'resolveNow': return (/** @type {PageKey} */ key, /** @type {any} */ capture, /** @type {string} */ ref) => rec(key, { call: 'resolveNow', capture, ref }, () => v.call(target, key, capture, ref));
          default: return v.bind(target);
        }
      },
    });
  }

  /** Keys with a trace, newest last. */
  keys() { return [...this.pages.keys()]; }

  /**
   * The trace of one page as the playground reads it (web/README.md "Traces").
   * @param {PageKey | string} key
   */
  export(key) {
    const name = typeof key === 'string' ? key : keyName(key);
    const log = this.pages.get(name);
    if (!log) throw new Error(`no trace for ${name}: the agent has not used that tab since the extension started (known: ${this.keys().join(', ') || 'none'})`);
    return {
      format: 'athena-trace',
      v: 1,
      name: `live ${name}`,
      key: { context: Number(name.slice(1, name.indexOf('p'))), page: Number(name.slice(name.indexOf('p') + 1)) },
      description: `recorded by the extension on ${new Date(log.started).toISOString()}`,
      truncated: log.truncated || undefined,
      entries: log.entries.map((e) => (e.capture ? { ...e, capture: scrubSecrets(e.capture) } : e)),
    };
  }
}

/**
 * Bytes a recorded capture holds: the length of JSON text; for a capture object, the estimate of
 * its heap from limits.js (traceBytesPer*), which needs no serialization.
 * @param {string|object} capture
 */
export function heldBytes(capture) {
  if (typeof capture === 'string') return capture.length;
  const c = /** @type {any} */ (capture);
  let bytes = LIMITS.traceBytesPerCapture;
  for (const snap of [c?.snapshot, ...(Array.isArray(c?.oopifs) ? c.oopifs.map((/** @type {any} */ o) => o?.snapshot) : [])]) {
    const strings = Array.isArray(snap?.strings) ? snap.strings : [];
    for (const s of strings) bytes += LIMITS.traceBytesPerString + (typeof s === 'string' ? s.length * LIMITS.traceBytesPerChar : 0);
    for (const d of Array.isArray(snap?.documents) ? snap.documents : [])
      bytes += LIMITS.traceBytesPerNode * (Array.isArray(d?.nodes?.parentIndex) ? d.nodes.parentIndex.length : 0);
  }
  return bytes;
}

/**
 * Secret fields (extension/lib/secrets.js: the core's rule) emptied of their values in a capture's
 * DOMSnapshot: the live value (inputValue, a textarea's textValue), the `value` attribute and a
 * textarea's own text (its default value); the capture as JSON text. A capture object is copied
 * first: the live one is never changed.
 * @param {string|object} capture
 */
export function scrubSecrets(capture) {
  let cap;
  try {
    cap = JSON.parse(typeof capture === 'string' ? capture : JSON.stringify(capture));
  } catch (e) {
    if (typeof capture === 'string') return capture;  // not JSON: the core refused it as it stands
    // An object JSON cannot write (a cycle, a BigInt): the core refused it too; say so in its place.
    return JSON.stringify({ unserializable: `the capture object could not be written as JSON: ${String(/** @type {any} */ (e)?.message ?? e)}` });
  }
  /** @param {any} snapshot a CDP DOMSnapshot.captureSnapshot result, as parsed JSON */
  const scrub = (snapshot) => {
    const strings = snapshot?.strings;
    if (!Array.isArray(strings)) return;
    let redacted = -1;
    /** The string at index i becomes '[redacted]', everywhere it is used (the table is shared: the same text elsewhere in the page is redacted too, which can only hide more). @param {unknown} i */
    const hide = (i) => {
      // An empty value hides nothing (and its string is every empty attribute's).
      if (!Number.isInteger(i) || /** @type {number} */ (i) < 0 || /** @type {number} */ (i) >= strings.length || strings[/** @type {number} */ (i)] === '') return;
      if (redacted < 0) { redacted = strings.length; strings.push('[redacted]'); }
      strings[/** @type {number} */ (i)] = '[redacted]';
    };
    for (const doc of snapshot.documents ?? []) {
      const n = doc.nodes;
      const names = Array.isArray(n?.nodeName) ? n.nodeName : [];
      const attributes = Array.isArray(n?.attributes) ? n.attributes : [];
      /** @type {Set<number>} */
      const secret = new Set();
      const count = Math.max(names.length, attributes.length);
      for (let node = 0; node < count; node++) {
        const attrs = Array.isArray(attributes[node]) ? attributes[node] : [];
        /** @type {Map<string, string>} */
        const byName = new Map();
        for (let a = 0; a + 1 < attrs.length; a += 2) byName.set(String(strings[attrs[a]] ?? '').toLowerCase(), String(strings[attrs[a + 1]] ?? ''));
        // Without a node name, read it as an input (hides more).
        if (!isSecretField(String(strings[names[node]] ?? 'INPUT'), (name) => byName.get(name))) continue;
        secret.add(node);
        for (let a = 0; a + 1 < attrs.length; a += 2) if (String(strings[attrs[a]] ?? '').toLowerCase() === 'value') hide(attrs[a + 1]);
      }
      if (!secret.size) continue;
      for (const key of ['inputValue', 'textValue']) {
        const rare = n[key];
        if (!Array.isArray(rare?.index)) continue;
        rare.index.forEach((/** @type {number} */ node, /** @type {number} */ k) => {
          if (!secret.has(node)) return;
          if (strings[rare.value[k]] === '') return;
          hide(rare.value[k]);
          if (redacted >= 0 && rare.value[k] >= 0) rare.value[k] = redacted;
        });
      }
      // A textarea's default value is its own text: the text nodes under a secret field.
      const parents = Array.isArray(n.parentIndex) ? n.parentIndex : [];
      const values = Array.isArray(n.nodeValue) ? n.nodeValue : [];
      parents.forEach((/** @type {number} */ p, /** @type {number} */ node) => { if (secret.has(p)) hide(values[node]); });
    }
  };
  scrub(cap.snapshot);
  for (const o of cap.oopifs ?? []) scrub(o.snapshot);
  return JSON.stringify(cap);
}
