// Page code of the screenshot's paint gate (lib/page-gate.js): a frame owner the user's policy
// withholds is hidden for the picture, in an isolated world, until the extension restores it.

/** Run on a frame owner in an isolated world: hides it until the restore kept under `key` runs. @this {any} @param {string} key */
export function hideUntilRestored(key) {
  const el = this, st = el.style;
  const was = ['visibility', 'opacity'].map((p) => [p, st.getPropertyValue(p), st.getPropertyPriority(p)]);
  const hidden = () => st.getPropertyValue('visibility') === 'hidden' && st.getPropertyPriority('visibility') === 'important' &&
    st.getPropertyValue('opacity') === '0' && st.getPropertyPriority('opacity') === 'important';
  const hide = () => { if (!hidden()) { st.setProperty('visibility', 'hidden', 'important'); st.setProperty('opacity', '0', 'important'); } };
  hide();
  const mo = new MutationObserver(hide);
  mo.observe(el, { attributes: true, attributeFilter: ['style'] });
  (/** @type {any} */ (globalThis)[key] ??= []).push(() => {
    mo.disconnect();
    for (const [p, v, prio] of was) { if (v) st.setProperty(p, v, prio); else st.removeProperty(p); }
  });
}

/** Runs, and forgets, the restores kept under `key` in this world. @param {string} key */
export function restoreAll(key) {
  (/** @type {any} */ (globalThis)[key] ?? []).splice(0).forEach((/** @type {any} */ f) => f());
}
