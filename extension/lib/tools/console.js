// console: what the page logged since its last navigation, as the Console panel of DevTools shows
// it (level, what said it, the text, where in the source), filterable by level and text and paged
// within a bound. Only the tab's own log (extension/lib/console-log.js: from when the agent first
// touched the tab, documents the policy withholds left out), and never a credential: text and
// URLs pass through extension/lib/redact.js, as the network tool's do. Everything the page
// controls (its messages, its script URLs) is a quoted value: it cannot change the answer's structure.
import { LIMITS } from '../limits.js';
import { quoteValue } from '../quote.js';
import { redactText, redactUrl } from '../redact.js';
import { ToolError } from '../tab-state.js';
import { arg, defineTool, oneOf } from './define.js';

/** @typedef {import('../console-log.js').ConsoleEntry} ConsoleEntry */

/** Levels from the most severe: a level shows itself and everything above it (DevTools' default is info). */
const ORDER = ['error', 'warning', 'info', 'debug'];

/** Where a message came from: its script or resource, and the line and column in it. @param {ConsoleEntry} e */
function where(e) {
  if (!e.url) return '';
  const url = redactUrl(e.url);
  const shown = url.length > LIMITS.netUrlMaxChars ? `${url.slice(0, LIMITS.netUrlMaxChars)}…` : url;
  return ` at ${quoteValue(shown)}${e.line ? `:${e.line}${e.col ? `:${e.col}` : ''}` : ''}`;
}

/** A message's text with its credentials out: URLs in it by their query's names, then token shapes. @param {string} text */
const clean = (text) => redactText(text.replace(/https?:\/\/[^\s"'<>]+/g, (u) => redactUrl(u)));

/** One line. @param {ConsoleEntry} e */
function line(e) {
  const text = clean(e.text);
  const cut = text.length > LIMITS.consoleTextMaxChars ? `${quoteValue(text.slice(0, LIMITS.consoleTextMaxChars))} (${text.length - LIMITS.consoleTextMaxChars} more characters)` : quoteValue(text);
  return `#${e.n} ${e.level} ${e.source.replace(/[^a-z-]/g, '').slice(0, 20) || 'other'} ${cut}${where(e)}${e.times > 1 ? ` x${e.times}` : ''}`;
}

export const consoleMessages = defineTool({
  name: 'console',
  title: 'Console messages',
  // It reads what the tab already logged; the page is not touched.
  hints: { readOnly: true, openWorld: false },
  description: 'Console messages and uncaught errors since the last navigation (secrets redacted).',
  args: { level: oneOf(ORDER), filter: arg('string', 'text part'), offset: arg('integer') },
  group: 'debug',
  dialog: 'ignores',
  async handler(t, args) {
    const log = t.consoleLog;
    const offset = args.offset ?? 0;
    if (!Number.isInteger(offset) || offset < 0) throw new ToolError('bad_arguments', 'console: offset is a whole number of messages to skip');
    const level = args.level ?? 'info';
    const upTo = ORDER.indexOf(level);
    if (upTo < 0) throw new ToolError('bad_arguments', `console: level is one of ${ORDER.join(', ')} (each shows itself and the levels above it)`);
    const filter = typeof args.filter === 'string' ? args.filter.toLowerCase() : '';
    const matches = (/** @type {ConsoleEntry} */ e) => !filter || clean(e.text).toLowerCase().includes(filter) || redactUrl(e.url).toLowerCase().includes(filter);
    const all = log.list().filter((e) => ORDER.indexOf(e.level) <= upTo && matches(e));
    const page = all.slice(offset, offset + LIMITS.consoleListMax);
    const more = all.length - offset - page.length;
    const notes = [];
    if (more > 0) notes.push(`… ${more} more: console {offset: ${offset + page.length}}`);
    if (log.dropped) notes.push(`(${log.dropped} older messages of this page were not kept)`);
    const hidden = args.level === undefined ? log.list().filter((e) => e.level === 'debug' && matches(e)).length : 0;
    if (hidden) notes.push(`(${hidden} debug messages not shown: console {level: "debug"})`);
    const since = log.since ? ` since=${quoteValue(redactUrl(log.since))}` : '';
    return { ok: true, text: `<console tab="${t.name}"${since} count="${all.length}">\n${[...page.map(line), ...notes].join('\n')}${page.length || notes.length ? '\n' : ''}</console>` };
  },
});
