// One naming (issue 54): a role or an accessible name is computed in one place, the core's
// compiler (core/src/compiler/roles.cpp, accname.cpp); the extension asks it
// (engine.describeNode) when it names a node to the agent, as in "what covers the target".
// This test fails if a calculation of a role or a name comes back into code that runs in the
// page: every string of page code that extension/lib exports is searched for the two shapes
// such code takes, a table from tags to implicit roles and an answer that carries a role with a
// name. (The compiler's own tables are tested in tests/unit/compiler/accname_spec_test.cpp.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';

const lib = new URL('../lib/', import.meta.url);
const files = [
  ...readdirSync(lib).filter((f) => f.endsWith('.js')).map((f) => new URL(f, lib)),
  ...readdirSync(new URL('tools/', lib)).filter((f) => f.endsWith('.js')).map((f) => new URL(`tools/${f}`, lib)),
];

/** Exported strings that are page code: a function's source, sent by Runtime.callFunctionOn or evaluate. */
async function pageCode() {
  /** @type {Array<[string, string]>} */
  const out = [];
  for (const f of files) {
    const m = await import(f.href);
    for (const [name, v] of Object.entries(m))
      if (typeof v === 'string' && /^\s*(\(?\s*(async\s+)?function\b|\(\s*\(|\()/.test(v)) out.push([`${f.pathname.split('/extension/')[1]} ${name}`, v]);
  }
  return out;
}

// `{ a: 'link', button: 'button', select: 'combobox' }`: HTML-AAM's implicit roles, restated.
const ROLE_TABLE = /\b(a|select|textarea|summary|img|button)\s*:\s*['"](link|combobox|textbox|button|img|image)['"]/;
// `return { role, tag, name: ... }`: an element's role and name worked out in the page.
const ROLE_AND_NAME = /return\s*\{[^}]*\brole\b[^}]*\bname\b|return\s*\{[^}]*\bname\b[^}]*\brole\b/;

test('the extension exports page code, and these checks see it', async () => {
  const code = await pageCode();
  assert.ok(code.length >= 10, `page code found: ${code.map(([n]) => n).join(', ')}`);
  // The two shapes are what the page-side describer had before the core named nodes for it.
  const before = "function () { const implicit = { a: 'link', button: 'button' }; return { role, tag, name: String(name) }; }";
  assert.match(before, ROLE_TABLE);
  assert.match(before, ROLE_AND_NAME);
});

test('no page code computes a role or an accessible name: the core does (engine.describeNode)', async () => {
  for (const [name, src] of await pageCode()) {
    assert.doesNotMatch(src, ROLE_TABLE, `${name} maps tags to roles in the page`);
    assert.doesNotMatch(src, ROLE_AND_NAME, `${name} answers a role and a name worked out in the page`);
  }
});
