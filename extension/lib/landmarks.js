// The landmark rule: which element opens which region of the FactPack (<region name="nav">). One
// table, rules/landmarks.json `table`, read by both languages: core/gen-landmarks.mjs generates the
// core's copy of it at build time (core/src/compiler/regions.cpp reads that header); LANDMARKS
// below is the extension's copy (Chrome loads an extension from its own folder only, so it cannot
// read rules/ at run time), held equal to the table by extension/test/landmark-rule.test.mjs; the page scripts
// (extension/page/landmarks.js, read.js) pass it to landmarkOf / regionOf below, which run inside the
// page (their sources are embedded, so they use nothing outside their own bodies).
// rules/landmarks.json holds the cases; tests/unit/compiler/landmark_rule_test.cpp runs them
// through the compiler and extension/test/landmark-rule.test.mjs through these functions.
//
// The rule: an element's role is the first token of its role attribute that is an ARIA role, else
// its tag's own role. It opens region R when that role is one of R.roles, or when its role
// attribute gives no role and its tag is one of R.tags, unless the tag's role is scoped away: as
// HTML-AAM maps them and Chrome computes them, a <header> or <footer> inside sectioning content is
// sectionheader / sectionfooter (part of its article, not the page's banner or contentinfo), and an
// <aside> inside it is complementary only with a name. "Inside" is an ancestor whose scope role
// (its role attribute's role, else sectioning[tag]) is one of R.scopedBy; R.scopedNeedsName says
// whether a name (LANDMARK_NAME_ATTRS) still makes a scoped one a landmark. Chrome 156 scopes by the
// role (a <div role=article> scopes, an <article role=none> does not, a <div role=region> does
// not, an unnamed <section> does; an <aside> in <main> stays complementary): the cases in
// rules/landmarks.json were read off its accessibility tree. A region that is `named` needs a
// non-blank one of LANDMARK_NAME_ATTRS (a form, as in ARIA). The innermost landmark wins, except
// that a region that is `partOfDialog` opens nothing inside a dialog: a dialog's own header and
// footer are part of the dialog.
// Which tokens are ARIA roles is the table's too (ariaRoles, a closed list: a role is printed
// unquoted in every line an agent reads, so a page's own token must never reach the output); the
// core's role_of (core/src/compiler/roles.cpp) reads the generated copy, and its implicit roles of
// <header>, <footer> and <aside> follow the same scoping (core/src/compiler/regions.cpp). A
// presentational role (none, presentation) on a focusable element keeps the tag's role, as ARIA
// says: the landmark tags are focusable only through tabindex or contenteditable, which is what
// landmarkOf checks.

/**
 * @typedef {{region: string, roles: readonly string[], tags: readonly string[], named: boolean, partOfDialog: boolean,
 *   scopedBy: readonly string[], scopedNeedsName: boolean}} Landmark
 * @typedef {{landmarks: readonly Landmark[], sectionEdges: {tags: readonly string[], roles: readonly string[]}, nameAttrs: readonly string[],
 *   sectioning: readonly (readonly string[])[], ariaRoles: readonly string[]}} LandmarkTable
 *   sectioning: the [tag, scope role] pairs of the tags that scope a header, footer or aside without a role attribute
 * @typedef {{tag: string, attr: (name: string) => (string | null | undefined)}} LandmarkElement
 *   tag: the element's tag name, any case; attr: its attribute values (null when absent)
 */

/** What scopes a <header> or <footer> (HTML-AAM: "scoped to the body element" otherwise). */
const SECTION_SCOPE = ['article', 'complementary', 'main', 'navigation', 'section'];

/** @type {LandmarkTable} */
export const LANDMARKS = Object.freeze({
  landmarks: Object.freeze([
    { region: 'header', roles: ['banner'], tags: ['header'], named: false, partOfDialog: true, scopedBy: SECTION_SCOPE, scopedNeedsName: false },
    { region: 'nav', roles: ['navigation'], tags: ['nav'], named: false, partOfDialog: false, scopedBy: [], scopedNeedsName: false },
    { region: 'main', roles: ['main'], tags: ['main'], named: false, partOfDialog: false, scopedBy: [], scopedNeedsName: false },
    // An <aside> in <main> stays complementary (Chrome): only the other sectioning content scopes it.
    { region: 'aside', roles: ['complementary'], tags: ['aside'], named: false, partOfDialog: false,
      scopedBy: ['article', 'complementary', 'navigation', 'section'], scopedNeedsName: true },
    { region: 'footer', roles: ['contentinfo'], tags: ['footer'], named: false, partOfDialog: true, scopedBy: SECTION_SCOPE, scopedNeedsName: false },
    { region: 'dialog', roles: ['dialog', 'alertdialog'], tags: ['dialog'], named: false, partOfDialog: false, scopedBy: [], scopedNeedsName: false },
    { region: 'search', roles: ['search'], tags: ['search'], named: false, partOfDialog: false, scopedBy: [], scopedNeedsName: false },
    { region: 'form', roles: ['form'], tags: ['form'], named: true, partOfDialog: false, scopedBy: [], scopedNeedsName: false },
  ].map((l) => Object.freeze({ ...l, roles: Object.freeze(l.roles), tags: Object.freeze(l.tags), scopedBy: Object.freeze([...l.scopedBy]) }))),
  // What bounds the section of a heading that read returns (extension/page/read.js); a <header>
  // need not be one (an article's, around its title).
  sectionEdges: Object.freeze({ tags: Object.freeze(['main', 'article', 'aside', 'nav', 'dialog']),
    roles: Object.freeze(['main', 'article', 'complementary', 'navigation', 'region', 'dialog', 'alertdialog', 'banner', 'contentinfo']) }),
  nameAttrs: Object.freeze(['aria-label', 'aria-labelledby', 'title']),
  // Sectioning content (HTML) and <main>, by the scope role each gives when no role attribute
  // gives another. "section" is no ARIA role token: only the tag gives it, named or not.
  sectioning: Object.freeze([['article', 'article'], ['aside', 'complementary'], ['main', 'main'], ['nav', 'navigation'], ['section', 'section']]
    .map((p) => Object.freeze(p))),
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
 * @param {LandmarkTable} table
 * @param {LandmarkElement[]} chain the element's ancestors, outermost first, then the element
 * @returns {string}
 */
export function landmarkOf(table, chain) {
  // As the core (core/src/compiler/text.cpp): ASCII whitespace splits tokens, ASCII letters fold,
  // and a name of whitespace and NBSPs only is blank.
  const fold = (/** @type {unknown} */ v) => String(v).replace(/[A-Z]/g, (c) => c.toLowerCase());
  const trim = (/** @type {unknown} */ v) => String(v).replace(/^[\t\n\f\r ]+|[\t\n\f\r ]+$/g, '');
  const blank = (/** @type {unknown} */ v) => /^[\t\n\f\r \u00a0]*$/.test(String(v ?? ''));
  /** The role its role attribute gives ('' for none). @param {LandmarkElement} e */
  const roleOf = (e) => {
    const roleAttr = e.attr('role');
    const role = roleAttr === null || roleAttr === undefined ? ''
      : (fold(roleAttr).split(/[\t\n\f\r ]+/).find((t) => table.ariaRoles.includes(t)) ?? '');
    if (role !== 'none' && role !== 'presentation') return role;
    // Focusable through a valid integer tabindex (as core/src/compiler/text.cpp parse_int) or contenteditable.
    const tabindex = e.attr('tabindex'), editable = e.attr('contenteditable');
    const focusable = (tabindex !== null && tabindex !== undefined && /^(?:[-+][0-9]{1,17}|[0-9]{1,18})$/.test(trim(tabindex)))
      || (editable !== null && editable !== undefined && ['', 'true', 'plaintext-only'].includes(fold(trim(editable))));
    return focusable ? '' : role;
  };
  const el = chain[chain.length - 1];
  const tag = String(el.tag).toLowerCase();
  const role = roleOf(el);
  const named = () => table.nameAttrs.some((a) => !blank(el.attr(a)));
  for (const l of table.landmarks) {
    const byTag = role === '' && l.tags.includes(tag);
    if (!l.roles.includes(role) && !byTag) continue;
    if (l.named && !named()) return '';
    if (byTag && l.scopedBy.length && (!l.scopedNeedsName || !named())) {
      const scoped = chain.slice(0, -1).some((a) => {
        const r = roleOf(a);
        const own = r !== '' ? r : (table.sectioning.find((p) => p[0] === String(a.tag).toLowerCase()) ?? ['', ''])[1];
        return l.scopedBy.includes(own);
      });
      if (scoped) return '';
    }
    return l.region;
  }
  return '';
}

/**
 * The region an element lives in: its innermost landmark's, 'page' outside any.
 * @param {LandmarkTable} table @param {LandmarkElement[]} chain the element's ancestors, outermost first, then the element
 * @param {(table: LandmarkTable, chain: LandmarkElement[]) => string} opens landmarkOf (passed in: inside the page this function stands alone)
 * @returns {string}
 */
export function regionOf(table, chain, opens) {
  let region = 'page';
  for (let k = 0; k < chain.length; k++) {
    const r = opens(table, chain.slice(0, k + 1));
    if (!r) continue;
    const l = table.landmarks.find((x) => x.region === r);
    if (region === 'dialog' && l && l.partOfDialog) continue;
    region = r;
  }
  return region;
}
