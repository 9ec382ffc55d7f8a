// The latest capture of one tab and the page watcher's marks (TabSession's,
// extension/lib/tab-session.js): which mark the capture is known to show, when the current action
// began and when the last stabilization ended, and from these whether an action may begin on that
// capture without capturing again. Owned by its TabSession.

/**
 * The origin a frame's document runs in (null when unknown or opaque): CDP's securityOrigin,
 * which an about:blank or srcdoc frame inherits from its parent, else its URL's.
 * @param {any} frame
 */
function originOf(frame) {
  const o = frame?.securityOrigin;
  if (typeof o === 'string' && o) return o === 'null' || o === '://' ? null : o;
  try { const u = new URL(String(frame?.url ?? '')); return u.origin === 'null' ? null : u.origin; } catch { return null; }
}

/**
 * Whether the page's watcher reaches every frame of an in-process frame tree: it walks only
 * same-origin frames (extension/lib/page-scripts.js, `all`), so every frame must have the top
 * frame's origin.
 * @param {any} tree a capture's frameTree
 */
export function watchedTree(tree) {
  const top = originOf(tree?.frame);
  /** @param {any} node @returns {boolean} */
  const same = (node) => (node.childFrames ?? []).every((/** @type {any} */ c) => originOf(c.frame) === top && same(c));
  return top !== null && same(tree);
}

export class CaptureMarks {
  /** The latest capture (frame trees locate out-of-process frames). @type {any} */
  lastCapture = null;
  /** The page's change mark the latest capture is known to show. @type {string | null} */
  captureMark = null;
  /** The page watcher's marks (extension/lib/page-scripts.js): when the current action began, when the last stabilization ended. @type {string | null} */
  watchMark = null;
  /** @type {string | null} */
  settledMark = null;

  /** A capture was taken: the latest from now on, showing the page as of no known mark. @param {any} cap */
  captured(cap) {
    this.lastCapture = cap;
    this.captureMark = null;
  }

  /**
   * The capture an action may begin on without capturing again (docs/design.md, "Capture"): the
   * page's watcher saw no change since it was taken (same document, no mutation, input, scroll or
   * resize), and every frame is one the watcher sees into: no out-of-process frame, and no
   * in-process frame of another origin (a same-site cross-origin iframe shares the page's process
   * but not its watcher, whose marks cover only the documents it can reach).
   * @param {number} frameSessions how many out-of-process frames the tab has
   * @returns {any} the capture, or null
   */
  reusable(frameSessions) {
    const cap = this.lastCapture;
    if (!cap || this.watchMark === null || this.watchMark !== this.captureMark || frameSessions > 0) return null;
    if (cap.frameTree && !watchedTree(cap.frameTree)) return null;
    return cap;
  }
}
