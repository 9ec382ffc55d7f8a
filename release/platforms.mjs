// The platforms Athena Delta ships a bridge for: npm's names (process.platform / process.arch,
// the package.json os/cpu fields) and how to tell a binary's platform from its first bytes.
// Read by release/build.mjs and, copied into the package, by the launcher.

export const PLATFORMS = Object.freeze({
  'linux-x64': { os: 'linux', cpu: 'x64', exe: 'athena-bridge' },
  'linux-arm64': { os: 'linux', cpu: 'arm64', exe: 'athena-bridge' },
  'win32-x64': { os: 'win32', cpu: 'x64', exe: 'athena-bridge.exe' },
  'darwin-x64': { os: 'darwin', cpu: 'x64', exe: 'athena-bridge' },
  'darwin-arm64': { os: 'darwin', cpu: 'arm64', exe: 'athena-bridge' },
});

/** The npm package holding the binary of `platform` ("linux-x64"). */
export const platformPackage = (platform) => `athena-delta-${platform}`;

/**
 * The platform of an executable from its header (ELF, PE or Mach-O), or null when it is none of
 * ours. @param {Uint8Array} b the file's first bytes (4 KB is plenty)
 */
export function binaryPlatform(b) {
  const u16 = (o) => b[o] | (b[o + 1] << 8);
  const u32 = (o) => (b[o] | (b[o + 1] << 8) | (b[o + 2] << 16) | (b[o + 3] << 24)) >>> 0;
  if (b[0] === 0x7f && b[1] === 0x45 && b[2] === 0x4c && b[3] === 0x46) {  // ELF, little-endian
    const machine = u16(18);
    if (machine === 0x3e) return 'linux-x64';
    if (machine === 0xb7) return 'linux-arm64';
    return null;
  }
  if (b[0] === 0x4d && b[1] === 0x5a) {  // MZ, then the PE header at e_lfanew
    const pe = u32(0x3c);
    if (pe + 6 > b.length || u32(pe) !== 0x00004550) return null;
    return u16(pe + 4) === 0x8664 ? 'win32-x64' : null;
  }
  if (u32(0) === 0xfeedfacf) {  // Mach-O 64-bit
    const cpu = u32(4);
    if (cpu === 0x01000007) return 'darwin-x64';
    if (cpu === 0x0100000c) return 'darwin-arm64';
  }
  return null;
}
