// The ref grammar, e{element}, as the core parses it (core/src/engine/view.cpp parse_ref):
// decimal digits with no leading zero, at most MAX_DIGITS of them. The number is unique among
// every tab of the one engine (and across worker restarts: browser-engine.js starts each engine past the
// last), so a ref names no tab: the engine says which tab issued it (Engine.owner).
// rules/ref.json is the one table of it; tests/node/ref-rule.test.mjs checks these constants and
// every case there, as tests/unit/engine/ref_rule_test.cpp does for the core.

export const REF_FIELDS = Object.freeze(['e']);
export const MAX_DIGITS = 12;

/** One decimal field of the grammar (no leading zero, at most MAX_DIGITS digits), capturing it: tab names use it too. */
export const FIELD = `(0|[1-9]\\d{0,${MAX_DIGITS - 1}})`;
/** A ref's spelling, as a regular-expression source without anchors (captures the number). */
export const REF_SOURCE = REF_FIELDS.map((tag) => tag + FIELD).join('');
/** The same spelling with no capture groups, to embed in a larger expression. */
export const REF_TEXT = REF_SOURCE.replaceAll('(0|', '(?:0|');
const WHOLE = new RegExp(`^${REF_SOURCE}$`);

/** Is this exactly one ref? @param {unknown} s */
export const isRef = (s) => typeof s === 'string' && WHOLE.test(s);

/** The ref's element number, or null. @param {unknown} s */
export function parseRef(s) {
  const m = typeof s === 'string' ? WHOLE.exec(s) : null;
  return m ? { element: Number(m[1]) } : null;
}

// The frame word, f{index}, and a run of frames, f{from}..f{to} with from <= to (rules/words.json,
// as the core reads them in core/src/words.h frame_span): decimal, no leading zero, at most
// FRAME_MAX_DIGITS digits. tests/node/ref-rule.test.mjs runs the table's cases here.
export const FRAME_MAX_DIGITS = 9;
const FRAME_FIELD = `f(0|[1-9]\\d{0,${FRAME_MAX_DIGITS - 1}})`;
const FRAME_RUN = new RegExp(`^${FRAME_FIELD}(?:\\.\\.${FRAME_FIELD})?$`);

/** "f3" for frame index 3. @param {number} index */
export const frameWord = (index) => `f${index}`;

/** The frame indices a frame word or a run of them spans, or null. @param {unknown} s @returns {{from: number, to: number} | null} */
export function parseFrameRun(s) {
  const m = typeof s === 'string' ? FRAME_RUN.exec(s) : null;
  if (!m) return null;
  const from = Number(m[1]), to = m[2] === undefined ? from : Number(m[2]);
  return from <= to ? { from, to } : null;
}

/** Is this exactly one frame word (no run)? @param {unknown} s */
export const isFrameWord = (s) => typeof s === 'string' && !s.includes('..') && parseFrameRun(s) !== null;
