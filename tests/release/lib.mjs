// What the release tests share: the artefacts of ./athena release (build/release-out, or
// ATHENA_RELEASE_OUT), a fresh HOME, and commands run in it as a non-root user, the way a user
// installs: `npm install --ignore-scripts` of the tarballs, then `npx athena-delta ...`.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, lstatSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const OUT = path.resolve(process.env.ATHENA_RELEASE_OUT ?? path.join(root, 'build/release-out'));
/** The user the install runs as when the tests run as root (created if missing). */
export const TEST_USER = 'athena-release-test';

/** release.json of the artefacts, with the absolute path of each; fails plainly when there are none. */
export function release() {
  const file = path.join(OUT, 'release.json');
  if (!existsSync(file)) throw new Error(`no release artefacts in ${OUT}: run ./athena release`);
  const r = JSON.parse(readFileSync(file, 'utf8'));
  const at = (kind, platform) => {
    const a = r.artefacts.find((x) => x.kind === kind && (platform === undefined || x.platform === platform));
    if (!a) throw new Error(`release.json lists no ${kind}${platform ? ` for ${platform}` : ''}`);
    return path.join(OUT, a.file);
  };
  const here = `${process.platform}-${process.arch}`;
  return { ...r, here, at, mainTgz: at('npm package'), platformTgz: at('npm platform package', here), zip: at('Chrome Web Store zip'),
    mcpb: at('Claude Desktop bundle', here), serverJson: JSON.parse(readFileSync(path.join(OUT, 'server.json'), 'utf8')) };
}

/** {uid, gid, name} to run as: the test user when we are root, else ourselves. */
export function runAs() {
  if (process.getuid?.() !== 0) return { uid: process.getuid(), gid: process.getgid(), name: os.userInfo().username, root: false };
  if (spawnSync('id', ['-u', TEST_USER]).status !== 0) {
    execFileSync('useradd', ['--system', '--no-create-home', '--home-dir', '/nonexistent', '--shell', '/usr/sbin/nologin', TEST_USER]);
  }
  const uid = Number(execFileSync('id', ['-u', TEST_USER], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', TEST_USER], { encoding: 'utf8' }).trim());
  return { uid, gid, name: TEST_USER, root: true };
}

/**
 * A fresh folder (owned by the user): home/ (HOME), project/ (where the tarballs are installed),
 * run/ (XDG_RUNTIME_DIR) and the environment a login of that user would have, nothing else.
 */
export function freshHome(user) {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'athena-release-'));
  chmodSync(tmp, 0o755);
  const dirs = { tmp, home: path.join(tmp, 'home'), project: path.join(tmp, 'project'), run: path.join(tmp, 'run') };
  for (const d of [dirs.home, dirs.project, dirs.run]) mkdirSync(d, { mode: 0o700 });
  for (const d of [tmp, dirs.home, dirs.project, dirs.run]) chownSync(d, user.uid, user.gid);
  const env = {
    HOME: dirs.home, USER: user.name, LOGNAME: user.name, TMPDIR: dirs.tmp, XDG_RUNTIME_DIR: dirs.run, ATHENA_RUNTIME_DIR: dirs.run,
    PATH: `${path.dirname(process.execPath)}:/usr/local/bin:/usr/bin:/bin`, LANG: 'C.UTF-8',
    NPM_CONFIG_UPDATE_NOTIFIER: 'false', NPM_CONFIG_FUND: 'false', NPM_CONFIG_AUDIT: 'false',
  };
  return { ...dirs, env };
}

/**
 * The artefacts as the user can read them: when the tests run as root, the checkout may sit where
 * no other user can enter (a clone in /root on a stock machine), so the files the user installs
 * are copied into the user's fresh folder first. Answers the paths to use, in order.
 * @param {{root: boolean, uid: number, gid: number}} user @param {{tmp: string}} box @param {string[]} files
 */
export function handOver(user, box, files) {
  if (!user.root) return files;
  const dir = path.join(box.tmp, 'artefacts');
  mkdirSync(dir, { mode: 0o755 });
  chownSync(dir, user.uid, user.gid);
  return files.map((f) => {
    const to = path.join(dir, path.basename(f));
    copyFileSync(f, to);
    chownSync(to, user.uid, user.gid);
    return to;
  });
}

/** [command, args] that run `cmd args` as `user` with exactly `env`. */
export function asUser(user, env, cmd, args) {
  const envArgs = Object.entries(env).map(([k, v]) => `${k}=${v}`);
  if (!user.root) return ['env', ['-i', ...envArgs, cmd, ...args]];
  return ['runuser', ['-u', user.name, '--', 'env', '-i', ...envArgs, cmd, ...args]];
}

/** Runs a command as the user in `cwd`; returns {status, out} (stdout and stderr together). */
export function run(user, env, cwd, cmd, args) {
  const [c, a] = asUser(user, env, cmd, args);
  const r = spawnSync(c, a, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

/** Every path under dir (folders with a trailing /), except those under `skip` (relative names). */
export function tree(dir, skip = []) {
  const out = [];
  const walk = (d) => {
    for (const e of readdirSync(d).sort()) {
      const f = path.join(d, e);
      const rel = path.relative(dir, f);
      if (skip.some((s) => rel === s || rel.startsWith(`${s}/`))) continue;
      if (lstatSync(f).isDirectory()) { out.push(`${rel}/`); walk(f); } else out.push(rel);
    }
  };
  walk(dir);
  return out;
}
