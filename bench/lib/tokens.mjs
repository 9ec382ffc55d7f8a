// Measured, not estimated: tokens as OpenAI's o200k_base tokenizer counts them (npm js-tiktoken),
// with characters next to them. Used by tests, benchmarks and the demo.
import { getEncoding } from 'js-tiktoken';

let encoder = null;

/** Tokens of a text (o200k_base). */
export function countTokens(text) {
  if (typeof text !== 'string') throw new TypeError(`countTokens: expected a string, got ${typeof text}`);
  encoder ??= getEncoding('o200k_base');
  return encoder.encode(text).length;
}

/** {tokens, chars} of a text. */
export function measure(text) {
  return { tokens: countTokens(text), chars: text.length };
}
