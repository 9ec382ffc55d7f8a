// Loads the built wasm core under Node. ATHENA_WASM_DIR overrides the build folder
// (default build/wasm-release/wasm, what ./athena build stages into extension/ and web/).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL, fileURLToPath } from 'node:url';
import path from 'node:path';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const wasmDir = process.env.ATHENA_WASM_DIR ?? path.join(root, 'build/wasm-release/wasm');

// The debug flavour (build/wasm-debug) is also built for ENVIRONMENT=node, because its
// ASSERTIONS refuse any environment not named. Emscripten 3.1.6's ES6 glue then still expects
// CommonJS globals under Node; give them (unused by the release module, built for web,worker).
globalThis.require ??= createRequire(import.meta.url);
globalThis.__dirname ??= wasmDir;

/** The raw Emscripten module (Embind surface), bytes passed: the glue's fetch() of a file URL fails in Node. */
export async function loadCore() {
  const { default: createAthenaCore } = await import(pathToFileURL(path.join(wasmDir, 'athena_core.mjs')).href);
  return createAthenaCore({ wasmBinary: readFileSync(path.join(wasmDir, 'athena_core.wasm')) });
}

/** The wrapper module (athena.mjs as built next to the core): { loadAthena, AthenaError, ... }. */
export async function importWrapper() {
  return import(pathToFileURL(path.join(wasmDir, 'athena.mjs')).href);
}

/** The loaded wrapper API (an Athena) plus its module's exports. */
export async function loadAthena() {
  const mod = await importWrapper();
  const athena = await mod.loadAthena({ wasmBinary: readFileSync(path.join(wasmDir, 'athena_core.wasm')) });
  return { athena, AthenaError: mod.AthenaError, mod };
}

/** The test-only module (fidelity driver, boundary guard probes): wasm/test_bindings.cpp. */
export async function loadTestCore() {
  const { default: create } = await import(pathToFileURL(path.join(wasmDir, 'athena_core_test.mjs')).href);
  return create({ wasmBinary: readFileSync(path.join(wasmDir, 'athena_core_test.wasm')) });
}
