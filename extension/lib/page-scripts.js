// Code the extension runs inside the page (Runtime.evaluate / callFunctionOn): kept as source
// strings, one place, so what reaches the page is easy to review. Password and payment values
// are redacted here, before anything leaves the page.

import { INVALID_MARK_ATTR, isSecretField, SECRET_MARK_ATTR, WAS_PASSWORD_ATTR } from './secrets.js';
import { LANDMARKS, landmarkOf, regionOf } from './landmarks.js';
import { LIMITS } from './limits.js';
import { VISIBLE_SRC } from './visibility.js';

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
 *     document.getAnimations() leaves those out: a web component's closing animation is there);
 *   - the same for every same-origin iframe (each has its own watcher), the first cfg.framesMax
 *     of them (the frames a capture keeps): touching a frame's window makes Chrome build its
 *     script context, about 7 ms each, so a walk into 1,000 frames held an action 7 s.
 * Longer timers the action set (up to cfg.laterMaxMs) are reported, not waited for. The watcher
 * is a property of the page's global object under a random non-enumerable name, and setTimeout,
 * clearTimeout and clearInterval become proxies of the originals: a page that looks for them can
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
 * @param {string} key @param {{trackMaxMs: number, windowMs: number, repeats: number, animationMaxMs: number, laterMaxMs: number, wasPassword: string, secretMark: string, secretLabelMax: number, otpBoxesMin: number, invalidMark: string, invalidMessageMax: number, framesMax: number, ancestorsMax: number}} cfg
 * @param {typeof isSecretField} isSecret the secret rule (secrets.js)
 */
function pageWatcher(key, cfg, isSecret) {
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
  /** Running animations of this document and its shadow roots that end within cfg.animationMaxMs. */
  const ending = () => {
    let n = 0;
    /** @param {Animation[]} list */
    const count = (list) => {
      for (const a of list) {
        if (a.playState !== 'running' || !a.effect) continue;
        const end = Number(a.effect.getComputedTiming().endTime);
        const at = Number(a.currentTime ?? 0);
        if (Number.isFinite(end) && end - at > 0 && (end - at) / Math.abs(a.playbackRate || 1) <= cfg.animationMaxMs) n++;
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

/**
 * The watcher's source for Page.addScriptToEvaluateOnNewDocument (and the document already there).
 * @param {string} key its property name on the page's global object
 */
export const WATCHER_JS = (key) => `(${pageWatcher})(${JSON.stringify(key)}, ${JSON.stringify({
  trackMaxMs: LIMITS.settleTimerMaxMs, windowMs: LIMITS.settleTrackWindowMs, repeats: LIMITS.settleTimerRepeats,
  animationMaxMs: LIMITS.settleAnimationMaxMs, laterMaxMs: LIMITS.settleLaterMaxMs, wasPassword: WAS_PASSWORD_ATTR,
  secretMark: SECRET_MARK_ATTR, secretLabelMax: LIMITS.secretLabelMaxChars, otpBoxesMin: LIMITS.otpGroupBoxesMin,
  invalidMark: INVALID_MARK_ATTR, invalidMessageMax: LIMITS.invalidMessageMaxChars, framesMax: LIMITS.framesCapturedMax,
  ancestorsMax: LIMITS.watcherAncestorsMax,
})}, ${isSecretField})`;

/** Expression: the watcher (and those of same-origin iframes) starts watching an action. @param {string} key */
export const BEGIN_JS = (key) => `(globalThis[${JSON.stringify(key)}]?.beginAll() ?? false)`;

/**
 * Expression: resolves when the page has settled (see pageWatcher), or at capMs. A document
 * without the watcher (one the extension could not reach in time) gets the DOM-quiet wait alone.
 * @param {string} key @param {number} quietMs @param {number} capMs
 */
export const SETTLE_JS = (key, quietMs, capMs) => `(globalThis[${JSON.stringify(key)}]?.settle(${quietMs}, ${capMs}, ${LIMITS.settleTickMs}) ?? new Promise((resolve) => {
  let last = performance.now(), mutations = 0;
  const start = last;
  const mo = new MutationObserver((records) => { mutations += records.length; last = performance.now(); });
  mo.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  const tick = () => {
    const t = performance.now();
    const quiet = t - last >= ${quietMs};
    if (quiet || t - start >= ${capMs}) { mo.disconnect(); resolve({ quiet, ms: Math.round(t - start), mutations, timers: 0, animations: 0, laterMs: 0 }); }
    else setTimeout(tick, ${LIMITS.settleTickMs});
  };
  setTimeout(tick, ${LIMITS.settleTickMs});
}))`;

/**
 * Text of an element; password and payment values never leave the page. A heading's text is its
 * section's: the heading, then what follows it up to the next heading of its level or higher,
 * within the landmark that holds it (Sphinx wraps each section in a <section>; Node.js's and
 * MkDocs' headings are flat siblings of their text: both read the same).
 */
export const READ_FN = `function (max, from) {
  const isSecretField = ${isSecretField.toString()};
  const labelsOf = (el) => {
    let text = '';
    try {
      for (const l of el.labels ?? []) text += ' ' + l.textContent;
      for (const id of String(el.getAttribute('aria-labelledby') ?? '').split(/\\s+/)) if (id) text += ' ' + (el.getRootNode().getElementById?.(id)?.textContent ?? '');
    } catch {}
    return text.slice(0, ${LIMITS.secretLabelMaxChars});
  };
  const secret = (el) => el instanceof Element && isSecretField(el.localName, (n) => el.getAttribute(n), labelsOf(el));
  const level = (el) => {
    if (!(el instanceof Element)) return 0;
    if (el.getAttribute('role') === 'heading') return Number(el.getAttribute('aria-level')) || 2;
    const m = /^h([1-6])$/.exec(el.localName);
    return m ? Number(el.getAttribute('aria-level')) || Number(m[1]) : 0;
  };
  const section = (h) => {
    const own = level(h);
    const doc = h.ownerDocument;
    const after = (n) => !!(h.compareDocumentPosition(n) & Node.DOCUMENT_POSITION_FOLLOWING) && !h.contains(n);
    const heads = (n) => n instanceof Element && [n, ...n.querySelectorAll('h1,h2,h3,h4,h5,h6,[role=heading]')].find((x) => after(x) && level(x) && level(x) <= own);
    // A landmark bounds a section; a <header> need not be one (an article's, around its title).
    const edge = (n) => n === doc.body || n === doc.documentElement || /^(main|article|aside|nav|dialog)$/.test(n.localName) ||
      /^(main|article|complementary|navigation|region|dialog|alertdialog|banner|contentinfo)$/.test(n.getAttribute('role') || '');
    const parts = [h.innerText ?? h.textContent ?? ''];
    const take = (n) => {  // the text of n, or of its part before the next heading of the level; false there
      if (n instanceof Element && (/^(script|style|template|noscript)$/.test(n.localName) || getComputedStyle(n).display === 'none')) return true;
      const stop = heads(n);
      if (!stop) { const t = n instanceof HTMLElement ? n.innerText : (n.textContent || '').trim(); if (t) parts.push(t); return true; }
      if (stop === n) return false;
      for (let c = n.firstChild; c; c = c.nextSibling) if (!take(c)) return false;
      return false;
    };
    for (let n = h; n && !edge(n); n = n.parentElement) {
      for (let s = n.nextSibling; s; s = s.nextSibling) if (!take(s)) return parts.join('\\n');
      if (n.parentElement && edge(n.parentElement)) break;
    }
    return parts.join('\\n');
  };
  let t;
  if (secret(this)) t = '[redacted: a password, payment or one-time-code field]';
  else if ('value' in this && (this instanceof HTMLInputElement || this instanceof HTMLTextAreaElement || this instanceof HTMLSelectElement)) t = String(this.value);
  else if (level(this)) t = section(this);
  else t = this.innerText ?? this.textContent ?? '';
  const f = Math.max(0, Math.min(Number(from) || 0, t.length));
  return { text: t.slice(f, f + max), length: t.length, from: f };
}`;

/**
 * In the page: the landmark rule (landmarks.js) over a DOM element: `opens(el)` is the region it
 * opens ('' for none), `regionIn(el)` the region it lives in within its document.
 */
const LANDMARK_SRC = `const landmarkTable = ${JSON.stringify(LANDMARKS)};
  const landmarkOf = ${landmarkOf};
  const regionOf = ${regionOf};
  const landmarkElement = (n) => ({ tag: n.localName, attr: (a) => n.getAttribute(a) });
  const chainOf = (n) => { const chain = []; for (let e = n; e; e = e.parentElement) chain.unshift(landmarkElement(e)); return chain; };
  const opens = (n) => landmarkOf(landmarkTable, chainOf(n));
  const regionIn = (n) => regionOf(landmarkTable, chainOf(n), landmarkOf);`;

/**
 * Text of the landmark of region `want` around this node (its nearest ancestor-or-self opening
 * that region, crossing shadow roots), or of its document's body (want 'page', or none found).
 */
export const READ_LANDMARK_FN = `function (want, max, from) {
  ${LANDMARK_SRC}
  let n = this, lm = null;
  while (n && want !== 'page') {
    if (n.nodeType === 1 && opens(n) === want) { lm = n; break; }
    n = n.parentNode || (n instanceof ShadowRoot ? n.host : null);
  }
  const el = lm || (this.ownerDocument || document).body;
  const t = el.innerText ?? el.textContent ?? '';
  const f = Math.max(0, Math.min(Number(from) || 0, t.length));
  return { text: t.slice(f, f + max), length: t.length, from: f };
}`;

/** The elements that can open a landmark: the table's tags and anything with a role attribute. */
const LANDMARK_CANDIDATES = ['[role]', ...new Set(LANDMARKS.landmarks.flatMap((l) => l.tags))].join(',');

/**
 * Expression: the text of the main document's body (region 'page') or of its first rendered
 * landmark of `region` that is that region's (a <header> inside a dialog is the dialog's), with
 * the document's URL; null when there is none.
 * @param {string} region @param {number} max characters at most @param {number} from where the part starts
 */
export const READ_REGION_JS = (region, max, from) => `(() => {
  ${LANDMARK_SRC}
  const want = ${JSON.stringify(region)};
  let el = want === 'page' ? document.body : null;
  if (!el) for (const c of document.querySelectorAll(${JSON.stringify(LANDMARK_CANDIDATES)})) {
    if (c.getClientRects().length && opens(c) === want && regionIn(c) === want) { el = c; break; }
  }
  if (!el) return null;
  return { ...(${READ_FN}).call(el, ${max}, ${from}), url: document.URL };
})()`;

/** Empties an input, textarea or contenteditable (through the native value setter, so frameworks see it). */
export const CLEAR_FN = `function () {
    if (this.isContentEditable) { this.textContent = ''; }
    else if ('value' in this) {
      const d = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(this), 'value');
      if (d && d.set) d.set.call(this, ''); else this.value = '';
    }
    this.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
}`;

/** Selects the options of a <select> matching values or labels; says how many matched. */
export const SELECT_FN = `function (values) {
    if (!(this instanceof HTMLSelectElement)) return { error: 'not a <select>' };
    const want = new Set(values); let n = 0;
    for (const o of this.options) { const hit = want.has(o.value) || want.has(o.label) || want.has(o.text.trim()); o.selected = hit && (this.multiple || n === 0); if (hit) n++; }
    this.dispatchEvent(new Event('input', { bubbles: true })); this.dispatchEvent(new Event('change', { bubbles: true }));
    return { matched: n, options: [...this.options].map((o) => o.label).slice(0, 20) };
}`;

/**
 * Scrolls for an element (this) or the page (this null): the element into view (no direction), or
 * by amount / a share of the viewport the box that a mouse wheel over the element would scroll.
 */
export const SCROLL_FN = `function (dir, amount, share) {
    const el = this === window || this === undefined ? null : this;
    if (!dir) { el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' }); return; }
    // As a mouse wheel over the element: the nearest box that holds it and can scroll that way (a
    // data grid's rows scroll in its viewport, not in a row; a dialog's slotted body in the
    // dialog's shadow tree), else the page.
    const vertical = dir === 'up' || dir === 'down';
    const scrolls = (n) => {
        const o = getComputedStyle(n)[vertical ? 'overflowY' : 'overflowX'];
        return (o === 'auto' || o === 'scroll' || o === 'overlay') && (vertical ? n.scrollHeight > n.clientHeight : n.scrollWidth > n.clientWidth);
    };
    let box = el;
    while (box && !(box !== document.documentElement && box !== document.body && scrolls(box))) {
        const root = box.getRootNode();
        box = box.assignedSlot ?? box.parentElement ?? (root instanceof ShadowRoot ? root.host : null);
    }
    const h = (box ? box.clientHeight : innerHeight) * share, w = (box ? box.clientWidth : innerWidth) * share;
    const dy = dir === 'down' ? (amount ?? h) : dir === 'up' ? -(amount ?? h) : 0;
    const dx = dir === 'right' ? (amount ?? w) : dir === 'left' ? -(amount ?? w) : 0;
    (box ?? window).scrollBy({ top: dy, left: dx, behavior: 'instant' });
}`;

/**
 * Live state of a node for wait_for {ref, state}. Visible by the one visibility rule the core has
 * too (visibility.js whyHidden; core/src/compiler/visibility.cpp).
 */
export const STATE_FN = `function () {
    ${VISIBLE_SRC}
    return { attached: this.isConnected, visible: this.isConnected && whyHiddenInPage(this) === null,
             disabled: !!this.disabled || this.getAttribute('aria-disabled') === 'true', checked: !!this.checked || this.getAttribute('aria-checked') === 'true' };
}`;
