// Types of wasm/athena.mjs, the wrapper over the wasm core. Checked in; tests/wasm/dts.test.mjs
// fails when the wrapper's exports or methods and this file drift apart.

/** Stable error codes (core/include/athena/error.h, error_code_name). */
export type ErrorCode =
  | 'malformed_json'
  | 'malformed_capture'
  | 'input_too_large'
  | 'malformed_event'
  | 'wrong_call_order'
  | 'unknown_page'
  | 'malformed_ref'
  | 'context_mismatch'
  | 'page_mismatch'
  | 'unknown_ref'
  | 'ref_removed'
  | 'document_replaced'
  | 'identity_changed'
  | 'invalid_argument'
  | 'no_such_region'
  | 'internal';

/** The only error the wrapper throws: a core error value, or a refused argument. */
export declare class AthenaError extends Error {
  constructor(code: ErrorCode, message: string);
  readonly name: 'AthenaError';
  readonly code: ErrorCode;
}

/**
 * A capture (docs/capture-format.md): the object extension/lib/capture.js returns (packed into the
 * binary form on the way in), its JSON text, or its binary form's bytes. All give the same FactPack.
 */
export type CaptureInput = Record<string, unknown> | string | Uint8Array;

/**
 * The binary form of a capture object, or null when the object is not of the shape the binary
 * form expresses (then send its JSON text: the core names the defect). Engine methods call it.
 * `alloc(bytes)` may supply the buffer (at least `bytes` long, byteOffset a multiple of 8; null to
 * give up): the engine packs straight into a block of the wasm heap.
 */
export declare function packCapture(capture: unknown, alloc?: (bytes: number) => Uint8Array | null): Uint8Array | null;

/** Options for the Emscripten factory. */
export interface ModuleOptions {
  /** The .wasm bytes (required under Node: the glue cannot fetch a file: URL). */
  wasmBinary?: ArrayBuffer | Uint8Array;
  /** Where to fetch athena_core.wasm from (default: next to athena_core.mjs). */
  locateFile?: (path: string, scriptDirectory: string) => string;
}

/** Loads and instantiates the wasm core. */
export declare function loadAthena(moduleOptions?: ModuleOptions): Promise<Athena>;

/** Bounds from core/include/athena/limits.h. */
export interface Limits {
  readonly maxInputBytes: number;
  readonly defaultMaxChangeRatio: number;
  readonly maxPages: number;
  readonly defaultFindLimit: number;
  readonly maxFindLimit: number;
  /** Characters of a find's role, name or region string (longer: input_too_large). */
  readonly maxFindQueryChars: number;
  readonly defaultTokenBudget: number;
  readonly maxTokenBudget: number;
  /** The most EngineConfig.firstRef may be. */
  readonly maxFirstRef: number;
  /** Bytes of agent text counted as one token when a budget is kept (estimate, rounded up). */
  readonly bytesPerToken: number;
}

/** Any other key is refused (invalid_argument). No version history is configured or kept: see Freshness. */
export interface EngineConfig {
  /** The one reliability rule: a delta changing more than this share is sent as a full snapshot. (0, 1]. */
  maxChangeRatio?: number;
  /** A region identical to the previous baseline's, or to what the agent held on a page the tab comes back to, renders as one unchanged line (docs/design.md, "Trimming and dedup across baselines"). Default true. */
  dedupRegions?: boolean;
  /** Estimated tokens a baseline may take before its largest regions are trimmed, 1..limits.maxTokenBudget (default limits.defaultTokenBudget). */
  tokenBudget?: number;
  /** The first ref's number, 1..limits.maxFirstRef (default 1): past every ref a previous engine handed out (a restarted worker). */
  firstRef?: number;
}

export declare class Athena {
  private constructor();
  /** Core version, "major.minor.patch". */
  readonly version: string;
  readonly limits: Limits;
  /** Every ErrorCode the core can return. */
  readonly errorCodes: readonly ErrorCode[];
  /** Bytes of wasm memory (grows on demand, never shrinks): diagnostics and leak checks. */
  heapBytes(): number;
  createEngine(config?: EngineConfig): Engine;
}

/** A tab the agent controls: the c{context}p{page} of its refs. */
export interface PageKey {
  context: number;
  page: number;
}

export interface ActionInfo {
  /** "click", "type", "navigate", ... */
  kind?: string;
  /** e.g. from bounded stabilization; shown in the FactPack. */
  warnings?: string[];
  /** The agent asked for a full snapshot. */
  forceFull?: boolean;
  /** snapshot(): collapse regions the agent holds unchanged (default true; false shows every region). */
  collapseUnchanged?: boolean;
  /** snapshot(): a step within the document (back, forward); in the document the agent holds, a delta. */
  inDocument?: boolean;
}

export type PackType = 'full' | 'delta' | 'no_change' | 'overlay_opened' | 'overlay_closed';

/** The FactPack as render_json writes it (core/include/athena/render.h). */
export type FactPackJson = { readonly type: PackType; readonly version: number } & Record<string, unknown>;

/** One FactPack, rendered both ways by the core. */
export interface FactPackResult {
  readonly type: PackType;
  readonly version: number;
  /** Agent text (render_text). */
  readonly text: string;
  /** JSON for programs (render_json), byte-identical to the native core's. */
  readonly json: string;
  /** `json`, parsed on first access. */
  readonly factpack: FactPackJson;
  /** Bytes of the capture as it crossed into the core (binary form, or JSON as UTF-8). */
  readonly inputBytes: number;
}

export type Freshness = 'current' | 'stale_with_history' | 'stale_no_history';

export interface PreCheck {
  freshness: Freshness;
  currentVersion: number;
  /** stale_with_history: the delta from the agent's version; stale_no_history: the full snapshot to return instead of acting. */
  pack: FactPackResult | null;
  /** Bytes of the capture as it crossed into the core. */
  inputBytes: number;
}

export type Tri = 'false' | 'true' | 'mixed';

/** Only what is set is present (the FactPack JSON's shape). */
export interface ElementState {
  disabled?: true;
  focused?: true;
  required?: true;
  invalid?: true;
  selected?: true;
  readonly?: true;
  value?: string;
  value_redacted?: true;
  checked?: Tri;
  expanded?: Tri;
  pressed?: Tri;
  /** aria-sort of a column or row header ("none" is no sort). */
  sort?: 'ascending' | 'descending' | 'other';
}

export type Category = 'interactive' | 'heading' | 'alert' | 'status' | 'validation' | 'text';
export type Region = 'page' | 'header' | 'nav' | 'main' | 'aside' | 'footer' | 'dialog' | 'search' | 'form' | 'region';

/** One element, in the shape of the FactPack JSON (core/src/render/json.cpp): snake_case, and
 * the optional fields only when set. */
export interface Element {
  ref: string;
  role: string;
  name: string;
  category: Category;
  region: Region;
  description?: string;
  href?: string;
  level?: number;
  region_label?: string;
  /** Depth index in the overlay stack; absent on the base page. */
  overlay?: number;
  in_viewport?: true;
  state?: ElementState;
}

/** A ref resolved against the latest capture: what is needed to act on the live node. */
export interface Target {
  ref: string;
  backendNodeId: number;
  frameId: string;
  loaderId: string;
  role: string;
  name: string;
  /** Main-frame viewport CSS px. */
  bbox: { x: number; y: number; width: number; height: number };
  disabled: boolean;
  element: Element;
}

export interface FindQuery {
  /** Exact role. */
  role?: string;
  /** Case-insensitive substring of the accessible name. */
  name?: string;
  /** Region name. */
  region?: string;
  /** 1..limits.maxFindLimit, default limits.defaultFindLimit. */
  limit?: number;
}

export interface FindTextQuery {
  /** Exact role ("link", "text"); one the page does not have is an invalid_argument error. */
  role?: string;
  /** Case-insensitive substring of the name. */
  name?: string;
  /** Region name ("main") or label ("Primary"); one the page does not have is a no_such_region error. */
  region?: string;
  /** Frame of the refs ("f2"). */
  frame?: string;
  /** Cursor: a ref of this page; results start after it in document order (pass the previous `next`). */
  after?: string;
  /** A ref: only the lines under it in the outline (what "(N more …)" at the end of its line holds). */
  within?: string;
  /** 1..limits.maxFindLimit, default limits.defaultFindLimit (50). */
  limit?: number;
}

export interface FindTextResult {
  /** `<find v="12" total="209" shown="50" next="…">` element lines, `... N more: find …` `</find>`. */
  text: string;
  /** Matches on the whole page (cursor ignored). */
  total: number;
  shown: number;
  /** Ref to pass as `after` for the next page; null when nothing remains. */
  next: string | null;
  /** Delivered version the refs belong to. */
  version: number;
}

export interface PageStats {
  version: number;
  deliveredVersion: number;
  liveElements: number;
  deliveredElements: number;
  registry: number;
  tombstones: number;
  frames: number;
  retiredDocuments: number;
  /** Views of documents the tab left, kept to recall what the agent held there (at most limits::kMaxRecalledPages). */
  recalledPages: number;
  overlayDepth: number;
}

/** One browser's delta engine; one call per CDP result, event or action (core/include/athena/engine.h). */
export declare class Engine {
  private constructor();
  /** The bounds of core/include/athena/limits.h (the module's `limits`). */
  readonly limits: Limits;
  /** The estimated tokens every answer about this engine's pages keeps to (createEngine's tokenBudget). */
  readonly tokenBudget: number;
  /** Starts tracking a tab (idempotent). */
  openPage(key: PageKey): void;
  /** Forgets a tab and its refs. */
  closePage(key: PageKey): void;
  /** A CDP event as JSON text: {"method": "...", "params": {...}}. */
  onEvent(key: PageKey, eventJson: string): void;
  /** Baseline: always a full FactPack. */
  snapshot(key: PageKey, capture: CaptureInput, info?: ActionInfo): FactPackResult;
  /** Pre-validation before acting; agentVersion = version of the agent's last FactPack, if sent. */
  beginAction(key: PageKey, capture: CaptureInput, agentVersion?: number | null): PreCheck;
  /** A ref to the live node, or an AthenaError saying why not. */
  resolve(key: PageKey, ref: string): Target;
  /** A ref against a fresh capture, outside any action (read, screenshot): commits no version. */
  resolveNow(key: PageKey, capture: CaptureInput, ref: string): Target;
  /** After acting: delta / no_change / overlay_opened / overlay_closed / full. */
  finishAction(key: PageKey, capture: CaptureInput, info?: ActionInfo): FactPackResult;
  /** The action failed: nothing advances. */
  abortAction(key: PageKey): void;
  /** Elements the agent holds matching the query (trimmed or deduplicated ones included). */
  find(key: PageKey, query?: FindQuery): Element[];
  /** find with paging, as agent text in the FactPack element grammar; errors name what exists. */
  findText(key: PageKey, query?: FindTextQuery): FindTextResult;
  /** Sizes of the page's bounded state. */
  stats(key: PageKey): PageStats;
  /** The core's role and name of a node (its ref when the agent holds one, else ''); null: no line of it. */
  describeNode(key: PageKey, backendNodeId: number, frameId: string): { ref: string; role: string; name: string } | null;
  /** The tab that issued a ref (malformed_ref, unknown_ref). */
  owner(ref: string): PageKey;
  /** The number the next new ref gets. */
  nextRef(): number;
  /** Moves the next ref's number forward (never back): replays of one tab. */
  advanceRefs(next: number): void;
  /** Frees the engine; later calls throw AthenaError('wrong_call_order'). Idempotent. */
  dispose(): void;
}
