// Generates the core's copy of the landmark table (rules/landmarks.json `table`, the one source):
//   node core/gen-landmarks.mjs OUT.inc   (CMake runs this at build time; core/src/compiler/regions.cpp and roles.cpp read it)
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const TABLE = new URL('../rules/landmarks.json', import.meta.url);
/** @type {import('../extension/lib/landmarks.js').LandmarkTable} */
const LANDMARKS = JSON.parse(readFileSync(TABLE, 'utf8')).table;

const out = process.argv[2];
if (!out) {
  console.error('usage: node core/gen-landmarks.mjs OUT.inc');
  process.exit(2);
}
/** A string as a C++ literal: plain lower-case words only (tags, roles, attribute names). @param {string} s */
const word = (s) => {
  if (!/^[a-z][a-z0-9-]*$/.test(s)) throw new Error(`rules/landmarks.json: not a plain word: ${JSON.stringify(s)}`);
  return `"${s}"`;
};
/** The Region enumerator of a region name: header -> Region::kHeader (the build fails on a name the core lacks). @param {string} r */
const enumerator = (r) => `Region::k${word(r).slice(1, 2).toUpperCase()}${r.slice(1)}`;
const maxRoles = Math.max(...LANDMARKS.landmarks.map((l) => l.roles.length));
const maxTags = Math.max(...LANDMARKS.landmarks.map((l) => l.tags.length));
const maxScopes = Math.max(...LANDMARKS.landmarks.map((l) => l.scopedBy.length));
/** @param {readonly string[]} list @param {number} n */
const padded = (list, n) => `{${[...list.map(word), ...Array(n - list.length).fill('""')].join(', ')}}`;
const rows = LANDMARKS.landmarks.map((l) =>
  `    {${enumerator(l.region)}, ${padded(l.roles, maxRoles)}, ${l.roles.length}, ${padded(l.tags, maxTags)}, ${l.tags.length}, ${l.named}, ${l.partOfDialog}, ${padded(l.scopedBy, maxScopes)}, ${l.scopedBy.length}, ${l.scopedNeedsName}},`);
const roleRows = Array.from({ length: Math.ceil(LANDMARKS.ariaRoles.length / 8) },
  (_, i) => `    ${LANDMARKS.ariaRoles.slice(i * 8, i * 8 + 8).map(word).join(', ')},`).join('\n');
mkdirSync(path.dirname(out), { recursive: true });
writeFileSync(out, `// Generated from rules/landmarks.json by core/gen-landmarks.mjs: do not edit.
#pragma once

#include <array>
#include <cstddef>
#include <string_view>

#include "athena/snapshot.h"

namespace athena::compiler::generated {

struct Landmark {
  Region region;
  std::array<std::string_view, ${maxRoles}> roles;  // the first role_count are used
  std::size_t role_count;
  std::array<std::string_view, ${maxTags}> tags;  // the first tag_count are used
  std::size_t tag_count;
  bool named;
  bool part_of_dialog;
  std::array<std::string_view, ${maxScopes}> scoped_by;  // the first scoped_by_count are used
  std::size_t scoped_by_count;
  bool scoped_needs_name;
};

inline constexpr std::array<Landmark, ${LANDMARKS.landmarks.length}> kLandmarks = {{
${rows.join('\n')}
}};

inline constexpr std::array<std::string_view, ${LANDMARKS.nameAttrs.length}> kLandmarkNameAttrs = {${LANDMARKS.nameAttrs.map(word).join(', ')}};

// Sectioning content by the scope role its tag gives: {tag, role}.
inline constexpr std::array<std::array<std::string_view, 2>, ${LANDMARKS.sectioning.length}> kSectioning = {{
${LANDMARKS.sectioning.map(([t, r]) => `    {${word(t)}, ${word(r)}},`).join('\n')}
}};

// The tokens of a role attribute that are roles (core/src/compiler/roles.cpp role_of).
inline constexpr std::array<std::string_view, ${LANDMARKS.ariaRoles.length}> kAriaRoles = {
${roleRows}
};

}  // namespace athena::compiler::generated
`);
