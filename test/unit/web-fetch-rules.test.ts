import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { nonPublicRange } from '../../electron/core/web-fetch/address-check';
import { hostOfUrl, parseHostSpecifier, webFetchHostPatterns } from '../../electron/core/web-fetch/host-rule';
import { htmlToMarkdown, kindOf } from '../../electron/core/web-fetch/to-markdown';
import { parseRule } from '../../electron/core/permissions/rule-syntax';
import { compileRule, matchesCall } from '../../electron/core/permissions/rule-match';
import { knownTool } from '../../electron/core/tools/registry';

describe('web_fetch addresses', () => {
  test('every non-public range is named, public unicast passes', () => {
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.9',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      'fe80::1',
      'fc00::5',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
      '224.0.0.1',
    ]) {
      assert.notEqual(nonPublicRange(address), null, address);
    }
    for (const address of ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8']) assert.equal(nonPublicRange(address), null, address);
  });

  test('URL hosts are normalized the way the connection sees them', () => {
    assert.equal(hostOfUrl('http://0x7f.1/'), '127.0.0.1');
    assert.equal(hostOfUrl('http://2130706433/'), '127.0.0.1');
    assert.equal(hostOfUrl('https://Example.COM./a'), 'example.com');
    assert.equal(hostOfUrl('http://[::1]:8080/'), '::1');
    assert.equal(hostOfUrl('file:///etc/passwd'), null);
    assert.equal(hostOfUrl(42), null);
  });
});

describe('web_fetch rules', () => {
  test('domain: names one host; *. its subdomains only', () => {
    const exact = parseHostSpecifier('domain:example.com');
    assert.ok(exact.matches('EXAMPLE.com'));
    assert.ok(!exact.matches('api.example.com'));
    assert.ok(!exact.matches('example.com.evil.net'));
    const sub = parseHostSpecifier('domain:*.example.com');
    assert.ok(sub.matches('api.example.com'));
    assert.ok(!sub.matches('example.com'));
    assert.ok(!sub.matches('badexample.com'));
    assert.equal(parseHostSpecifier('domain:*').explicit, false, 'a catch-all never opens private addresses');
  });

  test('a malformed specifier is refused with what is wrong', () => {
    assert.throws(() => parseRule('web_fetch(example.com)'), /invalid permission rule 'web_fetch\(example\.com\)'.*domain:example\.com/);
    assert.throws(() => parseRule('web_fetch(domain:https://example.com/x)'), /not a host name/);
    assert.throws(() => parseRule('WebFetch(domain:example.com)'), /did you mean web_fetch/);
    assert.equal(webFetchHostPatterns(['bash(ls)', 'web_fetch(domain:a.dev)', 'web_fetch(nonsense)']).length, 1);
  });

  test('a compiled rule matches the host of the url argument', () => {
    const rule = compileRule('web_fetch(domain:docs.rs)', 'allow', 'test', '/home/x');
    const call = (url: string) => ({ args: { url }, tool: knownTool('web_fetch') });
    assert.ok(matchesCall(rule, call('https://docs.rs/serde'), null, []));
    assert.ok(!matchesCall(rule, call('https://docs.rs.evil.io/'), null, []));
    assert.ok(!matchesCall(rule, call('not a url'), null, []));
  });
});

describe('page conversion', () => {
  test('scripts, styles and frames go; headings, links and code stay', async () => {
    const { title, markdown } = await htmlToMarkdown(
      '<html><head><title>T</title><script>alert(1)</script></head><body><h2>Use</h2><p>Run <code>npm i</code> <a href="https://x.dev">here</a></p><style>p{}</style><iframe src="x"></iframe><noscript>no js</noscript></body></html>',
    );
    assert.equal(title, 'T');
    assert.match(markdown, /## Use/);
    assert.match(markdown, /`npm i`/);
    assert.match(markdown, /\[here\]\(https:\/\/x\.dev\)/);
    assert.doesNotMatch(markdown, /alert|p\{\}|no js/);
  });

  test('content types decide how a body is read', () => {
    assert.equal(kindOf('text/html; charset=utf-8', Buffer.from('')), 'html');
    assert.equal(kindOf('application/json', Buffer.from('{}')), 'text');
    assert.equal(kindOf('image/png', Buffer.from('x')), 'binary');
    assert.equal(kindOf('', Buffer.from('<!DOCTYPE html><p>x')), 'html');
    assert.equal(kindOf('', Buffer.from([0, 1, 2])), 'binary');
  });
});
