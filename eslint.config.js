// ESLint (flat config): `./athena test lint`, or `npx eslint .`.
// @eslint/js recommended plus rules that catch real bugs; each file gets the globals of the place
// it runs in (extension service worker / pages, the web page, Node).
import js from '@eslint/js';
import globals from 'globals';

const bugs = {
  // Off: deliberate in this code base (control characters are what quoteValue replaces; exact
  // column spacing is what the doctor tests match).
  'no-control-regex': 'off',
  'no-regex-spaces': 'off',
  // Unused parameters are left alone: fakes and handlers keep the signature they implement.
  'no-unused-vars': ['error', { args: 'none', caughtErrors: 'none', ignoreRestSiblings: true }],
  'no-undef': 'error',
  eqeqeq: ['error', 'always', { null: 'ignore' }],
  'no-self-compare': 'error',
  'no-template-curly-in-string': 'error',
  'no-unreachable-loop': 'error',
  'no-constant-binary-expression': 'error',
  'array-callback-return': 'error',
};

export default [
  {
    ignores: ['build/**', 'node_modules/**', 'extension/core/**', 'web/core/**', 'web/vendor/**', 'tests/.tmp/**', 'bench/.tmp/**', '.cache/**'],
  },
  js.configs.recommended,
  { rules: bugs, languageOptions: { ecmaVersion: 2022, sourceType: 'module' } },
  {
    // The MV3 extension: a service worker plus its popup/options pages; chrome.* everywhere.
    files: ['extension/lib/**/*.js', 'extension/ui/**/*.js', 'extension/sw.js'],
    languageOptions: { globals: { ...globals.browser, ...globals.serviceworker, ...globals.webextensions } },
  },
  {
    // Code that runs in the page (extension/page/, lib/page-code.js): a page's globals only, no
    // chrome.* and no service worker.
    files: ['extension/page/**/*.js'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // The playground page.
    files: ['web/*.js'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // The wasm wrapper runs in the extension, the web page and Node.
    files: ['wasm/*.mjs'],
    languageOptions: { globals: { ...globals['shared-node-browser'] } },
  },
  {
    // Node: tests, tools, benchmarks, servers. (Functions they pass to page.evaluate run in the
    // page, so browser globals are allowed there too.)
    files: ['**/*.mjs', 'web/serve.mjs', 'tests/**/*.js', 'bench/**/*.js'],
    ignores: ['wasm/*.mjs'],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
  },
  {
    // The browser end-to-end tests also run functions inside the extension (chrome.*).
    files: ['tests/e2e/**/*.mjs'],
    languageOptions: { globals: { ...globals.webextensions } },
  },
];
