// The network tool's redaction (extension/lib/redact.js): credentials by name in headers, query
// parameters, form fields and JSON keys at any depth, and by shape (JWT, bearer) in any text.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { redactBody, redactHeaders, redactText, redactUrl } from '../lib/redact.js';

test('URLs lose the values of secret query parameters and any user:password, nothing else', () => {
  assert.equal(redactUrl('https://u:p@api.example/x?page=2&api_key=k1&access_token=t&zip=75001'), 'https://redacted:redacted@api.example/x?page=2&api_key=[redacted]&access_token=[redacted]&zip=75001');
  assert.equal(redactUrl('https://a.example/cb?code=abc&state=s'), 'https://a.example/cb?code=[redacted]&state=s');
  assert.equal(redactUrl('not a url eyJhbGciOi.eyJzdWIiOi.c2lnbmF0dXJl'), 'not a url [redacted]');
});

test('headers: authorization, cookies and API keys by name; bearer tokens by shape', () => {
  assert.deepEqual(redactHeaders({ Authorization: 'Bearer abc', Cookie: 'a=b', 'X-Api-Key': 'k', Accept: 'text/html', 'X-Debug': 'Bearer abcdefgh' }),
    [['Authorization', '[redacted]'], ['Cookie', '[redacted]'], ['X-Api-Key', '[redacted]'], ['Accept', 'text/html'], ['X-Debug', '[redacted]']]);
});

test('bodies: JSON keys at any depth, form fields, token shapes in plain text', () => {
  assert.equal(redactBody('{"user":"ada","auth":{"password":"p","refresh_token":"r"},"list":[{"secret":1}]}', 'application/json'),
    '{"user":"ada","auth":{"password":"[redacted]","refresh_token":"[redacted]"},"list":[{"secret":"[redacted]"}]}');
  assert.equal(redactBody('user=ada&pwd=x&token=y', 'application/x-www-form-urlencoded'), 'user=ada&pwd=[redacted]&token=[redacted]');
  assert.equal(redactText('Authorization failed for Basic dXNlcjpwYXNz'), 'Authorization failed for [redacted]');
});
