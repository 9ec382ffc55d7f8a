// Generates athena-bridge's tool list from the tool contract (rules/tools.json, through
// rules/tools.mjs), with the bounds of the chunk rule (rules/native-chunks.json `bounds`) and those
// of a call's life the bridge's deadlines must agree with (rules/wire-bounds.json; static_asserts in
// bridge/src/limits.h). It reads rules/ only: the extension holds copies of the same, checked by
// tests/node/tool-rules.test.mjs and tests/node/wire-bounds.test.mjs.
//   node bridge/gen-tools.mjs OUT.inc   a C++ header with the MCP tool list, the FactPack tools, the
//                                       arguments naming local files, those bounds and the longest
//                                       wait a tool declares (CMake runs this at build time;
//                                       bridge/src/tools.cpp and bridge/src/limits.h read it)
//   node bridge/gen-tools.mjs --docs    rewrites the tool table of docs/wire-protocol.md
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CONTRACT, GROUPS, mcpTools, wireTable } from '../rules/tools.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const rules = (/** @type {string} */ name) => JSON.parse(readFileSync(path.join(root, 'rules', name), 'utf8'));

/**
 * A bound of rules/ as a C++ literal (a positive integer, or the generator fails), times `scale`
 * (minutes to milliseconds).
 * @param {string} file @param {Record<string, unknown>} bounds @param {string} name
 */
function bound(file, bounds, name, scale = 1) {
  const v = Number(bounds[name]) * scale;
  if (!Number.isSafeInteger(v) || v < 1) throw new Error(`rules/${file} ${name} is not a positive integer: ${bounds[name]}`);
  return `${v}u`;
}

/**
 * The longest wait a tool's arguments may ask for (its deadline's maxMs; 0 when no tool takes
 * one): every call's deadline must hold it with the FactPack after it (static_assert in
 * bridge/src/limits.h), whichever tool declares it.
 */
function longestToolWait() {
  return Math.max(0, ...CONTRACT.map((t) => t.deadline?.maxMs ?? 0));
}

const DELIM = 'athena_tools';

/** The docs file with its generated table replaced by `table`. @param {string} text @param {string} table */
export function docsWithTable(text, table) {
  const begin = '<!-- tools:begin (generated from rules/tools.json: node bridge/gen-tools.mjs --docs) -->';
  const end = '<!-- tools:end -->';
  const i = text.indexOf(begin), j = text.indexOf(end);
  if (i < 0 || j < i) throw new Error(`docs/wire-protocol.md has no ${begin} ... ${end} block`);
  return `${text.slice(0, i + begin.length)}\n${table}\n${text.slice(j)}`;
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
const out = isMain ? process.argv[2] : null;
if (!isMain) {
  // imported (tests/node/tool-contract.test.mjs): docsWithTable only
} else if (out === '--docs') {
  const file = path.join(root, 'docs/wire-protocol.md');
  writeFileSync(file, docsWithTable(readFileSync(file, 'utf8'), wireTable()));
} else if (out) {
  const chunks = rules('native-chunks.json').bounds;
  const wire = rules('wire-bounds.json');
  // localFiles: the argument of a tool that names files on the user's computer, which the native
  // host resolves before the call goes on (bridge/src/host.cpp).
  const json = JSON.stringify({ tools: mcpTools(), factpack: CONTRACT.filter((t) => t.factpack).map((t) => t.name),
    groups: GROUPS, group: Object.fromEntries(CONTRACT.map((t) => [t.name, t.group])),
    localFiles: Object.fromEntries(CONTRACT.filter((t) => t.localFiles).map((t) => [t.name, t.localFiles])) });
  if (json.includes(`)${DELIM}"`)) throw new Error('the contract contains the raw-string delimiter');
  mkdirSync(path.dirname(out), { recursive: true });
  writeFileSync(out, `// Generated from rules/tools.json, rules/native-chunks.json and rules/wire-bounds.json by bridge/gen-tools.mjs: do not edit.\n#pragma once\n\n` +
    `#include <cstddef>\n\nnamespace athena::bridge {\ninline constexpr const char* kToolContractJson = R"${DELIM}(${json})${DELIM}";\n}  // namespace athena::bridge\n\n` +
    `namespace athena::bridge::wire {\n` +
    `inline constexpr std::size_t kChunkBytes = ${bound('native-chunks.json', chunks, 'chunkBytes')};\n` +
    `inline constexpr std::size_t kMaxChunks = ${bound('native-chunks.json', chunks, 'maxChunks')};\n` +
    `inline constexpr std::size_t kMaxMessageBytes = ${bound('native-chunks.json', chunks, 'maxMessageBytes')};\n` +
    `inline constexpr unsigned kCallDeadlineMaxMs = ${bound('wire-bounds.json', wire, 'callDeadlineMaxMs')};\n` +
    `inline constexpr unsigned kCallDeadlineGraceMs = ${bound('wire-bounds.json', wire, 'callDeadlineGraceMs')};\n` +
    `inline constexpr unsigned kLongestToolWaitMs = ${longestToolWait()}u;\n` +
    `inline constexpr unsigned kWakeAlarmMs = ${bound('wire-bounds.json', wire, 'wakeAlarmMinutes', 60_000)};\n` +
    `}  // namespace athena::bridge::wire\n`);
} else {
  console.error('usage: node bridge/gen-tools.mjs OUT.inc | --docs');
  process.exit(2);
}
