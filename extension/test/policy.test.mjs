import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkUrl, normalizePolicy, parseSiteEntry, siteHost } from '../lib/policy.js';

test('list entries are parsed as the sites (hosts) they name', () => {
  assert.deepEqual(parseSiteEntry('https://Example.com/'), { host: 'example.com' });
  assert.deepEqual(parseSiteEntry('example.com.'), { host: 'example.com' });
  assert.deepEqual(parseSiteEntry('http://127.0.0.1:8080'), { host: '127.0.0.1' });
  assert.match(parseSiteEntry('https://example.com/path').error, /remove the path/);
  assert.match(parseSiteEntry('ftp://example.com').error, /only http and https/);
  assert.match(parseSiteEntry('http://').error, /not a valid site/);
});

test('normalizePolicy reports bad entries and keeps good ones, deduplicated', () => {
  const { policy, errors } = normalizePolicy({ allow: ['https://a.test', 'https://a.test/', 'A.test.', 'nope://x'], block: 'http://b.test  https://c.test' });
  assert.deepEqual(policy.allow, ['a.test']);
  assert.deepEqual(policy.block, ['b.test', 'c.test']);
  assert.equal(errors.length, 1);
  assert.match(errors[0], /allow-list/);
  assert.equal(policy.allowNewTabs, true);
  assert.equal(normalizePolicy({ allowScreenshots: false }).policy.allowScreenshots, false);
  assert.deepEqual(normalizePolicy(null).errors, []);
});

test('lists name sites: matched by host, any scheme and port, subdomains included', () => {
  const { policy } = normalizePolicy({ block: ['bank.test'] });
  for (const u of ['https://bank.test/login', 'http://bank.test/', 'https://bank.test./', 'https://www.bank.test/',
    'https://BANK.TEST:8443/x', 'http://a.b.bank.test:8080/', 'https://Bank.Test../']) {
    const r = checkUrl(policy, u);
    assert.equal(r.ok, false, u);
    assert.equal(r.ok === false && r.code, 'blocked_origin', u);
  }
  assert.equal(checkUrl(policy, 'https://bank.test.evil.test/').ok, true, 'a prefix is not the site');
  assert.equal(checkUrl(policy, 'https://notbank.test/').ok, true, 'a suffix of the name is not a subdomain');
  // An entry written as an origin still names the whole site.
  const fromOrigin = normalizePolicy({ block: ['https://bank.test:443'] }).policy;
  assert.deepEqual(fromOrigin.block, ['bank.test']);
  assert.equal(checkUrl(fromOrigin, 'http://bank.test:8080/').ok, false);
  const allow = normalizePolicy({ allow: ['shop.test'] }).policy;
  assert.equal(checkUrl(allow, 'https://shop.test/cart').ok, true);
  assert.equal(checkUrl(allow, 'http://www.shop.test./cart').ok, true);
  const r = checkUrl(allow, 'https://other.test/');
  assert.equal(r.ok, false);
  assert.equal(r.ok === false && r.code, 'blocked_origin');
  const both = normalizePolicy({ allow: ['x.test'], block: ['https://x.test'] }).policy;
  assert.equal(checkUrl(both, 'https://x.test/').ok, false, 'the block-list wins');
});

test('an address is matched in every spelling: IPv4 forms, IPv4-mapped and other IPv6 forms, trailing dots, case', () => {
  const { policy, errors } = normalizePolicy({ block: ['127.0.0.1', '::1', '[::ffff:10.0.0.1]', 'http://[FE80:0:0:0:0:0:0:1]:8080'] });
  assert.deepEqual(errors, []);
  assert.deepEqual(policy.block, ['127.0.0.1', '[::1]', '10.0.0.1', '[fe80::1]']);
  for (const u of [
    'http://127.0.0.1/', 'http://127.0.0.1./', 'http://127.0.0.1../', 'http://2130706433/', 'http://0x7f000001/', 'http://017700000001/',
    'http://0177.0.0.1/', 'http://0x7f.0.0.1/', 'http://127.1/', 'http://0x7F.1:8080/x',
    'http://[::ffff:127.0.0.1]/', 'http://[::ffff:7f00:1]/', 'http://[::FFFF:7F00:0001]/', 'http://[0:0:0:0:0:ffff:127.0.0.1]:9/',
    'http://[0000:0000:0000:0000:0000:ffff:7f00:0001]/',
    'http://[::1]/', 'http://[0:0:0:0:0:0:0:1]/', 'http://[0000::0001]:8080/',
    'http://10.0.0.1/', 'http://167772161/', 'http://[::ffff:a00:1]/',
    'http://[fe80::1]/', 'http://[FE80:0000::0:1]/',
  ]) assert.equal(checkUrl(policy, u).ok === false && checkUrl(policy, u).code, 'blocked_origin', u);
  for (const u of ['http://127.0.0.2/', 'http://[::2]/', 'http://[::ffff:127.0.0.2]/', 'http://10.0.0.10/'])
    assert.equal(checkUrl(policy, u).ok, true, u);
  // An allow-list holds the same way: a listed address in another spelling is still that address.
  const allow = normalizePolicy({ allow: ['[::ffff:127.0.0.1]'] }).policy;
  assert.deepEqual(allow.allow, ['127.0.0.1']);
  assert.equal(checkUrl(allow, 'http://0x7f.1/').ok, true);
  assert.equal(checkUrl(allow, 'http://127.0.0.2/').ok, false);
  assert.equal(siteHost('[0:0::0001]'), '[::1]');
  assert.equal(siteHost('BANK.test..'), 'bank.test');
});

test('browser pages, other extensions and the Web Store are never touched', () => {
  const { policy } = normalizePolicy({ allow: ['https://chromewebstore.google.com'] });
  for (const u of ['chrome://settings', 'chrome-extension://abcdefghijklmnop/popup.html', 'devtools://devtools/x', 'file:///etc/passwd',
    'https://chromewebstore.google.com/detail/x', 'https://chromewebstore.google.com./detail/x', 'https://chrome.google.com/webstore/detail/x', 'view-source:https://a.test']) {
    const r = checkUrl(policy, u);
    assert.equal(r.ok, false, u);
    assert.equal(r.ok === false && r.code, 'forbidden_page', u);
  }
  assert.equal(checkUrl(normalizePolicy({}).policy, 'about:blank').ok, true);
  assert.equal(checkUrl(normalizePolicy({}).policy, 'not a url').ok, false);
});

test('upload folders: absolute plain paths only; files must be strictly inside one', async () => {
  const { checkUpload, parseFolderEntry } = await import('../lib/policy.js');
  assert.deepEqual(parseFolderEntry('/home/u/up/'), { folder: '/home/u/up' });
  for (const bad of ['home/u', '/home/../etc', '/home//u', '/home/./u', '~/up']) assert.ok('error' in parseFolderEntry(bad), bad);
  const { policy, errors } = normalizePolicy({ uploadFolders: '/home/u/up\n\nrelative\n/home/u/up/' });
  assert.deepEqual(policy.uploadFolders, ['/home/u/up']);
  assert.equal(errors.length, 1);
  assert.equal(normalizePolicy({}).policy.uploadFolders.length, 0, 'none by default');
  assert.equal(checkUpload(policy, '/home/u/up/a.txt').ok, true);
  assert.equal(checkUpload(policy, '/home/u/up/deep/er/a.txt').ok, true);
  for (const bad of ['/home/u/up', '/home/u/upx/a', '/home/u/up/../x', '/home/u/up//a', 'a.txt', '/home/u/up/a\0b'])
    assert.equal(checkUpload(policy, bad).ok, false, bad);
  assert.match(checkUpload(normalizePolicy({}).policy, '/tmp/a').message, /allows no folder/);
});

test('upload refusals never tell which files exist: one answer with uploads off, the path never named', async () => {
  const { checkUpload } = await import('../lib/policy.js');
  // athena-bridge passes a path it could not resolve (a missing file) as given, an existing one
  // resolved: with uploads off, both get the very same answer, whatever their form.
  const off = normalizePolicy({}).policy;
  const answers = new Set(['/home/u/.ssh/id_rsa', '/home/u/nope', '/home/u/x/../nope', '/etc//passwd', 'rel'].map((p) => JSON.stringify(checkUpload(off, p))));
  assert.equal(answers.size, 1, [...answers].join('\n'));
  // With a folder allowed, a file outside it is refused without its (resolved) path being named.
  const on = normalizePolicy({ uploadFolders: ['/home/u/up'] }).policy;
  const outside = ['/home/u/.ssh/id_rsa', '/home/u/nope', '/home/u/up/../nope'].map((p) => checkUpload(on, p));
  assert.equal(new Set(outside.map((r) => JSON.stringify(r))).size, 1);
  assert.doesNotMatch(outside[0].ok === false ? outside[0].message : '', /ssh|nope/);
});

test('frames: embedder-made documents follow the page; http(s) frames and blob origins are judged; others withheld', async () => {
  const { checkFrameUrl } = await import('../lib/policy.js');
  const { policy } = normalizePolicy({ block: ['bank.test'] });
  for (const ok of ['about:blank', 'about:srcdoc', 'data:text/html,x', '', 'https://a.test/', 'blob:https://a.test/1234'])
    assert.equal(checkFrameUrl(policy, ok).ok, true, ok);
  for (const bad of ['https://bank.test/w', 'http://x.bank.test:81/', 'blob:https://bank.test/1234', 'chrome-extension://abc/frame.html', 'chrome://settings'])
    assert.equal(checkFrameUrl(policy, bad).ok, false, bad);
});
