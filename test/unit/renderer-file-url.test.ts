import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { fileUrlToPath, parseUriList } from '../../renderer/features/workspace/file-url';
import { completedPath } from '../../renderer/features/workspace/completion';

describe('uri-list to paths', () => {
  test('POSIX: percent-escapes are decoded, comments and blank lines skipped', () => {
    const list = '# dragged from Files\r\nfile:///home/ada/My%20Project\r\n\r\nfile://localhost/tmp/caf%C3%A9/\r\n';
    assert.deepEqual(parseUriList(list, 'posix'), { paths: ['/home/ada/My Project', '/tmp/café'], errors: [] });
  });

  test('Windows: drive letters and UNC shares', () => {
    assert.deepEqual(fileUrlToPath('file:///c:/Users/Ada/code%23one', 'windows'), { path: 'C:\\Users\\Ada\\code#one' });
    assert.deepEqual(fileUrlToPath('file:///D:/', 'windows'), { path: 'D:\\' });
    assert.deepEqual(fileUrlToPath('file://server/share/dir', 'windows'), { path: '\\\\server\\share\\dir' });
  });

  test('non-file URLs and remote hosts are errors that name the URL', () => {
    const result = parseUriList('https://example.com/repo\nfile://otherhost/etc', 'posix');
    assert.deepEqual(result.paths, []);
    assert.equal(result.errors.length, 2);
    assert.match(result.errors[0]!, /https:\/\/example\.com\/repo.*not a local file/);
    assert.match(result.errors[1]!, /another machine \(otherhost\)/);
  });

  test('a NUL or a malformed escape is refused', () => {
    assert.ok('error' in fileUrlToPath('file:///tmp/a%00b', 'posix'));
    assert.ok('error' in fileUrlToPath('file:///tmp/%E0%A4%A', 'posix'));
  });
});

describe('folder completion', () => {
  test('a folder name completes the typed parent; a full path is taken as is', () => {
    assert.equal(completedPath('/home/ada/pr', 'projects'), '/home/ada/projects/');
    assert.equal(completedPath('~/co', 'code'), '~/code/');
    assert.equal(completedPath('/home/ada/pr', '/home/ada/projects'), '/home/ada/projects/');
    assert.equal(completedPath('C:\\Users\\A', 'Ada'), 'C:\\Users\\Ada\\');
  });
});
