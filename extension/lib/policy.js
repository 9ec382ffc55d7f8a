// What the user allows: which sites the agent may act on (allow-list / block-list of hosts),
// whether it may open new tabs, whether screenshots are allowed, which folders it may upload
// files from, on which sites it may run scripts of its own (evaluate: none unless the user lists them). Pure logic: the options page
// edits it, the service worker checks every target URL against it.
//
// A list entry names a site, so it is matched by host: case-insensitive, a trailing dot removed
// ("bank.test." is bank.test), its subdomains included (www.bank.test), under any scheme and port
// (http://bank.test:8080 is still bank.test). Comparing exact https origins let all of those
// through a block.

/** @typedef {{allow: string[], block: string[], allowNewTabs: boolean, allowScreenshots: boolean, uploadFolders: string[], evaluateSites: string[]}} Policy */

/** @type {Policy} */
export const DEFAULT_POLICY = Object.freeze({ allow: [], block: [], allowNewTabs: true, allowScreenshots: true, uploadFolders: [], evaluateSites: [] });

/** Hosts of the Chrome Web Store: never touched, whatever the lists say. */
const WEB_STORE_HOSTS = new Set(['chromewebstore.google.com', 'chrome.google.com']);

/**
 * A host as lists compare it: one spelling per address, so that no other spelling of a blocked
 * site gets through. The WHATWG URL parser does most of it (what Chrome itself navigates to):
 * IPv4 in decimal, octal, hex or short forms ("2130706433", "0177.1", "0x7f.0.0.1" are
 * 127.0.0.1), IPv6 compressed and lower-cased ("[0:0::0001]" is "[::1]"), case, IDNA. Added
 * here: trailing dots removed ("bank.test." is bank.test, "127.0.0.1." is 127.0.0.1), and an
 * IPv4-mapped IPv6 address is its IPv4 address ("[::ffff:127.0.0.1]", "[::ffff:7f00:1]" are
 * 127.0.0.1), since Chrome connects to the IPv4 host for it. A bare IPv6 address gets its
 * brackets. What the parser refuses is kept lower-cased (it names no host Chrome can reach).
 * @param {string} host
 */
export function siteHost(host) {
  const strip = (/** @type {string} */ h) => h.toLowerCase().replace(/\.+$/, '');
  let h = strip(String(host));
  if (h.includes(':') && !h.startsWith('[')) h = `[${h}]`;
  try { h = strip(new URL(`http://${h}/`).hostname); } catch { /* not a host: compared as given */ }
  // The parser writes a mapped address one way: [::ffff:7f00:1].
  const mapped = /^\[::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})\]$/.exec(h);
  if (mapped) {
    const hi = parseInt(mapped[1], 16);
    const lo = parseInt(mapped[2], 16);
    return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  }
  return h;
}

/**
 * Parses one list entry into the host it names ("bank.test"). Accepts a bare host or a URL of
 * one; its scheme and port do not narrow it (a site is blocked or allowed whole).
 * @param {string} entry
 * @returns {{host: string} | {error: string}}
 */
export function parseSiteEntry(entry) {
  const s = String(entry).trim();
  if (!s) return { error: 'empty entry' };
  // A bare IPv6 address ("::ffff:127.0.0.1") is a host too: bracketed as a URL needs it.
  const bare = /^[0-9a-f:.]+$/i.test(s) && (s.match(/:/g) ?? []).length >= 2 ? `[${s}]` : s;
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(bare) ? bare : `https://${bare}`;
  let u;
  try { u = new URL(withScheme); } catch { return { error: `"${s}" is not a valid site (expected e.g. example.com)` }; }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return { error: `"${s}": only http and https sites can be listed` };
  if (u.pathname !== '/' || u.search || u.hash || u.username || u.password)
    return { error: `"${s}" has more than a site (a host, e.g. example.com); remove the path` };
  const host = siteHost(u.hostname);
  if (!host) return { error: `"${s}" names no host` };
  return { host };
}

/**
 * Whether `host` is the listed site or one of its subdomains. @param {string} host
 * @param {string[]} list hosts from parseSiteEntry
 */
export function hostListed(host, list) {
  const h = siteHost(host);
  return list.some((site) => h === site || h.endsWith(`.${site}`));
}

/** An absolute path with no `.`, `..` or empty segment (what realpath gives). @param {string} path */
const isPlainAbsolute = (path) => path.startsWith('/') && !path.includes('\0') &&
  (path === '/' || !path.slice(1).split('/').some((seg) => seg === '' || seg === '.' || seg === '..'));

/**
 * Parses one upload folder: an absolute path without `.`, `..` or empty segments; a trailing
 * slash is dropped. Files are compared after the native host resolved them (symlinks followed),
 * so a folder reached through a link must be listed by its real path.
 * @param {string} entry
 * @returns {{folder: string} | {error: string}}
 */
export function parseFolderEntry(entry) {
  const s = String(entry).trim();
  if (!s) return { error: 'empty entry' };
  if (!s.startsWith('/')) return { error: `"${s}" is not an absolute folder (expected e.g. /home/me/Uploads)` };
  const folder = s.length > 1 ? s.replace(/\/+$/, '') : s;
  if (!isPlainAbsolute(folder))
    return { error: `"${s}": give the folder's plain path, without ".", ".." or "//"` };
  return { folder };
}

/**
 * May the agent upload this file? Only files inside a folder the user listed (none by default).
 * `path` is what the native host resolved (absolute, symlinks followed) when the file exists,
 * else the path as given; a path that is not in plain form is refused, never normalised here.
 * No answer tells whether a file exists or where a link leads: with no folder allowed every path
 * gets the same words, and a path outside the folders is not named.
 * @param {Policy} policy @param {string} path
 * @returns {{ok: true} | {ok: false, code: string, message: string}}
 */
export function checkUpload(policy, path) {
  if (policy.uploadFolders.length === 0)
    return { ok: false, code: 'upload_refused', message: 'upload: the user allows no folder for uploads (they can add one in the extension\'s options)' };
  const inside = typeof path === 'string' && isPlainAbsolute(path) && policy.uploadFolders.some((f) => f === '/' || path.startsWith(`${f}/`));
  if (!inside)
    return { ok: false, code: 'upload_refused', message: `upload: a file given is not inside a folder the user allows for uploads (${policy.uploadFolders.join(', ')}), or its path is not plain (no "." or ".."); they can add a folder in the extension's options` };
  return { ok: true };
}

/**
 * May the agent run a script of its own (evaluate) in a document of this origin? Only where the
 * user listed the site (the same matching as the lists: its subdomains, any scheme and port), and
 * never where the agent may not act at all (checkFrameUrl). A document with no site of its own (an
 * opaque origin: sandboxed, data:) is never one the user could have listed.
 * @param {Policy} policy @param {string} origin
 * @returns {{ok: true} | {ok: false, code: string, message: string}}
 */
export function checkEvaluate(policy, origin) {
  let host = '';
  try { host = /^https?:$/.test(new URL(origin).protocol) ? siteHost(new URL(origin).hostname) : ''; } catch { /* no site */ }
  if (!host) return { ok: false, code: 'evaluate_refused', message: 'evaluate: the document has no site of its own (a sandboxed frame, or not an http(s) page), so the user cannot have allowed scripts there' };
  const may = checkFrameUrl(policy, origin);
  if (!may.ok) return may;
  if (!hostListed(host, policy.evaluateSites))
    return { ok: false, code: 'evaluate_refused', message: `evaluate is off for ${host}: scripts of the agent run only on sites the user lists in the extension's options (Sites where the agent may run scripts); nothing was run` };
  return { ok: true };
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
      const p = parseSiteEntry(e);
      if ('error' in p) errors.push(`${name}: ${p.error}`);
      else if (!out.includes(p.host)) out.push(p.host);
    }
    return out;
  };
  /** @type {string[]} */
  const folders = [];
  const rawFolders = Array.isArray(r.uploadFolders) ? r.uploadFolders : typeof r.uploadFolders === 'string' ? r.uploadFolders.split('\n') : [];
  for (const e of rawFolders) {
    if (!String(e).trim()) continue;
    const p = parseFolderEntry(e);
    if ('error' in p) errors.push(`upload folders: ${p.error}`);
    else if (!folders.includes(p.folder)) folders.push(p.folder);
  }
  return {
    policy: {
      uploadFolders: folders,
      allow: list(r.allow, 'allow-list'),
      block: list(r.block, 'block-list'),
      evaluateSites: list(r.evaluateSites, 'sites for scripts'),
      allowNewTabs: r.allowNewTabs === undefined ? DEFAULT_POLICY.allowNewTabs : !!r.allowNewTabs,
      allowScreenshots: r.allowScreenshots === undefined ? DEFAULT_POLICY.allowScreenshots : !!r.allowScreenshots,
    },
    errors,
  };
}

/**
 * May the agent see and act in a frame at this URL? A frame whose document comes from its
 * embedder (about:blank, about:srcdoc, data:, javascript:) is judged with the page around it;
 * a blob: URL by the origin it names; an http(s) frame like a page (checkUrl); anything else
 * (another extension's frame, a browser page) is withheld.
 * @param {Policy} policy @param {string} url
 * @returns {{ok: true} | {ok: false, code: string, message: string}}
 */
export function checkFrameUrl(policy, url) {
  const s = String(url ?? '');
  if (s === '' || /^(about:|data:|javascript:)/i.test(s)) return { ok: true };
  if (/^blob:/i.test(s)) return checkUrl(policy, s.slice(5));
  return checkUrl(policy, s);
}

/**
 * May the agent act on a page at this URL? Browser pages (chrome://, other extensions, the Web
 * Store) are never touched; then the block-list wins over the allow-list; an empty allow-list
 * allows every http(s) site.
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
  const host = siteHost(u.hostname);
  if (WEB_STORE_HOSTS.has(host) && (host !== 'chrome.google.com' || u.pathname.startsWith('/webstore'))) {
    return { ok: false, code: 'forbidden_page', message: 'the Chrome Web Store is never touched by the agent' };
  }
  if (hostListed(host, policy.block)) {
    return { ok: false, code: 'blocked_origin', message: `${host} is on the user's block-list: the agent may not act there (the user can change this in the extension's options)` };
  }
  if (policy.allow.length > 0 && !hostListed(host, policy.allow)) {
    return { ok: false, code: 'blocked_origin', message: `${host} is not on the user's allow-list: the agent may not act there (the user can add it in the extension's options)` };
  }
  return { ok: true };
}
