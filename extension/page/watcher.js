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
