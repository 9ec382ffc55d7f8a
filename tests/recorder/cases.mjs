// The recorded cases: a start page and scripted steps performed with real input. Step names
// are read by tests (e.g. "open-modal", "close-dialog", "open-dropdown"): keep them telling.
// Each step's `action` is what an agent would have asked for (stored in step.json).

/** @typedef {{name: string, run?: (page: import('playwright-core').Page, sites: any) => Promise<void>, action?: object,
 *   ready?: (page: import('playwright-core').Page) => Promise<unknown>}} Step  ready: waited for before the capture */
/** @typedef {{name: string, description: string, start: (sites: any) => string, steps: Step[]}} Case */

const load = { name: 'load', action: { op: 'navigate' } };
const click = (name, selector, text = selector) => ({ name, action: { op: 'click', text }, run: (p) => p.locator(selector).first().click() });
const fill = (name, selector, text, submit = false) => ({
  name, action: { op: 'type', field: selector, text, submit },
  run: async (p) => { await p.locator(selector).first().fill(text); if (submit) await p.locator(selector).first().press('Enter'); },
});
const press = (name, key) => ({ name, action: { op: 'press', key }, run: (p) => p.keyboard.press(key) });

/** TodoMVC flow, the same for every implementation (selectors are TodoMVC's spec). */
const todoSteps = [
  load,
  fill('add-todo', '.new-todo, #new-todo', 'Buy milk', true),
  fill('add-second-todo', '.new-todo, #new-todo', 'Walk the dog', true),
  click('complete-first', '.todo-list li:first-child .toggle, #todo-list li:first-child .toggle', 'Toggle Todo'),
  press('press-shift-nothing', 'Shift'),
  click('filter-active', 'a[href="#/active"]', 'Active'),
  click('filter-all', 'a[href="#/"]', 'All'),
  click('clear-completed', '.clear-completed, #clear-completed', 'Clear completed'),
];

/** @type {Case[]} */
export const CASES = [
  {
    name: 'pydocs',
    description: 'Python documentation (Debian python3-doc, Sphinx): pages sharing a big navigation',
    start: (s) => s.url('/pydoc/library/index.html'),
    steps: [
      load,
      click('open-text-processing', 'a.reference[href="text.html"]', 'Text Processing Services'),
      click('open-string-module', 'a.reference[href="string.html"]', 'string — Common string operations'),
      { name: 'back', action: { op: 'back' }, run: (p) => p.goBack() },
      { name: 'scroll-down', action: { op: 'scroll', direction: 'down' }, run: (p) => p.mouse.wheel(0, 2000) },
    ],
  },
  {
    name: 'todomvc-react',
    description: 'TodoMVC, React implementation from npm todomvc',
    start: (s) => s.url('/todomvc/react/index.html'),
    steps: todoSteps,
  },
  {
    name: 'todomvc-backbone',
    description: 'TodoMVC, Backbone + jQuery implementation from npm todomvc (its jquery example ships without jQuery)',
    start: (s) => s.url('/todomvc/backbone/index.html'),
    steps: todoSteps,
  },
  {
    name: 'bootstrap',
    description: "Bootstrap 5's real dropdown and modal",
    start: (s) => s.url('/sites/bootstrap.html'),
    steps: [
      load,
      click('open-dropdown', 'a.dropdown-toggle', 'Account'),
      press('close-dropdown', 'Escape'),
      click('open-modal', 'text=Add to cart', 'Add to cart'),
      fill('type-in-modal', '#note', 'Happy birthday'),
      click('close-modal', 'text=Keep shopping', 'Keep shopping'),
      click('save-for-later', 'text=Save for later', 'Save for later'),
    ],
  },
  {
    name: 'shoelace',
    description: "Shoelace web components: dialog and menu through shadow DOM",
    start: (s) => s.url('/sites/shoelace.html'),
    steps: [
      { ...load, run: undefined },
      click('open-dialog', '#open', 'Delete account'),
      fill('type-in-dialog', '#why input', 'Moving away'),
      click('close-dialog', '#cancel', 'Cancel'),
      click('open-menu', '#more sl-button', 'More actions'),
      click('choose-menu-item', 'sl-menu-item[value="archive"]', 'Archive'),
    ],
  },
  {
    name: 'frames',
    description: 'A same-origin iframe and a cross-site (out-of-process) iframe',
    start: (s) => s.url('/sites/frames.html?other=' + encodeURIComponent(s.otherOrigin)),
    steps: [
      load,
      { name: 'type-in-same-origin-frame', action: { op: 'type', field: 'Email', text: 'ada@example.com' },
        run: (p) => p.frameLocator('#same').locator('#email').fill('ada@example.com') },
      { name: 'click-in-same-origin-frame', action: { op: 'click', text: 'Subscribe' },
        run: (p) => p.frameLocator('#same').locator('#sub').click() },
      { name: 'click-in-cross-origin-frame', action: { op: 'click', text: 'Apply coupon' },
        run: (p) => p.frameLocator('#cross').locator('#apply').click() },
    ],
  },
  {
    name: 'big',
    description: 'A generated page of 10,000+ elements; clicks that change one element',
    start: (s) => s.url('/sites/big.html'),
    steps: [load, click('restock', '#restock', 'Restock row 3'), click('rename', '#rename', 'Rename row 5000')],
  },
  {
    name: 'sortable',
    description: 'A table of 60 rows sorted in place by moving its <tr>s, one way then the other',
    start: (s) => s.url('/sites/sortable-table.html?n=60'),
    steps: [load, click('sort-ascending', '#by-name', 'Name'), click('sort-descending', '#by-name', 'Name')],
  },
  {
    name: 'login',
    description: 'A sign-in form with a password and a card number (redacted), a validation alert',
    start: (s) => s.url('/sites/login.html'),
    steps: [
      load,
      fill('fill-username', '#user', 'ada'),
      fill('fill-password', '#pw', 'hunter22'),
      fill('fill-card', '#cc', '4111111111111111'),
      click('submit-wrong', 'button[type=submit]', 'Sign in'),
      { name: 'sign-in', action: { op: 'type', field: 'Password', text: '***', submit: true },
        run: async (p) => { await p.fill('#pw', 'correct horse'); await p.click('button[type=submit]'); } },
    ],
  },
  {
    name: 'tabs',
    description: 'A settings page whose tab panels hold paragraphs: switching tabs reveals text (revealed-text lines)',
    start: (s) => s.url('/sites/tabs.html'),
    steps: [load, click('open-privacy-tab', '#tab-privacy', 'Privacy'), click('open-advanced-tab', '#tab-advanced', 'Advanced')],
  },
  {
    name: 'feed',
    description: 'A feed of <article> posts, each with a <footer> holding its Like button and count; Load more adds a post',
    start: (s) => s.url('/sites/feed.html'),
    steps: [
      load,
      click('load-more', '#more', 'Load more'),
      { name: 'like-fourth', action: { op: 'click', text: 'Like' }, run: (p) => p.locator('article').nth(3).getByRole('button', { name: 'Like' }).click() },
    ],
  },
  {
    name: 'named-sections',
    description: 'A named <section> and a role=region are region blocks of their own; an unnamed section stays main\'s; a comment added in the Comments region comes with its Reply under it',
    start: (s) => s.url('/sites/named-sections.html'),
    steps: [load, click('add-comment', '#add', 'Add a comment')],
  },
  {
    name: 'docusaurus',
    description: 'A Docusaurus 3 docs page: a sidebar of 92 entries in 4 levels (categories are role=button links with aria-expanded), breadcrumbs, a table of contents',
    start: (s) => s.url('/sites/docusaurus/index.html'),
    steps: [load],
  },
  {
    name: 'mdbook',
    description: "An mdBook chapter page: The Rust Programming Language's sidebar of 111 links, sections nested in the next list item",
    start: (s) => s.url('/sites/mdbook/ch09-01-unrecoverable-errors-with-panic.html'),
    steps: [load],
  },
  {
    name: 'accordion',
    description: 'An FAQ accordion (aria-expanded + aria-controls) and a <details> section',
    start: (s) => s.url('/sites/accordion.html'),
    steps: [
      load,
      click('expand-first', '#q-1', 'How do I return an item?'),
      click('expand-second', '#q-2', 'When will I be charged?'),
      click('open-details', 'details summary', 'Shipping to other countries'),
    ],
  },
  {
    name: 'confirm',
    description: 'A confirm dialog whose body sentence says what will happen',
    start: (s) => s.url('/sites/confirm.html'),
    steps: [load, click('open-dialog', '#delete-all', 'Delete all files'), click('confirm-delete', '#do-delete', 'Delete')],
  },
  {
    name: 'names',
    description: 'Names from content with <wbr> and inline-block / inline-flex boxes, as Chrome computes them',
    start: (s) => s.url('/sites/names.html'),
    steps: [load],
  },
  {
    name: 'shop',
    description: 'A store whose pages share a header, a 48-link department menu and a 28-link footer (the mega-menu shape of docs/design.md, "Trimming and dedup")',
    start: (s) => s.url('/sites/shop/index.html'),
    steps: [
      load,
      click('open-category', 'nav a[href="category.html?c=laptops"]', 'Laptops'),
      click('open-product', 'a[href="product.html?id=0"]', 'Aero 14 laptop'),
      click('add-to-cart', '#add', 'Add to cart'),
      click('open-cart', '#cart-link', 'Cart (1)'),
    ],
  },
];

/**
 * Pages the compiler was not tuned on, recorded into tests/cases-unseen (`./athena record --unseen`)
 * for one check only: role/name agreement with Chrome (tests/unit/compiler/corpus_agreement_test.cpp).
 * No goldens, no other test reads them. The Debian pages need their packages installed to record
 * (tests/sites/serve.mjs, /debdoc/); the recordings are committed, so the test needs nothing.
 * @type {Case[]}
 */
export const UNSEEN_CASES = [
  {
    name: 'rustdoc-cell',
    description: 'rustdoc: std::cell::Cell from Debian rust-doc 1.63 (each impl and method a <details> whose <summary> holds an anchor, a source link and the signature)',
    start: (s) => s.url('/debdoc/rust/std/cell/struct.Cell.html'),
    steps: [load, click('collapse-all', '#toggle-all-docs', 'Collapse all')],
  },
  {
    name: 'rust-book',
    description: 'mdBook: "Data Types" from The Rust Programming Language in Debian rust-doc (icon buttons, a chapter sidebar), then the next chapter',
    start: (s) => s.url('/debdoc/rust/book/ch03-02-data-types.html'),
    steps: [load, click('open-functions', '#sidebar a[href="ch03-03-how-functions-work.html"]', '3.3. Functions')],
  },
  {
    name: 'mkdocs-config',
    description: "MkDocs' own theme: the configuration page of Debian mkdocs-doc (Bootstrap navbar, Font Awesome icons, a long table of contents)",
    start: (s) => s.url('/debdoc/mkdocs/user-guide/configuration.html'),
    steps: [load],
  },
  {
    name: 'sphinx-quickstart',
    description: "Sphinx's own documentation (Debian sphinx-doc, sphinx13 theme): the quickstart page",
    start: (s) => s.url('/debdoc/sphinx/usage/quickstart.html'),
    steps: [load],
  },
  {
    name: 'sphinx-panels',
    description: 'sphinx-panels (Debian python-sphinx-panels-doc, Read the Docs theme): cards, and dropdowns whose <summary> starts with a Font Awesome glyph',
    start: (s) => s.url('/debdoc/sphinx-panels/index.html'),
    steps: [load, click('open-dropdown', 'details.dropdown summary >> nth=0', 'Bottom-left panel')],
  },
  {
    name: 'nodejs-url',
    description: "Node.js API docs as Debian's nodejs package ships them: the url module (a version picker, a table of contents and History changelogs in <details>)",
    start: (s) => s.url('/debdoc/nodejs/url.html'),
    steps: [load],
  },
  {
    name: 'swagger-ui',
    description: 'Swagger UI (npm swagger-ui-dist) over a local OpenAPI spec: operations expand into parameter tables, "Try it out" into fields',
    start: (s) => s.url('/sites/api-reference.html'),
    steps: [
      load,
      click('expand-operation', '.opblock-summary-control >> nth=0', 'the first operation'),
      click('try-it-out', '.try-out__btn', 'Try it out'),
    ],
  },
  {
    name: 'todomvc-polymer',
    description: 'TodoMVC, Polymer implementation from npm todomvc (custom elements under the webcomponents polyfill)',
    start: (s) => s.url('/todomvc/polymer/index.html'),
    // The app boots after load (HTML imports polyfilled): the capture waits until its bindings have
    // hidden the empty list's footer, or it and Chrome's tree, read a moment later, see two pages.
    // Polymer stamps its items after a <template>, so the first item is not li:first-child.
    steps: [{ ...load, ready: (p) => p.waitForSelector('#footer[hidden]', { state: 'attached' }) }, ...todoSteps.slice(1, 3), click('complete-first', '#todo-list li .toggle', 'Toggle Todo'),
      click('filter-active', 'a[href="#/active"]', 'Active')],
  },
];

// Small pages written from the accessible-name and role-mapping rules (accname 1.2, HTML-AAM,
// ARIA 1.2 conflict resolution), one page per rule group (tests/sites/accname): recorded by
// `./athena record --accname` into tests/cases-accname and read only by the agreement test,
// which reports agreement per group (bench/accname-agreement.md).
const ACCNAME_GROUPS = {
  embedded: 'controls embedded in a label or in aria-labelledby content give their value (accname 2C)',
  generated: 'CSS ::before/::after content, its alternative text and counters (accname 2F.ii)',
  'input-image': '<input type=image>: labelledby, label, label element, alt, title, then "Submit" (HTML-AAM)',
  labelledby: 'aria-labelledby: self-reference, hidden references, nesting, aria-label on references (accname 2B)',
  hidden: 'hidden content is left out of a name from content (accname 2A)',
  whitespace: 'inline and block boxes, line breaks and spaces between words (accname 2F.iii)',
  nameless: 'widgets with an empty name are still widgets',
  images: '<img alt=""> is presentational, even with a title (HTML-AAM img)',
  roles: 'role=none/presentation conflict resolution (ARIA 1.2 9.3); date and time input roles',
  owns: 'aria-owns: owned elements are children of their owner in a name from content (accname 2F)',
};
export const ACCNAME_CASES = Object.entries(ACCNAME_GROUPS).map(([name, description]) => ({
  name, description, start: (s) => s.url(`/sites/accname/${name}.html`), steps: [load],
}));
