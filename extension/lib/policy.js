// What the user allows: which sites the agent may act on (allow-list / block-list compared as
// parsed origins), whether it may open new tabs, whether screenshots are allowed. Pure logic:
// the options page edits it, the service worker checks every target URL against it.

/** @typedef {{allow: string[], block: string[], allowNewTabs: boolean, allowScreenshots: boolean}} Policy */

/** @type {Policy} */
export const DEFAULT_POLICY = Object.freeze({ allow: [], block: [], allowNewTabs: true, allowScreenshots: true });

/** Hosts of the Chrome Web Store: never touched, whatever the lists say. */
const WEB_STORE_HOSTS = new Set(['chromewebstore.google.com', 'chrome.google.com']);

/**
 * Parses one list entry into an origin ("https://example.com:8443"). Accepts a bare host
 * ("example.com" means https://example.com).
 * @param {string} entry
 * @returns {{origin: string} | {error: string}}
 */
export function parseOrigin(entry) {
  const s = String(entry).trim();
  if (!s) return { error: 'empty entry' };
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(s) ? s : `https://${s}`;
  let u;
  try { u = new URL(withScheme); } catch { return { error: `"${s}" is not a valid origin (expected e.g. https://example.com)` }; }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return { error: `"${s}": only http and https origins can be listed` };
  if (u.pathname !== '/' || u.search || u.hash || u.username || u.password)
    return { error: `"${s}" has more than an origin (scheme://host[:port]); remove the path` };
  return { origin: u.origin };
}

/**
 * Normalises a policy from storage or the options page; invalid list entries are reported.
 * @param {any} raw
 * @returns {{policy: Policy, errors: string[]}}
 */
export function normalizePolicy(raw) {
  const r = raw && typeof raw === 'object' ? raw : {};
  /** @type {string[]} */
  const errors = [];
  /** @param {unknown} v @param {string} name */
  const list = (v, name) => {
    const arr = Array.isArray(v) ? v : typeof v === 'string' ? v.split(/\s+/) : [];
    /** @type {string[]} */
    const out = [];
    for (const e of arr) {
      if (!String(e).trim()) continue;
      const p = parseOrigin(e);
      if ('error' in p) errors.push(`${name}: ${p.error}`);
      else if (!out.includes(p.origin)) out.push(p.origin);
    }
    return out;
  };
  return {
    policy: {
      allow: list(r.allow, 'allow-list'),
      block: list(r.block, 'block-list'),
      allowNewTabs: r.allowNewTabs === undefined ? DEFAULT_POLICY.allowNewTabs : !!r.allowNewTabs,
      allowScreenshots: r.allowScreenshots === undefined ? DEFAULT_POLICY.allowScreenshots : !!r.allowScreenshots,
    },
    errors,
  };
}

/**
 * May the agent act on a page at this URL? Browser pages (chrome://, other extensions, the Web
 * Store) are never touched; then the block-list wins over the allow-list; an empty allow-list
 * allows every http(s) origin.
 * @param {Policy} policy
 * @param {string} url
 * @returns {{ok: true} | {ok: false, code: string, message: string}}  ok false: code and message say why
 */
export function checkUrl(policy, url) {
  let u;
  try { u = new URL(url); } catch {
    return { ok: false, code: 'invalid_url', message: `"${String(url).slice(0, 200)}" is not a valid URL: give an absolute http(s) URL` };
  }
  if (u.protocol === 'about:' && u.href === 'about:blank') return { ok: true };
  if (u.protocol !== 'http:' && u.protocol !== 'https:') {
    return { ok: false, code: 'forbidden_page', message: `${u.protocol}// pages (browser settings, extensions, files) are never touched by the agent` };
  }
  if (WEB_STORE_HOSTS.has(u.hostname) && (u.hostname !== 'chrome.google.com' || u.pathname.startsWith('/webstore'))) {
    return { ok: false, code: 'forbidden_page', message: 'the Chrome Web Store is never touched by the agent' };
  }
  if (policy.block.includes(u.origin)) {
    return { ok: false, code: 'blocked_origin', message: `${u.origin} is on the user's block-list: the agent may not act there (the user can change this in the extension's options)` };
  }
  if (policy.allow.length > 0 && !policy.allow.includes(u.origin)) {
    return { ok: false, code: 'blocked_origin', message: `${u.origin} is not on the user's allow-list: the agent may not act there (the user can add it in the extension's options)` };
  }
  return { ok: true };
}
