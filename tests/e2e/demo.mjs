// ./athena demo: the product as a user meets it. Chromium with the extension (headed when a
// display is available), the native host registered in a throwaway profile, the fixture sites on
// 127.0.0.1, and a scripted agent session through the official MCP SDK client: every FactPack
// printed as it arrives with its token count (o200k_base) next to the token count of a full
// snapshot of the same state (the `snapshot` tool, asked right after). Ctrl-C cleans up.
import { startSites } from '../sites/serve.mjs';
import { startChain } from './lib/chain.mjs';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { countTokens } from '../../bench/lib/tokens.mjs';
import { capture } from '../../extension/lib/capture.js';
import { root } from './lib/chain.mjs';
import { AgentView, normText, parseFactPack } from '../support/factpack-text.mjs';

// For the comparison column only: the same page state as a full snapshot from a fresh engine (no
// dedup, what a full snapshot per step would cost), captured over Playwright's own CDP session
// with the very capture code the extension uses, diffed by the very wasm module it loads.
const { loadAthena } = await import(path.join(root, 'extension/core/athena.mjs'));
const athena = await loadAthena({ wasmBinary: readFileSync(path.join(root, 'extension/core/athena_core.wasm')) });
let currentUrl = '';
async function fullSnapshotTokens() {
  const pages = chain.context.pages().filter((p) => p.url().split('#')[0] === currentUrl.split('#')[0]);
  const page = pages[pages.length - 1];
  if (!page) return NaN;
  const cdp = await chain.context.newCDPSession(page);
  const oopifs = [];
  const sessions = new Map();
  for (const frame of page.frames()) {
    if (frame === page.mainFrame()) continue;
    try {
      const s = await chain.context.newCDPSession(frame);
      const id = (await s.send('Page.getFrameTree')).frameTree.frame.id;
      sessions.set(id, s);
      oopifs.push({ frameId: id, sessionId: id });
    } catch { /* same-process frame: in the page's own snapshot */ }
  }
  const send = (m, p, sid) => (sid === undefined ? cdp : sessions.get(sid)).send(m, p);
  const { capture: cap } = await capture(send, { oopifs });
  for (const s of [cdp, ...sessions.values()]) await s.detach().catch(() => {});
  const engine = athena.createEngine();
  try {
    engine.openPage({ context: 0, page: 1 });
    return countTokens(engine.snapshot({ context: 0, page: 1 }, JSON.stringify(cap)).text);
  } finally {
    engine.dispose();
  }
}

const tty = process.stdout.isTTY;
const bold = (s) => (tty ? `\x1b[1m${s}\x1b[0m` : s);
const dim = (s) => (tty ? `\x1b[2m${s}\x1b[0m` : s);
const step = (s) => console.log(bold(`\n==> ${s}`));

const headless = process.argv.includes('--headless') || !process.env.DISPLAY;
let sites = null;
let chain = null;
async function cleanup() {
  await chain?.close().catch(() => {});
  await sites?.close().catch(() => {});
}
process.on('SIGINT', () => { console.log('\ninterrupted: stopping Chromium, the bridge and the sites'); cleanup().then(() => process.exit(130)); });

// What the agent knows: built from the FactPack TEXT it was shown (what the model reads), every
// later FactPack applied to it (tests/support/factpack-text.mjs).
const view = new AgentView();
const rows = [];

/** The ref of a role+name the agent has seen; when the text trimmed it, the gap's hint says to use find. */
async function find(role, name) {
  const e = view.findElement(name, role);
  if (e && normText(e.name) === normText(name)) return e.ref;
  const r = await chain.call('find', { role, name });
  if (r.isError) throw new Error(`find ${role} "${name}": ${r.text}`);
  const ours = countTokens(r.text);
  console.log(bold(`\n--- not in the view (trimmed): find ${role} "${name}": ${ours} tokens`));
  process.stdout.write(dim(r.text.endsWith('\n') ? r.text : r.text + '\n'));
  rows.push({ label: `find "${name}"`, type: 'find', ours, full: 0 });
  view.apply(r.text);
  const found = view.findElement(name, role);
  if (!found) throw new Error(`the agent has seen no ${role} "${name}", not even through find`);
  return found.ref;
}

async function act(label, tool, args) {
  const r = await chain.call(tool, { ...args, ...(tool === 'navigate' ? {} : { version: view.version }) });
  if (r.isError) throw new Error(`${label}: ${r.text}`);
  const ours = countTokens(r.text);
  const fp = parseFactPack(r.text);
  if (fp.url) currentUrl = fp.url;
  const fullTokens = await fullSnapshotTokens();
  view.apply(fp);
  console.log(bold(`\n--- ${label}: ${tool} -> ${fp.type}${fp.reason ? ` (${fp.reason})` : ''}: ${ours} tokens; a full snapshot: ${fullTokens} tokens`));
  process.stdout.write(dim(r.text.endsWith('\n') ? r.text : r.text + '\n'));
  rows.push({ label, type: fp.type, ours, full: fullTokens });
  return fp;
}

try {
  step('Serving the fixture sites on 127.0.0.1');
  sites = await startSites();
  console.log(`  ${sites.origin} (and ${sites.otherOrigin} for a cross-site iframe)`);
  step(`Starting Chromium (${headless ? 'headless' : 'headed'}) with the Athena Delta extension, the native host and an MCP client`);
  chain = await startChain({ headless, clientName: 'athena-demo', log: (s) => console.log(`  ${s}`) });
  console.log('  connected: agent -> athena-bridge mcp -> native host -> extension -> chrome.debugger');

  step('An agent shops on a Bootstrap page');
  await act('open the shop', 'navigate', { url: sites.url('/sites/bootstrap.html') });
  await act('open the Account menu', 'click', { ref: await find('button', 'Account') });
  await act('close it', 'press', { keys: 'Escape' });
  await act('add to cart (a modal opens)', 'click', { ref: await find('button', 'Add to cart') });
  await act('write a gift note', 'type', { ref: await find('textbox', 'Gift note'), text: 'Happy birthday' });
  await act('keep shopping (the modal closes)', 'click', { ref: await find('button', 'Keep shopping') });

  step('TodoMVC (React): add two todos, filter');
  await act('open TodoMVC', 'navigate', { url: sites.url('/todomvc/react/index.html') });
  await act('add "Buy milk"', 'type', { ref: await find('textbox', 'What needs to be done?'), text: 'Buy milk', submit: true });
  await act('add "Walk the dog"', 'type', { ref: await find('textbox', 'What needs to be done?'), text: 'Walk the dog', submit: true });
  await act('show the active ones', 'click', { ref: await find('link', 'Active') });

  step('The Python documentation: pages sharing a big navigation, and back to the index');
  await act('open the library index', 'navigate', { url: sites.url('/pydoc/library/index.html') });
  await act('open "Text Processing Services"', 'click', { ref: await find('link', 'Text Processing Services') });
  await act('back to the index (seen_in)', 'back', {});
  await act('open "Data Types"', 'click', { ref: await find('link', 'Data Types') });

  step('Summary (tokens, o200k_base)');
  console.log('step'.padEnd(38) + 'FactPack'.padEnd(16) + 'tokens'.padStart(8) + 'full snapshot'.padStart(15));
  let O = 0, F = 0;
  for (const r of rows) {
    O += r.ours; F += r.full;
    console.log(r.label.slice(0, 36).padEnd(38) + r.type.padEnd(16) + String(r.ours).padStart(8) + String(r.full).padStart(15));
  }
  console.log('all'.padEnd(54) + String(O).padStart(8) + String(F).padStart(15) + `   (${(F / O).toFixed(1)}x fewer tokens)`);
  console.log(dim('"full snapshot" = our own full snapshot of the same state from a fresh engine (already trimmed, no dedup);'));
  console.log(dim('peers send more: ./athena bench compares with Playwright MCP, chrome-devtools-mcp and agent-browser (bench/RESULTS.md).'));
} catch (e) {
  console.error(`\ndemo failed: ${e.message}`);
  process.exitCode = 1;
} finally {
  await cleanup();
}
