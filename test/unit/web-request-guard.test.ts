import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { allowedHost, originAllowed, securityHeaders } from '../../electron/web/request-guard';

const local = { bindHost: '127.0.0.1', port: 4455 };
const everywhere = { bindHost: '0.0.0.0', port: 4455 };

describe('Host header check (DNS rebinding)', () => {
  test('accepts loopback names and IP literals on our port', () => {
    assert.equal(allowedHost('127.0.0.1:4455', local), '127.0.0.1');
    assert.equal(allowedHost('localhost:4455', local), 'localhost');
    assert.equal(allowedHost('LOCALHOST:4455', local), 'localhost');
    assert.equal(allowedHost('[::1]:4455', local), '::1');
    assert.equal(allowedHost('192.168.1.20:4455', everywhere), '192.168.1.20');
    assert.equal(allowedHost('dev-box.lan:4455', { bindHost: 'dev-box.lan', port: 4455 }), 'dev-box.lan');
  });

  test('refuses other names, other ports, and malformed headers', () => {
    for (const header of [
      'attacker.example:4455',
      'localhost.attacker.example:4455',
      '127.0.0.1:4456',
      '127.0.0.1',
      'localhost',
      '',
      undefined,
      'user@127.0.0.1:4455',
      '127.0.0.1:4455/x',
      '[::1:4455',
    ]) {
      assert.equal(allowedHost(header, local), undefined, String(header));
    }
    assert.equal(allowedHost('dev-box.lan:4455', everywhere), undefined);
  });

  test('port 80 may be left out of the header', () => {
    assert.equal(allowedHost('localhost', { bindHost: '127.0.0.1', port: 80 }), 'localhost');
  });
});

describe('Origin check', () => {
  test('accepts this server under any of its local names', () => {
    assert.equal(originAllowed('http://127.0.0.1:4455', '127.0.0.1', local), true);
    assert.equal(originAllowed('http://localhost:4455', '127.0.0.1', local), true);
    assert.equal(originAllowed('http://[::1]:4455', '127.0.0.1', local), true);
    assert.equal(originAllowed('http://10.0.0.7:4455', '10.0.0.7', everywhere), true);
  });

  test('refuses other sites, other ports, other schemes, null and missing origins', () => {
    for (const origin of [
      'http://attacker.example',
      'http://attacker.example:4455',
      'http://127.0.0.1:4456',
      'https://127.0.0.1:4455',
      'http://127.0.0.1',
      'null',
      '',
      undefined,
      'file://',
      'http://127.0.0.1:4455/path',
    ]) {
      assert.equal(originAllowed(origin, '127.0.0.1', local), false, String(origin));
    }
    // Another machine's page on the same port is not this server.
    assert.equal(originAllowed('http://10.0.0.9:4455', '10.0.0.7', everywhere), false);
  });
});

describe('security headers', () => {
  test('pin scripts and the WebSocket to this server, forbid framing, sniffing and referrers', () => {
    const headers = securityHeaders('localhost', 4455);
    const csp = headers['content-security-policy']!;
    assert.match(csp, /default-src 'self'/);
    assert.match(csp, /connect-src 'self' ws:\/\/localhost:4455(;|$)/);
    assert.match(csp, /frame-ancestors 'none'/);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|\*/);
    assert.equal(headers['x-content-type-options'], 'nosniff');
    assert.equal(headers['referrer-policy'], 'no-referrer');
    assert.match(securityHeaders('::1', 4455)['content-security-policy']!, /ws:\/\/\[::1\]:4455/);
    assert.equal(headers['cross-origin-opener-policy'], 'same-origin');
    assert.equal(securityHeaders('192.168.1.20', 4455)['cross-origin-opener-policy'], undefined, 'ignored (with a console error) off loopback');
  });
});
