// The playground's static server (127.0.0.1 only): web/ itself, the wasm core staged into
// web/core by ./athena build, the recorded corpus as traces, TodoMVC for live mode and the
// tokenizer. `./athena demo --web` runs it; `node web/serve.mjs [port]` too.
//
//   /                     web/ (index.html, app.js, live-capture.js, ...)
//   /traces/index.json    [{name, description, steps}] from tests/cases
//   /traces/<case>/<step>/capture.json | events.json | step.json   (gunzipped on the fly)
//   /todomvc/...          node_modules/todomvc/examples (same origin: live mode reads its DOM)
//   /npm/js-tiktoken/...  node_modules/js-tiktoken/dist (token counts in the page)
//   /extension/lib/...    extension/lib (live mode captures with the extension's style list)
import { createServer } from 'node:http';
import { existsSync, readdirSync, readFileSync, statSync, createReadStream } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const CASES = process.env.ATHENA_CASES_DIR ?? path.join(root, 'tests/cases');
const MOUNTS = [
  ['/todomvc/', path.join(root, 'node_modules/todomvc/examples')],
  ['/npm/js-tiktoken/', path.join(root, 'node_modules/js-tiktoken/dist')],
  ['/extension/lib/', path.join(root, 'extension/lib')],
  ['/', here],
];
const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.mjs': 'text/javascript', '.css': 'text/css',
  '.json': 'application/json', '.wasm': 'application/wasm', '.jsx': 'text/jsx', '.png': 'image/png', '.svg': 'image/svg+xml' };

function traces() {
  if (!existsSync(CASES)) return [];
  return readdirSync(CASES).filter((c) => statSync(path.join(CASES, c)).isDirectory()).sort().map((c) => {
    const meta = existsSync(path.join(CASES, c, 'case.json')) ? JSON.parse(readFileSync(path.join(CASES, c, 'case.json'), 'utf8')) : {};
    const steps = readdirSync(path.join(CASES, c)).filter((s) => statSync(path.join(CASES, c, s)).isDirectory()).sort();
    return { name: c, description: meta.description ?? '', steps };
  });
}

function send(res, code, type, body) {
  res.writeHead(code, { 'content-type': type, 'cache-control': 'no-store' });
  res.end(body);
}

function handler(req, res) {
  const url = new URL(req.url, 'http://x');
  const p = decodeURIComponent(url.pathname);
  if (p === '/traces/index.json') return send(res, 200, 'application/json', JSON.stringify(traces()));
  const m = /^\/traces\/([\w.-]+)\/([\w.-]+)\/(capture|events|step)\.json$/.exec(p);
  if (m) {
    const dir = path.join(CASES, m[1], m[2]);
    const gz = path.join(dir, `${m[3]}.json.gz`), plain = path.join(dir, `${m[3]}.json`);
    if (existsSync(gz)) return send(res, 200, 'application/json', gunzipSync(readFileSync(gz)));
    if (existsSync(plain)) return send(res, 200, 'application/json', readFileSync(plain));
    return send(res, 404, 'text/plain', `no ${m[3]} for ${m[1]}/${m[2]}`);
  }
  for (const [prefix, dir] of MOUNTS) {
    if (!p.startsWith(prefix)) continue;
    let file = path.resolve(dir, p.slice(prefix.length));
    if (file !== dir && !file.startsWith(dir + path.sep)) return send(res, 403, 'text/plain', 'outside the site');
    if (existsSync(file) && statSync(file).isDirectory()) file = path.join(file, 'index.html');
    if (!existsSync(file)) continue;
    res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' });
    return createReadStream(file).pipe(res);
  }
  send(res, 404, 'text/plain', `not found: ${p}`);
}

/** Starts the server; resolves {url, close}. */
export function startPlayground(port = 0) {
  if (!existsSync(path.join(here, 'core/athena_core.wasm'))) {
    throw new Error('web/core has no wasm module: run ./athena build (it stages the module into web/core)');
  }
  return new Promise((resolve, reject) => {
    const server = createServer(handler);
    server.on('error', reject);
    server.listen(port, '127.0.0.1', () => resolve({
      url: `http://127.0.0.1:${server.address().port}/`,
      close: () => new Promise((r) => { server.closeAllConnections?.(); server.close(() => r()); }),
    }));
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const s = await startPlayground(Number(process.argv[2]) || 8765);
  console.log(`FactPack playground: ${s.url}  (Ctrl-C to stop)`);
}
