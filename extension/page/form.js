// Page code of fill_form (lib/tools/form.js): what kind of field a ref is, read from the live node.

/**
 * What a field is, read from the live node (the engine's role helps with ARIA widgets): 'text'
 * (typed into, replacing), 'options' (a <select>: one of its options is chosen), 'check' (a check box, radio or switch, with its
 * state), or 'none' (not a form field).
 * @this {any} @param {string} role
 */
export function fieldKind(role) {
    const el = this, tag = el.localName;
    if (tag === 'select') return { kind: 'options' };
    if (tag === 'input' && (el.type === 'checkbox' || el.type === 'radio')) return { kind: 'check', checked: el.checked, radio: el.type === 'radio' };
    if (['checkbox', 'radio', 'switch', 'menuitemcheckbox', 'menuitemradio'].includes(role))
      return { kind: 'check', checked: typeof el.checked === 'boolean' ? el.checked : el.getAttribute('aria-checked') === 'true', radio: role.endsWith('radio') };
    if (tag === 'input' && ['button', 'submit', 'reset', 'image', 'file', 'hidden'].includes(el.type)) return { kind: 'none' };
    if (tag === 'input' || tag === 'textarea' || el.isContentEditable || ['textbox', 'searchbox', 'combobox', 'spinbutton', 'slider'].includes(role)) return { kind: 'text' };
    return { kind: 'none' };
}
