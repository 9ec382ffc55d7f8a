// What a tab the agent holds requested since its last navigation, for the network tool: kept from
// the Network events the tab's session receives anyway (TabSession enables Network when the agent
// first touches the tab, so nothing from before is ever recorded), bounded (LIMITS.netLogMax
// requests: the oldest go first, and the tool says how many), and emptied when the main frame
// starts loading a new document. Requests of frames the user's policy withholds never get here
// (TabSession drops their events first). Raw values are kept; redaction happens when the tool
// renders them (extension/lib/redact.js).
import { LIMITS } from './limits.js';

/**
 * @typedef {{n: number, requestId: string, method: string, url: string, type: string, start: number,
 *            status?: number, statusText?: string, mime?: string, bytes?: number, ms?: number, failed?: string,
 *            requestHeaders?: Record<string, string>, responseHeaders?: Record<string, string>, postData?: string, hasPostData?: boolean,
 *            done: boolean, sid?: string}} NetEntry
 */

export class NetLog {
  /** By CDP requestId, in the order they were sent. @type {Map<string, NetEntry>} */
  #entries = new Map();
  /** The next request's number (shown to the agent: network {id}). */
  #next = 1;
  /** Requests dropped past LIMITS.netLogMax since the navigation. */
  dropped = 0;
  /** The URL of the navigation they follow. */
  since = '';

  /** @returns {NetEntry[]} */
  list() { return [...this.#entries.values()]; }
  /** Whether a request of this CDP id is held. @param {string} requestId */
  has(requestId) { return this.#entries.has(requestId); }
  /** @param {number} n */
  byNumber(n) { return this.list().find((e) => e.n === n); }

  /**
   * A Network event of the tab (its page session, or an out-of-process frame's `sid`).
   * @param {string} method @param {any} params @param {string | undefined} sid @param {string | null} mainFrameId
   */
  onEvent(method, params, sid, mainFrameId) {
    const id = String(params.requestId);
    switch (method) {
      case 'Network.requestWillBeSent': {
        const r = params.request ?? {};
        if (params.type === 'Document' && !sid && (!mainFrameId || params.frameId === mainFrameId) && params.requestId === params.loaderId) {
          // A new document in the main frame: what the page requested before is the old page's.
          this.#entries.clear();
          this.dropped = 0;
          this.since = String(r.url ?? '');
        }
        const prev = this.#entries.get(id);
        if (prev && params.redirectResponse) {
          // A redirect continues under the same id: the hop that answered it stays as its own line.
          this.#entries.delete(id);
          this.#add({ ...prev, requestId: `${id}:${prev.n}`, status: params.redirectResponse.status, statusText: params.redirectResponse.statusText, done: true });
        }
        this.#add({ n: this.#next++, requestId: id, method: String(r.method ?? 'GET'), url: String(r.url ?? ''), type: String(params.type ?? 'Other'),
          start: Number(params.timestamp ?? 0), requestHeaders: r.headers, postData: r.postData, hasPostData: !!r.hasPostData, done: false, sid });
        break;
      }
      case 'Network.responseReceived': {
        const e = this.#entries.get(id);
        if (!e) break;
        const res = params.response ?? {};
        Object.assign(e, { status: res.status, statusText: res.statusText, mime: res.mimeType, responseHeaders: res.headers });
        break;
      }
      case 'Network.loadingFinished': case 'Network.loadingFailed': {
        const e = this.#entries.get(id);
        if (!e) break;
        e.done = true;
        e.ms = Math.round((Number(params.timestamp ?? e.start) - e.start) * 1000);
        if (method === 'Network.loadingFinished') e.bytes = Number(params.encodedDataLength ?? 0);
        else e.failed = String(params.canceled ? 'canceled' : params.blockedReason ?? params.errorText ?? 'failed');
        break;
      }
      default: break;
    }
  }

  /** @param {NetEntry} e */
  #add(e) {
    this.#entries.set(e.requestId, e);
    while (this.#entries.size > LIMITS.netLogMax) {
      const first = this.#entries.keys().next().value;
      if (first === undefined) break;
      this.#entries.delete(first);
      this.dropped++;
    }
  }
}
