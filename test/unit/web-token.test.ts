import { describe, mock, test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { checkRequestToken, cookieName, newToken, readCookie, tokenCookie, tokenMatches, TOKEN_PATTERN } from '../../electron/web/token';

describe('serve token', () => {
  test('new tokens are 32 random bytes in base64url, different each time, and pass the flag pattern', () => {
    const tokens = new Set(Array.from({ length: 50 }, newToken));
    assert.equal(tokens.size, 50);
    for (const token of tokens) {
      assert.match(token, /^[A-Za-z0-9_-]{43}$/);
      assert.equal(Buffer.from(token, 'base64url').length, 32);
      assert.match(token, TOKEN_PATTERN);
    }
  });

  test('matches only the exact token', () => {
    const token = newToken();
    assert.equal(tokenMatches(token, token), true);
    assert.equal(tokenMatches(token, `${token}x`), false);
    assert.equal(tokenMatches(token, token.slice(0, -1)), false);
    assert.equal(tokenMatches(token, token.toUpperCase()), false);
    assert.equal(tokenMatches(token, ''), false);
    for (const notString of [undefined, null, 42, ['a'], { token }]) assert.equal(tokenMatches(token, notString), false);
  });

  test('compares with timingSafeEqual on equal-length digests, whatever the offered length', () => {
    const compare = mock.method(crypto, 'timingSafeEqual');
    try {
      const token = newToken();
      for (const offered of ['short', token, 'x'.repeat(10_000), `${token}${token}`]) tokenMatches(token, offered);
      assert.equal(compare.mock.callCount(), 4);
      for (const call of compare.mock.calls) {
        const [left, right] = call.arguments as [Buffer, Buffer];
        assert.equal(left.length, 32);
        assert.equal(right.length, 32);
      }
      assert.equal(compare.mock.calls[1]!.result, true);
      assert.equal(compare.mock.calls[0]!.result, false);
    } finally {
      compare.mock.restore();
    }
  });

  test('the cookie is per port, HttpOnly and SameSite=Strict, and reads back', () => {
    const token = newToken();
    const header = tokenCookie(4455, token);
    assert.match(header, /^cove_token_4455=/);
    assert.match(header, /; HttpOnly/);
    assert.match(header, /; SameSite=Strict/);
    assert.match(header, /; Path=\//);
    const sent = `other=1; ${header.split(';')[0]}; cove_token_4456=nope`;
    assert.equal(readCookie(sent, cookieName(4455)), token);
    assert.equal(readCookie(sent, cookieName(4456)), 'nope');
    assert.equal(readCookie(sent, cookieName(80)), undefined);
    assert.equal(readCookie(undefined, cookieName(80)), undefined);
  });

  test('a token in the URL wins over the cookie, so a wrong link is refused even with a good cookie', () => {
    const token = newToken();
    const cookie = `${cookieName(9000)}=${token}`;
    const url = (query: string) => new URL(`http://127.0.0.1:9000/${query}`);
    assert.deepEqual(checkRequestToken(token, url(`?token=${token}`), undefined, 9000), { check: 'valid', fromQuery: true });
    assert.deepEqual(checkRequestToken(token, url('?token=wrong'), cookie, 9000), { check: 'wrong', fromQuery: true });
    assert.deepEqual(checkRequestToken(token, url(''), cookie, 9000), { check: 'valid', fromQuery: false });
    assert.deepEqual(checkRequestToken(token, url(''), `${cookieName(9000)}=wrong`, 9000), { check: 'wrong', fromQuery: false });
    assert.deepEqual(checkRequestToken(token, url(''), `${cookieName(9001)}=${token}`, 9000), { check: 'missing', fromQuery: false });
  });
});
