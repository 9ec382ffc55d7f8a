// The abstract agent flows on the fixture sites (tests/sites/serve.mjs), shared by the
// agent-flow benchmark, the demo and the end-to-end tests. Steps are what an agent decides:
// navigate, click the element whose visible text is X, type into the field named X, press, back.
// A step may carry `expect: "a sentence"` (or a list of them): it passes only if, after the step,
// that text is in what the agent was shown (Athena: its view rebuilt from every FactPack, plus the
// find / read answers it chose to ask for; a peer: its latest snapshot). The reading flows (tabs,
// accordion, confirm, long index) need text revealed by an action, or a link the FactPack trimmed;
// the application flows (api-reference, create-user, manual-index, customer-grid, orders, assign) need the text an
// agent reads on real apps: table cells, a card's title, a field's message, a chapter list, the rows
// a sort brings to the top.

/** The 36 chapters of the library reference's index (python3-doc 3.11, library/index.html, its toctree-l1 entries). */
export const PYDOC_LIBRARY_CHAPTERS = Object.freeze(['Introduction', 'Built-in Functions', 'Built-in Constants', 'Built-in Types',
  'Built-in Exceptions', 'Text Processing Services', 'Binary Data Services', 'Data Types', 'Numeric and Mathematical Modules',
  'Functional Programming Modules', 'File and Directory Access', 'Data Persistence', 'Data Compression and Archiving', 'File Formats',
  'Cryptographic Services', 'Generic Operating System Services', 'Concurrent Execution', 'Networking and Interprocess Communication',
  'Internet Data Handling', 'Structured Markup Processing Tools', 'Internet Protocols and Support', 'Multimedia Services',
  'Internationalization', 'Program Frameworks', 'Graphical User Interfaces with Tk', 'Development Tools', 'Debugging and Profiling',
  'Software Packaging and Distribution', 'Python Runtime Services', 'Custom Python Interpreters', 'Importing Modules',
  'Python Language Services', 'MS Windows Specific Services', 'Unix Specific Services', 'Superseded Modules', 'Security Considerations']);

/** @param {{url: (p: string) => string, otherOrigin: string}} sites */
export function flows(sites) {
  return [
    {
      name: 'docs',
      description: 'Python docs (python3-doc): pages sharing a big navigation',
      steps: [
        { op: 'navigate', url: sites.url('/pydoc/library/index.html') },
        { op: 'click', text: 'Text Processing Services', role: 'link' },
        { op: 'back' },
        { op: 'click', text: 'Data Types', role: 'link' },
      ],
    },
    {
      name: 'todomvc',
      description: 'TodoMVC (React, from npm todomvc): add todos, filter, clear',
      steps: [
        { op: 'navigate', url: sites.url('/todomvc/react/index.html') },
        { op: 'type', field: 'What needs to be done?', text: 'Buy milk', submit: true },
        { op: 'type', field: 'What needs to be done?', text: 'Walk the dog', submit: true },
        { op: 'click', text: 'Active', role: 'link' },
        { op: 'click', text: 'All', role: 'link' },
      ],
    },
    {
      name: 'bootstrap',
      description: "Bootstrap's dropdown and modal",
      steps: [
        { op: 'navigate', url: sites.url('/sites/bootstrap.html') },
        { op: 'click', text: 'Account', role: 'button' },
        { op: 'press', key: 'Escape' },
        { op: 'click', text: 'Add to cart', role: 'button' },
        { op: 'type', field: 'Gift note', text: 'Happy birthday' },
        { op: 'click', text: 'Keep shopping', role: 'button' },
      ],
    },
    {
      name: 'shoelace',
      description: 'Shoelace dialog through shadow DOM',
      steps: [
        { op: 'navigate', url: sites.url('/sites/shoelace.html') },
        { op: 'click', text: 'Delete account', role: 'button' },
        { op: 'click', text: 'Cancel', role: 'button' },
      ],
    },
    {
      name: 'frames',
      description: 'Same-origin and cross-site iframes',
      steps: [
        { op: 'navigate', url: sites.url('/sites/frames.html?other=' + encodeURIComponent(sites.otherOrigin)) },
        { op: 'type', field: 'Email', text: 'ada@example.com' },
        { op: 'click', text: 'Subscribe', role: 'button' },
        { op: 'click', text: 'Apply coupon', role: 'button' },
      ],
    },
    {
      name: 'settings-tabs',
      description: 'Tabbed settings: each tab reveals a panel of sentences',
      steps: [
        { op: 'navigate', url: sites.url('/sites/tabs.html'), expect: 'Your display name is shown next to every comment you post.' },
        { op: 'click', text: 'Privacy', role: 'tab', expect: 'Activity history is kept for 90 days, then deleted automatically.' },
        { op: 'click', text: 'Advanced', role: 'tab', expect: 'Proxy settings apply to every connection this browser makes.' },
      ],
    },
    {
      name: 'accordion',
      description: 'Help centre: accordion panels (aria-expanded) and a <details> section',
      steps: [
        { op: 'navigate', url: sites.url('/sites/accordion.html') },
        { op: 'click', text: 'How do I return an item?', role: 'button', expect: 'Returns are free within 30 days of delivery.' },
        { op: 'click', text: 'When will I be charged?', role: 'button', expect: 'Your card is charged when the order ships, not when you place it.' },
        { op: 'click', text: 'Shipping to other countries', expect: 'delivery takes 5 to 9 working days' },
      ],
    },
    {
      name: 'confirm',
      description: 'A confirm dialog whose body says what will happen',
      steps: [
        { op: 'navigate', url: sites.url('/sites/confirm.html') },
        { op: 'click', text: 'Delete all files', role: 'button', expect: 'This will delete 12 files.' },
        { op: 'click', text: 'Delete', role: 'button', expect: '12 files deleted.' },
      ],
    },
    {
      name: 'long-index',
      description: 'A 300-link documentation index: the target link is far from the top',
      steps: [
        { op: 'navigate', url: sites.url('/sites/docs-index.html') },
        { op: 'click', text: 'Zebra striping in tables', role: 'link', expect: 'You are reading the page about Zebra striping in tables.' },
      ],
    },
    {
      name: 'api-reference',
      description: 'Swagger UI (npm swagger-ui-dist) on a local OpenAPI spec: open an operation, read its tables, try it out',
      steps: [
        { op: 'navigate', url: sites.url('/sites/api-reference.html'), expect: 'Get one order' },
        // The operation's button has no aria-controls: its body (parameter and response tables) is
        // rendered when it is clicked.
        { op: 'click', text: 'Get one order', role: 'button',
          expect: ["The order's id, as returned when it was created.", 'No order has this id.'] },
        // Try it out enables the prefilled fields and adds the Execute button.
        { op: 'click', text: 'Try it out', role: 'button', expect: ['ord_7Q2K9', 'Execute'] },
      ],
    },
    {
      name: 'create-user',
      description: 'An admin dashboard form (Bootstrap): a bad email is refused with a message under the field, then the user is created',
      steps: [
        { op: 'navigate', url: sites.url('/sites/admin-users.html'), expect: 'Create a user' },
        { op: 'type', field: 'Full name', text: 'Ada Lovelace' },
        { op: 'type', field: 'Email', text: 'ada.lovelace.example.com' },
        { op: 'click', text: 'Create user', role: 'button',
          expect: ['Enter an email address like name@example.com.', 'The user was not created: 1 field needs attention.'] },
        { op: 'type', field: 'Email', text: 'ada@example.com', clear: true },
        { op: 'click', text: 'Create user', role: 'button', expect: 'Ada Lovelace was created as viewer and invited at ada@example.com.' },
      ],
    },
    {
      name: 'manual-index',
      description: "The Python library reference's index (python3-doc): 36 chapters of 0-61 entries; the target chapter is near the end",
      steps: [
        // The agent chooses among the chapters: the whole outline must be shown, not the first chapter's entries.
        // maxTokens: Athena's answer to this step must fit in it (the whole outline in at most 2,500 tokens).
        { op: 'navigate', url: sites.url('/pydoc/library/index.html'), expect: PYDOC_LIBRARY_CHAPTERS, maxTokens: 2500 },
        { op: 'click', text: 'Unix Specific Services', role: 'link',
          expect: 'The modules described in this chapter provide interfaces to features that are unique to the Unix operating system' },
      ],
    },
    {
      name: 'customer-grid',
      description: 'AG Grid (npm ag-grid-community), 300 rows virtualized: sort by name both ways, then filter',
      // The rows and counts come from tests/sites/grid/users.mjs: "Aaron Abbott" and "Zoe Zimmerman"
      // sit mid-list (out of the DOM until a sort brings them up); 24 customers live in Porto.
      steps: [
        { op: 'navigate', url: sites.url('/sites/user-grid.html'), expect: 'Showing 300 of 300 customers' },
        // maxRowsCost: Athena's answer costs at most this many times the tokens of the row lines it shows.
        // topRow: the first row the agent reads is the grid's top row (a virtualized grid's DOM
        // order is not its order: AG Grid keeps a recycled row element before the new top rows).
        { op: 'click', text: 'Name', role: 'columnheader', expect: 'Aaron Abbott', topRow: 'Aaron Abbott', maxRowsCost: 1.5 },
        { op: 'click', text: 'Name', role: 'columnheader', expect: 'Zoe Zimmerman', topRow: 'Zoe Zimmerman', maxRowsCost: 1.5 },
        { op: 'type', field: 'Search customers', text: 'Porto', expect: 'Showing 24 of 300 customers' },
      ],
    },
    {
      name: 'orders',
      description: 'Tabulator (npm tabulator-tables) and SweetAlert2: select an order, confirm its cancellation',
      // Tabulator's body is a focusable scroll box with a resize handle between cells; SweetAlert2's
      // dialog hides the page behind it with aria-hidden while it asks (tests/sites/orders.html).
      steps: [
        { op: 'navigate', url: sites.url('/sites/orders.html'), expect: 'Alan Brown' },
        { op: 'click', text: '1002' },  // a row to Athena, a cell to the peers: either selects the order
        { op: 'click', text: 'Cancel selected order', role: 'button', expect: 'The customer gets a refund of 74.99 €.' },
        { op: 'click', text: 'Yes, cancel it', role: 'button', expect: 'Order 1002 cancelled' },
      ],
    },
    {
      name: 'assign',
      description: 'Select2 (npm select2 with jQuery): open the assignee box, type to filter it, choose, save',
      // Select2 hides the labelled <select>; its dropdown, appended to <body>, holds the search
      // field above the results (tests/sites/assign.html).
      steps: [
        { op: 'navigate', url: sites.url('/sites/assign.html'), expect: 'Assignee' },
        // No role: Playwright MCP names the box nothing and its text field "Choose someone"; either opens it.
        { op: 'click', text: 'Choose someone', expect: 'Katherine Johnson' },
        { op: 'type', field: 'Search', text: 'Gra', expect: 'Grace Hopper' },
        { op: 'click', text: 'Grace Hopper', role: 'option' },
        { op: 'click', text: 'Save', role: 'button', expect: 'Assigned to Grace Hopper' },
      ],
    },
    ...toolFlows(sites),
  ];
}

/**
 * The flows that need the tools of issue #55 (drag, fill_form, console and network, resize), as an
 * agent would go about them with each server's own tools (bench/lib/agents.mjs); written up in
 * bench/tools-flows-results.md. Run alone: node bench/flows.mjs --flows kanban-drag,ten-field-form,failing-api,phone-width
 * @param {{url: (p: string) => string}} sites
 */
export function toolFlows(sites) {
  return [
    {
      name: 'kanban-drag',
      description: 'SortableJS (npm sortablejs) board: drag a card into the other column',
      steps: [
        { op: 'navigate', url: sites.url('/sites/kanban.html'), expect: 'Write spec' },
        { op: 'drag', text: 'Write spec', role: 'button', to: 'Configure CI', toRole: 'button', expect: 'Moved. todo: tests,docs; done: setup,spec,ci' },
      ],
    },
    {
      name: 'ten-field-form',
      description: 'A ten-field shipping form (text, email, tel, select, checkbox, radio), filled at once and submitted',
      steps: [
        { op: 'navigate', url: sites.url('/sites/ten-fields.html'), expect: 'Shipping details' },
        { op: 'fill_form', fields: [
          { field: 'First name', kind: 'textbox', value: 'Ada' }, { field: 'Last name', kind: 'textbox', value: 'Lovelace' },
          { field: 'Email', kind: 'textbox', value: 'ada@example.org' }, { field: 'Phone', kind: 'textbox', value: '+44 20 7946 0000' },
          { field: 'Street', kind: 'textbox', value: '12 St James Square' }, { field: 'City', kind: 'textbox', value: 'London' },
          { field: 'Postcode', kind: 'textbox', value: 'SW1Y 4JH' }, { field: 'Country', kind: 'combobox', value: 'United Kingdom' },
          { field: 'Gift wrap', kind: 'checkbox', value: true }, { field: 'Express', kind: 'radio', value: true },
        ] },
        { op: 'click', text: 'Place order', role: 'button', expect: 'Order placed for Ada Lovelace, 12 St James Square, SW1Y 4JH London, gb; ada@example.org, +44 20 7946 0000; gift yes, express.' },
      ],
    },
    {
      name: 'failing-api',
      description: 'A page shows a vague error: find the failing API call and the message the page logged',
      steps: [
        { op: 'navigate', url: sites.url('/sites/failing-api.html') },
        { op: 'click', text: 'Load orders', role: 'button', expect: 'Something went wrong' },
        { op: 'network', failed: true, expect: ['/api/fail?page=2', '500'] },
        { op: 'console', level: 'error', expect: ['loading page', 'database unavailable'] },
      ],
    },
    {
      name: 'phone-width',
      description: 'A responsive header at 390 px: the links fold into a Menu button',
      steps: [
        { op: 'navigate', url: sites.url('/sites/responsive.html'), expect: 'Deals' },
        { op: 'resize', width: 390, height: 844, expect: 'Menu' },
      ],
    },
  ];
}
