import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { KeywordScanner } from '../../electron/core/secrets/keyword-scan';

/** Every (keyword, start) by `indexOf` at every place, in the scanner's order: by end, then keyword. */
function naive(keywords: readonly string[], text: string): [number, number][] {
  const lower = text.replace(/[A-Z]/g, (char) => char.toLowerCase());
  const hits: [number, number][] = [];
  keywords.forEach((keyword, number) => {
    for (let at = lower.indexOf(keyword); at !== -1; at = lower.indexOf(keyword, at + 1)) hits.push([number, at]);
  });
  return hits.sort((a, b) => a[1] + keywords[a[0]]!.length - (b[1] + keywords[b[0]]!.length) || a[0] - b[0]);
}

function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

describe('the keyword scanner against a naive search', () => {
  // The scan walks a text's halves in one loop: keywords across the middle, at either end, and
  // texts shorter than the longest keyword are where that could lose or repeat a hit.
  test('random texts over a small alphabet find every hit once, in order of their end', () => {
    const next = random(42);
    const alphabet = 'abkeyKEY-_ s\n';
    const keywords = ['key', 'ey', 'k', 'keykey', 'y-', 'e_k', 'abkeyab', 'kkkkkkkkkkkk'];
    const scanner = new KeywordScanner(keywords);
    for (let trial = 0; trial < 400; trial++) {
      const length = Math.floor(next() * (trial < 100 ? 30 : 600));
      const text = Array.from({ length }, () => alphabet[Math.floor(next() * alphabet.length)]).join('');
      const hits: [number, number][] = [];
      scanner.scan(text, (keyword, start) => hits.push([keyword, start]));
      const expected = naive(keywords, text);
      hits.sort((a, b) => a[1] + keywords[a[0]]!.length - (b[1] + keywords[b[0]]!.length) || a[0] - b[0]);
      assert.deepEqual(hits, expected, JSON.stringify(text));
    }
  });

  test('each keyword planted at every place across the middle of a text is found', () => {
    const keywords = ['key', 'ey', 'abkeyab', 'kkkkkkkkkkkk'];
    const scanner = new KeywordScanner(keywords);
    for (const length of [40, 41]) {
      for (const keyword of keywords) {
        for (let at = 0; at + keyword.length <= length; at++) {
          const text = '.'.repeat(at) + keyword.toUpperCase() + '.'.repeat(length - at - keyword.length);
          const hits: [number, number][] = [];
          scanner.scan(text, (number, start) => hits.push([number, start]));
          assert.deepEqual(hits, naive(keywords, text), JSON.stringify(text));
        }
      }
    }
  });

  test('hits come in order of their end without sorting', () => {
    const keywords = ['token', 'ok', 'secret'];
    const scanner = new KeywordScanner(keywords);
    const text = 'a token, a secret; '.repeat(50);
    const ends: number[] = [];
    scanner.scan(text, (keyword, start) => ends.push(start + keywords[keyword]!.length));
    assert.equal(ends.length, 150);
    assert.deepEqual(
      ends,
      [...ends].sort((a, b) => a - b),
    );
  });
});
