// What a call must be before the dispatcher looks for its tab: {session, tool, args} with a
// session id, a tool of the contract and arguments that are an object. athena-bridge, the only way
// calls come in, checks every call's arguments against the one tool contract
// (bridge/src/tools.cpp check_arguments); here only the call's shape and the tool's name are
// checked, and a handler checks the values it uses (tools/define.js str(), and its own).
import { findTool, TOOLS } from './tool-contract.js';
import { ToolError } from './tab-state.js';

/** @typedef {{session: string, tool: string, args?: any, id?: any}} Call */

/**
 * The call's parts and its tool's declaration, or a bad_call / bad_arguments / unknown_tool error.
 * @param {unknown} call
 */
export function checkCall(call) {
  if (!call || typeof call !== 'object') throw new ToolError('bad_call', 'a call is {session, tool, args}');
  const { session, tool } = /** @type {Call} */ (call);
  const args = /** @type {Call} */ (call).args ?? {};
  if (typeof session !== 'string' || !session) throw new ToolError('bad_call', 'call.session must be the session id from session_open');
  if (typeof tool !== 'string') throw new ToolError('bad_call', 'call.tool must be a tool name');
  if (typeof args !== 'object' || Array.isArray(args)) throw new ToolError('bad_arguments', `${tool}: args must be an object`);
  const decl = findTool(tool);
  if (!decl) throw new ToolError('unknown_tool', `unknown tool "${tool}": use ${TOOLS.map((d) => d.name).join(', ')}`);
  return { session, tool, args, decl };
}
