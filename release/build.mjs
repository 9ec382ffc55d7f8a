// ./athena release: packs what ./athena built into what a user installs (build/release-out/):
//   athena-delta-<version>.tgz              the npm package: the launcher (npx athena-delta ...) and
//                                           the extension with its wasm built in
//   athena-delta-<platform>-<version>.tgz   one per platform binary found in build/*/ (os/cpu set,
//                                           no install script: npm picks the one that matches)
//   athena-delta-extension-<version>.zip    the extension for a Chrome Web Store upload (no `key`)
//   athena-delta-<platform>-<version>.mcpb  a Claude Desktop bundle per platform (mcpb validate + pack)
//   server.json                             the MCP Registry entry
//   release.json                            what was packed, with sizes and sha256
//
//   node release/build.mjs [--out DIR] [--store-id ID] [--registry-name NAME] [--download-url URL]
//                          [--repository URL]
// --store-id (or ATHENA_STORE_ID): the Chrome Web Store id, allowed by the native host next to the
// pinned development id (extension/EXTENSION_ID) and shown as the store page. --download-url: where
// the .mcpb files will be published (server.json lists them with their sha256 only then).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync, chmodSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { mcpTools } from '../rules/tools.mjs';
import { PLATFORMS, binaryPlatform, platformPackage } from './platforms.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const rootPkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const VERSION = rootPkg.version;
const DEV_ID = readFileSync(path.join(root, 'extension/EXTENSION_ID'), 'utf8').trim();
const ID_RE = /^[a-p]{32}$/;

function parseArgs(argv) {
  const o = {
    out: path.join(root, 'build/release-out'),
    storeId: process.env.ATHENA_STORE_ID ?? '',
    registryName: 'io.github.athena-delta/athena-delta',
    downloadUrl: '',
    repository: '',
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i], v = () => {
      if (i + 1 >= argv.length) throw new Error(`${a} needs a value`);
      return argv[++i];
    };
    if (a === '--out') o.out = path.resolve(v());
    else if (a === '--store-id') o.storeId = v();
    else if (a === '--registry-name') o.registryName = v();
    else if (a === '--download-url') o.downloadUrl = v().replace(/\/+$/, '');
    else if (a === '--repository') o.repository = v();
    else throw new Error(`unknown option ${a} (see the head of release/build.mjs)`);
  }
  if (o.storeId && !ID_RE.test(o.storeId)) throw new Error(`--store-id '${o.storeId}' is not an extension id (32 letters a-p)`);
  if (!/^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/.test(o.registryName)) throw new Error(`--registry-name '${o.registryName}' is not NAMESPACE/NAME`);
  return o;
}

const sha256 = (file) => createHash('sha256').update(readFileSync(file)).digest('hex');
const writeJson = (file, value) => writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
const run = (cmd, args, cwd) => execFileSync(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });

/** Release binaries in build/<preset>/bridge/, one per platform (read from the binary itself). */
// Which presets count: a Release or MinSizeRel build without sanitizers or fuzzing.
function findBinaries() {
  const found = new Map();
  const buildDir = path.join(root, 'build');
  for (const preset of existsSync(buildDir) ? readdirSync(buildDir).sort() : []) {
    const cache = path.join(buildDir, preset, 'CMakeCache.txt');
    if (!existsSync(cache) || !/^CMAKE_BUILD_TYPE:\w+=(Release|MinSizeRel)$/m.test(readFileSync(cache, 'utf8'))) continue;
    if (/^ATHENA_(SANITIZE|FUZZ):BOOL=ON$/m.test(readFileSync(cache, 'utf8'))) continue;
    for (const name of ['athena-bridge', 'athena-bridge.exe']) {
      const file = path.join(buildDir, preset, 'bridge', name);
      if (!existsSync(file)) continue;
      const platform = binaryPlatform(readFileSync(file).subarray(0, 4096));
      if (!platform) continue;
      if (found.has(platform)) {
        // A preset named for the platform (a cross or a portable build: build/linux-x64-…) wins
        // over the host's plain release build; two of the same standing are the user's to settle.
        const named = (f) => path.basename(path.dirname(path.dirname(f))).includes(platform);
        if (named(found.get(platform)) === named(file)) throw new Error(`two release builds for ${platform}: ${found.get(platform)} and ${file}; remove one`);
        if (named(found.get(platform))) continue;
      }
      found.set(platform, file);
    }
  }
  return found;
}

// The strip of each platform's binutils (the host's own strip cannot read a foreign ELF or a PE).
const STRIP = { 'linux-x64': 'x86_64-linux-gnu-strip', 'linux-arm64': 'aarch64-linux-gnu-strip', 'win32-x64': 'x86_64-w64-mingw32-strip' };

/** Strips the symbols a user never needs (the binary is ~60 % smaller), when that platform's strip is here. */
function strip(platform, file) {
  const tool = STRIP[platform];
  if (!tool) return;
  try {
    run(tool, ['--strip-unneeded', file]);
  } catch (e) {
    if (/** @type {any} */ (e).code !== 'ENOENT') throw e;
    console.log(`note: ${tool} is not installed: the ${platform} binary is packed unstripped`);
  }
}

/** The extension as shipped: no tests, no type declarations, the wasm core present. */
function copyExtension(dest, { keepKey }) {
  const src = path.join(root, 'extension');
  if (!existsSync(path.join(src, 'core/athena_core.wasm'))) throw new Error('extension/core has no wasm module: run ./athena build first');
  rmSync(dest, { recursive: true, force: true });
  cpSync(src, dest, {
    recursive: true,
    filter: (f) => {
      const rel = path.relative(src, f);
      return !(rel === 'test' || rel.startsWith(`test${path.sep}`) || rel === 'README.md' || /\.d\.m?ts$/.test(rel));
    },
  });
  const manifestFile = path.join(dest, 'manifest.json');
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
  if (manifest.version !== VERSION) throw new Error(`extension/manifest.json is version ${manifest.version}, package.json ${VERSION}: make them one`);
  if (!keepKey) delete manifest.key;  // the store signs with its own key and refuses one in the upload
  writeJson(manifestFile, manifest);
}

function main() {
  const o = parseArgs(process.argv.slice(2));
  const out = o.out;
  rmSync(out, { recursive: true, force: true });
  const stage = path.join(out, 'stage');
  mkdirSync(stage, { recursive: true });
  const artefacts = [];
  const note = (file, kind, platform) => artefacts.push({ file: path.basename(file), kind, platform, bytes: statSync(file).size, sha256: sha256(file) });

  const binaries = findBinaries();
  if (binaries.size === 0) throw new Error('no release build of athena-bridge in build/*/bridge/: run ./athena release (it builds the release preset)');

  // One package per platform binary.
  for (const [platform, binary] of binaries) {
    const p = PLATFORMS[platform];
    const dir = path.join(stage, platformPackage(platform));
    mkdirSync(path.join(dir, 'bin'), { recursive: true });
    const dest = path.join(dir, 'bin', p.exe);
    cpSync(binary, dest);
    chmodSync(dest, 0o755);
    strip(platform, dest);
    writeJson(path.join(dir, 'package.json'), {
      name: platformPackage(platform), version: VERSION,
      description: `The athena-bridge binary of Athena Delta for ${platform} (installed by the athena-delta package)`,
      os: [p.os], cpu: [p.cpu], files: ['bin/'], preferUnplugged: true,
    });
    writeFileSync(path.join(dir, 'README.md'), `# ${platformPackage(platform)}\n\nThe \`athena-bridge\` binary for ${platform}. Install \`athena-delta\`, not this package: npm picks the one that matches your machine.\n`);
  }

  // The main package: launcher + extension (with its key: Load unpacked keeps the pinned id).
  const mainDir = path.join(stage, 'athena-delta');
  mkdirSync(mainDir, { recursive: true });
  cpSync(path.join(root, 'release/package'), mainDir, { recursive: true });
  cpSync(path.join(root, 'release/platforms.mjs'), path.join(mainDir, 'lib/platforms.mjs'));
  copyExtension(path.join(mainDir, 'extension'), { keepKey: true });
  writeJson(path.join(mainDir, 'package.json'), {
    name: 'athena-delta', version: VERSION, description: rootPkg.description,
    type: 'module', bin: { 'athena-delta': 'bin/athena-delta.mjs' },
    files: ['bin/', 'lib/', 'extension/', 'README.md'],
    engines: rootPkg.engines, mcpName: o.registryName,
    optionalDependencies: Object.fromEntries([...binaries.keys()].sort().map((pl) => [platformPackage(pl), VERSION])),
    athenaDelta: { extensionId: DEV_ID, storeExtensionId: o.storeId || null },
  });
  for (const dir of readdirSync(stage)) {
    const tgz = run('npm', ['pack', '--silent', '--pack-destination', out], path.join(stage, dir)).trim().split('\n').pop();
    note(path.join(out, tgz), dir === 'athena-delta' ? 'npm package' : 'npm platform package', dir === 'athena-delta' ? '' : dir.slice('athena-delta-'.length));
  }

  // The Chrome Web Store upload.
  const storeDir = path.join(stage, 'store-extension');
  copyExtension(storeDir, { keepKey: false });
  const zip = path.join(out, `athena-delta-extension-${VERSION}.zip`);
  run('zip', ['-q', '-X', '-r', zip, '.'], storeDir);
  note(zip, 'Chrome Web Store zip', '');

  // A Claude Desktop bundle per platform.
  const mcpb = path.join(root, 'node_modules/.bin/mcpb');
  for (const [platform, binary] of binaries) {
    const p = PLATFORMS[platform];
    const dir = path.join(stage, `mcpb-${platform}`);
    mkdirSync(path.join(dir, 'server'), { recursive: true });
    cpSync(path.join(stage, platformPackage(platform), 'bin', p.exe), path.join(dir, 'server', p.exe));
    void binary;
    writeJson(path.join(dir, 'manifest.json'), {
      manifest_version: '0.3', name: 'athena-delta', display_name: 'Athena Delta', version: VERSION,
      description: 'Drive your own Chromium-family browser; after each action, only what changed on the page.',
      long_description: 'Needs the Athena Delta browser extension and its native host: run `npx athena-delta install` once.',
      author: { name: 'Athena Delta contributors' },
      server: { type: 'binary', entry_point: `server/${p.exe}`, mcp_config: { command: `\${__dirname}/server/${p.exe}`, args: ['mcp'] } },
      tools: mcpTools().map((t) => ({ name: t.name, description: t.description })),
      compatibility: { platforms: [p.os] },
    });
    run(mcpb, ['validate', path.join(dir, 'manifest.json')]);
    const file = path.join(out, `athena-delta-${platform}-${VERSION}.mcpb`);
    run(mcpb, ['pack', dir, file]);
    note(file, 'Claude Desktop bundle', platform);
  }

  // The MCP Registry entry.
  const packages = [{ registryType: 'npm', identifier: 'athena-delta', version: VERSION, transport: { type: 'stdio' },
    runtimeHint: 'npx', packageArguments: [{ type: 'positional', value: 'mcp' }] }];
  if (o.downloadUrl) {
    for (const a of artefacts.filter((x) => x.kind === 'Claude Desktop bundle')) {
      packages.push({ registryType: 'mcpb', identifier: `${o.downloadUrl}/${a.file}`, version: VERSION, fileSha256: a.sha256, transport: { type: 'stdio' } });
    }
  }
  writeJson(path.join(out, 'server.json'), {
    $schema: 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json',
    name: o.registryName, title: 'Athena Delta',
    description: 'Your own browser for agents: a full snapshot once, then only what changed.',
    version: VERSION,
    ...(o.repository ? { repository: { url: o.repository, source: 'github' } } : {}),
    packages,
  });

  rmSync(stage, { recursive: true, force: true });
  const packed = [...binaries.keys()].sort();
  const missing = Object.keys(PLATFORMS).filter((pl) => !binaries.has(pl));
  writeJson(path.join(out, 'release.json'), { version: VERSION, extensionId: DEV_ID, storeExtensionId: o.storeId || null, platforms: packed, notBuilt: missing, artefacts });
  console.log(`athena release ${VERSION} in ${path.relative(root, out) || out}:`);
  for (const a of artefacts) console.log(`  ${a.file.padEnd(44)} ${(a.bytes / 1024).toFixed(0).padStart(6)} KB  ${a.kind}`);
  const from = packed.map((pl) => `${pl} (${path.relative(root, binaries.get(pl))})`);
  console.log(`platforms packed: ${from.join(', ')}${missing.length ? `; not built here: ${missing.join(', ')}` : ''}`);
  if (!o.storeId) console.log('no --store-id (ATHENA_STORE_ID): the native host allows the development id only');
}

try {
  main();
} catch (e) {
  console.error(`athena release: ${e instanceof Error ? e.message : e}`);
  process.exit(1);
}
