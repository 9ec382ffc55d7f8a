// release/platforms.mjs: ./athena release packs a binary under the platform its own header names
// (so a cross build lands in the right package), and nothing that is not one of ours.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { binaryPlatform, platformPackage, PLATFORMS } from '../../release/platforms.mjs';

const elf = (machine) => { const b = new Uint8Array(64); b.set([0x7f, 0x45, 0x4c, 0x46, 2, 1]); b[18] = machine & 0xff; b[19] = machine >> 8; return b; };
function pe(machine) {
  const b = new Uint8Array(256);
  b.set([0x4d, 0x5a]);
  b[0x3c] = 0x80;
  b.set([0x50, 0x45, 0, 0], 0x80);
  b[0x84] = machine & 0xff; b[0x85] = machine >> 8;
  return b;
}
const macho = (cpu) => { const b = new Uint8Array(32); new DataView(b.buffer).setUint32(0, 0xfeedfacf, true); new DataView(b.buffer).setUint32(4, cpu, true); return b; };

test('each platform is read from the binary header', () => {
  assert.equal(binaryPlatform(elf(0x3e)), 'linux-x64');
  assert.equal(binaryPlatform(elf(0xb7)), 'linux-arm64');
  assert.equal(binaryPlatform(pe(0x8664)), 'win32-x64');
  assert.equal(binaryPlatform(macho(0x01000007)), 'darwin-x64');
  assert.equal(binaryPlatform(macho(0x0100000c)), 'darwin-arm64');
});

test('anything else is not packed: another CPU, a script, a wasm module, a truncated PE', () => {
  assert.equal(binaryPlatform(elf(0x28)), null);              // 32-bit ARM
  assert.equal(binaryPlatform(pe(0x014c)), null);             // i386 PE
  assert.equal(binaryPlatform(new TextEncoder().encode('#!/bin/sh\n')), null);
  assert.equal(binaryPlatform(new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0])), null);
  assert.equal(binaryPlatform(new Uint8Array([0x4d, 0x5a, 0, 0])), null);
});

test('every platform has its package, named as npm will look it up', () => {
  assert.deepEqual(Object.keys(PLATFORMS).map(platformPackage),
    ['athena-delta-linux-x64', 'athena-delta-linux-arm64', 'athena-delta-win32-x64', 'athena-delta-darwin-x64', 'athena-delta-darwin-arm64']);
  for (const [name, p] of Object.entries(PLATFORMS)) assert.equal(name, `${p.os}-${p.cpu}`);
});
