// The one visibility rule (lib/visibility.js whyHidden, core/src/compiler/visibility.cpp) over a
// live element: what the page computes for it and its ancestors (across shadow roots and frames).
import { whyHidden } from '../lib/visibility.js';

/** Why the element is hidden (whyHidden's words), or null when a user can see it. @param {any} el */
export function whyHiddenInPage(el) {
    const s = getComputedStyle(el), r = el.getBoundingClientRect();
    const ancestorOpacities = [], ancestorBoxes = [];
    for (let n = el;;) {
      let up = n.parentNode;
      if (up && up.nodeType === 11) up = up.host || null;
      if (!up && n.nodeType === 9) { try { up = n.defaultView && n.defaultView.frameElement; } catch (e) { up = null; } }
      if (!up) break;
      if (up.nodeType === 1) {
        const us = (up.ownerDocument.defaultView || window).getComputedStyle(up), ur = up.getBoundingClientRect();
        ancestorOpacities.push(us.opacity);
        // display:contents has no box of its own to clip with.
        if (us.display !== 'contents') ancestorBoxes.push({ overflow: us.overflow, width: ur.width, height: ur.height });
      }
      n = up;
    }
    return whyHidden({ tag: el.localName, attr: (a) => el.getAttribute(a), boxed: el.getClientRects().length > 0, display: s.display,
      visibility: s.visibility, opacity: s.opacity, overflow: s.overflow, width: r.width, height: r.height, ancestorOpacities, ancestorBoxes });
}
