// The quoting routine of the core (core/src/render/lines.cpp quoted()), for the few lines the
// extension writes itself (read, tabs, dialog): page text can never close a value, open or close
// a tag, or start a line. Both follow one table, tests/support/quoting.json.

// Code points that become a space: C0 controls, DEL, NEL, LINE and PARAGRAPH SEPARATOR.
const SPACE = /[\u0000-\u001f\u007f\u0085\u2028\u2029]/g;

/** A value in double quotes: '"', '\\' and '<' backslash-escaped, line breaks as spaces. @param {unknown} s */
export function quoteValue(s) {
  return `"${String(s).replace(/["\\<]/g, (c) => `\\${c}`).replace(SPACE, ' ')}"`;
}

/**
 * A block of page text between tags (a read answer): its lines are kept, but '\\' and '<' are
 * escaped, so it can never close its block or open a tag; other controls become spaces and
 * Unicode line separators plain newlines.
 * @param {string} s
 */
export function escapeBlock(s) {
  return String(s)
    .replace(/[\\<]/g, (c) => `\\${c}`)
    .replace(/\r\n?|[\u0085\u2028\u2029]/g, '\n')
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, ' ');
}
