// Types of the Emscripten glue athena_core.mjs (generated from wasm/bindings.cpp), as far as
// wasm/athena.mjs uses it: only for the typecheck of the wrapper (tsconfig.web.json). Callers
// never see these; they use athena.d.ts.

/** bindings.cpp `Reply` (value_object): an error as a value, or the answer. */
export interface RawReply {
  ok: boolean;
  code: string;
  message: string;
  type: string;
  version: number;
  text: string;
  json: string;
  extra: string;
}

/** bindings.cpp `EngineBinding`: (context, page) first; captures and events as (heap pointer, length). */
export interface RawEngine {
  openPage(c: number, p: number): RawReply;
  closePage(c: number, p: number): RawReply;
  onEvent(c: number, p: number, ptr: number, len: number): RawReply;
  snapshot(c: number, p: number, ptr: number, len: number, infoJson: string): RawReply;
  beginAction(c: number, p: number, ptr: number, len: number, agentVersion: number): RawReply;
  resolve(c: number, p: number, ref: string): RawReply;
  describeNode(c: number, p: number, backendNodeId: number, frameId: string): RawReply;
  resolveNow(c: number, p: number, ptr: number, len: number, ref: string): RawReply;
  finishAction(c: number, p: number, ptr: number, len: number, infoJson: string): RawReply;
  abortAction(c: number, p: number): RawReply;
  find(c: number, p: number, role: string, name: string, region: string, limit: number): RawReply;
  findText(c: number, p: number, role: string, name: string, region: string, frame: string, after: string, within: string, limit: number): RawReply;
  stats(c: number, p: number): RawReply;
  owner(ref: string): RawReply;
  nextRef(): number;
  advanceRefs(next: number): void;
  /** Embind: frees the C++ object. */
  delete(): void;
}

export interface RawModule {
  version(): string;
  limits(): string;
  errorCodes(): string;
  Engine: {
    new (maxChangeRatio: number, dedupRegions: boolean, tokenBudget: number, firstRef: number): RawEngine;
    validateConfig(maxChangeRatio: number): RawReply;
  };
  HEAPU8: Uint8Array;
  _malloc(bytes: number): number;
  _free(ptr: number): void;
}

export default function createAthenaCore(moduleOptions?: object): Promise<RawModule>;
