// The one function js-tiktoken needs from npm base64-js (a CommonJS package), as an ES module.
export function toByteArray(b64) {
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}
export default { toByteArray };
