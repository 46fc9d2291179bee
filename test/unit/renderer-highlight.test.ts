import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { highlightLines, languageForPath, MAX_HIGHLIGHTED_CHARACTERS } from '../../renderer/ui/highlight';
import { splitLines } from '../../renderer/ui/highlight-engine';

/** Each line must be well-formed on its own: every span it opens it also closes, in order. */
function assertBalanced(line: string): void {
  let depth = 0;
  for (const tag of line.matchAll(/<span class="[^"]*">|<\/span>/g)) {
    depth += tag[0] === '</span>' ? -1 : 1;
    assert.ok(depth >= 0, `a span closes before it opens in ${line}`);
  }
  assert.equal(depth, 0, `spans left open in ${line}`);
}

function textOf(line: string): string {
  return line
    .replace(/<[^>]+>/g, '')
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&quot;', '"')
    .replaceAll('&#x27;', "'")
    .replaceAll('&amp;', '&');
}

describe('highlightLines', () => {
  test('gives one balanced line per input line, a block comment reopened on each of its lines', async () => {
    const source = 'const a = 1;\n/* one\n   two\n   three */\nconst s = `x\ny`;\n';
    const lines = await highlightLines(source, 'typescript');
    assert.ok(lines);
    assert.equal(lines.length, source.split('\n').length);
    lines.forEach(assertBalanced);
    assert.deepEqual(lines.map(textOf), source.split('\n'));
    for (const index of [1, 2, 3]) assert.match(lines[index]!, /^<span class="hljs-comment">/, `line ${index} starts inside the comment`);
    assert.match(lines[0]!, /<span class="hljs-keyword">const<\/span>/);
  });

  test('escapes markup in the source, so a file cannot inject HTML', async () => {
    const lines = await highlightLines('<script>alert("x")</script>\n<img src=x onerror=alert(1)>', 'xml');
    assert.ok(lines);
    const html = lines.join('\n');
    assert.doesNotMatch(html, /<script|<img/);
    assert.match(html, /&lt;/);
    assert.equal(textOf(lines[1]!), '<img src=x onerror=alert(1)>');
  });

  test('answers undefined for an unknown or missing language and for text over the limit', async () => {
    assert.equal(await highlightLines('x', 'no-such-language'), undefined);
    assert.equal(await highlightLines('x', undefined), undefined);
    assert.equal(await highlightLines('x'.repeat(MAX_HIGHLIGHTED_CHARACTERS + 1), 'typescript'), undefined);
  });

  test('accepts the aliases a fenced code block uses', async () => {
    for (const alias of ['ts', 'js', 'sh', 'py', 'html', 'yml', 'rs']) assert.ok(await highlightLines('x = 1', alias), alias);
  });

  test('drops the carriage return of CRLF lines', async () => {
    const lines = await highlightLines('a = 1\r\nb = 2', 'python');
    assert.deepEqual(lines?.map(textOf), ['a = 1', 'b = 2']);
  });
});

describe('splitLines', () => {
  test('closes and reopens nested spans at a line break and ignores a stray close', () => {
    assert.deepEqual(splitLines('<span class="a">x<span class="b">y\nz</span>w</span></span>\nq'), [
      '<span class="a">x<span class="b">y</span></span>',
      '<span class="a"><span class="b">z</span>w</span>',
      'q',
    ]);
  });
});

describe('languageForPath', () => {
  test('maps extensions and well-known file names, either separator, any case', () => {
    assert.equal(languageForPath('src/calc.ts'), 'typescript');
    assert.equal(languageForPath('C:\\repo\\App.TSX'), 'typescript');
    assert.equal(languageForPath('/srv/app/main.py'), 'python');
    assert.equal(languageForPath('Dockerfile'), 'dockerfile');
    assert.equal(languageForPath('docker/Dockerfile.dev'), 'dockerfile');
    assert.equal(languageForPath('Makefile'), 'makefile');
    assert.equal(languageForPath('config.toml'), 'ini');
  });

  test('answers undefined for a file it cannot place', () => {
    assert.equal(languageForPath('notes.txt'), undefined);
    assert.equal(languageForPath('.env'), undefined);
    assert.equal(languageForPath('LICENSE'), undefined);
    assert.equal(languageForPath(''), undefined);
  });

  test('names only languages the highlighter knows', async () => {
    for (const path of [
      'a.ts',
      'a.js',
      'a.json',
      'a.py',
      'a.sh',
      'a.css',
      'a.scss',
      'a.html',
      'a.md',
      'a.yaml',
      'a.rs',
      'a.go',
      'a.java',
      'a.kt',
      'a.c',
      'a.cpp',
      'a.cs',
      'a.rb',
      'a.php',
      'a.sql',
      'a.diff',
      'a.toml',
      'a.swift',
      'a.lua',
      'a.gql',
      'Dockerfile',
      'Makefile',
    ]) {
      assert.ok(await highlightLines('x', languageForPath(path)), path);
    }
  });
});
