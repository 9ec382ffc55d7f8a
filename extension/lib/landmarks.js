// The landmark rule: which element opens which region of the FactPack (<region name="nav">). One
// table, LANDMARKS, read by both languages: core/gen-landmarks.mjs generates the core's copy of it
// at build time (core/src/compiler/regions.cpp reads that header), and the page scripts
// (page-scripts.js, tools/read.js) pass it to landmarkOf / regionOf below, which run inside the
// page (their sources are embedded, so they use nothing outside their own bodies).
// rules/landmarks.json holds the cases; tests/unit/compiler/landmark_rule_test.cpp runs them
// through the compiler and extension/test/landmark-rule.test.mjs through these functions.
//
// The rule: an element's role is the first token of its role attribute that is an ARIA role, else
// its tag's own role. It opens region R when that role is one of R.roles, or when its role
// attribute gives no role and its tag is one of R.tags (a <header> or <footer> counts wherever it
// is, also inside <section> or <article>, where ARIA calls it sectionheader: agents read it as
// page furniture); a region that is `named` needs a non-blank one of LANDMARK_NAME_ATTRS (a form,
// as in ARIA). The innermost landmark wins, except that a region that is `partOfDialog` opens
// nothing inside a dialog: a dialog's own header and footer are part of the dialog.
// The page side takes the first token of the role attribute as the role, where the core skips
// tokens that are no ARIA role and keeps the tag's role for a presentational role on a focusable
// element (core/src/compiler/roles.cpp role_of): the cases keep to role attributes whose first
// token is an ARIA role.

/**
 * @typedef {{region: string, roles: readonly string[], tags: readonly string[], named: boolean, partOfDialog: boolean}} Landmark
 * @typedef {{landmarks: readonly Landmark[], nameAttrs: readonly string[]}} LandmarkTable
 * @typedef {{tag: string, attr: (name: string) => (string | null | undefined)}} LandmarkElement
 *   tag: the element's tag name, any case; attr: its attribute values (null when absent)
 */

/** @type {LandmarkTable} */
export const LANDMARKS = Object.freeze({
  landmarks: Object.freeze([
    { region: 'header', roles: ['banner'], tags: ['header'], named: false, partOfDialog: true },
    { region: 'nav', roles: ['navigation'], tags: ['nav'], named: false, partOfDialog: false },
    { region: 'main', roles: ['main'], tags: ['main'], named: false, partOfDialog: false },
    { region: 'aside', roles: ['complementary'], tags: ['aside'], named: false, partOfDialog: false },
    { region: 'footer', roles: ['contentinfo'], tags: ['footer'], named: false, partOfDialog: true },
    { region: 'dialog', roles: ['dialog', 'alertdialog'], tags: ['dialog'], named: false, partOfDialog: false },
    { region: 'search', roles: ['search'], tags: ['search'], named: false, partOfDialog: false },
    { region: 'form', roles: ['form'], tags: ['form'], named: true, partOfDialog: false },
  ].map((l) => Object.freeze({ ...l, roles: Object.freeze(l.roles), tags: Object.freeze(l.tags) }))),
  nameAttrs: Object.freeze(['aria-label', 'aria-labelledby', 'title']),
});

/** Every region name an agent can give (read region=, find region=): page, then the landmarks'. */
export const REGION_NAMES = Object.freeze(['page', ...LANDMARKS.landmarks.map((l) => l.region)]);

/**
 * The region an element opens ('' for none), by the rule above.
 * @param {LandmarkTable} table @param {LandmarkElement} el @returns {string}
 */
export function landmarkOf(table, el) {
  const tag = String(el.tag).toLowerCase();
  const roleAttr = el.attr('role');
  // As the core (core/src/compiler/text.cpp): ASCII whitespace splits tokens, ASCII letters fold,
  // and a name of whitespace and NBSPs only is blank.
  const role = roleAttr === null || roleAttr === undefined ? '' : (String(roleAttr).replace(/[A-Z]/g, (c) => c.toLowerCase()).split(/[\t\n\f\r ]+/).find(Boolean) ?? '');
  for (const l of table.landmarks) {
    if (!l.roles.includes(role) && !(role === '' && l.tags.includes(tag))) continue;
    if (l.named && !table.nameAttrs.some((a) => !/^[\t\n\f\r \u00a0]*$/.test(String(el.attr(a) ?? '')))) return '';
    return l.region;
  }
  return '';
}

/**
 * The region an element lives in: its innermost landmark's, 'page' outside any.
 * @param {LandmarkTable} table @param {LandmarkElement[]} chain the element's ancestors, outermost first, then the element
 * @param {(table: LandmarkTable, el: LandmarkElement) => string} opens landmarkOf (passed in: inside the page this function stands alone)
 * @returns {string}
 */
export function regionOf(table, chain, opens) {
  let region = 'page';
  for (const el of chain) {
    const r = opens(table, el);
    if (!r) continue;
    const l = table.landmarks.find((x) => x.region === r);
    if (region === 'dialog' && l && l.partOfDialog) continue;
    region = r;
  }
  return region;
}
