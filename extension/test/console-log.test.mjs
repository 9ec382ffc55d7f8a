// The console log's rules on CDP events as Chrome sends them (the real chain is in
// tests/e2e/console-evaluate.test.mjs): only from when the agent touched the tab (Runtime.enable
// replays what came before), only the page's own worlds of documents the policy lets the agent
// see, emptied by a new document in the main frame, repeats counted, bounded.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConsoleLog } from '../lib/console-log.js';
import { LIMITS } from '../lib/limits.js';

const T0 = 1_700_000_000_000;
/** A tab whose policy withholds blocked.test, whose network log holds request "r1". */
const tab = { frameOfSession: (/** @type {string} */ sid) => (sid === 'S1' ? 'F9' : undefined), visible: (/** @type {string} */ u) => !u.includes('blocked.test'), request: (/** @type {string} */ id) => id === 'r1' };
const ctx = (/** @type {number} */ id, /** @type {string} */ origin, main = true, frameId = 'F1') => ({ context: { id, origin, auxData: { frameId, isDefault: main } } });
const log = (/** @type {number} */ ctxId, /** @type {string} */ text, ts = T0 + 1, type = 'log') => ({ type, executionContextId: ctxId, timestamp: ts, args: [{ type: 'string', value: text }], stackTrace: { callFrames: [{ url: 'https://a.test/app.js', lineNumber: 9, columnNumber: 4 }] } });

function fresh() {
  const c = new ConsoleLog();
  c.begin(T0);
  c.onEvent('Runtime.executionContextCreated', ctx(1, 'https://a.test'), undefined, tab);
  c.onEvent('Runtime.executionContextCreated', ctx(2, 'https://a.test', false), undefined, tab);
  c.onEvent('Runtime.executionContextCreated', ctx(3, 'https://blocked.test', true, 'F2'), undefined, tab);
  return c;
}

test('what was logged before the agent touched the tab (replayed by Runtime.enable) is not recorded', () => {
  const c = fresh();
  c.onEvent('Runtime.consoleAPICalled', log(1, 'before', T0 - 5), undefined, tab);
  c.onEvent('Runtime.consoleAPICalled', log(1, 'after'), undefined, tab);
  assert.deepEqual(c.list().map((e) => e.text), ['after']);
  const none = new ConsoleLog();
  none.onEvent('Runtime.consoleAPICalled', log(1, 'not begun'), undefined, tab);
  assert.deepEqual(none.list(), []);
});

test('only the page\'s own worlds of documents the policy lets the agent see', () => {
  const c = fresh();
  c.onEvent('Runtime.consoleAPICalled', log(2, 'isolated world'), undefined, tab);
  c.onEvent('Runtime.consoleAPICalled', log(3, 'blocked frame'), undefined, tab);
  c.onEvent('Runtime.exceptionThrown', { timestamp: T0 + 2, exceptionDetails: { text: 'Uncaught', executionContextId: 3, exception: { description: 'Error: x' } } }, undefined, tab);
  c.onEvent('Runtime.consoleAPICalled', log(1, 'page'), undefined, tab);
  c.onEvent('Log.entryAdded', { entry: { source: 'network', level: 'error', text: 'Failed to load resource', url: 'https://blocked.test/x', timestamp: T0 + 3, networkRequestId: 'r2' } }, undefined, tab);
  c.onEvent('Log.entryAdded', { entry: { source: 'network', level: 'error', text: 'Failed to load resource', url: 'https://a.test/api', timestamp: T0 + 3, networkRequestId: 'r1' } }, undefined, tab);
  assert.deepEqual(c.list().map((e) => `${e.level} ${e.source} ${e.text}`), ['info console page', 'error network Failed to load resource']);
  assert.deepEqual(c.mainWorld('F1', undefined), { id: 1, origin: 'https://a.test' });
  assert.equal(c.mainWorld('F1', 'S1'), undefined);
});

test('levels, format strings, object previews with secret keys, exceptions and repeats', () => {
  const c = fresh();
  c.onEvent('Runtime.consoleAPICalled', { ...log(1, ''), type: 'warning', args: [{ type: 'string', value: '%s took %d ms%c' }, { type: 'string', value: 'load' }, { type: 'number', value: 12.7 }, { type: 'string', value: 'color: red' }] }, undefined, tab);
  c.onEvent('Runtime.consoleAPICalled', { ...log(1, ''), type: 'info', args: [{ type: 'string', value: 'user' }, { type: 'object', preview: { type: 'object', properties: [{ name: 'name', type: 'string', value: 'Ada' }, { name: 'apiKey', type: 'string', value: 'k' }], overflow: true } }] }, undefined, tab);
  for (let i = 0; i < 3; i++) c.onEvent('Runtime.consoleAPICalled', log(1, 'again', T0 + 1, 'error'), undefined, tab);
  c.onEvent('Runtime.exceptionThrown', { timestamp: T0 + 2, exceptionDetails: { text: 'Uncaught', executionContextId: 1, url: 'https://a.test/app.js', lineNumber: 0, columnNumber: 7, exception: { description: 'TypeError: f is not a function\n    at g (https://a.test/app.js:1:8)' } } }, undefined, tab);
  assert.deepEqual(c.list().map((e) => [e.level, e.source, e.text, e.line, e.col, e.times]), [
    ['warning', 'console', 'load took 12 ms', 10, 5, 1],
    ['info', 'console', 'user {name: "Ada", apiKey: [redacted], …}', 10, 5, 1],
    ['error', 'console', 'again', 10, 5, 3],
    ['error', 'exception', 'Uncaught TypeError: f is not a function', 1, 8, 1],
  ]);
});

test('a new document in the main frame empties the log; a frame\'s navigation does not', () => {
  const c = fresh();
  c.onEvent('Runtime.consoleAPICalled', log(1, 'old page'), undefined, tab);
  c.onEvent('Page.frameNavigated', { frame: { id: 'F2', parentId: 'F1', url: 'https://a.test/frame' } }, undefined, tab);
  assert.equal(c.list().length, 1);
  c.onEvent('Page.frameNavigated', { frame: { id: 'F1', url: 'https://a.test/next' } }, undefined, tab);
  assert.deepEqual([c.list().length, c.since], [0, 'https://a.test/next']);
});

test('bounded: the oldest go first and are counted; the console objects are let go every so often', () => {
  const c = fresh();
  let releases = 0;
  for (let i = 0; i < LIMITS.consoleLogMax + 7; i++) if (c.onEvent('Runtime.consoleAPICalled', log(1, `m${i}`), undefined, tab)) releases++;
  assert.equal(c.list().length, LIMITS.consoleLogMax);
  assert.equal(c.dropped, 7);
  assert.equal(c.list()[0].text, 'm7');
  assert.equal(releases, Math.floor((LIMITS.consoleLogMax + 7) / LIMITS.consoleReleaseEvery));
});
