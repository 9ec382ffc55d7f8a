// How a tool is declared: once, with everything about it in one place (name, title, description,
// what it may do to the page (its hints), the JSON schema of its arguments, whether it takes the
// agent's version and answers with a FactPack, and its handler). extension/lib/tool-contract.js gathers the declarations of the tools/*.js files.
// What the agent sees of a tool (its name, title, group, description, hints, arguments, answer,
// deadline argument, local files) is also the tool contract, rules/tools.json, from which
// athena-bridge's tool list and argument check are generated: tests/node/tool-rules.test.mjs holds
// each declaration equal to it.
// No chrome APIs at import time: Node tests import the declarations too.
import { ToolError } from '../tab-state.js';

/** @typedef {{type: string, description?: string, enum?: string[], items?: {type: string}}} ArgSchema */
/**
 * What a handler acts through besides its tab: the narrow context the dispatcher gives it
 * (extension/lib/tool-context.js), never the agent itself.
 * @typedef {import('../tool-context.js').ToolContext} ToolContext
 * @typedef {import('../agent.js').Reply} Reply
 * @typedef {import('../tab-session.js').TabSession} TabSession
 * @typedef {(t: TabSession, args: any, ctx: ToolContext) => Promise<Reply>} Handler
 */
/**
 * Which tab a call runs on, found by the dispatcher before the handler runs: 'current' (args.tab,
 * else the ref's tab, else the session's current tab), 'create' (the same, a new tab when the
 * session has none), or a function (the tabs tool: null runs on no tab).
 * @typedef {'current' | 'create' | ((args: any, ctx: ToolContext) => Promise<TabSession | null>)} TabRule
 * What an open JavaScript dialog means for the call: it 'blocks' it (dialog_open), the call
 * 'answers' it (no_dialog without one), the call 'leaves' it (a call that leaves the page:
 * a beforeunload prompt is accepted, any other dialog dismissed, and the FactPack says so), or the
 * call 'ignores' it. A function of the arguments when it depends on them.
 * @typedef {'blocks' | 'answers' | 'leaves' | 'ignores'} DialogRule
 */
/**
 * What a tool may do, as MCP's tool annotations say it to clients (which ask the user before a tool
 * that is not read-only, or one that may destroy something): `readOnly` (it changes nothing the
 * user sees), and for a tool that is not read-only, `destructive` (it may undo or lose something:
 * a click on Delete, input lost by leaving a page) and `idempotent` (the same call again changes
 * nothing more); `openWorld` (it reaches the open web). Each tool states every one that applies:
 * none is left to MCP's defaults, which a reader of the declaration would have to know.
 * @typedef {{readOnly: true, openWorld: boolean} | {readOnly: false, destructive: boolean, idempotent: boolean, openWorld: boolean}} Hints
 */
/**
 * Which tool group a tool is served in (athena-bridge mcp --tools core,input,debug; core alone by
 * default): the whole list is in every agent's context, and core is what fits its token budget.
 * @typedef {'core' | 'input' | 'debug'} ToolGroup
 */
/**
 * What a call answers: 'factpack' (what changed, or the page whole), 'own-text' (text of its own
 * that shows the page, like find's list), 'image', or 'text' (a message).
 * @typedef {'factpack' | 'own-text' | 'image' | 'text'} Answer
 */
/**
 * A tool's argument that bounds how long the call waits (wait_for's `ms`), and its largest value:
 * athena-bridge's deadline for every call must hold the longest (bridge/src/limits.h).
 * @typedef {{arg: string, maxMs: number}} Deadline
 */
/**
 * What the action flow (extension/lib/action-flow.js) does differently for a tool, each read there
 * from the declaration and never from the tool's name:
 *   `navigates`        it replaces the document (navigate, back, forward, reload): its answer is a
 *                      full FactPack taken once the new page settled;
 *   `baseline`         its answer is a full FactPack (the navigations, snapshot);
 *   `collapsesUnchanged` in that full FactPack, regions the agent already holds unchanged are
 *                      collapsed (false: every region shown, as snapshot does to recover a lost
 *                      context); passed to the core as a flag of the action, never as a name;
 *   `revivesCrashed`   it runs on a page whose renderer crashed (it leaves it: navigate, reload);
 *   `refusesDisabled`  its ref's element must be enabled (a press, typing, a choice, a file);
 * and `dialog` 'leaves' (below) says it leaves the page: the page's own policy is not asked, the
 * watch before it is not waited for under a dialog.
 * `localFiles` names the argument listing files on the user's computer, which the native host
 * resolves (symlinks followed) before the call reaches the extension (bridge/src/host.cpp).
 * @typedef {{name: string, title: string, description: string, hints: Hints, args: Record<string, ArgSchema>, required: string[], group: ToolGroup,
 *            mutating: boolean, factpack: boolean, answers: Answer, tab: TabRule, dialog: DialogRule | ((args: any) => DialogRule),
 *            navigates: boolean, baseline: boolean, collapsesUnchanged: boolean, revivesCrashed: boolean, refusesDisabled: boolean,
 *            deadline: Deadline | null, localFiles: string | null,
 *            precheck: ((args: any, ctx: ToolContext) => void) | null, ends: ((args: any) => string | null) | null, handler: Handler}} ToolDecl
 */

/** @param {string} type @param {string} [description] @returns {ArgSchema} */
export const arg = (type, description) => (description ? { type, description } : { type });
/** @param {string[]} values @returns {ArgSchema} */
export const oneOf = (values) => ({ type: 'string', enum: values });
/** @returns {ArgSchema} */
export const strings = () => ({ type: 'array', items: { type: 'string' } });
export const ref = () => arg('string', 'e.g. e12');

/** Hints as declared, or an Error naming what is missing or extra. @param {string} name @param {any} h @returns {Hints} */
function checkHints(name, h) {
  const keys = h?.readOnly === true ? ['readOnly', 'openWorld'] : ['readOnly', 'destructive', 'idempotent', 'openWorld'];
  const bad = h && typeof h === 'object' ? [...keys.filter((k) => typeof h[k] !== 'boolean'), ...Object.keys(h).filter((k) => !keys.includes(k))] : keys;
  if (bad.length) throw new Error(`tool ${name}: hints must state exactly ${keys.join(', ')} (booleans); wrong: ${bad.join(', ')}`);
  return Object.freeze({ ...h });
}

/**
 * One tool. `title` is what a client shows a person; `hints` what it may do (Hints).
 * `mutating` tools take the agent's `version`; `factpack` tools answer with a FactPack.
 * The dispatcher finds its tab (`tab`, default 'current'), runs `precheck` (checks that need no
 * tab) first, then the handler in the tab's queue after checking `dialog` (default 'blocks').
 * `ends` says why a call stops the one running on its tab before waiting its turn (tabs close:
 * the running call stops waiting and answers what it did), or null.
 * Every other field (ToolDecl) is optional, its default what most tools do: `answers` 'factpack'
 * for a factpack tool, else 'text'; not navigating, no baseline (a navigation's is), collapsing
 * unchanged regions, not running on a crashed page, not refusing a disabled target, no deadline
 * argument, no local files.
 * @param {{name: string, title: string, description: string, hints: Hints, args?: Record<string, ArgSchema>, required?: string[], group?: ToolGroup,
 *          mutating?: boolean, factpack?: boolean, answers?: Answer, tab?: TabRule, dialog?: DialogRule | ((args: any) => DialogRule),
 *          navigates?: boolean, baseline?: boolean, collapsesUnchanged?: boolean, revivesCrashed?: boolean, refusesDisabled?: boolean,
 *          deadline?: Deadline, localFiles?: string,
 *          precheck?: (args: any, ctx: ToolContext) => void, ends?: (args: any) => string | null, handler: Handler}} d
 * @returns {ToolDecl}
 */
export function defineTool(d) {
  if (typeof d.title !== 'string' || !d.title) throw new Error(`tool ${d.name}: a title (what a client shows a person) is required`);
  const answers = d.answers ?? (d.factpack ? 'factpack' : 'text');
  if ((answers === 'factpack') !== !!d.factpack) throw new Error(`tool ${d.name}: answers 'factpack' exactly when factpack is true`);
  if (d.deadline && !(d.deadline.arg in (d.args ?? {}) && Number.isSafeInteger(d.deadline.maxMs) && d.deadline.maxMs > 0))
    throw new Error(`tool ${d.name}: deadline names one of its arguments and a positive maxMs`);
  if (d.localFiles && !(d.localFiles in (d.args ?? {}))) throw new Error(`tool ${d.name}: localFiles names one of its arguments`);
  const navigates = !!d.navigates;
  return Object.freeze({
    name: d.name, title: d.title, description: d.description, hints: checkHints(d.name, d.hints), args: d.args ?? {}, required: d.required ?? [], group: d.group ?? 'core',
    mutating: !!d.mutating, factpack: !!d.factpack, answers, tab: d.tab ?? 'current', dialog: d.dialog ?? 'blocks',
    navigates, baseline: navigates || !!d.baseline, collapsesUnchanged: d.collapsesUnchanged ?? true,
    revivesCrashed: !!d.revivesCrashed, refusesDisabled: !!d.refusesDisabled,
    deadline: d.deadline ? Object.freeze({ ...d.deadline }) : null, localFiles: d.localFiles ?? null,
    precheck: d.precheck ?? null, ends: d.ends ?? null, handler: d.handler,
  });
}

/** A tool's dialog rule for these arguments (ToolDecl.dialog). @param {ToolDecl} decl @param {any} args @returns {DialogRule} */
export function dialogRule(decl, args) {
  return typeof decl.dialog === 'function' ? decl.dialog(args) : decl.dialog;
}

/** Where a call's wire id travels with its arguments (cancel finds the call by it). */
export const CALL_ID = Symbol('call id');

/** A string argument. @param {any} args @param {string} k @param {boolean} required @param {boolean} [allowEmpty] */
export function str(args, k, required, allowEmpty = false) {
  const v = args[k];
  if (v === undefined && !required) return '';
  if (typeof v !== 'string' || (!allowEmpty && !v)) throw new ToolError('bad_arguments', `"${k}" must be a non-empty string`);
  return v;
}

export const msg = (/** @type {unknown} */ e) => (e instanceof Error ? e.message : String(e));
export const sleep = (/** @type {number} */ ms) => new Promise((r) => setTimeout(r, ms));
