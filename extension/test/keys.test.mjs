import { test } from 'node:test';
import assert from 'node:assert/strict';
import { keyEvents } from '../lib/keys.js';

test('a named key is a down/up pair typing its text', () => {
  const ev = keyEvents('Enter');
  assert.deepEqual(ev.map((e) => e.type), ['keyDown', 'keyUp']);
  assert.equal(ev[0].windowsVirtualKeyCode, 13);
  assert.equal(ev[0].text, '\r');
});

test('chords hold modifiers and type nothing with Control', () => {
  const ev = keyEvents('Control+a');
  assert.deepEqual(ev.map((e) => `${e.type}:${e.key}:${e.modifiers}`), ['rawKeyDown:Control:2', 'rawKeyDown:a:2', 'keyUp:a:2', 'keyUp:Control:0']);
  assert.equal(ev[1].text, undefined);
  assert.deepEqual(ev[1].commands, ['selectAll']);
  const sh = keyEvents('Shift+a');
  assert.equal(sh[1].text, 'A');
  assert.equal(keyEvents('ctrl+shift+K')[2].modifiers, 10);
});

test('sequences, aliases, function keys, Space and +', () => {
  assert.equal(keyEvents('Tab Tab Enter').length, 6);
  assert.equal(keyEvents('esc')[0].key, 'Escape');
  assert.equal(keyEvents('F5')[0].windowsVirtualKeyCode, 116);
  assert.equal(keyEvents('Space')[0].text, ' ');
  assert.equal(keyEvents('Control++')[1].key, '+');
});

test('bad keys are refused with a message naming them', () => {
  assert.throws(() => keyEvents(''), /press needs keys/);
  assert.throws(() => keyEvents('Hyper+a'), /"Hyper" .* is not a modifier/);
  assert.throws(() => keyEvents('Foo'), /unknown key "Foo"/);
  assert.throws(() => keyEvents('Control+'), /malformed chord/);
  assert.throws(() => keyEvents(/** @type {any} */ (42)), /press needs keys/);
});
