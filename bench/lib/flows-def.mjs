// The abstract agent flows on the fixture sites (tests/sites/serve.mjs), shared by the
// agent-flow benchmark, the demo and the end-to-end tests. Steps are what an agent decides:
// navigate, click the element whose visible text is X, type into the field named X, press, back.

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
  ];
}
