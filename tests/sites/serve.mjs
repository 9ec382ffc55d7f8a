// The fixture sites, served from 127.0.0.1 only: real libraries nobody here wrote (Python docs
// from Debian's python3-doc, TodoMVC apps from npm `todomvc`, Bootstrap, Shoelace, Swagger UI,
// AG Grid, Tabulator, SweetAlert2) plus small pages written around them, on two ports. The second port is reached as
// http://localhost:<B>: 127.0.0.1:A and 127.0.0.1:B are the same site for Chromium and stay in
// process, while 127.0.0.1 vs localhost are different sites, so an iframe from `otherOrigin` is a
// real out-of-process iframe under site isolation.
//
//   import { startSites } from './serve.mjs';
//   const sites = await startSites();      // {origin, otherOrigin, url(path), otherUrl(path), close()}
//   sites.url('/sites/bootstrap.html')
//
// CLI: `node tests/sites/serve.mjs [portA portB]` prints the URLs and serves until Ctrl-C.
//
// Mounts (whole folders: add a page by adding a file):
//   /sites/...    tests/sites/ (our pages around the libraries; /sites/ext/ for extension tests)
//   /todomvc/...  node_modules/todomvc/examples/ (react, backbone, vanillajs, ... as shipped)
//   /npm/bootstrap/...  node_modules/bootstrap/dist/
//   /npm/shoelace/...   node_modules/@shoelace-style/shoelace/cdn/ (self-contained ES modules)
//   /npm/swagger-ui/... node_modules/swagger-ui-dist/ (Swagger UI's prebuilt bundle)
//   /npm/ag-grid/...    node_modules/ag-grid-community/dist/ (AG Grid Community's UMD build)
//   /npm/tabulator/...  node_modules/tabulator-tables/dist/ (Tabulator's data table)
//   /npm/sweetalert2/... node_modules/sweetalert2/dist/ (SweetAlert2's dialogs and toasts)
//   /npm/jquery/...     node_modules/jquery/dist/ (for Select2 and jQuery UI)
//   /npm/jquery-ui/...  node_modules/jquery-ui/dist/ (jQuery UI's widgets: tabs, checkboxradio)
//   /npm/select2/...    node_modules/select2/dist/ (Select2's searchable select boxes)
//   /npm/tom-select/... node_modules/tom-select/dist/ (Tom Select's select boxes and tag inputs)
//   /npm/sortablejs/... node_modules/sortablejs/ (SortableJS, a pointer-driven drag-and-drop library)
//   /npm/quill/...      node_modules/quill/dist/ (Quill's rich text editor)
//   /npm/vue/...        node_modules/vue/dist/ (Vue 3's global build, with its template compiler)
//   /npm/vue-router/... node_modules/vue-router/dist/ (vue-router's global build: client-side routes)
//   /pydoc/...    /usr/share/doc/python3-doc/html/ (Debian python3-doc)
//   /debdoc/rust/, /debdoc/mkdocs/, /debdoc/sphinx/, /debdoc/sphinx-panels/  Debian rust-doc, mkdocs-doc,
//                 sphinx-doc, python-sphinx-panels-doc (only to
//                 record tests/cases-unseen, which the tests read without them: apt-get install them first)
//   /debdoc/nodejs/  the Node.js API docs Debian's nodejs package ships (/usr/share/doc/nodejs/api)
//   /api/fail     a 500 with a JSON error body (and a token and a cookie to redact)
//   /api/big?mb=N a JSON body of N MiB (at most BIG_MAX_MB), streamed: a response too large to show
//   /slow?ms=N    answers after N ms (bounded by SLOW_MAX_MS), for network-idle tests
//   /many-frames?n=N&links=M  a page of N same-origin iframes and M links, written in its HTML
import { createServer } from 'node:http';
import { createReadStream, existsSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');

export const MOUNTS = Object.freeze({
  '/sites/': here,
  '/todomvc/': path.join(root, 'node_modules/todomvc/examples'),
  '/npm/bootstrap/': path.join(root, 'node_modules/bootstrap/dist'),
  '/npm/shoelace/': path.join(root, 'node_modules/@shoelace-style/shoelace/cdn'),
  '/npm/swagger-ui/': path.join(root, 'node_modules/swagger-ui-dist'),
  '/npm/ag-grid/': path.join(root, 'node_modules/ag-grid-community/dist'),
  '/npm/tabulator/': path.join(root, 'node_modules/tabulator-tables/dist'),
  '/npm/sweetalert2/': path.join(root, 'node_modules/sweetalert2/dist'),
  '/npm/jquery/': path.join(root, 'node_modules/jquery/dist'),
  '/npm/jquery-ui/': path.join(root, 'node_modules/jquery-ui/dist'),
  '/npm/select2/': path.join(root, 'node_modules/select2/dist'),
  '/npm/sortablejs/': path.join(root, 'node_modules/sortablejs'),
  '/npm/tom-select/': path.join(root, 'node_modules/tom-select/dist'),
  '/npm/quill/': path.join(root, 'node_modules/quill/dist'),
  '/npm/vue/': path.join(root, 'node_modules/vue/dist'),
  '/npm/vue-router/': path.join(root, 'node_modules/vue-router/dist'),
  '/pydoc/': '/usr/share/doc/python3-doc/html',
  // Pages recorded once into tests/cases-unseen (the agreement check on pages the compiler was
  // not tuned on); their packages are needed only to record again, never to test.
  '/debdoc/rust/': '/usr/share/doc/rust-doc/html',
  '/debdoc/mkdocs/': '/usr/share/doc/mkdocs/html',
  '/debdoc/sphinx/': '/usr/share/doc/sphinx-doc/html',
  '/debdoc/nodejs/': '/usr/share/doc/nodejs/api',
  '/debdoc/sphinx-panels/': '/usr/share/doc/python-sphinx-panels-doc/html',
});

/** Longest delay /slow may be asked for. */
export const SLOW_MAX_MS = 30_000;
/** The largest /api/big a test may ask for (MiB). */
export const BIG_MAX_MB = 64;

const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.mjs': 'text/javascript; charset=utf-8',
  '.jsx': 'text/jsx; charset=utf-8', '.css': 'text/css; charset=utf-8', '.json': 'application/json',
  '.svg': 'image/svg+xml', '.png': 'image/png', '.jpg': 'image/jpeg', '.gif': 'image/gif', '.ico': 'image/x-icon',
  '.woff': 'font/woff', '.woff2': 'font/woff2', '.ttf': 'font/ttf', '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json', '.wasm': 'application/wasm',
};

function resolveFile(urlPath) {
  for (const [prefix, dir] of Object.entries(MOUNTS)) {
    if (!urlPath.startsWith(prefix)) continue;
    const rel = decodeURIComponent(urlPath.slice(prefix.length));
    let file = path.resolve(dir, rel);
    if (file !== dir && !file.startsWith(dir + path.sep)) return null;  // no escaping the mount
    if (!existsSync(file)) return null;
    if (statSync(file).isDirectory()) file = path.join(file, 'index.html');
    if (!existsSync(file)) return null;
    // Symlinks (python3-doc's _static) may point elsewhere under /usr/share: allow only real files.
    return realpathSync(file);
  }
  return null;
}

/** Most iframes or links /many-frames writes. */
export const MANY_MAX = 100_000;

/**
 * A page of `n` same-origin iframes (each tests/sites/ext/frame-small.html, a button of its own)
 * and `links` links after them, all in the HTML: the parser adds them as it reads, yielding to the
 * browser between chunks, so a load that attaches too many can be stopped where it is (as on a
 * real page) instead of waiting out one script that builds them all. The load event waits for
 * every frame the parser added. "Reload widgets" gives every frame a new document (its script is in
 * the head, so a stopped load still has it).
 */
function manyFrames(n, links) {
  const parts = [`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Many frames</title>
<style>iframe { width: 120px; height: 40px; border: 1px solid #888; display: inline-block; }</style>
<script>
  let round = 0;
  function reloadAll() {
    round++;
    for (const [i, f] of [...document.getElementById('frames').children].entries()) f.src = \`/sites/ext/frame-small.html?i=\${i}&round=\${round}\`;
  }
</script></head>
<body>
<main>
  <h1>A page of many frames</h1>
  <button id="top" onclick="document.getElementById('out').textContent = 'Top pressed'">Top button</button>
  <button id="reload" onclick="reloadAll()">Reload widgets</button>
  <p id="out" role="status"></p>
  <div id="frames">
`];
  for (let i = 0; i < n; i++) parts.push(`<iframe title="Widget ${i}" src="/sites/ext/frame-small.html?i=${i}"></iframe>\n`);
  parts.push('</div>\n');
  for (let i = 0; i < links; i++) parts.push(`<a href="#report-${i}">Report ${i}</a>\n`);
  parts.push('</main>\n</body></html>\n');
  return parts.join('');
}

/** Gates a page can wait on (/gate?name=N answers "open" once a test opened N: tests/sites/ext/hang.html). */
const openGates = new Set();

function handler(req, res) {
  const url = new URL(req.url, 'http://x');
  if (url.pathname === '/gate') {
    res.writeHead(200, { 'content-type': 'text/plain', 'cache-control': 'no-store' });
    res.end(openGates.has(url.searchParams.get('name')) ? 'open' : 'closed');
    return;
  }
  if (url.pathname === '/slow') {
    const ms = Math.min(Math.max(0, Number(url.searchParams.get('ms')) || 0), SLOW_MAX_MS);
    setTimeout(() => { res.writeHead(200, { 'content-type': 'text/plain' }); res.end(`slept ${ms}`); }, ms);
    return;
  }
  if (url.pathname === '/many-frames') {
    const count = (name) => Math.min(Math.max(0, Number(url.searchParams.get(name)) || 0), MANY_MAX);
    res.writeHead(200, { 'content-type': TYPES['.html'], 'cache-control': 'no-store' });
    res.end(manyFrames(count('n'), count('links')));
    return;
  }
  if (url.pathname === '/api/fail') {  // a failing API call (network tool): 500 with a JSON error that carries a token
    res.writeHead(500, { 'content-type': 'application/json', 'cache-control': 'no-store', 'set-cookie': 'sid=s3cr3t-session; HttpOnly' });
    res.end(JSON.stringify({ error: 'database unavailable', retry: true, access_token: 'tok-123-secret' }));
    return;
  }
  if (url.pathname === '/api/big') {  // a huge response (network tool): N MiB of JSON, streamed in 1 MiB pieces
    const mb = Math.min(BIG_MAX_MB, Math.max(1, Number(url.searchParams.get('mb')) || 1));
    const piece = Buffer.alloc(1 << 20, 'a');
    res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store', 'content-length': String(mb * (1 << 20) + 2) });
    res.write('"');
    let left = mb;
    const more = () => { while (left > 0) { left--; if (!res.write(piece)) { res.once('drain', more); return; } } res.end('"'); };
    more();
    return;
  }
  if (url.pathname === '/redirect') {  // /redirect?to=URL: a server-side redirect (302), anywhere
    res.writeHead(302, { location: url.searchParams.get('to') ?? '/sites/' });
    res.end();
    return;
  }
  if (url.pathname === '/' || url.pathname === '/index.html') {
    res.writeHead(302, { location: '/sites/' });
    res.end();
    return;
  }
  const file = resolveFile(url.pathname);
  if (!file) {
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end(`not found: ${url.pathname}`);
    return;
  }
  res.writeHead(200, { 'content-type': TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream', 'cache-control': 'no-store' });
  createReadStream(file).pipe(res);
}

/** @param {number} port @param {(req: import('node:http').IncomingMessage) => void} [seen] told of every request first */
function listen(port, seen) {
  return new Promise((resolve, reject) => {
    const server = createServer((req, res) => { seen?.(req); handler(req, res); });
    server.on('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

/**
 * Starts both servers.
 * @param {{port?: number, otherPort?: number}} [opts] 0 (default) picks free ports
 */
export async function startSites(opts = {}) {
  const a = await listen(opts.port ?? 0);
  // Every request the other site receives, in order: a test of the block-list (the other site is
  // the one the user blocks) asserts that none arrives.
  /** @type {Array<{method: string, url: string, cookie: string}>} */
  const otherRequests = [];
  const b = await listen(opts.otherPort ?? 0, (req) => { otherRequests.push({ method: String(req.method), url: String(req.url), cookie: String(req.headers.cookie ?? '') }); });
  const origin = `http://127.0.0.1:${a.address().port}`;
  const otherOrigin = `http://localhost:${b.address().port}`;
  return {
    origin,
    otherOrigin,
    url: (p) => origin + p,
    otherUrl: (p) => otherOrigin + p,
    /** The requests the other site received (the live list: a test may empty it). */
    otherRequests,
    /** Opens gate `name` (a page polling /gate?name= goes on). @param {string} name */
    openGate: (name) => { openGates.add(name); },
    close: () => Promise.all([a, b].map((s) => new Promise((r) => { s.closeAllConnections?.(); s.close(() => r()); }))),
  };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [pa, pb] = process.argv.slice(2).map(Number);
  const sites = await startSites({ port: pa || 0, otherPort: pb || 0 });
  console.log(`fixture sites on ${sites.origin} (and ${sites.otherOrigin} for cross-site frames):`);
  for (const p of ['/sites/', '/todomvc/react/', '/todomvc/backbone/', '/sites/bootstrap.html', '/sites/shoelace.html',
    '/sites/frames.html', '/sites/big.html', '/sites/login.html', '/sites/tabs.html', '/sites/accordion.html',
    '/sites/confirm.html', '/sites/docs-index.html', '/sites/cookie-banner.html', '/sites/api-reference.html',
    '/sites/admin-users.html', '/sites/user-grid.html', '/pydoc/index.html']) console.log('  ' + sites.url(p));
  process.on('SIGINT', () => sites.close().then(() => process.exit(0)));
}
