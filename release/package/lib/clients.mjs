// The MCP clients whose config `npx athena-delta install` prints (and edits with --write-config):
// where each keeps its user config on each OS, under which key, and in what shape.
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync, copyFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const SERVER_NAME = 'athena-delta';

/** @param {NodeJS.Platform} platform */
function appData(platform) {
  const home = os.homedir();
  if (platform === 'win32') return process.env.APPDATA ?? path.join(home, 'AppData', 'Roaming');
  if (platform === 'darwin') return path.join(home, 'Library', 'Application Support');
  return process.env.XDG_CONFIG_HOME || path.join(home, '.config');
}

/**
 * The clients: `folder` shows the client is installed (--write-config edits only those), `file` its
 * config, `key` the object holding servers, `entry` our server in its shape.
 * @param {string} bin absolute path of the installed bridge
 */
export function clients(bin, platform = process.platform) {
  const home = os.homedir();
  const base = appData(platform);
  const plain = { command: bin, args: ['mcp'] };
  return [
    { name: 'Claude Desktop', folder: path.join(base, 'Claude'), file: path.join(base, 'Claude', 'claude_desktop_config.json'), key: 'mcpServers', entry: plain },
    { name: 'Claude Code', folder: path.join(home, '.claude'), file: path.join(home, '.claude.json'), key: 'mcpServers',
      entry: { type: 'stdio', ...plain }, hint: `claude mcp add --scope user ${SERVER_NAME} -- "${bin}" mcp` },
    { name: 'Cursor', folder: path.join(home, '.cursor'), file: path.join(home, '.cursor', 'mcp.json'), key: 'mcpServers', entry: plain },
    { name: 'VS Code', folder: path.join(base, 'Code', 'User'), file: path.join(base, 'Code', 'User', 'mcp.json'), key: 'servers',
      entry: { type: 'stdio', ...plain } },
  ];
}

export const backupOf = (file) => `${file}.athena-delta-backup`;

function readJson(file) {
  if (!existsSync(file)) return {};
  const text = readFileSync(file, 'utf8');
  if (!text.trim()) return {};
  return JSON.parse(text);  // a file with comments (JSONC) throws: it is left alone, with a message
}

function writeAtomic(file, value) {
  const tmp = `${file}.athena-delta-tmp`;
  writeFileSync(tmp, `${JSON.stringify(value, null, 2)}\n`);
  renameSync(tmp, file);
}

/** Adds our server to one client's config, keeping a backup of the file as it was. Returns what it did. */
export function writeClientConfig(c) {
  if (!existsSync(c.folder)) return `not installed (no ${c.folder}): skipped`;
  let cfg;
  try { cfg = readJson(c.file); } catch (e) { return `${c.file} is not plain JSON (${e.message}): left alone, add the entry above by hand`; }
  if (typeof cfg !== 'object' || cfg === null || Array.isArray(cfg)) return `${c.file} is not a JSON object: left alone`;
  const servers = cfg[c.key] ?? {};
  if (JSON.stringify(servers[SERVER_NAME]) === JSON.stringify(c.entry)) return `${c.file}: already in place`;
  if (existsSync(c.file) && !existsSync(backupOf(c.file))) copyFileSync(c.file, backupOf(c.file));
  cfg[c.key] = { ...servers, [SERVER_NAME]: c.entry };
  writeAtomic(c.file, cfg);
  return `${c.file}: written${existsSync(backupOf(c.file)) ? ` (the file as it was: ${backupOf(c.file)})` : ''}`;
}

/** Removes our server from one client's config (only when it points at `bin`), and our backup. */
export function removeClientConfig(c, bin) {
  let cfg;
  try { cfg = readJson(c.file); } catch { return null; }
  const ours = cfg?.[c.key]?.[SERVER_NAME];
  rmSync(backupOf(c.file), { force: true });
  if (!ours || ours.command !== bin) return null;
  delete cfg[c.key][SERVER_NAME];
  writeAtomic(c.file, cfg);
  return `${c.file}: removed ${SERVER_NAME}`;
}
