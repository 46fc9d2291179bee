// Windows path rules of the workspace sandbox, checked with path.win32 on any OS: one spelling
// for every way Win32 writes a path, containment without case, and names that are not files.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { isInsideWindows, windowsPathKey, windowsPathProblem } from '../../electron/core/tools/windows-paths';

const root = 'C:\\Users\\Ada\\project';

describe('containment on Windows', () => {
  test('the same folder in every spelling is inside: case, slashes, the \\\\?\\ prefix, a trailing separator', () => {
    for (const path of [
      'C:\\Users\\Ada\\project',
      'c:\\users\\ada\\PROJECT\\src\\main.ts',
      'C:/Users/Ada/project/src',
      '\\\\?\\C:\\Users\\Ada\\project\\src',
      'C:\\Users\\Ada\\project\\',
      'C:\\Users\\Ada\\project\\src\\..\\README.md',
    ]) {
      assert.equal(isInsideWindows(path, root), true, path);
    }
  });

  test('look-alikes and escapes are outside: a sibling with the same prefix, .., another drive, a share', () => {
    for (const path of [
      'C:\\Users\\Ada\\project-secrets\\key.pem',
      'C:\\Users\\Ada\\project\\..\\.ssh\\id_rsa',
      'D:\\Users\\Ada\\project\\src',
      '\\\\server\\share\\Users\\Ada\\project',
      'C:\\Users\\Ada',
    ]) {
      assert.equal(isInsideWindows(path, root), false, path);
    }
  });

  test('UNC roots: the share in both spellings, and nothing beside it', () => {
    const share = '\\\\fileserver\\code\\app';
    assert.equal(isInsideWindows('\\\\FileServer\\Code\\app\\src\\x.ts', share), true);
    assert.equal(isInsideWindows('\\\\?\\UNC\\fileserver\\code\\app\\src', share), true);
    assert.equal(isInsideWindows('//fileserver/code/app/src', share), true);
    assert.equal(isInsideWindows('\\\\fileserver\\code\\apple', share), false);
    assert.equal(isInsideWindows('\\\\otherserver\\code\\app', share), false);
  });

  test('a drive root contains everything on its drive only', () => {
    assert.equal(isInsideWindows('c:\\anything\\at\\all', 'C:\\'), true);
    assert.equal(isInsideWindows('D:\\x', 'C:\\'), false);
    assert.equal(windowsPathKey('C:\\'), 'c:\\');
  });
});

describe('names Windows does not read as files', () => {
  test('alternate data streams, devices, the device namespace and names ending in dots or spaces are refused, naming why', () => {
    const cases: Array<[string, RegExp]> = [
      ['src\\main.ts:hidden', /alternate data stream/],
      ['C:\\Users\\Ada\\project\\notes.txt::$DATA', /alternate data stream/],
      ['src\\NUL', /device name/],
      ['logs\\con.txt', /device name/],
      ['COM1', /device name/],
      ['\\\\.\\PhysicalDrive0', /device namespace/],
      ['\\\\?\\GLOBALROOT\\Device\\HarddiskVolume1', /device namespace/],
      ['.env.', /drops the dots and spaces that end "\.env\."/],
      ['secrets \\key.pem', /drops the dots and spaces/],
      ['...\\x', /drops the dots/],
      ['C:secrets.txt', /relative to the current folder of drive C:/],
      ['d:../x', /relative to the current folder of drive D:/],
    ];
    for (const [path, reason] of cases) assert.match(windowsPathProblem(path) ?? 'accepted', reason, path);
  });

  test('ordinary paths pass: drive letters, both prefixes, dots inside names, . and ..', () => {
    for (const path of [
      'C:\\Users\\Ada\\project\\src\\a.test.ts',
      'src/../README.md',
      '.\\.env.example',
      '\\\\?\\C:\\x\\y',
      '\\\\?\\UNC\\server\\share\\x',
      '\\\\server\\share\\x',
      'console.log.ts',
      'nullable.ts',
    ]) {
      assert.equal(windowsPathProblem(path), null, path);
    }
  });
});
