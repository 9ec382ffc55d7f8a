// The abstract agent flows on the fixture sites (tests/sites/serve.mjs), shared by the
// agent-flow benchmark, the demo and the end-to-end tests. Steps are what an agent decides:
// navigate, click the element whose visible text is X, type into the field named X, press, back.
// A step may carry `expect: "a sentence"`: it passes only if, after the step, that text is in what
// the agent was shown (Athena: its view rebuilt from every FactPack, plus the find / read answers it
// chose to ask for; a peer: its latest snapshot). The reading flows (tabs, accordion, confirm,
// long index) need text revealed by an action, or a link the FactPack trimmed.

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
  ];
}
