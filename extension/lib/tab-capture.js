// One capture of a tab as the agent may see it (extension/lib/capture.js takes it over CDP): the
// user's policy holds on where the page is now (a page it does not allow is never compiled, its
// blocked frames are emptied), frames past the bound are left out and named, a navigation racing
// the capture is retried, and a page too large to capture is said as such with what still works.
// The action flow, read and screenshot capture through it (Agent.captureTab).
import { capFrames, capture, withholdFrames } from './capture.js';
import { LIMITS } from './limits.js';
import { checkFrameUrl, checkUrl } from './policy.js';
import { blockedPageError } from './page-gate.js';
import { quoteValue } from './quote.js';
import { tabName } from './tabs.js';
import { ToolError } from './tab-state.js';
import { msg, sleep } from './tools/define.js';

/** @typedef {import('./tab-session.js').TabSession} TabSession @typedef {import('./policy.js').Policy} Policy */

/** What still works on a page too large to capture. */
export const TOO_LARGE_WAY_ON = 'use read with a region or a ref (it reads text in the page, without a capture), or navigate to a smaller view of it (a page of results, a filtered list)';

/** The host of a URL, for messages (the URL itself when it has none). @param {string} url */
const hostOf = (url) => { try { return new URL(url).host || url.slice(0, 100); } catch { return url.slice(0, 100); } };

/**
 * One capture of tab t, retried when a navigation races it (actions, read and screenshot use it),
 * under the user's policy.
 * @param {TabSession} t @param {Policy} policy @param {AbortSignal} [signal] the caller gave up on it (a dialog opened): stop
 */
export async function captureTab(t, policy, signal) {
  let last;
  for (let i = 0; i < LIMITS.captureAttempts; i++) {
    if (signal?.aborted) throw new ToolError('capture_abandoned', 'the capture was given up (a JavaScript dialog opened)');
    try {
      // A navigation the interception stopped (tab-session.js #paused): the tab is where it
      // was, and the agent is told, by the policy's reason, never by the page.
      const stopped = t.takeStopped();
      if (stopped.length) {
        const why = checkUrl(policy, stopped[0]);
        throw new ToolError('blocked_origin', `the page went for a site the agent may not go to (${why.ok ? 'a frame the agent may not see' : why.message.replace(/: the agent may not act there.*$/, '')})${stopped.length > 1 ? `, ${stopped.length} times` : ''}: the request was stopped before it left the browser, and the tab stays on the page it was on (take a snapshot to see it)`);
      }
      const r = await capture((m, p, sid) => t.send(m, p, sid, signal), { oopifs: [...t.oopifs.values()] });
      // A frame session that no longer answers is let go: its warning is said once.
      for (const sid of r.lost) t.frameGone(sid);
      // The policy holds on where the page is now, whatever led there (a redirect, a click, a
      // script): a page it does not allow is never compiled, and its blocked frames are emptied.
      const w = withholdFrames(r.capture, (url) => checkFrameUrl(policy, url).ok);
      if (w.page !== null) {
        const why = checkUrl(policy, w.page);
        // Named by the policy's reason (its host), never by the page's URL, title or text.
        throw blockedPageError(t, why.ok ? { ok: false, code: 'blocked_origin', message: 'a frame the agent may not see' } : why);
      }
      const urls = frameUrls(r.capture);
      const cut = capFrames(r.capture, LIMITS.framesCapturedMax);
      t.captured(r.capture, { owners: w.owners, frames: w.frames }, cut.leftOut);
      const withheld = [...new Set(w.withheld.map(hostOf))].map((h) => `a frame from ${h} was left out: the user's policy does not let the agent see or act there`);
      // The first frame left out that the policy lets the agent see is named (a quoted value):
      // navigating there shows what it holds.
      const first = [...cut.leftOut].map((id) => urls.get(id)).find((u) => typeof u === 'string' && /^https?:/i.test(u) && checkFrameUrl(policy, u).ok);
      const many = cut.leftOut.size === 0 ? [] : [`this page has ${cut.frames} frames: this FactPack shows what the first ${LIMITS.framesCapturedMax} hold, and leaves the other ${cut.leftOut.size} out (their iframes are empty here, nothing in them can be acted on)${first ? `; to see one, navigate to its own address, as the first left out: ${quoteValue(first)}` : ''}`];
      // The object itself goes to the core (packed into its binary form): no JSON.stringify.
      return { capture: r.capture, warnings: [...r.warnings, ...withheld, ...many], timings: r.timings };
    } catch (e) {
      // Retried: a navigation racing the capture. A busy page is not asked again (page_busy).
      // When what the page did not answer is our own snapshot, the page is too large to capture,
      // not busy with a script of its own: said as such, with what still works.
      if (e instanceof ToolError && e.code === 'page_busy' && /DOMSnapshot\.captureSnapshot/.test(e.message)) {
        throw new ToolError('page_too_large', `tab ${tabName(t.key)}: the page is too large to capture: its snapshot (DOMSnapshot.captureSnapshot) did not come back within ${LIMITS.cdpCommandMs} ms, and it is this capture, not a script of the page, that keeps the page's main thread busy; wait for it to answer, then ${TOO_LARGE_WAY_ON}`);
      }
      if (e instanceof ToolError) throw e;
      last = e;
      await sleep(LIMITS.captureRetryMs);
    }
  }
  throw new ToolError('capture_failed', `could not capture tab ${tabName(t.key)} after ${LIMITS.captureAttempts} attempts: ${msg(last)}`);
}

/**
 * The URL of every frame of a capture's frame trees, by frame id (taken before capFrames prunes them).
 * @param {import('./capture.js').Capture} cap
 */
function frameUrls(cap) {
  /** @type {Map<string, string>} */
  const urls = new Map();
  /** @param {import('./capture.js').FrameTree | undefined} tree */
  const walk = (tree) => {
    const f = tree?.frame;
    if (typeof f?.id === 'string' && typeof f.url === 'string') urls.set(f.id, f.url);
    for (const c of tree?.childFrames ?? []) walk(c);
  };
  walk(cap.frameTree);
  for (const o of cap.oopifs ?? []) walk(o.frameTree);
  return urls;
}
