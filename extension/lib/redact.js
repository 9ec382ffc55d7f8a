// What the network tool must never hand the agent: credentials. The page's own requests carry
// them (an Authorization header, cookies, an API key in the query, a token in a JSON body), and
// the agent's context is not the place for them any more than a password field's value is
// (extension/lib/secrets.js, rules/secret-fields.json). One rule for names, used for headers,
// query parameters, form fields and JSON keys alike; JWTs and bearer tokens are taken out of any
// text whatever names them.

export const REDACTED = '[redacted]';

/** Header names that are credentials whatever their value. */
const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-api-key', 'x-auth-token', 'x-csrf-token', 'x-xsrf-token']);
/** A name (query parameter, form field, JSON key, header) that says its value is a secret. */
const SECRET_NAME = /^(code|sid|sig|key|auth|otp|session|jwt)$|token|secret|passw|pwd|api[-_]?key|apikey|auth[-_]?key|credential|signature|session[-_]?id|private[-_]?key|access[-_]?key/i;
/** Tokens recognisable by their shape: a JWT, a bearer credential. */
const TOKEN_SHAPES = [/\beyJ[\w-]{4,}\.[\w-]{4,}\.[\w-]{4,}/g, /\b(Bearer|Basic)\s+[\w.~+/=-]{6,}/gi];

/** The distinct names of a query or form. @param {URLSearchParams} p */
function keysOf(p) {
  /** @type {Set<string>} */
  const keys = new Set();
  p.forEach((_, k) => keys.add(k));
  return [...keys];
}

/** Whether a name says its value is a secret. @param {string} name */
export const secretName = (name) => SECRET_NAME.test(name);

/** Text with token shapes taken out. @param {string} text */
export function redactText(text) {
  let out = text;
  for (const re of TOKEN_SHAPES) out = out.replace(re, REDACTED);
  return out;
}

/** A URL with the values of secret query parameters (and any user:password) redacted. @param {string} url */
export function redactUrl(url) {
  /** @type {URL} */ let u;
  try { u = new URL(url); } catch { return redactText(url); }
  if (u.password) u.password = 'redacted';
  if (u.username) u.username = 'redacted';
  for (const k of keysOf(u.searchParams)) if (secretName(k)) u.searchParams.set(k, REDACTED);
  return redactText(u.href.replace(/%5Bredacted%5D/g, REDACTED));
}

/** Headers with credentials redacted, as [name, value] pairs. @param {Record<string, string> | undefined} headers */
export function redactHeaders(headers) {
  return Object.entries(headers ?? {}).map(([k, v]) => [k, SECRET_HEADERS.has(k.toLowerCase()) || secretName(k) ? REDACTED : redactText(String(v))]);
}

/**
 * A request or response body with secrets redacted: JSON by key (at any depth), form-encoded by
 * field, anything else by token shape.
 * @param {string} body @param {string} [mime]
 */
export function redactBody(body, mime = '') {
  const trimmed = body.trimStart();
  if (/json/i.test(mime) || trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      /** @param {any} v @returns {any} */
      const walk = (v) => {
        if (Array.isArray(v)) return v.map(walk);
        if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, secretName(k) && (typeof x !== 'object' || x === null) ? REDACTED : walk(x)]));
        return typeof v === 'string' ? redactText(v) : v;
      };
      return JSON.stringify(walk(JSON.parse(body)));
    } catch { /* not JSON after all */ }
  }
  if (/x-www-form-urlencoded/i.test(mime)) {
    const p = new URLSearchParams(body);
    for (const k of keysOf(p)) if (secretName(k)) p.set(k, REDACTED);
    return p.toString().replace(/%5Bredacted%5D/g, REDACTED);
  }
  return redactText(body);
}
