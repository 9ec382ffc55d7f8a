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
// Which tokens are ARIA roles is the table's too (ariaRoles, a closed list: a role is printed
// unquoted in every line an agent reads, so a page's own token must never reach the output); the
// core's role_of (core/src/compiler/roles.cpp) reads the generated copy. A presentational role
// (none, presentation) on a focusable element keeps the tag's role, as ARIA says: the landmark
// tags are focusable only through tabindex or contenteditable, which is what landmarkOf checks.

/**
 * @typedef {{region: string, roles: readonly string[], tags: readonly string[], named: boolean, partOfDialog: boolean}} Landmark
 * @typedef {{landmarks: readonly Landmark[], nameAttrs: readonly string[], ariaRoles: readonly string[]}} LandmarkTable
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
  // ARIA 1.2 roles Chrome accepts in a role attribute, then the DPub-ARIA 1.1 and Graphics-ARIA roles.
  ariaRoles: Object.freeze([
    'alert', 'alertdialog', 'application', 'article', 'banner', 'blockquote', 'button', 'caption', 'cell',
    'checkbox', 'code', 'columnheader', 'combobox', 'comment', 'complementary', 'contentinfo', 'definition',
    'deletion', 'dialog', 'directory', 'document', 'emphasis', 'feed', 'figure', 'form', 'generic', 'grid',
    'gridcell', 'group', 'heading', 'img', 'image', 'insertion', 'link', 'list', 'listbox', 'listitem', 'log',
    'main', 'mark', 'marquee', 'math', 'menu', 'menubar', 'menuitem', 'menuitemcheckbox', 'menuitemradio',
    'meter', 'navigation', 'none', 'note', 'option', 'paragraph', 'presentation', 'progressbar', 'radio',
    'radiogroup', 'region', 'row', 'rowgroup', 'rowheader', 'scrollbar', 'search', 'searchbox', 'separator',
    'slider', 'spinbutton', 'status', 'strong', 'subscript', 'superscript', 'switch', 'tab', 'table', 'tablist',
    'tabpanel', 'term', 'textbox', 'time', 'timer', 'toolbar', 'tooltip', 'tree', 'treegrid', 'treeitem',
    'doc-abstract', 'doc-acknowledgments', 'doc-afterword', 'doc-appendix', 'doc-backlink', 'doc-biblioentry',
    'doc-bibliography', 'doc-biblioref', 'doc-chapter', 'doc-colophon', 'doc-conclusion', 'doc-cover', 'doc-credit',
    'doc-credits', 'doc-dedication', 'doc-endnote', 'doc-endnotes', 'doc-epigraph', 'doc-epilogue', 'doc-errata',
    'doc-example', 'doc-footnote', 'doc-foreword', 'doc-glossary', 'doc-glossref', 'doc-index', 'doc-introduction',
    'doc-noteref', 'doc-notice', 'doc-pagebreak', 'doc-pagefooter', 'doc-pageheader', 'doc-pagelist', 'doc-part',
    'doc-preface', 'doc-prologue', 'doc-pullquote', 'doc-qna', 'doc-subtitle', 'doc-tip', 'doc-toc',
    'graphics-document', 'graphics-object', 'graphics-symbol',
  ]),
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
  const fold = (/** @type {unknown} */ v) => String(v).replace(/[A-Z]/g, (c) => c.toLowerCase());
  const trim = (/** @type {unknown} */ v) => String(v).replace(/^[\t\n\f\r ]+|[\t\n\f\r ]+$/g, '');
  let role = roleAttr === null || roleAttr === undefined ? ''
    : (fold(roleAttr).split(/[\t\n\f\r ]+/).find((t) => table.ariaRoles.includes(t)) ?? '');
  if (role === 'none' || role === 'presentation') {
    // Focusable through a valid integer tabindex (as core/src/compiler/text.cpp parse_int) or contenteditable.
    const tabindex = el.attr('tabindex'), editable = el.attr('contenteditable');
    const focusable = (tabindex !== null && tabindex !== undefined && /^(?:[-+][0-9]{1,17}|[0-9]{1,18})$/.test(trim(tabindex)))
      || (editable !== null && editable !== undefined && ['', 'true', 'plaintext-only'].includes(fold(trim(editable))));
    if (focusable) role = '';
  }
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
