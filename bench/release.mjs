// The release, measured (bench/release-results.md, a section indexed in bench/RESULTS.md): the size of
// each artefact of ./athena release against its aim, the time from a fresh HOME to the first
// FactPack using only the artefacts (tests/release/chain.test.mjs, run RUNS times), the glibc
// floor of the Linux binary, and what was run here on which OS and browser.
//   ./athena release && node bench/release.mjs
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = path.join(root, 'build/release-out');
const RUNS = 3;
const AIMS = { 'npm platform package': 5 * 1024 * 1024, 'Chrome Web Store zip': 1024 * 1024 };  // bytes, from issue 51
const rel = JSON.parse(readFileSync(path.join(OUT, 'release.json'), 'utf8'));
const kb = (n) => `${(n / 1024).toFixed(0)} KB`;

/** Unpacked bytes of a tarball or zip. */
function unpacked(file) {
  if (file.endsWith('.tgz')) {
    return execFileSync('tar', ['-tzvf', file], { encoding: 'utf8' }).split('\n').filter(Boolean)
      .reduce((s, line) => s + Number(line.trim().split(/\s+/)[2]), 0);
  }
  const last = execFileSync('unzip', ['-l', file], { encoding: 'utf8' }).trim().split('\n').pop();
  return Number(last.trim().split(/\s+/)[0]);
}

const sizeRows = rel.artefacts.map((a) => {
  const file = path.join(OUT, a.file);
  const aim = AIMS[a.kind];
  return `| ${a.file} | ${a.kind} | ${kb(a.bytes)} | ${kb(unpacked(file))} | ${aim ? `≤ ${kb(aim)}: ${a.bytes <= aim ? 'met' : 'MISSED'}` : ''} |`;
});

// The glibc floor: the highest GLIBC_ / GLIBCXX_ symbol version the packed Linux binary needs.
const tmp = mkdtempSync(path.join(os.tmpdir(), 'athena-release-bench-'));
const floors = [];
for (const a of rel.artefacts.filter((x) => x.kind === 'npm platform package' && x.platform.startsWith('linux-'))) {
  execFileSync('tar', ['-xzf', path.join(OUT, a.file), '-C', tmp]);
  // readelf reads an ELF of any machine (the arm64 binary too); a static binary has no dynamic symbols.
  const syms = execFileSync('readelf', ['--dyn-syms', '-W', path.join(tmp, 'package/bin/athena-bridge')], { encoding: 'utf8' });
  const highest = (prefix) => [...new Set(syms.match(new RegExp(`${prefix}_[0-9.]+`, 'g')) ?? [])]
    .sort((x, y) => x.localeCompare(y, 'en', { numeric: true })).pop();
  const glibc = highest('GLIBC');
  floors.push(glibc ? `${a.platform}: ${glibc}, ${highest('GLIBCXX') ?? 'no GLIBCXX'} (libstdc++)`
    : `${a.platform}: none (a static binary: it loads on any glibc, Debian 11 and Ubuntu 20.04 included)`);
  rmSync(path.join(tmp, 'package'), { recursive: true, force: true });
}

const times = [];
for (let i = 0; i < RUNS; i++) {
  const timing = path.join(tmp, `timing-${i}.json`);
  const r = spawnSync(process.execPath, ['--test', '--test-concurrency=1', 'tests/release/chain.test.mjs'],
    { cwd: root, env: { ...process.env, ATHENA_RELEASE_TIMING: timing }, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`tests/release/chain.test.mjs failed:\n${r.stdout}${r.stderr}`);
  times.push(JSON.parse(readFileSync(timing, 'utf8')).firstFactPackMs / 1000);
}
rmSync(tmp, { recursive: true, force: true });
times.sort((a, b) => a - b);

const md = `## Release: artefacts, install time, where it was run (bench/release.mjs)

\`./athena release\` ${rel.version} (platforms packed here: ${rel.platforms.join(', ')}; not built here: ${rel.notBuilt.join(', ')}).
Measured by \`node bench/release.mjs\` on ${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} cores, Node ${process.version}.

| artefact | kind | size | unpacked | aim |
|---|---|---|---|---|
${sizeRows.join('\n')}

**Fresh HOME to the first FactPack, from the artefacts alone**: ${times.map((t) => `${t.toFixed(1)} s`).join(', ')}
(median ${times[Math.floor(times.length / 2)].toFixed(1)} s; aim ≤ 60 s). One run of tests/release/chain.test.mjs: an empty HOME,
\`npm install --ignore-scripts --offline\` of the two tarballs, \`npx athena-delta install --user-data-dir\` (the copy
into ~/.local/share/athena-delta and the registration), headless Chromium loading the installed extension, an MCP
client (SDK 1.x) on \`npx athena-delta mcp\`, until its \`navigate\` answers a full FactPack. Downloads are not in
it: the tarballs are local, as they are until the packages are on the npm registry.

**glibc floor** of the packed binaries: ${floors.join('; ')}. (tests/cross/glibc-floor.sh checks it on every test run.)

### What was run here, on which OS and browser

| OS | browser | run here | not run here |
|---|---|---|---|
| Linux x64 (Debian 12) | Chromium 156 (Debian package), headless | npm install --ignore-scripts of the tarballs and \`npx athena-delta install / doctor / uninstall\` as a non-root user in a fresh HOME (tests/release/install.test.mjs); the whole chain from the artefacts with a custom profile, and a second profile told which browser is served (tests/release/chain.test.mjs); \`npx athena-delta mcp\` under the MCP SDK 1.x client and the SDK 2.x client pinned to 2026-07-28 | a desktop session (headed), the default profile (~/.config/chromium) with a real user's Chromium |
| Linux x64 | Chrome (stable, beta, dev, canary), Edge (stable, beta, dev), Brave, Vivaldi, Opera | their folders written by \`install\` when the browser is found (bridge/test/install.test.mjs, with fake folders and commands) | none of these browsers is installed here: no manifest was read by them |
| Linux x64 | Chromium from Snap, Chrome/Chromium/Brave/Edge from Flatpak | detected and reported as unable to start a native host (bridge/test/install.test.mjs) | the sandboxed browsers themselves |
| Linux arm64 | any | the bridge cross-built (g++-aarch64-linux-gnu), its Catch2 tests and the MCP tests run under qemu-user (tests/cross), the platform package packed | a real arm64 machine, any browser there |
| Windows x64 | any | the bridge cross-built (mingw-w64), its Catch2 tests, an MCP session of both eras, the named pipe and the HKCU registration of bridge/src/browsers.h under wine64 (tests/cross/windows.test.mjs), the platform package packed | a real Windows, any browser there, the launcher's copy step on Windows |
| macOS x64 / arm64 | any | – | no macOS toolchain here: the darwin packages are never built; the folders of bridge/src/browsers.h for macOS are untested |
| any | Chrome Web Store install | the store zip is built without \`key\` and a store id set at release time is allowed by the native host (tests/release/store-id.test.mjs) | no upload to the store; no store id exists yet |
| any | Claude Desktop | the .mcpb is validated and packed with @anthropic-ai/mcpb | loading the bundle in Claude Desktop (not available on Linux) |
`;
writeFileSync(path.join(root, 'bench/release-results.md'), md);
console.log(md);
