import { test } from 'node:test';
import assert from 'node:assert/strict';
import { contextOf, parseTabName, tabName, TabMap } from '../lib/tabs.js';

test('tab names parse to page keys; a ref names no tab', () => {
  assert.deepEqual(parseTabName('c0p3'), { context: 0, page: 3 });
  assert.equal(parseTabName('e17'), null);
  assert.equal(parseTabName('p3'), null);
  assert.equal(parseTabName(3), null);
  assert.equal(tabName({ context: 1, page: 9 }), 'c1p9');
});

test('each context counts its own pages; indices are never reused', () => {
  const m = new TabMap();
  assert.equal(tabName(m.add(10, 0, 's').key), 'c0p1');
  assert.equal(tabName(m.add(11, 1, 's').key), 'c1p1');
  assert.equal(tabName(m.add(12, 0, 't').key), 'c0p2');
  m.remove(12);
  assert.equal(tabName(m.add(13, 0, 't').key), 'c0p3');
  assert.equal(m.ofSession('s').length, 2);
  assert.equal(m.byTabName('c1p1')?.tabId, 11);
  assert.equal(m.byTabName('c0p2'), null);
});

test('after a restart every tab gets a new index and keeps its former name', () => {
  const m = new TabMap();
  m.add(10, 0, 's');
  m.add(11, 0, 's');
  const restored = new TabMap(JSON.parse(JSON.stringify(m.toJSON())));
  restored.renumberAll('restarted');
  const r = restored.byTabName('c0p1');
  assert.equal(r?.tabId, 10);
  assert.equal(tabName(r.key), 'c0p3');
  assert.equal(r.formerly, 'c0p1');
  assert.equal(restored.byTabName('c0p4')?.tabId, 11);
  assert.equal(restored.add(12, 0, 's').key.page, 5);
});

test('an incognito tab lives in context 1 and counts its pages apart from normal tabs', () => {
  const m = new TabMap();
  const normal = m.add(20, contextOf({ incognito: false }), 's');
  const private1 = m.add(21, contextOf({ incognito: true }), 's');
  assert.equal(tabName(normal.key), 'c0p1');
  assert.equal(tabName(private1.key), 'c1p1');
  assert.deepEqual(parseTabName(tabName(private1.key)), { context: 1, page: 1 });
});
