// How a tool is declared: once, with everything about it in one place (name, description, the
// JSON schema of its arguments, whether it changes the page and answers with a FactPack, and its
// handler). extension/lib/tool-contract.js gathers the declarations of the tools/*.js files; the
// extension checks every call against them, athena-bridge's tool list is generated from them.
// No chrome APIs at import time: Node tests and bridge/gen-tools.mjs import the declarations too.
import { ToolError } from '../tab-state.js';

/** @typedef {{type: string, description?: string, enum?: string[], items?: {type: string}}} ArgSchema */
/**
 * What a handler acts through: the agent (extension/lib/agent.js) with its tabs, sessions, policy,
 * CDP transport, action flow and frame driver.
 * @typedef {import('../agent.js').Agent} ToolContext
 * @typedef {import('../agent.js').Reply} Reply
 * @typedef {(ctx: ToolContext, session: string, args: any) => Promise<Reply>} Handler
 */
/**
 * @typedef {{name: string, description: string, args: Record<string, ArgSchema>, required: string[],
 *            mutating: boolean, factpack: boolean, handler: Handler}} ToolDecl
 */

/** @param {string} type @param {string} [description] @returns {ArgSchema} */
export const arg = (type, description) => (description ? { type, description } : { type });
/** @param {string[]} values @returns {ArgSchema} */
export const oneOf = (values) => ({ type: 'string', enum: values });
/** @returns {ArgSchema} */
export const strings = () => ({ type: 'array', items: { type: 'string' } });
export const ref = () => arg('string', 'element ref, e.g. c0p1f0e12');

/**
 * One tool. `mutating` tools take the agent's `version`; `factpack` tools answer with a FactPack.
 * @param {{name: string, description: string, args?: Record<string, ArgSchema>, required?: string[],
 *          mutating?: boolean, factpack?: boolean, handler: Handler}} d
 * @returns {ToolDecl}
 */
export function defineTool(d) {
  return Object.freeze({
    name: d.name, description: d.description, args: d.args ?? {}, required: d.required ?? [],
    mutating: !!d.mutating, factpack: !!d.factpack, handler: d.handler,
  });
}

/** A string argument. @param {any} args @param {string} k @param {boolean} required @param {boolean} [allowEmpty] */
export function str(args, k, required, allowEmpty = false) {
  const v = args[k];
  if (v === undefined && !required) return '';
  if (typeof v !== 'string' || (!allowEmpty && !v)) throw new ToolError('bad_arguments', `"${k}" must be a non-empty string`);
  return v;
}

export const msg = (/** @type {unknown} */ e) => (e instanceof Error ? e.message : String(e));
export const sleep = (/** @type {number} */ ms) => new Promise((r) => setTimeout(r, ms));
