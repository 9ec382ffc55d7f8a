// The tool contract: every tool the agent has, in the order tools/list gives them. Each tool is
// declared once, with its handler, in extension/lib/tools/*.js (defineTool: name, title,
// description, hints (what it may do, MCP's tool annotations), argument schema, whether it takes
// the agent's version, what it answers, and what the action flow does differently for it: whether
// it navigates, leaves or answers a dialog, refuses a disabled target, collapses unchanged regions;
// its deadline argument, its local files). Nothing outside a tool's declaration file, this file
// and the tests names a tool (tests/node/tool-names.test.mjs). Everything else is derived from
// these declarations:
//   - the extension dispatches each call to its declaration's handler (Agent.dispatch);
//   - athena-bridge's MCP tool list is generated from them at build time (bridge/gen-tools.mjs ->
//     tool_contract.inc, read by bridge/src/tools.cpp), and the bridge alone checks every call's
//     arguments against it (check_arguments): it is the only way calls reach the extension;
//   - the tool table of docs/wire-protocol.md is generated from them and checked by
//     tests/node/tool-contract.test.mjs (`node bridge/gen-tools.mjs --docs` rewrites it).
// The whole list is in every agent's context: keep descriptions short (bench/tool-list.mjs
// measures it; the budget is 2,000 o200k tokens).
// No chrome APIs at import time: the service worker, Node tests and the generator all import it.
import { arg } from './tools/define.js';
import { back, forward, navigate, reload, snapshot } from './tools/navigation.js';
import { click, dialog, hover, press, scroll, select, type, upload } from './tools/input.js';
import { waitFor } from './tools/wait.js';
import { fillForm } from './tools/form.js';
import { drag } from './tools/drag.js';
import { resize } from './tools/resize.js';
import { network } from './tools/network.js';
import { consoleMessages } from './tools/console.js';
import { evaluate } from './tools/evaluate.js';
import { find, read, screenshot } from './tools/read.js';
import { tabs } from './tools/tabs.js';

/** @typedef {import('./tools/define.js').ArgSchema} ArgSchema @typedef {import('./tools/define.js').ToolDecl} ToolDecl */

/** Every tool the agent has, in the order tools/list gives them. */
export const TOOLS = Object.freeze([
  navigate, back, forward, reload, snapshot, click, type, fillForm, press, select, hover, drag, scroll, waitFor,
  find, read, dialog, upload, screenshot, resize, network, consoleMessages, evaluate, tabs,
]);

/**
 * The tool groups, in the order --tools names them: `core` is served by default and fits the
 * tool list's token budget (bench/tool-list.mjs); the others are served when the user or the
 * client asks (athena-bridge mcp --tools core,input,debug, or --tools all).
 */
export const GROUPS = Object.freeze(['core', 'input', 'debug']);

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
  properties.tab = arg('string', 'e.g. c0p1 (default: current tab)');
  return { type: 'object', properties, additionalProperties: false, ...(t.required.length ? { required: [...t.required] } : {}) };
}

/** MCP's reading of a tool annotation that is absent (ToolAnnotations, specification 2025-03-26 on). */
const MCP_HINT_DEFAULTS = Object.freeze({ readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true });

/**
 * A tool's MCP annotations: its declared hints (ToolDecl.hints) under MCP's names, only those that
 * differ from what MCP reads when one is absent. Every client reads the same hints as from the
 * full set, and the list, in every agent's context, does not pay for the defaults.
 * @param {ToolDecl} t
 */
export function annotations(t) {
  const h = t.hints;
  /** @type {Record<string, boolean>} */
  const full = h.readOnly ? { readOnlyHint: true, openWorldHint: h.openWorld }
    : { readOnlyHint: false, destructiveHint: h.destructive, idempotentHint: h.idempotent, openWorldHint: h.openWorld };
  const d = /** @type {Record<string, boolean>} */ (MCP_HINT_DEFAULTS);
  return Object.fromEntries(Object.entries(full).filter(([k, v]) => v !== d[k]));
}

/** tools/list's `tools`, as athena-bridge serves them with these groups (default: every tool). @param {readonly string[]} [groups] */
export function mcpTools(groups = GROUPS) {
  return TOOLS.filter((t) => groups.includes(t.group)).map((t) => {
    const a = annotations(t);
    return { name: t.name, title: t.title, description: t.description, inputSchema: inputSchema(t), ...(Object.keys(a).length ? { annotations: a } : {}) };
  });
}

/** What each kind of answer (ToolDecl.answers) is called in the tool table. */
const ANSWERS = Object.freeze({ factpack: 'FactPack', 'own-text': 'its own text', image: 'image', text: 'text' });

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
  /** @param {ToolDecl} t */
  const may = (t) => {
    const h = t.hints;
    const w = h.readOnly ? ['read-only'] : [h.destructive ? 'destructive' : 'not destructive', ...(h.idempotent ? ['idempotent'] : [])];
    return [...w, ...(h.openWorld ? [] : ['closed world'])].join(', ');
  };
  return [
    '| tool | title | group | arguments (besides `tab?`) | mutating (takes `version?`) | may (MCP annotations) | answer |',
    '|---|---|---|---|---|---|---|',
    ...TOOLS.map((t) => `| \`${t.name}\` | ${t.title} | ${t.group} | ${args(t)} | ${t.mutating ? 'yes' : 'no'} | ${may(t)} | ${ANSWERS[t.answers]} |`),
  ].join('\n');
}
