// The tools the agent has, in the order tools/list gives them. Each tool is declared once, with
// its handler, in extension/lib/tools/*.js (defineTool: name, title, description, hints (what it
// may do, MCP's tool annotations), argument schema, whether it takes the agent's version, what it
// answers, and what the action flow does differently for it: whether it navigates, leaves or
// answers a dialog, refuses a disabled target, collapses unchanged regions; its deadline argument,
// its local files). Nothing outside a tool's declaration file, this file and the tests names a
// tool (tests/node/tool-names.test.mjs). The extension dispatches each call to its declaration's
// handler (Agent.dispatch).
// The contract the agent sees (names, titles, groups, descriptions, hints, argument schemas, what
// each answers, its deadline argument and local files) is rules/tools.json, the one source of
// athena-bridge's MCP tool list (bridge/gen-tools.mjs, through rules/tools.mjs), which the bridge
// alone checks every call's arguments against (bridge/src/tools.cpp check_arguments), and of the
// tool table of docs/wire-protocol.md. The declarations hold the same fields (Chrome loads an
// extension from its own folder only, so it cannot read rules/ at run time), in the same order:
// tests/node/tool-rules.test.mjs fails when they disagree.
// No chrome APIs at import time: the service worker and Node tests import it.
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

/** Every tool the agent has, in the order tools/list gives them. */
export const TOOLS = Object.freeze([
  navigate, back, forward, reload, snapshot, click, type, fillForm, press, select, hover, drag, scroll, waitFor,
  find, read, dialog, upload, screenshot, resize, network, consoleMessages, evaluate, tabs,
]);

/** The declaration of a tool, or undefined. @param {string} name */
export function findTool(name) {
  return TOOLS.find((t) => t.name === name);
}
