// The quoting routine of the core (core/src/render/lines.cpp quoted() and escaped()), for the
// lines the extension writes itself (read, tabs, dialog, error messages): page text can never
// close a value, open or close a tag, or start a line. Both follow one table,
// rules/quoting.json, whose `spaces` set both languages check code point by code point.
import { REF_TEXT } from './ref.js';

// Code points that become a space: C0 controls, DEL, NEL, LINE and PARAGRAPH SEPARATOR (the
// table's `spaces`, the core's escaped()).
const SPACE = /[\u0000-\u001f\u007f\u0085\u2028\u2029]/g;

/** A value in double quotes: '"', '\\' and '<' backslash-escaped, line breaks as spaces. @param {unknown} s */
export function quoteValue(s) {
  return `"${escapeText(s)}"`;
}

/**
 * The same escaping without the quotes (the core's escaped()), for page text between tags or
 * inside a message: it can never hold a '<' that opens or closes a tag, nor a line break.
 * @param {unknown} s
 */
export function escapeText(s) {
  return String(s).replace(/["\\<]/g, (c) => `\\${c}`).replace(SPACE, ' ');
}

// Code points a reader may take for a line break (the table's `line_breaks`): in a block they
// are one, '\n' (CR LF is one break).
const BREAK = /\r\n|[\n\r\u000b\u000c\u0085\u2028\u2029]/g;
// What starts a line of structure in agent text, after any blank or invisible characters (white
// space, format characters, combining marks, every default-ignorable code point: the Hangul
// fillers U+115F, U+1160, U+3164, U+FFA0, the grapheme joiner U+034F, Khmer's U+17B4/U+17B5;
// and the blank Braille pattern U+2800, which is none of these but shows nothing): an element
// line's ref (e5, extension/lib/ref.js) or a gap line's count (... 12 more). '<' is escaped
// everywhere. (A doctest's '... ' prompt is not a count: it stays as it is.)
const STRUCTURE = new RegExp(`^([\\s\\p{Cf}\\p{M}\\p{Default_Ignorable_Code_Point}\\u2800]*)(?=${REF_TEXT}|(?:\\.\\.\\.|…) \\d)`, 'gmu');

/**
 * A block of page text between tags (a read answer): its lines are kept, but '\\' and '<' are
 * escaped, so it can never close its block or open a tag; every line break of the table is a
 * plain newline, other controls become spaces; and a line that would start like a line of
 * structure (an element line's ref, a gap line's '... 12') starts with '\\' instead, so no page line
 * can pass for one the agent can act on.
 * @param {string} s
 */
export function escapeBlock(s) {
  return String(s)
    .replace(/[\\<]/g, (c) => `\\${c}`)
    .replace(BREAK, '\n')
    .replace(SPACE, (c) => (c === '\n' ? c : ' '))
    .replace(STRUCTURE, '$1\\');
}

/**
 * An error message as the agent reads it (`error code: message`), whatever built it: one line,
 * no '<' that is not escaped. Page text in messages is quoted where it is written (quoteValue);
 * this is the last guard for a path that forgot to, so no message can forge a tag or a line.
 * @param {unknown} s
 */
export function safeMessage(s) {
  return String(s)
    .replace(SPACE, ' ')
    // A '<' after an odd run of backslashes is escaped already; any other gets one.
    .replace(/(\\*)</g, (m, bs) => (bs.length % 2 ? m : `${bs}\\<`));
}
