import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { isAppUrl } from '../../electron/desktop/app-origin';
import { externalHttpsUrl } from '../../electron/desktop/external-links';
import { senderProblem } from '../../electron/desktop/sender-check';

describe('externalHttpsUrl', () => {
  test('passes well-formed https links, normalised', () => {
    assert.equal(externalHttpsUrl('https://docs.example.com/guide?x=1#top'), 'https://docs.example.com/guide?x=1#top');
    assert.equal(externalHttpsUrl('HTTPS://Example.COM'), 'https://example.com/');
  });

  test('refuses every other scheme, including ones that launch programs', () => {
    for (const url of [
      'http://example.com/',
      'file:///etc/passwd',
      'javascript:alert(1)',
      'smb://host/share',
      'vscode://open',
      'app://cove/index.html',
      'ms-msdt:/id',
      'data:text/html,<b>x</b>',
    ]) {
      assert.equal(externalHttpsUrl(url), null, url);
    }
  });

  test('refuses what does not parse, non-strings, credentials and oversized input', () => {
    assert.equal(externalHttpsUrl('not a url'), null);
    assert.equal(externalHttpsUrl('https://'), null);
    assert.equal(externalHttpsUrl(undefined), null);
    assert.equal(externalHttpsUrl({ href: 'https://example.com/' }), null);
    assert.equal(externalHttpsUrl('https://bank.example@evil.example/'), null);
    assert.equal(externalHttpsUrl(`https://example.com/${'a'.repeat(9000)}`), null);
  });
});

describe('isAppUrl', () => {
  test('is true only for our scheme and host', () => {
    assert.equal(isAppUrl('app://cove/index.html'), true);
    assert.equal(isAppUrl('app://cove/'), true);
    assert.equal(isAppUrl('app://other/index.html'), false);
    assert.equal(isAppUrl('app://cove.evil.example/'), false);
    assert.equal(isAppUrl('app://user@cove/'), false);
    assert.equal(isAppUrl('https://cove/'), false);
    assert.equal(isAppUrl('file:///work/dist/renderer/index.html'), false);
    assert.equal(isAppUrl(''), false);
  });
});

describe('senderProblem', () => {
  const main = { url: 'app://cove/index.html', isMainFrame: true };

  test('accepts the main frame of our window on our origin', () => {
    assert.equal(senderProblem({ ours: true, frame: main }), null);
    assert.equal(senderProblem({ ours: true, frame: { ...main, url: 'app://cove/index.html#session/abc' } }), null);
  });

  test('refuses contents we did not create, even on our origin', () => {
    assert.match(senderProblem({ ours: false, frame: main }) ?? '', /did not create/);
  });

  test('refuses a frame that is gone, a subframe, and any other origin', () => {
    assert.match(senderProblem({ ours: true, frame: null }) ?? '', /navigated away or closed/);
    assert.match(senderProblem({ ours: true, frame: { ...main, isMainFrame: false } }) ?? '', /subframe/);
    assert.match(senderProblem({ ours: true, frame: { url: 'https://evil.example/page', isMainFrame: true } }) ?? '', /https:\/\/evil\.example/);
    assert.match(senderProblem({ ours: true, frame: { url: 'file:///tmp/x.html', isMainFrame: true } }) ?? '', /file:/);
    assert.match(senderProblem({ ours: true, frame: { url: 'app://cove-evil/', isMainFrame: true } }) ?? '', /not Cove's own/);
    assert.match(senderProblem({ ours: true, frame: { url: '::garbage', isMainFrame: true } }) ?? '', /unparseable/);
  });
});
