// Live mode's capture adapter: builds, from a same-origin document, the capture the compiler
// takes from CDP (docs/capture-format.md: DOMSnapshot.captureSnapshot + Page.getFrameTree +
// layout metrics), so the same wasm core diffs a page the playground can see but not debug.
//
// Differences from CDP (documented in web/README.md):
//  - backendNodeId: our own id per DOM node, kept for the node's life (a WeakMap), as docs/design.md ("Identity") allows;
//  - isClickable: CDP knows event listeners; here an element is clickable when it is natively
//    interactive, has an onclick attribute, or its computed cursor is "pointer";
//  - layout text: a text node's data (CDP gives the rendered text, after text-transform);
//  - pseudo elements (::before/::after content) and closed shadow roots are not seen;
//  - only this document: iframes inside it are not descended into.

// The styles the compiler reads: the extension's list (web/serve.mjs serves extension/lib/ for it).
import { CAPTURE_STYLES } from '../extension/lib/capture.js';

/** @type {WeakMap<Node, number>} */
const ids = new WeakMap();
/** @type {WeakMap<Document, string>} */
const loaders = new WeakMap();
let nextId = 1;
let nextLoader = 1;
const idOf = (/** @type {Node} */ n) => { let id = ids.get(n); if (!id) { id = nextId++; ids.set(n, id); } return id; };
const NATIVE = new Set(['A', 'BUTTON', 'INPUT', 'SELECT', 'TEXTAREA', 'LABEL', 'SUMMARY', 'OPTION']);

/**
 * @param {Document} doc a same-origin document (e.g. an iframe's contentDocument)
 * @param {{frameId?: string}} [opts]
 * @returns {object} the capture (JSON-ready)
 */
export function captureDocument(doc, opts = {}) {
  const win = doc.defaultView;
  if (!win) throw new Error('captureDocument: the document has no window (not displayed)');
  const frameId = opts.frameId ?? 'live-frame';
  if (!loaders.has(doc)) loaders.set(doc, `live-loader-${nextLoader++}`);
  const loaderId = loaders.get(doc);
  /** @type {string[]} */
  const strings = [];
  /** @type {Map<string, number>} */
  const sidx = new Map();
  /** The index of a string in the capture's table (-1: none). @param {string | null | undefined} s */
  const S = (s) => {
    if (s === null || s === undefined) return -1;
    let i = sidx.get(s);
    if (i === undefined) { i = strings.length; strings.push(s); sidx.set(s, i); }
    return i;
  };
  /**
   * @typedef {{index: number[], value: number[]}} Valued
   * @type {{parentIndex: number[], nodeType: number[], nodeName: number[], nodeValue: number[], backendNodeId: number[],
   *         attributes: number[][], shadowRootType: Valued, inputValue: Valued, textValue: Valued, inputChecked: {index: number[]},
   *         optionSelected: {index: number[]}, isClickable: {index: number[]}, pseudoType: Valued, contentDocumentIndex: Valued}}
   */
  const nodes = { parentIndex: [], nodeType: [], nodeName: [], nodeValue: [], backendNodeId: [], attributes: [],
    shadowRootType: { index: [], value: [] }, inputValue: { index: [], value: [] }, textValue: { index: [], value: [] },
    inputChecked: { index: [] }, optionSelected: { index: [] }, isClickable: { index: [] }, pseudoType: { index: [], value: [] },
    contentDocumentIndex: { index: [], value: [] } };
  /** @type {{nodeIndex: number[], styles: number[][], bounds: number[][], text: number[], clientRects: number[][]}} */
  const layout = { nodeIndex: [], styles: [], bounds: [], text: [], clientRects: [] };
  const sx = win.scrollX, sy = win.scrollY;

  /** @param {Node} node @param {number} parent */
  const add = (node, parent) => {
    const i = nodes.parentIndex.length;
    nodes.parentIndex.push(parent);
    nodes.nodeType.push(node.nodeType);
    nodes.nodeName.push(S(node.nodeType === 11 ? '#document-fragment' : node.nodeName));
    nodes.nodeValue.push(node.nodeType === 3 || node.nodeType === 8 ? S(node.nodeValue) : -1);
    nodes.backendNodeId.push(idOf(node));
    /** @type {number[]} */
    const attrs = [];
    if (node.nodeType === 1) for (const a of /** @type {Element} */ (node).attributes) attrs.push(S(a.name), S(a.value));
    nodes.attributes.push(attrs);
    return i;
  };

  /** @param {number} i @param {DOMRect} rect @param {CSSStyleDeclaration | null} style @param {string} [text] */
  const box = (i, rect, style, text) => {
    layout.nodeIndex.push(i);
    layout.bounds.push([rect.x + sx, rect.y + sy, rect.width, rect.height]);
    layout.styles.push(style ? CAPTURE_STYLES.map((p) => S(style.getPropertyValue(p))) : []);
    layout.text.push(text === undefined ? -1 : S(text));
    layout.clientRects.push([]);
  };

  /** @param {Node} node @param {number} parent */
  const walk = (node, parent) => {
    const i = add(node, parent);
    if (node.nodeType === 1) {
      const el = /** @type {Element} */ (node);
      const style = win.getComputedStyle(el);
      const rects = el.getClientRects();
      if (style.display !== 'none' && (rects.length > 0 || style.display === 'contents')) box(i, el.getBoundingClientRect(), style);
      const tag = el.tagName;
      if (tag === 'INPUT' || tag === 'TEXTAREA') {
        nodes.inputValue.index.push(i);
        nodes.inputValue.value.push(S(/** @type {HTMLInputElement} */ (el).value));
        const input = /** @type {HTMLInputElement} */ (el);
        if ((input.type === 'checkbox' || input.type === 'radio') && input.checked) nodes.inputChecked.index.push(i);
      }
      if (tag === 'OPTION' && /** @type {HTMLOptionElement} */ (el).selected) nodes.optionSelected.index.push(i);
      if (NATIVE.has(tag) || el.hasAttribute('onclick') || style.cursor === 'pointer') nodes.isClickable.index.push(i);
      if (el.shadowRoot) {
        const r = add(el.shadowRoot, i);
        nodes.shadowRootType.index.push(r);
        nodes.shadowRootType.value.push(S('open'));
        for (const c of el.shadowRoot.childNodes) walk(c, r);
      }
    } else if (node.nodeType === 3 && node.parentNode) {
      const range = doc.createRange();
      range.selectNodeContents(node);
      const rects = range.getClientRects();
      const value = node.nodeValue ?? '';
      if (rects.length > 0 && value.trim()) box(i, range.getBoundingClientRect(), null, value);
    }
    for (const c of node.childNodes) walk(c, i);
  };
  walk(doc, -1);
  if (layout.nodeIndex[0] !== 0) {  // the document itself has a box in CDP
    layout.nodeIndex.unshift(0); layout.bounds.unshift([0, 0, doc.documentElement.scrollWidth, doc.documentElement.scrollHeight]);
    layout.styles.unshift([]); layout.text.unshift(-1); layout.clientRects.unshift([]);
  }
  const document = { documentURL: S(doc.URL), title: S(doc.title), baseURL: S(doc.baseURI), frameId: S(frameId),
    nodes, layout, scrollOffsetX: sx, scrollOffsetY: sy, contentWidth: win.innerWidth, contentHeight: win.innerHeight };
  return {
    v: 1,
    styles: [...CAPTURE_STYLES],
    frameTree: { frame: { id: frameId, loaderId, url: doc.URL } },
    snapshot: { documents: [document], strings },
    oopifs: [],
    viewport: { x: sx, y: sy, width: win.innerWidth, height: win.innerHeight },
  };
}

/** A new loader id for the document (call when the frame navigated). @param {Document} doc */
export function forgetDocument(doc) { loaders.delete(doc); }
