// The sidebar of an mdBook book (0.4.4x), as its generated toc.js fills it: a custom element whose
// connectedCallback writes the table of contents and marks the current page's link "active". The
// chapters are The Rust Programming Language's (111 links). mdBook nests a chapter's sections in
// the *next* list item (<li><a>4. Ownership</a></li><li><ol class="section">…</ol></li>), and
// numbers each link in an aria-hidden <strong>.
const TOC = [
 [
  "Getting Started",
  [
   "Installation",
   "Hello, World!",
   "Hello, Cargo!"
  ]
 ],
 [
  "Programming a Guessing Game",
  []
 ],
 [
  "Common Programming Concepts",
  [
   "Variables and Mutability",
   "Data Types",
   "Functions",
   "Comments",
   "Control Flow"
  ]
 ],
 [
  "Understanding Ownership",
  [
   "What is Ownership?",
   "References and Borrowing",
   "The Slice Type"
  ]
 ],
 [
  "Using Structs to Structure Related Data",
  [
   "Defining and Instantiating Structs",
   "An Example Program Using Structs",
   "Method Syntax"
  ]
 ],
 [
  "Enums and Pattern Matching",
  [
   "Defining an Enum",
   "The match Control Flow Construct",
   "Concise Control Flow with if let"
  ]
 ],
 [
  "Managing Growing Projects with Packages, Crates, and Modules",
  [
   "Packages and Crates",
   "Defining Modules to Control Scope and Privacy",
   "Paths for Referring to an Item in the Module Tree",
   "Bringing Paths Into Scope with the use Keyword",
   "Separating Modules into Different Files"
  ]
 ],
 [
  "Common Collections",
  [
   "Storing Lists of Values with Vectors",
   "Storing UTF-8 Encoded Text with Strings",
   "Storing Keys with Associated Values in Hash Maps"
  ]
 ],
 [
  "Error Handling",
  [
   "Unrecoverable Errors with panic!",
   "Recoverable Errors with Result",
   "To panic! or Not to panic!"
  ]
 ],
 [
  "Generic Types, Traits, and Lifetimes",
  [
   "Generic Data Types",
   "Traits: Defining Shared Behavior",
   "Validating References with Lifetimes"
  ]
 ],
 [
  "Writing Automated Tests",
  [
   "How to Write Tests",
   "Controlling How Tests Are Run",
   "Test Organization"
  ]
 ],
 [
  "An I/O Project: Building a Command Line Program",
  [
   "Accepting Command Line Arguments",
   "Reading a File",
   "Refactoring to Improve Modularity and Error Handling",
   "Developing the Library’s Functionality with Test Driven Development",
   "Working with Environment Variables",
   "Writing Error Messages to Standard Error Instead of Standard Output"
  ]
 ],
 [
  "Functional Language Features: Iterators and Closures",
  [
   "Closures: Anonymous Functions that Capture Their Environment",
   "Processing a Series of Items with Iterators",
   "Improving Our I/O Project",
   "Comparing Performance: Loops vs. Iterators"
  ]
 ],
 [
  "More about Cargo and Crates.io",
  [
   "Customizing Builds with Release Profiles",
   "Publishing a Crate to Crates.io",
   "Cargo Workspaces",
   "Installing Binaries from Crates.io with cargo install",
   "Extending Cargo with Custom Commands"
  ]
 ],
 [
  "Smart Pointers",
  [
   "Using Box<T> to Point to Data on the Heap",
   "Treating Smart Pointers Like Regular References with the Deref Trait",
   "Running Code on Cleanup with the Drop Trait",
   "Rc<T>, the Reference Counted Smart Pointer",
   "RefCell<T> and the Interior Mutability Pattern",
   "Reference Cycles Can Leak Memory"
  ]
 ],
 [
  "Fearless Concurrency",
  [
   "Using Threads to Run Code Simultaneously",
   "Using Message Passing to Transfer Data Between Threads",
   "Shared-State Concurrency",
   "Extensible Concurrency with the Sync and Send Traits"
  ]
 ],
 [
  "Fundamentals of Asynchronous Programming: Async, Await, Futures, and Streams",
  [
   "Futures and the Async Syntax",
   "Applying Concurrency with Async",
   "Working With Any Number of Futures",
   "Streams: Futures in Sequence",
   "A Closer Look at the Traits for Async",
   "Futures, Tasks, and Threads"
  ]
 ],
 [
  "Object Oriented Programming Features of Rust",
  [
   "Characteristics of Object-Oriented Languages",
   "Using Trait Objects That Allow for Values of Different Types",
   "Implementing an Object-Oriented Design Pattern"
  ]
 ],
 [
  "Patterns and Matching",
  [
   "All the Places Patterns Can Be Used",
   "Refutability: Whether a Pattern Might Fail to Match",
   "Pattern Syntax"
  ]
 ],
 [
  "Advanced Features",
  [
   "Unsafe Rust",
   "Advanced Traits",
   "Advanced Types",
   "Advanced Functions and Closures",
   "Macros"
  ]
 ],
 [
  "Final Project: Building a Multithreaded Web Server",
  [
   "Building a Single-Threaded Web Server",
   "Turning Our Single-Threaded Server into a Multithreaded Server",
   "Graceful Shutdown and Cleanup"
  ]
 ],
 [
  "Appendix",
  [
   "A - Keywords",
   "B - Operators and Symbols",
   "C - Derivable Traits",
   "D - Useful Development Tools",
   "E - Editions",
   "F - Translations of the Book",
   "G - How Rust is Made and “Nightly Rust”"
  ]
 ]
];

const slug = (s) => s.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
const esc = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const pad = (n) => String(n).padStart(2, '0');

function tocHtml() {
  const out = ['<ol class="chapter">'];
  for (const [file, title] of [['title-page.html', 'The Rust Programming Language'], ['foreword.html', 'Foreword'], ['ch00-00-introduction.html', 'Introduction']])
    out.push(`<li class="chapter-item expanded affix "><a href="${file}">${esc(title)}</a></li>`);
  TOC.forEach(([chapter, sections], c) => {
    const n = c + 1;
    out.push(`<li class="chapter-item expanded "><a href="ch${pad(n)}-00-${slug(chapter)}.html"><strong aria-hidden="true">${n}.</strong> ${esc(chapter)}</a></li>`);
    if (!sections.length) return;
    out.push('<li><ol class="section">');
    sections.forEach((s, k) => out.push(`<li class="chapter-item expanded "><a href="ch${pad(n)}-${pad(k + 1)}-${slug(s)}.html"><strong aria-hidden="true">${n}.${k + 1}.</strong> ${esc(s)}</a></li>`));
    out.push('</ol></li>');
  });
  out.push('</ol>');
  return out.join('');
}

class MDBookSidebarScrollbox extends HTMLElement {
  connectedCallback() {
    this.innerHTML = tocHtml();
    const here = document.location.href.split('#')[0];
    for (const link of this.querySelectorAll('a')) {
      if (link.href === here) link.classList.add('active');
    }
    const active = this.querySelector('.active');
    if (active) active.scrollIntoView({ block: 'center' });
  }
}
window.customElements.define('mdbook-sidebar-scrollbox', MDBookSidebarScrollbox);
