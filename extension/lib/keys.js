// Keys and chords for the press tool, as CDP Input.dispatchKeyEvent parameters.
// "Enter", "Control+A", "Shift+Tab", "Meta+Shift+K"; several chords separated by spaces
// ("Tab Tab Enter"); the space bar is "Space".

/** CDP modifier bits. */
const MODIFIERS = Object.freeze({ Alt: 1, Control: 2, Meta: 4, Shift: 8 });
/** @type {Readonly<Record<string, keyof typeof MODIFIERS>>} */
const MODIFIER_ALIASES = Object.freeze({ alt: 'Alt', option: 'Alt', ctrl: 'Control', control: 'Control', meta: 'Meta', cmd: 'Meta', command: 'Meta', shift: 'Shift' });

/** Named keys: key, code, Windows virtual key code, text typed (if any). */
/** @typedef {{key: string, code: string, vk: number, text?: string}} KeyInfo */
/** @type {Readonly<Record<string, KeyInfo>>} */
const NAMED = Object.freeze({
  Enter: { key: 'Enter', code: 'Enter', vk: 13, text: '\r' },
  Tab: { key: 'Tab', code: 'Tab', vk: 9 },
  Escape: { key: 'Escape', code: 'Escape', vk: 27 },
  Backspace: { key: 'Backspace', code: 'Backspace', vk: 8 },
  Delete: { key: 'Delete', code: 'Delete', vk: 46 },
  Space: { key: ' ', code: 'Space', vk: 32, text: ' ' },
  ArrowUp: { key: 'ArrowUp', code: 'ArrowUp', vk: 38 },
  ArrowDown: { key: 'ArrowDown', code: 'ArrowDown', vk: 40 },
  ArrowLeft: { key: 'ArrowLeft', code: 'ArrowLeft', vk: 37 },
  ArrowRight: { key: 'ArrowRight', code: 'ArrowRight', vk: 39 },
  Home: { key: 'Home', code: 'Home', vk: 36 },
  End: { key: 'End', code: 'End', vk: 35 },
  PageUp: { key: 'PageUp', code: 'PageUp', vk: 33 },
  PageDown: { key: 'PageDown', code: 'PageDown', vk: 34 },
  Insert: { key: 'Insert', code: 'Insert', vk: 45 },
  Alt: { key: 'Alt', code: 'AltLeft', vk: 18 },
  Control: { key: 'Control', code: 'ControlLeft', vk: 17 },
  Meta: { key: 'Meta', code: 'MetaLeft', vk: 91 },
  Shift: { key: 'Shift', code: 'ShiftLeft', vk: 16 },
});
/** @type {Readonly<Record<string, string>>} */
const NAMED_ALIASES = Object.freeze({ esc: 'Escape', return: 'Enter', up: 'ArrowUp', down: 'ArrowDown', left: 'ArrowLeft', right: 'ArrowRight', del: 'Delete', pgup: 'PageUp', pgdn: 'PageDown' });

/**
 * @typedef {{type: 'keyDown'|'keyUp'|'rawKeyDown', key: string, code: string, windowsVirtualKeyCode: number,
 *            modifiers: number, text?: string, unmodifiedText?: string, commands?: string[]}} KeyEvent
 */

/**
 * Parses one key name (not a modifier chord) into its description.
 * @param {string} name
 * @returns {KeyInfo}
 */
function keyInfo(name) {
  const canon = NAMED[name] ? name : NAMED_ALIASES[name.toLowerCase()] ?? Object.keys(NAMED).find((k) => k.toLowerCase() === name.toLowerCase());
  if (canon && NAMED[canon]) return NAMED[canon];
  if (/^F([1-9]|1[0-2])$/i.test(name)) { const n = Number(name.slice(1)); return { key: `F${n}`, code: `F${n}`, vk: 111 + n }; }
  if ([...name].length === 1) {
    const ch = name;
    const up = ch.toUpperCase();
    if (/[a-z]/i.test(ch)) return { key: ch, code: `Key${up}`, vk: up.charCodeAt(0), text: ch };
    if (/[0-9]/.test(ch)) return { key: ch, code: `Digit${ch}`, vk: ch.charCodeAt(0), text: ch };
    return { key: ch, code: '', vk: 0, text: ch };
  }
  throw new Error(`unknown key "${name}": use a character or one of ${Object.keys(NAMED).join(', ')}, F1-F12`);
}

/**
 * Turns "Control+Shift+A Enter" into the CDP key events to send, in order.
 * @param {string} keys
 * @returns {KeyEvent[]}
 */
export function keyEvents(keys) {
  if (typeof keys !== 'string' || !keys.trim()) throw new Error('press needs keys, e.g. "Enter", "Control+A" or "Tab Tab"');
  /** @type {KeyEvent[]} */
  const out = [];
  for (const chord of keys.trim().split(/\s+/)) {
    const parts = chord.split('+');
    // "Control++" means Control and the "+" key
    if (chord.endsWith('++')) { parts.splice(parts.length - 2, 2, '+'); }
    if (parts.some((p) => p === '')) throw new Error(`malformed chord "${chord}": write modifiers and a key joined by +, e.g. Control+A`);
    const main = parts[parts.length - 1];
    const mods = parts.slice(0, -1).map((m) => {
      const c = MODIFIER_ALIASES[m.toLowerCase()];
      if (!c) throw new Error(`"${m}" in "${chord}" is not a modifier (Alt, Control, Meta, Shift)`);
      return c;
    });
    let modifiers = 0;
    for (const m of mods) {
      modifiers |= MODIFIERS[m];
      const k = NAMED[m];
      out.push({ type: 'rawKeyDown', key: k.key, code: k.code, windowsVirtualKeyCode: k.vk, modifiers });
    }
    const info = keyInfo(main);
    // With Control/Alt/Meta held, nothing is typed (Control+A selects all, it does not type "a").
    const itext = info.text;
    const typing = itext !== undefined && (modifiers & ~MODIFIERS.Shift) === 0;
    const text = typing ? ((modifiers & MODIFIERS.Shift) && itext.length === 1 ? itext.toUpperCase() : itext) : undefined;
    /** @type {KeyEvent} */
    const down = { type: typing ? 'keyDown' : 'rawKeyDown', key: text && text !== '\r' ? text : info.key, code: info.code, windowsVirtualKeyCode: info.vk, modifiers };
    if (typing) { down.text = text; down.unmodifiedText = itext; }
    // Editing shortcuts are commands in Chromium: a synthetic Control+A does not select without this.
    if ((modifiers & (MODIFIERS.Control | MODIFIERS.Meta)) && /^[acvxz]$/i.test(info.key)) {
      down.commands = [/** @type {Record<string, string>} */ ({ a: 'selectAll', c: 'copy', v: 'paste', x: 'cut', z: 'undo' })[info.key.toLowerCase()]];
    }
    out.push(down);
    out.push({ type: 'keyUp', key: down.key, code: info.code, windowsVirtualKeyCode: info.vk, modifiers });
    for (const m of mods.reverse()) {
      modifiers &= ~MODIFIERS[m];
      const k = NAMED[m];
      out.push({ type: 'keyUp', key: k.key, code: k.code, windowsVirtualKeyCode: k.vk, modifiers });
    }
  }
  return out;
}

/**
 * One typed character as the keyboard sends it: keydown (with its text), keyup. type ends with
 * one, so pages that listen for keys (Tabulator's header filter filters on keyup) see the typing
 * end; null for a character a key would not type the same way (a line break would be Enter, which
 * submits a form; a tab moves the focus).
 * @param {string} ch one code point
 * @returns {KeyEvent[] | null}
 */
export function charEvents(ch) {
  if ([...ch].length !== 1 || /[\u0000-\u001f\u007f]/.test(ch)) return null;
  const up = ch.toUpperCase();
  const [code, vk] = /^[a-z]$/i.test(ch) ? [`Key${up}`, up.charCodeAt(0)] : /^[0-9]$/.test(ch) ? [`Digit${ch}`, ch.charCodeAt(0)] : ch === ' ' ? ['Space', 32] : ['', 0];
  return [
    { type: 'keyDown', key: ch, code, windowsVirtualKeyCode: vk, modifiers: 0, text: ch, unmodifiedText: ch },
    { type: 'keyUp', key: ch, code, windowsVirtualKeyCode: vk, modifiers: 0 },
  ];
}
