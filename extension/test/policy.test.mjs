import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkUrl, normalizePolicy, parseOrigin } from '../lib/policy.js';

test('list entries are parsed as origins', () => {
  assert.deepEqual(parseOrigin('https://Example.com/'), { origin: 'https://example.com' });
  assert.deepEqual(parseOrigin('example.com'), { origin: 'https://example.com' });
  assert.deepEqual(parseOrigin('http://127.0.0.1:8080'), { origin: 'http://127.0.0.1:8080' });
  assert.match(parseOrigin('https://example.com/path').error, /remove the path/);
  assert.match(parseOrigin('ftp://example.com').error, /only http and https/);
  assert.match(parseOrigin('http://').error, /not a valid origin/);
});

test('normalizePolicy reports bad entries and keeps good ones, deduplicated', () => {
  const { policy, errors } = normalizePolicy({ allow: ['https://a.test', 'https://a.test/', 'nope://x'], block: 'http://b.test  https://c.test' });
  assert.deepEqual(policy.allow, ['https://a.test']);
  assert.deepEqual(policy.block, ['http://b.test', 'https://c.test']);
  assert.equal(errors.length, 1);
  assert.match(errors[0], /allow-list/);
  assert.equal(policy.allowNewTabs, true);
  assert.equal(normalizePolicy({ allowScreenshots: false }).policy.allowScreenshots, false);
  assert.deepEqual(normalizePolicy(null).errors, []);
});

test('origins are compared parsed, not as strings', () => {
  const { policy } = normalizePolicy({ block: ['https://bank.test'] });
  assert.equal(checkUrl(policy, 'https://bank.test/login').ok, false);
  assert.equal(checkUrl(policy, 'https://BANK.test:443/x').ok, false, 'default port and case are the same origin');
  assert.equal(checkUrl(policy, 'https://bank.test.evil.test/').ok, true, 'a prefix is not the origin');
  assert.equal(checkUrl(policy, 'http://bank.test/').ok, true, 'another scheme is another origin');
  const allow = normalizePolicy({ allow: ['https://shop.test'] }).policy;
  assert.equal(checkUrl(allow, 'https://shop.test/cart').ok, true);
  const r = checkUrl(allow, 'https://other.test/');
  assert.equal(r.ok, false);
  assert.equal(r.ok === false && r.code, 'blocked_origin');
  const both = normalizePolicy({ allow: ['https://x.test'], block: ['https://x.test'] }).policy;
  assert.equal(checkUrl(both, 'https://x.test/').ok, false, 'the block-list wins');
});

test('browser pages, other extensions and the Web Store are never touched', () => {
  const { policy } = normalizePolicy({ allow: ['https://chromewebstore.google.com'] });
  for (const u of ['chrome://settings', 'chrome-extension://abcdefghijklmnop/popup.html', 'devtools://devtools/x', 'file:///etc/passwd',
    'https://chromewebstore.google.com/detail/x', 'https://chrome.google.com/webstore/detail/x', 'view-source:https://a.test']) {
    const r = checkUrl(policy, u);
    assert.equal(r.ok, false, u);
    assert.equal(r.ok === false && r.code, 'forbidden_page', u);
  }
  assert.equal(checkUrl(normalizePolicy({}).policy, 'about:blank').ok, true);
  assert.equal(checkUrl(normalizePolicy({}).policy, 'not a url').ok, false);
});
