import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { join, resolve } from 'node:path';
import { RENDERER_CSP, resolveRendererFile, responseHeaders } from '../../electron/desktop/renderer-files';

const root = resolve('/srv/cove/dist/renderer');

function pathOf(url: string): string {
  const file = resolveRendererFile(url, root);
  assert.ok('path' in file, `${url} should resolve, got ${JSON.stringify(file)}`);
  return file.path;
}

function statusOf(url: string): number {
  const file = resolveRendererFile(url, root);
  assert.ok('status' in file, `${url} should be refused, got ${JSON.stringify(file)}`);
  return file.status;
}

describe('resolveRendererFile', () => {
  test('maps our URLs to files under the renderer folder, with their types', () => {
    assert.equal(pathOf('app://cove/index.html'), join(root, 'index.html'));
    assert.equal(pathOf('app://cove/'), join(root, 'index.html'));
    assert.equal(pathOf('app://cove/assets/'), join(root, 'assets', 'index.html'));
    assert.equal(pathOf('app://cove/app.js?v=2#x'), join(root, 'app.js'));
    assert.equal(pathOf('app://cove/my%20icon.svg'), join(root, 'my icon.svg'));
    const css = resolveRendererFile('app://cove/app.css', root);
    assert.ok('contentType' in css && css.contentType.startsWith('text/css'));
    const unknown = resolveRendererFile('app://cove/blob.bin', root);
    assert.ok('contentType' in unknown && unknown.contentType === 'application/octet-stream');
  });

  test('keeps dot segments the URL parser resolves inside the folder', () => {
    // The parser folds plain ../ before we see it, so this can at most reach the folder's root.
    assert.equal(pathOf('app://cove/../../etc/passwd'), join(root, 'etc', 'passwd'));
    assert.equal(pathOf('app://cove/%2e%2e/%2E%2e/app.js'), join(root, 'app.js'));
  });

  test('refuses traversal smuggled past the URL parser', () => {
    assert.equal(statusOf('app://cove/..%2F..%2Fsecret.txt'), 403);
    assert.equal(statusOf('app://cove/assets/..%2f..%2f..%2fetc%2fpasswd'), 403);
    assert.equal(statusOf('app://cove/assets%2F..%2F..'), 403);
  });

  test('refuses backslashes, NUL bytes, bad escapes and the folder itself', () => {
    assert.equal(statusOf('app://cove/..%5C..%5Csecret'), 400);
    assert.equal(statusOf('app://cove/index.html%00.png'), 400);
    assert.equal(statusOf('app://cove/%E0%A4%A'), 400);
    assert.equal(statusOf('app://cove/assets%2F..'), 403);
  });

  test('refuses other hosts and schemes', () => {
    assert.equal(statusOf('app://other/index.html'), 404);
    assert.equal(statusOf('https://cove/index.html'), 404);
    assert.equal(statusOf('no url'), 400);
  });
});

describe('responseHeaders', () => {
  test('carry a CSP that allows only our own scripts and no eval or inline code', () => {
    const headers = responseHeaders('text/html; charset=utf-8');
    assert.equal(headers['Content-Security-Policy'], RENDERER_CSP);
    const directives = new Map(RENDERER_CSP.split('; ').map((part) => [part.split(' ')[0], part.split(' ').slice(1)]));
    assert.deepEqual(directives.get('default-src'), ["'self'"]);
    assert.deepEqual(directives.get('script-src'), ["'self'"]);
    assert.deepEqual(directives.get('object-src'), ["'none'"]);
    assert.doesNotMatch(RENDERER_CSP, /unsafe-(inline|eval)|https?:|\*/);
    assert.equal(headers['X-Content-Type-Options'], 'nosniff');
  });
});
