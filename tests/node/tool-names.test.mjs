// A tool is its declaration (extension/lib/tools/*.js): whatever differs by tool is a field there,
// read by the dispatcher, the action flow, the bridge (through the generated contract) and the core
// (through a flag of the action). So no code outside a tool's declaration file, the contract
// (extension/lib/tool-contract.js) and the tests may use a tool's name as a tool: compare a kind, a
// tool or a name with it, switch on it, list it beside another tool's name, give it as a kind or a
// tool, or hand it to the action flow. Renaming a tool then changes nothing but its declaration.
//
// Tool names are also words of other vocabularies (`type` and `select` of HTML, `scroll` and
// `click` of the DOM's events, `snapshot` and `find` of the engine's methods): a name is flagged
// only where it is used as a tool, as above, which the first tests below pin down on snippets.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as espree from 'espree';
import { TOOLS } from '../../extension/lib/tool-contract.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const NAMES = new Set(TOOLS.map((t) => t.name));

/** What names a tool, a kind or a call's subject: the other side of a comparison that is about tools. */
const TOOLISH = /\b(kind|tool|name|decl)\b/i;
/** Calls that take a tool's name: the action flow's, and the contract's lookup. */
const TAKES_A_NAME = /(\.|^)(run|runNow|baseline|finish|resolve|findTool|declOf)$/;

/**
 * Where JavaScript source uses a tool's name as a tool: [{line, name, how}].
 * @param {string} src @param {ReadonlySet<string>} names
 */
export function jsUses(src, names) {
  const ast = espree.parse(src, { ecmaVersion: 'latest', sourceType: 'module', loc: true, range: true });
  /** @type {{line: number, name: string, how: string}[]} */
  const found = [];
  const text = (/** @type {any} */ n) => src.slice(n.range[0], n.range[1]);
  const nameOf = (/** @type {any} */ n) => (n?.type === 'Literal' && typeof n.value === 'string' ? n.value
    : n?.type === 'TemplateLiteral' && n.expressions.length === 0 ? n.quasis[0].value.cooked : null);
  const isTool = (/** @type {any} */ n) => { const v = nameOf(n); return v !== null && names.has(v); };
  /** @param {any} node @param {any} parent */
  const visit = (node, parent) => {
    if (isTool(node) && parent) {
      const name = /** @type {string} */ (nameOf(node));
      const at = (/** @type {string} */ how) => found.push({ line: node.loc.start.line, name, how });
      if (parent.type === 'BinaryExpression' && ['==', '!=', '===', '!=='].includes(parent.operator)) {
        const other = parent.left === node ? parent.right : parent.left;
        if (TOOLISH.test(text(other))) at(`compared with ${text(other)}`);
      } else if (parent.type === 'SwitchCase' && parent.test === node && parent.discriminant && TOOLISH.test(text(parent.discriminant))) {
        at('a case of a switch on a tool');
      } else if (parent.type === 'ArrayExpression' && parent.elements.filter(isTool).length >= 2) {
        at('listed beside another tool');
      } else if (parent.type === 'Property' && parent.value === node && /^(kind|tool)$/.test(parent.key.name ?? parent.key.value ?? '')) {
        at(`given as ${parent.key.name ?? parent.key.value}`);
      } else if (parent.type === 'CallExpression' && parent.arguments.includes(node) && TAKES_A_NAME.test(text(parent.callee))) {
        at(`handed to ${text(parent.callee)}`);
      }
    }
    for (const [k, v] of Object.entries(node)) {
      if (k === 'parent' || k === 'loc' || k === 'range') continue;
      // The SwitchCase needs its switch's discriminant: lent to it while its cases are visited.
      if (node.type === 'SwitchStatement' && k === 'cases') for (const c of v) c.discriminant = node.discriminant;
      if (Array.isArray(v)) { for (const c of v) if (c && typeof c.type === 'string') visit(c, node); }
      else if (v && typeof v === 'object' && typeof v.type === 'string') visit(v, node);
    }
  };
  visit(ast, null);
  return found;
}

/**
 * Where C++ source uses a tool's name as a tool: compared with a kind, a tool or a name, or given
 * as one ({"tool", "x"}, kind = "x"). Comments are left out; raw strings hold no tool names.
 * @param {string} src @param {ReadonlySet<string>} names
 */
export function cppUses(src, names) {
  /** @type {{line: number, name: string, how: string}[]} */
  const found = [];
  const lines = src.replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' ')).split('\n');
  lines.forEach((raw, i) => {
    const line = raw.replace(/\/\/.*$/, '');
    for (const m of line.matchAll(/"([A-Za-z_]+)"/g)) {
      if (!names.has(m[1])) continue;
      const before = line.slice(0, m.index), after = line.slice((m.index ?? 0) + m[0].length);
      const at = (/** @type {string} */ how) => found.push({ line: i + 1, name: m[1], how });
      if (/(==|!=)\s*$/.test(before) && TOOLISH.test(before)) at('compared with a kind, tool or name');
      else if (/^\s*(==|!=)/.test(after) && TOOLISH.test(after.split(/[;)]/)[0] + before)) at('compared with a kind, tool or name');
      else if (/\{\s*"(kind|tool)"\s*,\s*$/.test(before)) at('given as a kind or tool');
      else if (/\b(kind|tool)\s*=\s*$/.test(before)) at('assigned as a kind or tool');
    }
  });
  return found;
}

test('the scan flags a tool name used as a tool, and the same word in another vocabulary not', () => {
  const names = new Set(['navigate', 'back', 'reload', 'snapshot', 'click', 'type', 'select', 'dialog', 'upload', 'scroll']);
  const js = [
    "export const NAVIGATIONS = new Set(['navigate', 'back', 'reload']);",
    "if (kind === 'snapshot') x();",
    "if (t.crashed && kind !== 'reload') x();",
    "switch (call.tool) { case 'click': break; }",
    "engine.finishAction(key, cap, { kind: 'dialog', warnings });",
    "flow.run(t, 'snapshot', args, null);",
    // Not tools: an HTML attribute, an element's tag, a DOM event, a race's marker, a message.
    "el.getAttribute('type'); if (tag === 'select') y(); document.addEventListener('scroll', f);",
    "const first = await race(p, { dialog: 'dialog' }); if (first === 'dialog') z();",
    "throw new Error('kind must be a string (\"click\", \"type\", ...)');",
  ].join('\n');
  assert.deepEqual(jsUses(js, names).map((u) => `${u.line} ${u.name}`),
    ['1 navigate', '1 back', '1 reload', '2 snapshot', '3 reload', '4 click', '5 dialog', '6 snapshot']);
  const cpp = [
    'Outcome out = full(d, to, reason, info.kind != "snapshot");',
    'if (str_field(msg, "tool") == "upload") {',
    'json call = {{"type", "call"}, {"tool", "click"}};',
    // Not tools: a tag, a role, a JSON key, a comment.
    'if (t == "input" || t == "select") return; if (role == "dialog") return; j["type"] = 1;  // kind == "click"',
  ].join('\n');
  assert.deepEqual(cppUses(cpp, names).map((u) => `${u.line} ${u.name}`), ['1 snapshot', '2 upload', '3 click']);
});

test('no tool name is used as a tool outside its declaration file, the contract and the tests', async () => {
  // Which file declares which tools: the tools a module of extension/lib/tools exports.
  /** @type {Map<string, Set<string>>} */
  const declaredIn = new Map();
  const files = execFileSync('git', ['ls-files', 'extension', 'bridge/src', 'core', 'wasm'], { cwd: root, encoding: 'utf8' }).split('\n').filter(Boolean);
  for (const f of files.filter((f) => /^extension\/lib\/tools\/[^/]+\.js$/.test(f))) {
    const mod = await import(pathToFileURL(path.join(root, f)).href);
    declaredIn.set(f, new Set(TOOLS.filter((t) => Object.values(mod).includes(t)).map((t) => t.name)));
  }
  assert.equal([...declaredIn.values()].reduce((n, s) => n + s.size, 0), TOOLS.length, 'every tool of the contract is declared in extension/lib/tools/*.js');
  const uses = [];
  for (const f of files) {
    if (f === 'extension/lib/tool-contract.js' || /(^|\/)(test|tests)\//.test(f)) continue;
    const own = declaredIn.get(f) ?? new Set();
    const others = new Set([...NAMES].filter((n) => !own.has(n)));
    /** @type {{line: number, name: string, how: string}[]} */
    let found = [];
    if (/\.(m?js)$/.test(f)) found = jsUses(readFileSync(path.join(root, f), 'utf8'), others);
    else if (/\.(cpp|cc|h|hpp|inc)$/.test(f)) found = cppUses(readFileSync(path.join(root, f), 'utf8'), others);
    for (const u of found) uses.push(`${f}:${u.line}: "${u.name}" ${u.how}`);
  }
  assert.deepEqual(uses, [], 'say what differs by tool in its declaration (extension/lib/tools/define.js), and read it from there');
});
