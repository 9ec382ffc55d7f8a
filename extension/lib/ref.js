// The ref grammar, c{context}p{page}f{frame}e{element}, as the core parses it
// (core/src/engine/view.cpp parse_ref): decimal fields with no leading zero, at most MAX_DIGITS
// digits each. rules/ref.json is the one table of it; tests/node/ref-rule.test.mjs checks these
// constants and every case there, as tests/unit/engine/ref_rule_test.cpp does for the core.

export const REF_FIELDS = Object.freeze(['c', 'p', 'f', 'e']);
export const MAX_DIGITS = 12;

const FIELD = `(0|[1-9]\\d{0,${MAX_DIGITS - 1}})`;
/** A ref's spelling, as a regular-expression source without anchors (captures each field). */
export const REF_SOURCE = REF_FIELDS.map((tag) => tag + FIELD).join('');
/** The same spelling with no capture groups, to embed in a larger expression. */
export const REF_TEXT = REF_SOURCE.replaceAll('(0|', '(?:0|');
/** A tab's name, the context and page fields of a ref ("c0p3"), capturing each. */
export const TAB_SOURCE = REF_FIELDS.slice(0, 2).map((tag) => tag + FIELD).join('');
const WHOLE = new RegExp(`^${REF_SOURCE}$`);

/** Is this exactly one ref? @param {unknown} s */
export const isRef = (s) => typeof s === 'string' && WHOLE.test(s);

/** The ref's four fields (context, page, frame, element), or null. @param {unknown} s */
export function parseRef(s) {
  const m = typeof s === 'string' ? WHOLE.exec(s) : null;
  return m ? { context: Number(m[1]), page: Number(m[2]), frame: Number(m[3]), element: Number(m[4]) } : null;
}

/** The ref's frame, "f2", or '' when it is not a ref. @param {unknown} s */
export function refFrame(s) {
  const r = parseRef(s);
  return r ? `f${r.frame}` : '';
}
