// Steps an e2e test takes as the agent would: find a ref in what it was shown, act and take the
// answer in, find the browser page a tab shows. Shared by the tests that drive pages by role and name.
import assert from 'node:assert/strict';
import { until } from '../../support/wait.mjs';

/**
 * The ref of the element with this role and name in what the agent holds.
 * @param {import('../../support/factpack-text.mjs').AgentView} view @param {string} role @param {string} name
 */
export function refOf(view, role, name) {
  const e = [...view.elements.values()].find((x) => x.role === role && x.name === name);
  assert.ok(e, `no ${role} "${name}" among ${[...view.elements.values()].map((x) => `${x.role} "${x.name}"`).join(', ')}`);
  return e.ref;
}

/**
 * A tool call whose answer the view takes in; returns it. For a view begun partway through the
 * agent's session (one per test on a shared chain), which may be shown regions as unchanged that
 * it never held: actFitting checks what a view that saw every answer holds.
 * @param {any} chain @param {import('../../support/factpack-text.mjs').AgentView} view @param {string} tool @param {object} args
 */
export async function act(chain, view, tool, args) {
  const r = await chain.call(tool, args);
  if (!r.isError) view.apply(r.text);
  return r;
}

/**
 * A tool call whose FactPack the view takes in, and which must fit what the view holds (a page
 * seen before comes back as unchanged regions): for a view that saw every answer of the agent's
 * session. Returns the answer.
 * @param {any} chain @param {import('../../support/factpack-text.mjs').AgentView} view @param {string} tool @param {object} args
 */
export async function actFitting(chain, view, tool, args) {
  const r = await chain.call(tool, args);
  if (r.fp) assert.deepEqual(view.apply(r.fp), [], `${tool}: the FactPack does not apply to what the agent holds:\n${r.text}`);
  return r;
}

/** The Playwright page of the agent's tab (the one showing `path`). @param {any} chain @param {string} path */
export async function pageShowing(chain, path) {
  /** @type {import('playwright-core').Page | undefined} */
  let page;
  await until(`a page at ${path}`, async () => { page = chain.context.pages().find((/** @type {any} */ p) => p.url().includes(path)); return !!page; });
  return /** @type {import('playwright-core').Page} */ (page);
}
