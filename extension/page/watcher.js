// Page code of stabilization (lib/stabilize.js, lib/page-scripts.js WATCHER_JS): the watcher
// installed in the page's main world, and the two calls the extension makes of it.

/**
 * What the page does after an action, watched from inside it (main world, installed before the
 * page's own scripts by Page.addScriptToEvaluateOnNewDocument, and into the document already there
 * on attach). Stabilization (extension/lib/stabilize.js) asks it when the page has settled:
 *   - timers the action set (setTimeout with a delay up to cfg.trackMaxMs, created within
 *     cfg.windowMs of the action), and the timers those set, until they have fired or been
 *     cleared. A timer set by the callback of a timer that is not the action's (a loop the page
 *     was already running) is not the action's either; one callback scheduled more than
 *     cfg.repeats times in one action is a loop, and from then on neither it nor what it sets is;
 *   - the DOM quiet for `quiet` ms (mutations inside aria-hidden subtrees do not count: the
 *     FactPack does not show them, unless an open modal hid them; looked for up to
 *     cfg.ancestorsMax ancestors up);
 *   - animations and transitions that end within cfg.animationMaxMs (infinite ones never do), in
 *     the document and in the shadow roots attached since the watcher began (Chrome's
 *     document.getAnimations() leaves those out: a web component's closing animation is there),
 *     unless they cannot change a line (`inert`: a colour, a move that keeps its box on the same
 *     side of the viewport's edge, a fade that neither starts nor ends at 0) and no script waits
 *     for their end; the first cfg.animationsJudgedMax of them are judged so, the rest waited for;
 *   - the same for every same-origin iframe (each has its own watcher), the first cfg.framesMax
 *     of them (the frames a capture keeps): touching a frame's window makes Chrome build its
 *     script context, about 7 ms each, so a walk into 1,000 frames held an action 7 s.
 * Longer timers the action set (up to cfg.laterMaxMs) are reported, not waited for. The watcher
 * is a property of the page's global object under a random non-enumerable name, and setTimeout,
 * clearTimeout and clearInterval become proxies of the originals (and so do EventTarget's
 * addEventListener and Animation's finished and onfinish, to know which animations' ends a script
 * waits for): a page that looks for them can
 * find them, and at worst make stabilization wait until its cap or end early, which it could do
 * anyway by delaying its own work. It holds counts and times only, never page content.
 * It also marks a password field the page switches to another type (a show-password button):
 * the field gets the attribute cfg.wasPassword (secrets.js WAS_PASSWORD_ATTR), so the one secret
 * rule, which the core applies to the captured DOM and read applies in the page, keeps its value
 * secret whatever the field is named. An attribute, not a set held here, because the core sees
 * the DOM only; a page can remove it, as it could never have used type=password at all. A switch
 * made before the extension attached, or a field the page replaces by a new one, is not seen.
 * It also marks a field that is a secret by meaning (cfg.secretMark, secrets.js SECRET_MARK_ATTR),
 * what only the live page shows: the text of its labels (label[for], the label around it,
 * aria-labelledby), a -webkit-text-security mask, a field put where a password field was in the
 * same change (a show-password toggle that replaces the input), a box of a one-time-code group
 * (cfg.otpBoxesMin or more one-character inputs side by side), or the rule's own reasons. Marked
 * when the field arrives or its attributes change, in the same task (a capture cannot come
 * between); a mark is never taken off (a secret once is a secret still).
 * A new document starts watching at once (a navigation's page is judged like an action's).
 * Apart from actions, the watcher counts every change to the document it can see (DOM mutations,
 * input and change events, scrolls, resizes): `mark()` tells the extension whether the page can
 * differ from its last capture (a different mark) or not, and an action on an unchanged page
 * reuses that capture instead of taking a new one before it acts.
 * And it marks a field the browser's own validation refused (secrets.js INVALID_MARK_ATTR, with
 * the browser's message, cut at cfg.invalidMessageMax), until the field is valid again.
 * @param {string} key @param {{trackMaxMs: number, windowMs: number, repeats: number, animationMaxMs: number, animationsJudgedMax: number, collapseElementsMax: number, laterMaxMs: number, wasPassword: string, secretMark: string, secretLabelMax: number, otpBoxesMin: number, invalidMark: string, invalidMessageMax: number, framesMax: number, ancestorsMax: number}} cfg
 * @param {typeof import('../lib/secrets.js').isSecretField} isSecret the secret rule (lib/secrets.js)
 */
export function pageWatcher(key, cfg, isSecret) {
  const g = /** @type {any} */ (globalThis);
  if (Object.prototype.hasOwnProperty.call(g, key)) return;
  // The originals, taken before the page's scripts run: the page cannot change what we use.
  const perf = performance, perfNow = perf.now.bind(perf);
  const realSet = g.setTimeout, realClear = g.clearTimeout, realClearInterval = g.clearInterval;
  const Observer = g.MutationObserver, P = Promise, apply = Reflect.apply, Elem = g.Element;
  const getAttr = Elem.prototype.getAttribute, setAttr = Elem.prototype.setAttribute;
  const Weak = g.WeakRef;
  // A password field switched to another type keeps a mark (see above), in the document and in
  // every shadow root attached from now on.
  const typeWatch = new Observer((/** @type {MutationRecord[]} */ records) => {
    for (const r of records) {
      const el = /** @type {Element} */ (r.target);
      if (el.localName !== 'input' || String(r.oldValue ?? '').trim().toLowerCase() !== 'password') continue;
      if (String(apply(getAttr, el, ['type']) ?? '').trim().toLowerCase() !== 'password') apply(setAttr, el, [cfg.wasPassword, '']);
    }
  });
  // Secrets by meaning (see above).
  const FIELDS = 'input,textarea,[contenteditable],[role=textbox]';
  const isField = (/** @type {any} */ n) => n instanceof Elem && (n.localName === 'input' || n.localName === 'textarea' ||
    apply(getAttr, n, ['contenteditable']) !== null || apply(getAttr, n, ['role']) === 'textbox');
  const labelsOf = (/** @type {any} */ el) => {
    let text = '';
    try {
      for (const l of el.labels ?? []) text += ` ${l.textContent}`;
      const root = el.getRootNode();
      for (const id of String(apply(getAttr, el, ['aria-labelledby']) ?? '').split(/\s+/)) if (id) text += ` ${root.getElementById?.(id)?.textContent ?? ''}`;
    } catch { /* a detached or exotic node: its attributes still speak */ }
    return text.slice(0, cfg.secretLabelMax);
  };
  const oneBox = (/** @type {any} */ n) => n instanceof Elem && n.localName === 'input' && String(apply(getAttr, n, ['maxlength']) ?? '').trim() === '1';
  const inCodeGroup = (/** @type {any} */ el) => {
    if (!oneBox(el)) return false;
    // The boxes side by side, or each in a wrapper of its own side by side.
    for (let box = el, k = 0; box && box.parentElement && k < 2; box = box.parentElement, k++) {
      let n = 0;
      for (const sib of box.parentElement.children) if (oneBox(sib) || (k === 1 && sib.children.length === 1 && oneBox(sib.firstElementChild))) n++;
      if (n >= cfg.otpBoxesMin) return true;
    }
    return false;
  };
  const masked = (/** @type {any} */ el) => {
    try { const v = getComputedStyle(el).getPropertyValue('-webkit-text-security'); return !!v && v !== 'none'; } catch { return false; }
  };
  const markSecret = (/** @type {Element} */ el) => { if (apply(getAttr, el, [cfg.secretMark]) === null) apply(setAttr, el, [cfg.secretMark, '']); };
  const judge = (/** @type {any} */ el) => {
    if (!isField(el) || apply(getAttr, el, [cfg.secretMark]) !== null) return;
    if (isSecret(el.localName, (/** @type {string} */ n) => apply(getAttr, el, [n]), labelsOf(el)) || masked(el) || inCodeGroup(el)) markSecret(el);
  };
  const judgeUnder = (/** @type {any} */ n) => {
    if (!(n instanceof Elem)) return;
    judge(n);
    if (n.localName === 'label') judge(/** @type {any} */ (n).control);
    for (const f of n.querySelectorAll(FIELDS)) judge(f);
    if (n.querySelector('label')) for (const l of n.querySelectorAll('label')) judge(/** @type {any} */ (l).control);
  };
  const wasSecret = (/** @type {any} */ n) => n instanceof Elem && [n, ...Array.from(n.querySelectorAll('input'))].some((f) => f.localName === 'input' &&
    (String(apply(getAttr, f, ['type']) ?? '').trim().toLowerCase() === 'password' || apply(getAttr, f, [cfg.secretMark]) !== null || apply(getAttr, f, [cfg.wasPassword]) !== null));
  const secretWatch = new Observer((/** @type {MutationRecord[]} */ records) => {
    /** Parents that lost a secret field in this change: what is put there takes its place. */
    const lost = new Set();
    for (const r of records) if (r.type === 'childList') for (const n of Array.from(r.removedNodes)) if (wasSecret(n)) lost.add(r.target);
    /** Nodes this change added: what is added inside one of them was seen by its walk. */
    const added = new Set();
    for (const r of records) {
      if (r.type === 'attributes') { judge(r.target); continue; }
      for (const n of /** @type {any[]} */ (Array.from(r.addedNodes))) {
        // A script that builds a tree one level at a time gives one record per level: walking
        // each level's subtree again would cost the square of the depth (a 20,000-level page
        // held its main thread for seconds). The outermost added node's walk sees them all.
        const seen = added.has(r.target);
        added.add(n);
        if (seen) continue;
        if (lost.has(r.target) && n instanceof Elem) for (const f of [n, ...Array.from(n.querySelectorAll(FIELDS))]) if (isField(f)) markSecret(f);
        judgeUnder(n);
        // A box joining a group makes the group's first boxes a code too.
        if (oneBox(n) && n.parentElement) for (const b of Array.from(n.parentElement.querySelectorAll('input'))) judge(b);
      }
    }
  });
  const watchSecrets = (/** @type {Node} */ root) => {
    secretWatch.observe(root, { subtree: true, childList: true, attributes: true,
      attributeFilter: ['type', 'class', 'style', 'autocomplete', 'aria-label', 'aria-labelledby', 'placeholder', 'title', 'maxlength', 'contenteditable', 'role', 'name', 'id'] });
    if (/** @type {any} */ (root).querySelectorAll) for (const f of /** @type {any} */ (root).querySelectorAll(FIELDS)) judge(f);
  };
  const watchTypes = (/** @type {Node} */ root) => {
    typeWatch.observe(root, { subtree: true, attributes: true, attributeFilter: ['type'], attributeOldValue: true });
    watchSecrets(root);
  };
  watchTypes(document);
  /** Shadow roots attached since the watcher began (open or closed), for their animations. @type {any[]} */
  let roots = [];
  const attachShadow = Elem.prototype.attachShadow;
  if (attachShadow) {
    Elem.prototype.attachShadow = new Proxy(attachShadow, {
      apply(target, self, args) {
        const root = apply(target, self, args);
        if (Weak) roots.push(new Weak(root));
        watchTypes(root);
        return root;
      },
    });
  }
  const perfOrigin = perf.timeOrigin;
  /** This document, and every change it has seen: the mark of "the page as captured". */
  const doc = `${Math.round(perfOrigin)}.${Math.random().toString(36).slice(2, 8)}`;
  let changes = 0;
  const changed = () => { changes++; };
  for (const type of ['input', 'change', 'scroll']) document.addEventListener(type, changed, { capture: true, passive: true });
  // A field the browser refused on submit (`invalid` does not bubble: a capturing listener sees it).
  const removeAttr = Elem.prototype.removeAttribute;
  document.addEventListener('invalid', (/** @type {Event} */ ev) => {
    const el = /** @type {any} */ (ev.target);
    if (el instanceof Elem) apply(setAttr, el, [cfg.invalidMark, String(el.validationMessage ?? '').slice(0, cfg.invalidMessageMax)]);
  }, { capture: true });
  const revalidate = (/** @type {Event} */ ev) => {
    const el = /** @type {any} */ (ev.target);
    if (el instanceof Elem && apply(getAttr, el, [cfg.invalidMark]) !== null && el.validity?.valid) apply(removeAttr, el, [cfg.invalidMark]);
  };
  for (const type of ['input', 'change']) document.addEventListener(type, revalidate, { capture: true, passive: true });
  g.addEventListener('resize', changed, { passive: true });
  const st = {
    on: false, since: 0, lastChange: 0, mutations: 0,
    /** @type {Map<number, number>} tracked timer id -> when it is due */
    pending: new Map(),
    /** @type {Map<number, number>} longer timers of the action -> when due */
    later: new Map(),
    /** @type {WeakMap<Function, number>} callback -> times scheduled in this window */
    seen: new WeakMap(),
  };
  const query = g.Document.prototype.querySelector, holds = g.Node.prototype.contains;
  /** Inside an aria-hidden subtree, unless an open modal put it there: SweetAlert2, MUI and React
   *  Aria hide every sibling of the modal's way up to <body>, and the FactPack still shows that
   *  page (core/src/compiler/visibility.cpp).
   *  @param {Node | null} n @param {Element | null} modal */
  const hidden = (n, modal) => {
    let k = 0;
    for (let e = n instanceof Elem ? /** @type {Element} */ (n) : n && n.parentElement; e && k < cfg.ancestorsMax; e = e.parentElement, k++) {
      const v = apply(getAttr, e, ['aria-hidden']);
      if (!v || v.trim().toLowerCase() !== 'true') continue;
      const up = e.parentElement;
      if (modal && up && apply(holds, up, [modal]) && !apply(holds, e, [modal])) continue;
      return true;
    }
    return false;
  };
  // One observer for the document's life: every mutation changes the mark; while an action is
  // watched, those the FactPack shows also hold the page from settling.
  new Observer((/** @type {MutationRecord[]} */ records) => {
    changes += records.length;
    if (!st.on) return;
    const modal = apply(query, document, ['[aria-modal="true" i]']);
    for (const r of records) {
      if (!(r.type === 'attributes' && r.attributeName === 'aria-hidden') && hidden(r.target, modal)) continue;
      st.mutations++;
      st.lastChange = perfNow();
    }
  }).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  const begin = () => {
    const now = perfNow();
    st.on = true; st.since = now; st.lastChange = now; st.mutations = 0;
    st.pending.clear(); st.later.clear(); st.seen = new WeakMap();
  };
  /** While a timer's callback runs: whether that timer was the action's (undefined outside one). @type {boolean | undefined} */
  let current;
  g.setTimeout = new Proxy(realSet, {
    apply(target, self, args) {
      const fn = args[0];
      if (typeof fn !== 'function') return apply(target, self, args);
      const delay = Math.max(0, Number(args[1]) || 0);
      let ours = st.on && current !== false && perfNow() - st.since <= cfg.windowMs && delay <= cfg.laterMaxMs;
      if (ours) {
        const times = (st.seen.get(fn) ?? 0) + 1;
        st.seen.set(fn, times);
        ours = times <= cfg.repeats;
      }
      const into = !ours ? null : delay <= cfg.trackMaxMs ? st.pending : st.later;
      /** @type {number} */
      let id = 0;
      // Every callback is wrapped, so that what it sets knows whose it is.
      const wrapped = function (/** @type {any[]} */ ...a) {
        if (into) into.delete(id);
        if (into === st.pending) st.lastChange = perfNow();
        const outer = current;
        current = ours;
        // @ts-ignore: the page's callback, called as the browser would
        try { return apply(fn, this, a); } finally { current = outer; }
      };
      id = apply(target, self, [wrapped, ...args.slice(1)]);
      if (into) into.set(id, perfNow() + delay);
      return id;
    },
  });
  const forget = (/** @type {Function} */ real) => new Proxy(real, {
    apply(target, self, args) { st.pending.delete(args[0]); st.later.delete(args[0]); return apply(target, self, args); },
  });
  g.clearTimeout = forget(realClear);
  g.clearInterval = forget(realClearInterval);

  /** This window's watcher and those of the same-origin iframes below it, the first cfg.framesMax frames. */
  const all = () => {
    /** @type {any[]} */
    const out = [];
    let left = cfg.framesMax;
    const walk = (/** @type {Window} */ w) => {
      let x;
      try { x = /** @type {any} */ (w)[key]; } catch { return; } // cross-origin
      if (x) out.push(x);
      for (let i = 0; i < w.frames.length && left > 0; i++) { left--; walk(w.frames[i]); }
    };
    walk(g);
    return out;
  };
  // Which running animations can change what a capture reads. The compiler reads, per element, its
  // display, visibility, opacity (0 or not), z-index, position, overflow and content, and its box:
  // empty or at most a pixel (not visible), in the viewport or not, over the whole viewport (a
  // backdrop). Order is the DOM's (and aria-rowindex), never the drawn position. So a transition of
  // colours or shadows never changes a line; an element sliding or growing changes one only if its
  // box crosses the viewport's edge or collapses; a fade only if it starts or ends at opacity 0.
  // AG Grid moves sorted rows with `transition: transform 0.4s` inside the viewport, Swagger UI
  // widens a button's box and colours it: their lines are final at once. A script that waits for
  // an animation's end (a transitionend / animationend listener on its element, an Animation's
  // finished promise, onfinish or `finish` listener) can change anything then: such an animation is
  // always waited for. A listener on an ancestor is not counted: that is how frameworks delegate
  // every event (React listens for transitionend and animationend at its root in every app), not a
  // script waiting for this element; the element's own listeners are what Bootstrap, Vue and
  // Shoelace use.
  // Listeners are counted from the watcher's start: installed before the page's scripts (a new
  // document has no root element yet) it sees them all; put into a document already there (a tab
  // adopted as it was), listeners its scripts added before are unknown, and every animation is
  // waited for, as before.
  const seesAll = !document.documentElement || document.scripts.length === 0;
  /** Elements and Animations -> listeners for their end, added and not removed. @type {WeakMap<object, number>} */
  const awaited = new WeakMap();
  const END_EVENTS = ['transitionend', 'animationend', 'webkittransitionend', 'webkitanimationend', 'finish'];
  const listened = (/** @type {any} */ self, /** @type {any} */ args, /** @type {number} */ by) => {
    if (!self || (typeof self !== 'object' && typeof self !== 'function') || typeof args[1] !== 'function' && !(args[1] && typeof args[1] === 'object')) return;
    // A type whose conversion throws is the browser's to refuse, as it would without us.
    let type = '';
    try { type = String(args[0]).toLowerCase(); } catch { return; }
    if (END_EVENTS.includes(type)) awaited.set(self, Math.max(0, (awaited.get(self) ?? 0) + by));
  };
  const ETP = g.EventTarget && g.EventTarget.prototype;
  if (ETP && ETP.addEventListener && ETP.removeEventListener) {
    ETP.addEventListener = new Proxy(ETP.addEventListener, {
      apply(target, self, args) { listened(self, args, 1); return apply(target, self, args); },
    });
    ETP.removeEventListener = new Proxy(ETP.removeEventListener, {
      apply(target, self, args) { listened(self, args, -1); return apply(target, self, args); },
    });
  }
  const AP = g.Animation && g.Animation.prototype;
  for (const [name, kind] of /** @type {const} */ ([['finished', 'get'], ['onfinish', 'set']])) {
    const d = AP && Object.getOwnPropertyDescriptor(AP, name);
    const fn = d && d[kind];
    if (!fn) continue;
    Object.defineProperty(AP, name, { ...d, [kind]: new Proxy(fn, { apply(target, self, args) { if (self && typeof self === 'object') awaited.set(self, 1); return apply(target, self, args); } }) });
  }
  const kebab = (/** @type {string} */ p) => p.replace(/^css(?=[A-Z])/, '').replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
  /** Properties that only paint: no line depends on them. */
  const PAINT = /^(color|background(-.+)?|border(-(top|right|bottom|left|block|inline)(-(start|end))?)?-color|border(-(top|bottom)-(left|right)|-(start|end)-(start|end))?-radius|outline(-.+)?|box-shadow|text-shadow|text-decoration(-.+)?|text-underline-offset|text-emphasis-color|fill(-opacity)?|stroke(-.+)?|stop-(color|opacity)|flood-(color|opacity)|lighting-color|filter|backdrop-filter|caret-color|accent-color|column-rule-color|scrollbar-color|clip-path|mask(-.+)?|-webkit-mask(-.+)?|shape-outside|will-change)$/;
  /** Properties that move a box without resizing anything: the offsets and transforms. */
  const MOVE = /^(transform|translate|rotate|scale|top|left|right|bottom|inset(-.+)?|margin(-.+)?)$/;
  /** Properties that resize a box; the ones whose 0 collapses it are checked for that. */
  const SIZE = /^((min-|max-)?(width|height|block-size|inline-size)|padding(-.+)?|border(-(top|right|bottom|left))?-width|font-size|line-height|letter-spacing|word-spacing|flex-(basis|grow|shrink)|(row-|column-)?gap)$/;
  const COLLAPSES = /^((min-|max-)?(width|height|block-size|inline-size)|font-size|flex-basis)$/;
  const px = (/** @type {any} */ v) => { const m = /^\s*(-?[\d.]+(?:e-?\d+)?)(px)?\s*$/i.exec(String(v)); return m ? Number(m[1]) : NaN; };
  /** The box crosses the viewport's edge if moved or resized by up to d px on any side (the compiler's in_viewport test). */
  const crosses = (/** @type {DOMRect} */ r, /** @type {number} */ d) => {
    const vw = g.innerWidth, vh = g.innerHeight;
    const inside = r.left + d < vw && r.right - d > 0 && r.top + d < vh && r.bottom - d > 0;
    const outside = !(r.left - d < vw && r.right + d > 0 && r.top - d < vh && r.bottom + d > 0);
    return !inside && !outside;
  };
  /** A 2D transform property's value as a matrix; null when it is not one (3D, relative lengths). @param {string} p @param {any} v */
  const transformOf = (p, v) => {
    const s = String(v ?? 'none').trim() || 'none';
    const parts = s.split(/\s+/);
    if (s !== 'none' && p !== 'transform' && parts.length > (p === 'rotate' ? 1 : 2)) return null;
    const css = s === 'none' ? 'none' : p === 'transform' ? s : `${p}(${parts.join(',')})`;
    try { const m = new g.DOMMatrix(css); return m.is2D ? m : null; } catch { return null; }
  };
  /**
   * An element whose box may collapse without losing a line: a few elements, each focusable (the
   * compiler shows a focusable element whatever its box, and names it from its text) or inside one,
   * or with no role and no words of its own (Swagger UI folds its copy button's wrapper to width 0).
   * With bare, nothing in it may be focusable either: it holds no line at all.
   * @param {Element} el @param {boolean} [bare]
   */
  const folds = (el, bare = false) => {
    const all = el.getElementsByTagName('*');
    if (all.length >= cfg.collapseElementsMax) return false;
    for (const e of [el, ...Array.from(all)]) {
      const h = /** @type {any} */ (e);
      if (bare && h.tabIndex >= 0) return false;
      if (h.tabIndex >= 0 || (e !== el && e.parentElement && e.parentElement.closest && el.contains(e.parentElement.closest('a[href],button,input,select,textarea,[tabindex]')))) continue;
      if (apply(getAttr, e, ['role']) !== null || /^(img|svg|input|select|textarea|video|audio|canvas|iframe|object|embed|progress|meter)$/i.test(e.localName)) return false;
      for (const c of Array.from(e.childNodes)) if (c.nodeType === 3 && String(c.nodeValue).trim()) return false;
    }
    return true;
  };
  /**
   * Whether animation a cannot change any line: every property it animates is paint, or a move or
   * resize that leaves its target's box on the same side of the viewport's edge and not collapsed,
   * or an opacity that is not 0 now nor at the end; and no script waits for its end.
   * @param {any} a
   */
  const inert = (a) => {
    const fx = a.effect;
    const el = fx && fx.target;
    if (!seesAll || !el || !(el instanceof Elem) || awaited.get(a) || awaited.get(el)) return false;
    /** @type {any[]} */
    const frames = fx.getKeyframes ? fx.getKeyframes() : [];
    if (frames.length === 0) return false;
    const props = new Set();
    for (const f of frames) for (const k of Object.keys(f)) if (!['offset', 'computedOffset', 'easing', 'composite'].includes(k)) props.add(k);
    const kinds = [...props].map((p) => [p, kebab(p)]);
    if (kinds.every(([, p]) => PAINT.test(p))) return true;
    // A small bare element (an icon's stroke, a decoration: nothing focusable, no role, no words)
    // is no line and holds none: wherever it moves or however it is sized, no line changes. Not
    // a big one: an empty box over the viewport is a dialog's backdrop to the compiler.
    if (kinds.every(([, p]) => PAINT.test(p) || MOVE.test(p) || SIZE.test(p)) && !fx.pseudoElement && folds(el, true)) {
      const r = el.getBoundingClientRect();
      if (r.width < g.innerWidth / 2 && r.height < g.innerHeight / 2) return true;
    }
    // Beyond paint, the value it ends at must be known: a transition's is its last keyframe; an
    // animation's is its last one in the play direction only if it fills forwards (else the
    // element's own style, which the animation hides).
    let last = frames[frames.length - 1];
    if (typeof a.transitionProperty !== 'string') {
      const t = fx.getTiming ? fx.getTiming() : {};
      if (t.fill !== 'forwards' && t.fill !== 'both') return false;
      if (t.direction === 'reverse') last = frames[0];
      else if (t.direction && t.direction !== 'normal') return false;
    }
    // A pseudo-element's box is not one the capture reads apart from its content: only paint is sure.
    if (fx.pseudoElement) return false;
    // In a frame, the viewport that decides is the top page's: only paint and opacity are sure.
    const framed = g !== g.top;
    const cs = g.getComputedStyle(el);
    let box = null, move = 0;
    for (const [key, p] of kinds) {
      if (PAINT.test(p)) continue;
      const end = last[key];
      if (p === 'opacity') {
        if (!(Number(cs.opacity) > 0) || !(Number(end) > 0)) return false;
        continue;
      }
      if (framed || !(MOVE.test(p) || SIZE.test(p))) return false;
      box ??= el.getBoundingClientRect();
      if (p === 'transform' || p === 'translate' || p === 'scale' || p === 'rotate') {
        const now = transformOf(p, cs.getPropertyValue(p)), to = transformOf(p, end);
        if (!now || !to) return false;
        const det = (/** @type {DOMMatrix} */ m) => Math.abs(m.a * m.d - m.b * m.c);
        // Scaled to nothing: the box collapses.
        if (det(to) < 1e-6) return false;
        // How far the end transform takes the box from where it is now: the shift of the
        // translation, the change of scale (a rotation: its whole size, to be safe).
        const sNow = Math.sqrt(det(now)) || 1, sTo = Math.sqrt(det(to));
        const turned = [now, to].some((m) => Math.abs(m.b) > 1e-6 || Math.abs(m.c) > 1e-6);
        move += Math.abs(to.m41 - now.m41) + Math.abs(to.m42 - now.m42) + Math.max(box.width, box.height) * (Math.abs(sTo / sNow - 1) + (turned ? 1 : 0));
        continue;
      }
      const v = px(end), cur = px(cs.getPropertyValue(p));
      if (COLLAPSES.test(p) && !(v > 1) && !folds(el)) return false;
      if (!Number.isFinite(v)) return false;
      move += Number.isFinite(cur) ? Math.abs(v - cur) : Math.abs(v) + Math.max(box.width, box.height);
      if (SIZE.test(p) && !(box.width > 1 && box.height > 1)) return false;
    }
    return !box || !crosses(box, move);
  };
  /** Running animations of this document and its shadow roots that end within cfg.animationMaxMs and can change a line (inert above). */
  const ending = () => {
    let n = 0, judged = 0;
    /** @param {Animation[]} list */
    const count = (list) => {
      for (const a of list) {
        if (a.playState !== 'running' || !a.effect) continue;
        const end = Number(a.effect.getComputedTiming().endTime);
        const at = Number(a.currentTime ?? 0);
        if (!(Number.isFinite(end) && end - at > 0 && (end - at) / Math.abs(a.playbackRate || 1) <= cfg.animationMaxMs)) continue;
        // Past cfg.animationsJudgedMax, each one is waited for without being looked at.
        let still = false;
        if (judged++ < cfg.animationsJudgedMax) { try { still = inert(a); } catch { still = false; } }
        if (!still) n++;
      }
    };
    if (document.getAnimations) count(document.getAnimations());
    const live = [];
    for (const w of roots) {
      const r = w.deref();
      if (!r) continue;
      live.push(w);
      if (r.getAnimations) count(r.getAnimations());
    }
    roots = live;
    return n;
  };
  const own = {
    begin,
    state() {
      const now = perfNow();
      let laterMs = 0;
      for (const due of st.later.values()) laterMs = Math.max(laterMs, due - now);
      return { lastChange: st.lastChange, mutations: st.mutations, timers: st.pending.size, laterMs };
    },
    ending,
    mark() { return `${doc}:${changes}`; },
    end() { st.on = false; },
    /** Watch what the action does (here and in same-origin iframes); the page's mark as it is now. */
    beginAll() {
      const xs = all();
      for (const x of xs) x.begin();
      return xs.map((x) => x.mark()).join(' ');
    },
    /**
     * Resolves once every watcher is settled for `quiet` ms (counted from this call at the
     * earliest), or at capMs with quiet false.
     * @param {number} quiet @param {number} capMs @param {number} tickMs
     */
    settle(quiet, capMs, tickMs) {
      const start = perfNow();
      return new P((/** @type {(v: any) => void} */ resolve) => {
        const tick = () => {
          const now = perfNow();
          let last = start, mutations = 0, timers = 0, animations = 0, laterMs = 0;
          const watchers = all();
          for (const x of watchers) {
            const s = x.state();
            last = Math.max(last, s.lastChange); mutations += s.mutations; timers += s.timers; laterMs = Math.max(laterMs, s.laterMs);
          }
          // Animations are looked at last, only when nothing else holds the page.
          if (now - last >= quiet && timers === 0) for (const x of watchers) animations += x.ending();
          const quietNow = now - last >= quiet && timers === 0 && animations === 0;
          if (quietNow || now - start >= capMs) {
            if (quietNow) for (const x of watchers) x.end();
            resolve({ quiet: quietNow, ms: Math.round(now - start), mutations, timers, animations, laterMs: Math.round(laterMs), mark: watchers.map((x) => x.mark()).join(' ') });
          } else apply(realSet, g, [tick, tickMs]);
        };
        apply(realSet, g, [tick, tickMs]);
      });
    },
  };
  Object.defineProperty(g, key, { value: Object.freeze(own), enumerable: false, writable: false, configurable: false });
  begin();
}

/** The watcher (and those of same-origin iframes) starts watching an action; false with no watcher. @param {string} key */
export function beginWatch(key) {
  return /** @type {any} */ (globalThis)[key]?.beginAll() ?? false;
}

/**
 * Resolves when the page has settled (see pageWatcher), or at capMs. A document without the
 * watcher (one the extension could not reach in time) gets the DOM-quiet wait alone.
 * @param {string} key @param {number} quietMs @param {number} capMs @param {number} tickMs
 */
export function settleWatch(key, quietMs, capMs, tickMs) {
  return /** @type {any} */ (globalThis)[key]?.settle(quietMs, capMs, tickMs) ?? new Promise((/** @type {any} */ resolve) => {
  let last = performance.now(), mutations = 0;
  const start = last;
  const mo = new MutationObserver((/** @type {any} */ records) => { mutations += records.length; last = performance.now(); });
  mo.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  const tick = () => {
    const t = performance.now();
    const quiet = t - last >= quietMs;
    if (quiet || t - start >= capMs) { mo.disconnect(); resolve({ quiet, ms: Math.round(t - start), mutations, timers: 0, animations: 0, laterMs: 0 }); }
    else setTimeout(tick, tickMs);
  };
  setTimeout(tick, tickMs);
});
}
