// The tool contract (rules/tools.json) as data for JS, and what is made from it: the MCP tool list
// athena-bridge serves (bridge/gen-tools.mjs generates its copy at build time), and the tool table
// of docs/wire-protocol.md (`node bridge/gen-tools.mjs --docs` rewrites it; tests/node/tool-contract.test.mjs
// checks it). The whole list is in every agent's context: keep descriptions short (the budget is
// 2,000 o200k tokens, tests/node/tool-list-budget.test.mjs). Node only (it reads the file); the
// extension holds the same fields in each tool's declaration (tests/node/tool-rules.test.mjs).
import { readFileSync } from 'node:fs';

/**
 * @typedef {{type: string, description?: string, enum?: string[], items?: {type: string}}} ArgSchema
 * @typedef {{readOnly: boolean, destructive?: boolean, idempotent?: boolean, openWorld: boolean}} Hints
 * @typedef {{name: string, title: string, group: string, description: string, hints: Hints,
 *            args: Record<string, ArgSchema>, required: string[], mutating: boolean, factpack: boolean,
 *            answers: 'factpack' | 'own-text' | 'image' | 'text', deadline: {arg: string, maxMs: number} | null,
 *            localFiles: string | null}} ContractTool
 */

const RULES = JSON.parse(readFileSync(new URL('./tools.json', import.meta.url), 'utf8'));

/** Every tool, in the order tools/list gives them. @type {readonly ContractTool[]} */
export const CONTRACT = Object.freeze(RULES.tools);

/**
 * The tool groups, in the order --tools names them: the first (`core`) is served by default and
 * fits the tool list's token budget; the others when the user or the client asks
 * (athena-bridge mcp --tools core,input,debug, or --tools all).
 * @type {readonly string[]}
 */
export const GROUPS = Object.freeze(RULES.groups);

/** The fields of a tool the contract holds, in its order. */
export const CONTRACT_FIELDS = Object.freeze(['name', 'title', 'group', 'description', 'hints', 'args', 'required', 'mutating', 'factpack', 'answers', 'deadline', 'localFiles']);

/**
 * The JSON schema of a tool's arguments: its own, plus `version` (mutating tools) and `tab`
 * (every tool), no others allowed.
 * @param {ContractTool} t
 */
export function inputSchema(t) {
  /** @type {Record<string, ArgSchema>} */
  const properties = { ...t.args };
  if (t.mutating) properties.version = { type: 'integer', description: 'v of the last FactPack you read' };
  properties.tab = { type: 'string', description: 'e.g. c0p1 (default: current tab)' };
  return { type: 'object', properties, additionalProperties: false, ...(t.required.length ? { required: [...t.required] } : {}) };
}

/** MCP's reading of a tool annotation that is absent (ToolAnnotations, specification 2025-03-26 on). */
const MCP_HINT_DEFAULTS = Object.freeze({ readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true });

/**
 * A tool's MCP annotations: its hints under MCP's names, only those that differ from what MCP
 * reads when one is absent. Every client reads the same hints as from the full set, and the list,
 * in every agent's context, does not pay for the defaults.
 * @param {ContractTool} t
 */
export function annotations(t) {
  const h = t.hints;
  /** @type {Record<string, boolean>} */
  const full = h.readOnly ? { readOnlyHint: true, openWorldHint: h.openWorld }
    : { readOnlyHint: false, destructiveHint: !!h.destructive, idempotentHint: !!h.idempotent, openWorldHint: h.openWorld };
  const d = /** @type {Record<string, boolean>} */ (MCP_HINT_DEFAULTS);
  return Object.fromEntries(Object.entries(full).filter(([k, v]) => v !== d[k]));
}

/** tools/list's `tools`, as athena-bridge serves them with these groups (default: every tool). @param {readonly string[]} [groups] */
export function mcpTools(groups = GROUPS) {
  return CONTRACT.filter((t) => groups.includes(t.group)).map((t) => {
    const a = annotations(t);
    return { name: t.name, title: t.title, description: t.description, inputSchema: inputSchema(t), ...(Object.keys(a).length ? { annotations: a } : {}) };
  });
}

/** What each kind of answer is called in the tool table. */
const ANSWERS = Object.freeze({ factpack: 'FactPack', 'own-text': 'its own text', image: 'image', text: 'text' });

/** The tool table of docs/wire-protocol.md (between its `tools:begin` and `tools:end` markers). */
export function wireTable() {
  /** @param {ContractTool} t */
  const args = (t) => {
    const s = inputSchema(t);
    return Object.entries(t.args).map(([k, p]) => {
      const type = p.enum ? p.enum.join('\\|') : p.items ? `${p.type} of ${p.items.type}` : p.type;
      return `\`${k}${(s.required ?? []).includes(k) ? '' : '?'}\`: ${type}`;
    }).join(', ') || '—';
  };
  /** @param {ContractTool} t */
  const may = (t) => {
    const h = t.hints;
    const w = h.readOnly ? ['read-only'] : [h.destructive ? 'destructive' : 'not destructive', ...(h.idempotent ? ['idempotent'] : [])];
    return [...w, ...(h.openWorld ? [] : ['closed world'])].join(', ');
  };
  return [
    '| tool | title | group | arguments (besides `tab?`) | mutating (takes `version?`) | may (MCP annotations) | answer |',
    '|---|---|---|---|---|---|---|',
    ...CONTRACT.map((t) => `| \`${t.name}\` | ${t.title} | ${t.group} | ${args(t)} | ${t.mutating ? 'yes' : 'no'} | ${may(t)} | ${ANSWERS[t.answers]} |`),
  ].join('\n');
}
