// Hand-written captures (docs/capture-format.md) for the wasm tests and bench/wasm.mjs: the same
// shape as the compiler tests' CaptureBuilder (tests/unit/compiler/capture_builder.cpp), reduced
// to what these need. Node ids are explicit so consecutive captures keep (or replace) identities.
import { CAPTURE_STYLES as STYLES } from '../../extension/lib/capture.js';

export class CaptureBuilder {
  #strings = [];
  #index = new Map();
  #nodes = { parentIndex: [], nodeType: [], nodeName: [], nodeValue: [], backendNodeId: [], attributes: [] };
  #layout = { nodeIndex: [], bounds: [], styles: [], text: [], clientRects: [] };
  #nextId = 1;

  /** backendOffset is added to every node id: a re-render or a new document gives new nodes. */
  constructor({ frame = 'F0', loader = 'L0', url = 'https://example.test/', backendOffset = 0 } = {}) {
    Object.assign(this, { frame, loader, url, backendOffset });
    this.#add(-1, 9, '#document', '', {}, [0, 0, 1280, 720], {}, 0);
  }

  #s(v) {
    if (!this.#index.has(v)) { this.#index.set(v, this.#strings.length); this.#strings.push(v); }
    return this.#index.get(v);
  }

  #add(parent, type, name, value, attrs, box, style, id) {
    const n = this.#nodes, l = this.#layout;
    const i = n.parentIndex.length;
    n.parentIndex.push(parent);
    n.nodeType.push(type);
    n.nodeName.push(this.#s(type === 1 ? name.toUpperCase() : name));
    n.nodeValue.push(type === 3 ? this.#s(value) : -1);
    n.backendNodeId.push(this.backendOffset + (id ?? this.#nextId++));
    n.attributes.push(Object.entries(attrs).flatMap(([k, v]) => [this.#s(k), this.#s(v)]));
    const st = { display: type === 3 ? 'inline' : 'block', visibility: 'visible', opacity: '1', 'z-index': 'auto',
      position: 'static', overflow: 'visible', content: 'normal', ...style };
    l.nodeIndex.push(i);
    l.bounds.push(box);
    l.styles.push(STYLES.map((k) => this.#s(st[k])));
    l.text.push(type === 3 ? this.#s(value) : -1);
    l.clientRects.push([]);
    return i;
  }

  /** Element under node index `parent`; `id` pins its backend id (else the next free one). */
  el(parent, tag, attrs = {}, box = [0, 0, 100, 20], style = {}, id) {
    return this.#add(parent, 1, tag, '', attrs, box, style, id);
  }

  text(parent, value, box = [0, 0, 50, 16], id) {
    return this.#add(parent, 3, '#text', value, {}, box, {}, id);
  }

  str() {
    return JSON.stringify({
      v: 1,
      styles: STYLES,
      frameTree: { frame: { id: this.frame, loaderId: this.loader, url: this.url } },
      snapshot: {
        documents: [{ documentURL: this.#s(this.url), title: -1, frameId: this.#s(this.frame), scrollOffsetX: 0, scrollOffsetY: 0,
          nodes: { ...this.#nodes, contentDocumentIndex: { index: [], value: [] } }, layout: this.#layout }],
        strings: this.#strings,
      },
      oopifs: [],
      viewport: { x: 0, y: 0, width: 1280, height: 720 },
    });
  }
}

/** A nav of links, a main of buttons, optionally a modal dialog. */
export function capture({ frame = 'F0', loader = 'L0', url = 'https://example.test/', links = ['Home', 'Cart'], buttons = ['Add to cart'], dialog = null } = {}) {
  const b = new CaptureBuilder({ frame, loader, url });
  const body = b.el(0, 'body');
  const nav = b.el(body, 'nav', {}, [0, 0, 800, 40]);
  links.forEach((l, i) => b.text(b.el(nav, 'a', { href: `/${i}` }), l));
  const main = b.el(body, 'main', {}, [0, 50, 800, 400]);
  for (const t of buttons) b.text(b.el(main, 'button'), t);
  if (dialog) {
    const d = b.el(body, 'div', { role: 'dialog', 'aria-modal': 'true', 'aria-label': dialog.name }, [100, 100, 300, 200],
      { 'z-index': '1000', position: 'fixed' });
    for (const t of dialog.buttons ?? ['OK']) b.text(b.el(d, 'button'), t);
  }
  return b.str();
}

/**
 * A page of `n` readable elements (links, buttons, checkboxes, headings) in header/nav/main/footer,
 * laid out down a long page. `change` applies what bench_engine's 10,000-element steps do:
 *   'none' | 'small' (1 renamed, 1 disabled, 1 removed, 1 inserted) ; rerender: all nodes new;
 *   navigate: new loader id (a new document with the same content).
 */
export function bigCapture(n = 10000, { change = 'none', rerender = false, navigate = false } = {}) {
  const b = new CaptureBuilder({ loader: navigate ? 'L1' : 'L0', backendOffset: (rerender ? 1_000_000 : 0) + (navigate ? 2_000_000 : 0) });
  let id = 10;  // stable logical ids: the same element keeps its backend id across captures
  const next = () => (id += 2);
  const body = b.el(0, 'body', {}, [0, 0, 1280, 20 * n], {}, 2);
  const header = b.el(body, 'header', {}, [0, 0, 1280, 60], {}, 4);
  const nav = b.el(header, 'nav', { 'aria-label': 'Primary' }, [0, 0, 1280, 40], {}, 6);
  const main = b.el(body, 'main', {}, [0, 60, 1280, 20 * n], {}, 8);
  const navLinks = 20;
  for (let i = 0; i < navLinks; i++) b.text(b.el(nav, 'a', { href: `/section/${i}` }, [i * 60, 0, 60, 20], {}, next()), `Section ${i}`, undefined, next());
  let y = 60;
  for (let i = 0; i < n - navLinks; i++, y += 20) {
    if (change === 'small' && i === 30) { next(); next(); continue; }  // removed
    const box = [0, y, 200, 20];
    const kind = i % 25 === 0 ? 'h2' : ['a', 'button', 'input'][i % 3];
    const attrs = kind === 'a' ? { href: `/item/${i}` } : kind === 'input' ? { type: 'checkbox', 'aria-label': `Select item ${i}` } : {};
    if (change === 'small' && i === 20) attrs.disabled = '';
    const e = b.el(main, kind, attrs, box, {}, next());
    const label = change === 'small' && i === 10 ? 'Renamed' : kind === 'h2' ? `Group ${i / 25}` : kind === 'a' ? `Item ${i}` : `Add item ${i}`;
    const tid = next();
    if (kind !== 'input') b.text(e, label, [0, y, 100, 16], tid);
    if (change === 'small' && i === 50) b.text(b.el(main, 'button', {}, [300, y, 100, 20], {}, 900_001), 'Inserted', [300, y, 80, 16], 900_002);
  }
  return b.str();
}
