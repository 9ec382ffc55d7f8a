// The frames of one tab and their loads (TabSession's, extension/lib/tab-session.js): the top
// frame and whether it is loading, each frame's committed document, the child frames the load
// under way attached (and those past LIMITS.framesCapturedMax, whose requests are not waited for),
// the frames the last capture withheld or left out, and the waits for the next commit and for the
// top frame to stop loading. Owned by its TabSession, which routes Chrome's Page frame events here.
import { LIMITS } from './limits.js';
import { checkFrameUrl } from './policy.js';

export class TabFrames {
  mainFrameId = '';
  /** The top frame is loading. */
  loading = false;
  /** Each frame's committed document (frame id -> URL): a frame's first load from a navigation away. @type {Map<string, string>} */
  frameUrls = new Map();
  /** The child frames of the top document, by id, as Chrome attaches and detaches them. @type {Set<string>} */
  #frames = new Set();
  /**
   * Those the load under way attached: none before a navigation commits, whatever the document it
   * replaces held (stabilization stops a load that passes LIMITS.framesCapturedMax, and must not
   * stop the next page's for frames the last one had). @type {Set<string>}
   */
  loadFrames = new Set();
  /** Those attached past the first LIMITS.framesCapturedMax: their requests are not waited for (a capture leaves them out). @type {Set<string>} */
  #framesPast = new Set();
  /** backendNodeIds of frame owners whose content the policy withheld (last capture). @type {Set<number>} */
  withheldOwners = new Set();
  /** Ids of the frames the policy withheld (last capture). @type {Set<string>} */
  withheldFrames = new Set();
  /** Ids of the frames the last capture left out (past LIMITS.framesCapturedMax), and of frames inside them since. @type {Set<string>} */
  #leftOut = new Set();
  /** Waits for the next main-frame commit (nextCommit), given its URL. @type {Set<(url: string | null) => void>} */
  commitWaiters = new Set();
  /** Waits for the main frame to stop loading (stoppedLoading). @type {Set<(stopped: boolean) => void>} */
  stopWaiters = new Set();

  /** Whether a frame event of session `sid` is about the top frame. @param {any} params @param {string | undefined} sid */
  #top(params, sid) { return !sid && (!this.mainFrameId || params.frameId === this.mainFrameId); }

  /**
   * A Page frame event (or another: ignored). @param {string} method @param {any} params @param {string | undefined} sid
   * @returns {boolean} whether a new top document committed
   */
  onEvent(method, params, sid) {
    switch (method) {
      case 'Page.frameStartedLoading':
        if (this.#top(params, sid)) {
          this.loading = true;
          this.loadFrames.clear();
        }
        break;
      case 'Page.frameStoppedLoading':
        if (this.#top(params, sid)) {
          this.loading = false;
          for (const w of [...this.stopWaiters]) w(true);
          this.stopWaiters.clear();
        }
        break;
      case 'Page.frameNavigated':
        if (this.frameUrls.size < LIMITS.framesCapturedMax || this.frameUrls.has(String(params.frame.id))) this.frameUrls.set(String(params.frame.id), String(params.frame.url));
        if (!sid && !params.frame.parentId) {
          this.mainFrameId = params.frame.id;
          for (const w of [...this.commitWaiters]) w(String(params.frame.url));
          this.commitWaiters.clear();
          this.#frames.clear();
          this.loadFrames.clear();
          this.#framesPast.clear();
          return true;
        }
        break;
      case 'Page.frameAttached':
        if (sid) break;
        if (this.#frames.size >= LIMITS.framesCapturedMax) this.#framesPast.add(String(params.frameId));
        this.#frames.add(String(params.frameId));
        this.loadFrames.add(String(params.frameId));
        break;
      case 'Page.frameDetached':
        if (params.reason !== 'swap') this.frameUrls.delete(String(params.frameId));
        if (!sid && params.reason !== 'swap') for (const set of [this.#frames, this.loadFrames, this.#framesPast]) set.delete(String(params.frameId));
        break;
      default: break;
    }
    return false;
  }

  /**
   * A request of a frame the policy withholds (known from the last capture, or by the document it
   * loads or belongs to, before any capture has seen the frame): nothing of it is the agent's, so
   * stabilization never waits for it (a blocked iframe added the whole settle cap to every navigate).
   * @param {any} params Network.requestWillBeSent @param {import('./policy.js').Policy | undefined} policy
   */
  withholds(params, policy) {
    // A frame attached past the ones a capture keeps (capture.js capFrames) holds no answer either.
    if (this.withheldFrames.has(params.frameId) || this.#framesPast.has(params.frameId)) return true;
    const doc = typeof params.documentURL === 'string' ? params.documentURL : '';
    return !!policy && /^https?:/i.test(doc) && !checkFrameUrl(policy, doc).ok;
  }

  /**
   * A capture was taken: the frames the policy withheld from it and their owners, the frames it
   * left out, and its top frame. @param {any} cap
   * @param {{owners: Set<number>, frames: Set<string>}} withheld @param {Set<string>} leftOut
   */
  captured(cap, withheld, leftOut) {
    this.withheldOwners = withheld.owners;
    this.withheldFrames = withheld.frames;
    this.#leftOut = leftOut;
    const main = cap?.frameTree?.frame?.id;
    if (typeof main === 'string' && main) this.mainFrameId = main;
  }

  /**
   * Whether a CDP event is about a frame the last capture left out, or one inside it: the core is
   * not told (a frame it cannot place would make every later FactPack a full one, and no action
   * run). A frame attached inside a left-out one is left out from then on.
   * @param {string} method @param {any} params
   */
  aboutLeftOutFrame(method, params) {
    if (this.#leftOut.size === 0) return false;
    const id = String(method === 'Page.frameNavigated' ? params?.frame?.id : params?.frameId ?? params?.targetInfo?.targetId ?? params?.targetId);
    const parent = method === 'Page.frameNavigated' ? params?.frame?.parentId : params?.parentFrameId;
    if (typeof parent === 'string' && this.#leftOut.has(parent)) this.#leftOut.add(id);
    return this.#leftOut.has(id);
  }
}
