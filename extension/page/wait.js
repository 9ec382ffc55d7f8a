// Page code of wait_for (lib/tools/wait.js).
import { whyHiddenInPage } from './visible.js';

/**
 * Live state of a node for wait_for {ref, state}. Visible by the one visibility rule the core has
 * too (lib/visibility.js whyHidden; core/src/compiler/visibility.cpp).
 * @this {any}
 */
export function liveState() {
    return { attached: this.isConnected, visible: this.isConnected && whyHiddenInPage(this) === null,
             disabled: !!this.disabled || this.getAttribute('aria-disabled') === 'true', checked: !!this.checked || this.getAttribute('aria-checked') === 'true' };
}

/** Whether the page's text holds `text`, and the document's URL. @param {string} text */
export function hasText(text) {
  return { has: (document.body ? document.body.innerText : '').includes(text), url: document.URL };
}
