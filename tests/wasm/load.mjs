// Loads the built wasm core under Node. ATHENA_WASM_DIR overrides the build folder.
import { readFileSync } from 'node:fs';
import { pathToFileURL, fileURLToPath } from 'node:url';
import path from 'node:path';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const wasmDir = process.env.ATHENA_WASM_DIR ?? path.join(root, 'build/wasm-release/wasm');

export async function loadCore() {
  const { default: createAthenaCore } = await import(pathToFileURL(path.join(wasmDir, 'athena_core.mjs')).href);
  return createAthenaCore({ wasmBinary: readFileSync(path.join(wasmDir, 'athena_core.wasm')) });
}
