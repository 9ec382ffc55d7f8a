// network: what the page requested since its last navigation, as the Network panel of DevTools
// shows it (method, status, type, size, time, URL), filterable and paged within a bound; with an
// id, that one request's headers and bodies. Only the tab's own log (extension/lib/net-log.js:
// from when the agent first touched the tab, frames the policy withholds left out), and never a
// credential: headers, URLs and bodies pass through extension/lib/redact.js. Everything the page
// controls (URLs, header values, bodies) is a quoted value: it cannot change the answer's structure.
import { LIMITS } from '../limits.js';
import { quoteValue } from '../quote.js';
import { redactBody, redactHeaders, redactUrl } from '../redact.js';
import { ToolError } from '../tab-state.js';
import { arg, defineTool, msg } from './define.js';

/** @typedef {import('../net-log.js').NetEntry} NetEntry @typedef {import('./define.js').ToolContext} ToolContext @typedef {import('../tab-session.js').TabSession} TabSession */

/** A byte count as DevTools says it. @param {number | undefined} b */
const size = (b) => (b === undefined ? '' : b < 1024 ? `${b}B` : b < 1024 * 1024 ? `${(b / 1024).toFixed(1)}kB` : `${(b / 1024 / 1024).toFixed(1)}MB`);
/** A header name as HTTP allows it (anything else is not shown). */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/;

/** Whether a request failed: no answer, or an HTTP error. @param {NetEntry} e */
const failed = (e) => !!e.failed || (e.status ?? 0) >= 400;

/** One list line. @param {NetEntry} e */
function line(e) {
  const url = redactUrl(e.url);
  const shown = url.length > LIMITS.netUrlMaxChars ? `${url.slice(0, LIMITS.netUrlMaxChars)}…` : url;
  const status = e.failed ? `failed=${quoteValue(e.failed)}` : e.status !== undefined ? String(e.status) : 'pending';
  return [`#${e.n}`, e.method.replace(/[^A-Z]/g, '').slice(0, 10) || 'GET', status, e.type.toLowerCase().replace(/[^a-z]/g, ''), size(e.bytes), e.ms !== undefined ? `${e.ms}ms` : '', quoteValue(shown)].filter(Boolean).join(' ');
}

/** A body, redacted and bounded, as a quoted value. @param {string} body @param {string | undefined} mime */
function bodyText(body, mime) {
  const r = redactBody(body, mime);
  return r.length > LIMITS.netBodyMaxChars ? `${quoteValue(r.slice(0, LIMITS.netBodyMaxChars))} (${r.length - LIMITS.netBodyMaxChars} more characters)` : quoteValue(r);
}

/** One request in full. @param {ToolContext} ctx @param {TabSession} t @param {NetEntry} e */
async function details(ctx, t, e) {
  const out = [`url ${quoteValue(redactUrl(e.url))}`];
  for (const [k, v] of redactHeaders(e.requestHeaders)) if (TOKEN.test(k)) out.push(`request header ${k}: ${quoteValue(v)}`);
  let post = e.postData;
  if (post === undefined && e.hasPostData) post = await ctx.send(t, 'Network.getRequestPostData', { requestId: e.requestId }, e.sid).then((r) => r.postData, () => undefined);
  if (post !== undefined) out.push(`request body ${bodyText(String(post), e.requestHeaders?.['content-type'] ?? e.requestHeaders?.['Content-Type'])}`);
  else if (e.hasPostData) out.push('request body: no longer held by the browser');
  for (const [k, v] of redactHeaders(e.responseHeaders)) if (TOKEN.test(k)) out.push(`response header ${k}: ${quoteValue(v)}`);
  if (!e.done) out.push('response body: not finished loading');
  else if (e.failed) out.push('response body: none (the request failed)');
  else if ((e.bytes ?? 0) > LIMITS.netBodyFetchMaxBytes) out.push(`response body: ${size(e.bytes)}, over the ${size(LIMITS.netBodyFetchMaxBytes)} shown; not fetched`);
  else {
    try {
      const r = await ctx.send(t, 'Network.getResponseBody', { requestId: e.requestId }, e.sid);
      out.push(r.base64Encoded ? `response body: binary (${e.mime ?? 'unknown type'}, ${size(e.bytes)})` : `response body ${bodyText(String(r.body ?? ''), e.mime)}`);
    } catch (err) {
      if (err instanceof ToolError) throw err;
      out.push(`response body: no longer held by the browser (${msg(err).slice(0, 80)})`);
    }
  }
  return `<request id="${e.n}">\n${line(e)}\n${out.join('\n')}\n</request>`;
}

export const network = defineTool({
  name: 'network',
  title: 'Network requests',
  // It reads what the tab already requested; it sends nothing.
  hints: { readOnly: true, openWorld: true },
  description: 'Requests since the last navigation (secrets redacted); id: one in full.',
  args: { id: arg('integer'), failed: arg('boolean', 'only errors'), filter: arg('string', 'URL part'), offset: arg('integer') },
  group: 'debug',
  dialog: 'ignores',
  async handler(t, args, ctx) {
    const log = t.netLog;
    if (args.id !== undefined) {
      const e = log.byNumber(args.id);
      if (!e) throw new ToolError('unknown_request', `network: no request #${args.id} since the last navigation of this tab (${log.list().length ? `#${log.list()[0].n} to #${log.list().at(-1)?.n}` : 'none recorded'}): list them with network`);
      return { ok: true, text: await details(ctx, t, e) };
    }
    const offset = args.offset ?? 0;
    if (!Number.isInteger(offset) || offset < 0) throw new ToolError('bad_arguments', 'network: offset is a whole number of requests to skip');
    const filter = typeof args.filter === 'string' ? args.filter.toLowerCase() : '';
    const all = log.list().filter((e) => (!args.failed || failed(e)) && (!filter || redactUrl(e.url).toLowerCase().includes(filter)));
    const page = all.slice(offset, offset + LIMITS.netListMax);
    const more = all.length - offset - page.length;
    const notes = [];
    if (more > 0) notes.push(`… ${more} more: network {offset: ${offset + page.length}}`);
    if (log.dropped) notes.push(`(${log.dropped} older requests of this page were not kept)`);
    const since = log.since ? ` since=${quoteValue(redactUrl(log.since))}` : '';
    return { ok: true, text: `<network tab="${t.name}"${since} count="${all.length}">\n${[...page.map(line), ...notes].join('\n')}${page.length || notes.length ? '\n' : ''}</network>` };
  },
});
