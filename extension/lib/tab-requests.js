// The requests of one tab (TabSession's, extension/lib/tab-session.js): those in flight since the
// current action began (stabilization waits for the action's own), the documents iframes load among
// them, and the document requests the policy's interception stopped before they left the browser.
// Owned by its TabSession, which routes Chrome's network events here.
import { LIMITS } from './limits.js';
import { checkFrameUrl, checkUrl } from './policy.js';

/** @typedef {import('./tab-frames.js').TabFrames} TabFrames */

export class TabRequests {
  /** Requests under way, by id: when each started. @type {Map<string, number>} */
  inflight = new Map();
  /** Of those, the documents an iframe loads, by request id: the frame each is for. @type {Map<string, string>} */
  #frameDocuments = new Map();
  /** When the current action began (requests started since are the action's). */
  watchSince = 0;
  /** Addresses whose requests the policy stopped before they left the browser, since the last take. @type {string[]} */
  #stopped = [];

  /** A request started (Network.requestWillBeSent). @param {any} params @param {number} now @param {string} mainFrameId */
  started(params, now, mainFrameId) {
    this.inflight.set(String(params.requestId), now);
    if (params.type === 'Document' && params.frameId && params.frameId !== mainFrameId) this.#frameDocuments.set(String(params.requestId), String(params.frameId));
  }

  /** A request finished or failed. @param {any} params */
  ended(params) {
    this.inflight.delete(String(params.requestId));
    this.#frameDocuments.delete(String(params.requestId));
  }

  /**
   * A cross-site frame's renderer attached: the rest of its document request is told to the
   * frame's own session, which runs before its Network.enable, so its end is never heard; what
   * that document loads next is heard in its session.
   * @param {string} frame
   */
  frameRendered(frame) {
    for (const [id, f] of [...this.#frameDocuments]) {
      if (f !== frame) continue;
      this.#frameDocuments.delete(id);
      this.inflight.delete(id);
    }
  }

  /** An action begins: requests from now on are its own. @param {number} at */
  watched(at) {
    this.watchSince = at;
    this.loadStopped();
  }

  /** Page.stopLoading cancelled every load of the page: none begun before is waited for. */
  loadStopped() {
    this.inflight.clear();
    this.#frameDocuments.clear();
  }

  /**
   * Whether a document request paused by the interception (Fetch.requestPaused) is stopped: when
   * the tab would go to a site the policy refuses (checkUrl: every spelling of it, a redirect's
   * next hop included, as Chrome pauses each hop), or a frame that shows an allowed document would
   * go to a site the policy withholds. A blocked frame an allowed page embeds loads as it would for
   * the user (the capture withholds it). A stopped request's address is kept for the next answer.
   * @param {any} params @param {string | undefined} sid @param {import('./policy.js').Policy | undefined} policy @param {TabFrames} frames
   */
  stops(params, sid, policy, frames) {
    const url = String(params?.request?.url ?? '');
    const frame = String(params?.frameId ?? '');
    let stop = false;
    if (policy && params?.resourceType === 'Document') {
      if (!sid && (!frames.mainFrameId || frame === frames.mainFrameId)) stop = !checkUrl(policy, url).ok;
      else {
        const was = frames.frameUrls.get(frame);
        stop = !checkFrameUrl(policy, url).ok && was !== undefined && /^https?:/i.test(was) && checkFrameUrl(policy, was).ok;
      }
    }
    if (stop && this.#stopped.length < LIMITS.stoppedRequestsKept) this.#stopped.push(url);
    return stop;
  }

  /** Whether a request was stopped that no answer has named yet. */
  get stoppedPending() { return this.#stopped.length > 0; }

  /** The addresses stopped since the last call (and forgets them). @returns {string[]} */
  takeStopped() {
    const s = this.#stopped;
    this.#stopped = [];
    return s;
  }
}
