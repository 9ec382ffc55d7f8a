// The tool contract: every tool the agent has, in the order tools/list gives them. Each tool is
// declared once, with its handler, in extension/lib/tools/*.js (defineTool: name, description,
// argument schema, whether it changes the page and answers with a FactPack). Everything else is
// derived from these declarations:
//   - the extension checks every call against them (Agent.dispatch) before the handler runs;
//   - athena-bridge's MCP tool list and its argument check are generated from them at build time
//     (bridge/gen-tools.mjs -> tool_contract.inc, read by bridge/src/tools.cpp);
//   - the tool table of docs/wire-protocol.md is generated from them and checked by
//     tests/node/tool-contract.test.mjs (`node bridge/gen-tools.mjs --docs` rewrites it).
// The whole list is in every agent's context: keep descriptions short (bench/tool-list.mjs
// measures it; the budget is 2,000 o200k tokens).
// No chrome APIs at import time: the service worker, Node tests and the generator all import it.
import { arg } from './tools/define.js';
import { back, forward, navigate, reload, snapshot } from './tools/navigation.js';
import { click, dialog, hover, press, scroll, select, type, upload } from './tools/input.js';
import { waitFor } from './tools/wait.js';
import { find, read, screenshot } from './tools/read.js';
import { tabs } from './tools/tabs.js';

/** @typedef {import('./tools/define.js').ArgSchema} ArgSchema @typedef {import('./tools/define.js').ToolDecl} ToolDecl */

/** Every tool the agent has, in the order tools/list gives them. */
export const TOOLS = Object.freeze([
  navigate, back, forward, reload, snapshot, click, type, press, select, hover, scroll, waitFor,
  find, read, dialog, upload, screenshot, tabs,
]);

/** The declaration of a tool, or undefined. @param {string} name */
export function findTool(name) {
  return TOOLS.find((t) => t.name === name);
}

/**
 * The JSON schema of a tool's arguments: its own, plus `version` (mutating tools) and `tab`
 * (every tool), no others allowed.
 * @param {ToolDecl} t
 */
export function inputSchema(t) {
  /** @type {Record<string, ArgSchema>} */
  const properties = { ...t.args };
  if (t.mutating) properties.version = arg('integer', 'v of the last FactPack you read');
  properties.tab = arg('string', 'tab id from tabs list, e.g. c0p1 (default: current)');
  return { type: 'object', properties, additionalProperties: false, ...(t.required.length ? { required: [...t.required] } : {}) };
}

/** tools/list's `tools`, as athena-bridge serves them. */
export function mcpTools() {
  return TOOLS.map((t) => ({ name: t.name, description: t.description, inputSchema: inputSchema(t) }));
}

/** @param {string} want @param {unknown} v */
function typeOk(want, v) {
  switch (want) {
    case 'string': return typeof v === 'string';
    case 'boolean': return typeof v === 'boolean';
    case 'integer': return typeof v === 'number' && Number.isInteger(v) && Math.abs(v) <= 9.2e18;
    case 'number': return typeof v === 'number' && Number.isFinite(v);
    case 'array': return Array.isArray(v);
    case 'object': return v !== null && typeof v === 'object' && !Array.isArray(v);
    default: return true;
  }
}

/**
 * "" if `args` satisfy the tool's schema, else what is wrong, in the words athena-bridge uses
 * (bridge/src/tools.cpp check_arguments): required keys, no unknown keys, types, enums, items.
 * @param {ToolDecl} t @param {unknown} args
 */
export function checkArguments(t, args) {
  const name = t.name;
  if (!typeOk('object', args)) return `${name}: arguments must be an object`;
  const a = /** @type {Record<string, unknown>} */ (args);
  const schema = inputSchema(t);
  // Own keys only, on both sides: 'constructor' or '__proto__' is no argument, however every
  // object inherits it (the bridge's schema is a map and refuses them as unknown).
  const has = (/** @type {object} */ o, /** @type {string} */ k) => Object.prototype.hasOwnProperty.call(o, k);
  for (const r of schema.required ?? []) if (!has(a, r)) return `${name}: missing required argument '${r}'`;
  // Keys in the order the bridge reports them (its JSON objects are sorted by key).
  for (const key of Object.keys(a).sort()) {
    const p = has(schema.properties, key) ? schema.properties[key] : undefined;
    if (!p) return `${name}: unknown argument '${key}' (known: ${Object.keys(schema.properties).sort().join(', ')})`;
    const v = a[key];
    if (!typeOk(p.type, v)) return `${name}: argument '${key}' must be ${p.type}`;
    if (p.enum && !p.enum.includes(/** @type {string} */ (v))) return `${name}: argument '${key}' must be one of ${JSON.stringify(p.enum)}`;
    if (p.items && Array.isArray(v) && !v.every((x) => typeOk(/** @type {{type: string}} */ (p.items).type, x)))
      return `${name}: every item of '${key}' must be ${p.items.type}`;
  }
  return '';
}

/** The tool table of docs/wire-protocol.md (between its `tools:begin` and `tools:end` markers). */
export function wireTable() {
  /** @param {ToolDecl} t */
  const args = (t) => {
    const s = inputSchema(t);
    return Object.entries(t.args).map(([k, p]) => {
      const type = p.enum ? p.enum.join('\\|') : p.items ? `${p.type} of ${p.items.type}` : p.type;
      return `\`${k}${(s.required ?? []).includes(k) ? '' : '?'}\`: ${type}`;
    }).join(', ') || '—';
  };
  return [
    '| tool | arguments (besides `tab?`) | mutating (takes `version?`) | answer |',
    '|---|---|---|---|',
    ...TOOLS.map((t) => `| \`${t.name}\` | ${args(t)} | ${t.mutating ? 'yes' : 'no'} | ${t.factpack ? 'FactPack' : t.name === 'find' || t.name === 'read' ? 'its own text' : t.name === 'screenshot' ? 'image' : 'text'} |`),
  ].join('\n');
}
