// The tool contract, declared once: each tool's name, description, argument schema, and whether
// it changes the page (mutating tools take the agent's `version`) and answers with a FactPack.
// Everything else is derived from this file:
//   - the extension checks every call against it (Agent.dispatch) before its handler runs;
//   - athena-bridge's MCP tool list and its argument check are generated from it at build time
//     (bridge/gen-tools.mjs -> tool_contract.inc, read by bridge/src/tools.cpp);
//   - the tool table of docs/wire-protocol.md is generated from it and checked by
//     tests/node/tool-contract.test.mjs (`node bridge/gen-tools.mjs --docs` rewrites it).
// The whole list is in every agent's context: keep descriptions short (bench/tool-list.mjs
// measures it; the budget is 2,000 o200k tokens).
// No chrome or Node APIs here: the service worker, Node tests and the generator all import it.

/** @typedef {{type: string, description?: string, enum?: string[], items?: {type: string}}} ArgSchema */
/**
 * @typedef {{name: string, description: string, args: Record<string, ArgSchema>, required: string[],
 *            mutating: boolean, factpack: boolean}} ToolDecl
 */

/** @param {string} type @param {string} [description] @returns {ArgSchema} */
const arg = (type, description) => (description ? { type, description } : { type });
/** @param {string[]} values @returns {ArgSchema} */
const oneOf = (values) => ({ type: 'string', enum: values });
const strings = () => ({ type: 'array', items: { type: 'string' } });
const ref = () => arg('string', 'element ref, e.g. c0p1f0e12');

/**
 * @param {string} name @param {string} description @param {Record<string, ArgSchema>} args
 * @param {{required?: string[], mutating?: boolean, factpack?: boolean}} [o]
 * @returns {ToolDecl}
 */
function tool(name, description, args, o = {}) {
  return Object.freeze({ name, description, args, required: o.required ?? [], mutating: !!o.mutating, factpack: !!o.factpack });
}

/** Every tool the agent has, in the order tools/list gives them. */
export const TOOLS = Object.freeze([
  tool('navigate', 'Open a URL in the agent\'s tab. Returns a full FactPack.', { url: arg('string') }, { required: ['url'], mutating: true, factpack: true }),
  tool('back', 'Go back in history.', {}, { mutating: true, factpack: true }),
  tool('forward', 'Go forward in history.', {}, { mutating: true, factpack: true }),
  tool('reload', 'Reload the page.', {}, { mutating: true, factpack: true }),
  tool('snapshot', 'Full FactPack of the page now.', {}, { factpack: true }),
  tool('click', 'Click an element. Returns what changed.', { ref: ref() }, { required: ['ref'], mutating: true, factpack: true }),
  tool('type', 'Type into a field.', {
    ref: ref(), text: arg('string'), clear: arg('boolean', 'replace the value'), submit: arg('boolean', 'press Enter after'),
  }, { required: ['ref', 'text'], mutating: true, factpack: true }),
  tool('press', 'Press keys, e.g. Enter, Escape, Control+A.', { keys: arg('string') }, { required: ['keys'], mutating: true, factpack: true }),
  tool('select', 'Choose options of a select.', { ref: ref(), values: strings() }, { required: ['ref', 'values'], mutating: true, factpack: true }),
  tool('hover', 'Move the mouse over an element.', { ref: ref() }, { required: ['ref'], mutating: true, factpack: true }),
  tool('scroll', 'Scroll the page or an element.', {
    ref: ref(), direction: oneOf(['up', 'down', 'left', 'right']), amount: arg('number', 'pixels'),
  }, { mutating: true, factpack: true }),
  tool('wait_for', 'Wait until text appears or goes, a ref reaches a state, or time passes.', {
    text: arg('string'), gone: arg('string', 'text to disappear'), ref: ref(),
    state: oneOf(['visible', 'hidden', 'enabled', 'disabled', 'checked', 'unchecked', 'attached', 'detached']), ms: arg('integer'),
  }, { mutating: true, factpack: true }),
  tool('find', 'Find elements, also those trimmed from a FactPack.', {
    role: arg('string'), name: arg('string', 'substring'), region: arg('string', 'region name or label'),
    frame: arg('string', 'e.g. f2'), after: arg('string', 'ref: continue after it'), limit: arg('integer'),
  }),
  tool('read', 'Text of an element or region.', { ref: ref(), region: arg('string', 'region name or label'), frame: arg('string') }),
  tool('dialog', 'Answer an alert/confirm/prompt.', { accept: arg('boolean'), text: arg('string') }, { required: ['accept'], mutating: true, factpack: true }),
  tool('upload', 'Set files on a file input.', { ref: ref(), files: strings() }, { required: ['ref', 'files'], mutating: true, factpack: true }),
  tool('screenshot', 'PNG of the page or an element.', { ref: ref() }),
  tool('tabs', 'List, open, select or close tabs.', { action: oneOf(['list', 'new', 'select', 'close']), url: arg('string') }, { required: ['action'] }),
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
  for (const r of schema.required ?? []) if (!(r in a)) return `${name}: missing required argument '${r}'`;
  // Keys in the order the bridge reports them (its JSON objects are sorted by key).
  for (const key of Object.keys(a).sort()) {
    const p = schema.properties[key];
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
