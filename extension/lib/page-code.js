// Code that runs in the page lives as real functions in extension/page/ (linted and type-checked
// like the rest); CDP takes it as text (Runtime.callFunctionOn's functionDeclaration,
// Runtime.evaluate's expression). This turns such a function into that text when the extension
// loads, from the function's own source: Function.prototype.toString returns the exact source
// text (ES2019), so what eslint and tsc checked is, byte for byte, what the page runs, and there
// is no generated copy to go stale or to hide from a reader (docs/design.md, "Page code").
//
// A page function runs in the page alone: nothing of the extension is there. What it uses from
// outside its own body (a shared rule such as visibility.js whyHidden, a table, a limit) is
// named in `scope`, under the very name its body uses (its page file imports the same name, so
// lint and tsc see it): each is put in front of the function, a function by its own source, a
// value as JSON. A value object goes with only the properties the sources read as `name.prop`
// (LIMITS sends the few bounds used, not all of them), or whole when a source uses it bare.

/**
 * The text CDP runs for `fn`: its own source, or, when it uses names from `scope`, a function of
 * the same arguments and `this` that declares those names and calls it.
 * @param {Function} fn @param {Record<string, unknown>} [scope]
 * @returns {string}
 */
export function pageFunction(fn, scope = {}) {
  const own = String(fn);
  const names = Object.keys(scope);
  if (names.length === 0) return own;
  const sources = [own, ...names.map((n) => (typeof scope[n] === 'function' ? String(scope[n]) : ''))].join('\n');
  const decls = names.map((n) => `  const ${n} = ${valueSource(n, scope[n], sources)};`);
  return `function (...args) {\n${decls.join('\n')}\n  return (${own}).apply(this, args);\n}`;
}

/**
 * An expression calling page function `fn` (from pageFunction's text) with `args` as JSON, for
 * Runtime.evaluate. @param {string} fn @param {unknown[]} args
 */
export const callExpression = (fn, ...args) => `(${fn}).call(null${args.map((a) => `, ${JSON.stringify(a)}`).join('')})`;

/** @param {string} name @param {unknown} value @param {string} sources */
function valueSource(name, value, sources) {
  if (typeof value === 'function') return String(value);
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const esc = name.replace(/[$]/g, '\\$');
    const bare = new RegExp(`\\b${esc}\\b(?!\\s*\\.)`).test(sources.replace(new RegExp(`\\bconst ${esc}\\b`, 'g'), ''));
    if (!bare) {
      /** @type {Record<string, unknown>} */
      const used = {};
      const obj = /** @type {Record<string, unknown>} */ (value);
      for (const m of sources.matchAll(new RegExp(`\\b${esc}\\.([A-Za-z_$][\\w$]*)`, 'g'))) {
        if (!(m[1] in obj)) throw new Error(`page code reads ${name}.${m[1]}, which ${name} does not have`);
        used[m[1]] = obj[m[1]];
      }
      return JSON.stringify(used);
    }
  }
  return JSON.stringify(value);
}
