import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createWebFetchTool } from '../../electron/core/web-fetch/web-fetch-tool';
import { parseHostSpecifier } from '../../electron/core/web-fetch/host-rule';
import { SSRF_URLS } from '../fixtures/web-fetch/ssrf-corpus';
import { makeContext, textOf, toolError } from './helpers/tool-context';

let server: Server;
let port = 0;
let hits: string[] = [];
let redirectTo = '';

before(async () => {
  server = createServer((request, response) => {
    hits.push(`${request.headers.host}${request.url}`);
    if (request.url === '/redirect') response.writeHead(302, { location: redirectTo }).end();
    else response.end('reached');
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
after(() => new Promise<void>((resolve) => server.close(() => resolve())));

const REFUSED = /web_fetch reaches private, loopback and link-local addresses only with a rule naming the host|must be an http or https URL/;

describe('web_fetch against the SSRF corpus', () => {
  test('every way of writing a local or private address is refused before a connection, with no rule', async () => {
    const tool = createWebFetchTool({ allowedHosts: () => [] });
    const missed: string[] = [];
    for (const template of SSRF_URLS) {
      const url = template.replace('PORT', String(port));
      hits = [];
      const context = makeContext(['/']);
      try {
        const result = await tool.execute({ url }, context);
        missed.push(`${url}: fetched (${textOf(result).slice(0, 60)})`);
      } catch (error) {
        if (!REFUSED.test((error as Error).message)) missed.push(`${url}: ${(error as Error).message}`);
      }
      if (hits.length > 0) missed.push(`${url}: reached the server (${hits.join(', ')})`);
    }
    assert.deepEqual(missed, []);
  });

  test('a catch-all rule does not open them either; a rule naming the host does', async () => {
    const catchAll = createWebFetchTool({ allowedHosts: () => [parseHostSpecifier('domain:*')] });
    const error = await toolError(() => catchAll.execute({ url: `http://127.0.0.1:${port}/` }, makeContext(['/'])));
    assert.match(error.message, REFUSED);
    const named = createWebFetchTool({ allowedHosts: () => [parseHostSpecifier('domain:127.0.0.1')] });
    hits = [];
    const result = await named.execute({ url: `http://127.0.0.1:${port}/page` }, makeContext(['/']));
    assert.match(textOf(result), /reached/);
    assert.deepEqual(hits, [`127.0.0.1:${port}/page`]);
  });

  test('from an allowed loopback host, a redirect to any other form of a private address is refused', async () => {
    const tool = createWebFetchTool({ allowedHosts: () => [parseHostSpecifier('domain:127.0.0.1')] });
    const missed: string[] = [];
    for (const template of SSRF_URLS) {
      redirectTo = template.replace('PORT', String(port));
      let host: string;
      try {
        host = new URL(redirectTo).hostname;
      } catch {
        continue;
      }
      // The same host, however written, is what the rule allows.
      if (host === '127.0.0.1') continue;
      hits = [];
      try {
        const result = await tool.execute({ url: `http://127.0.0.1:${port}/redirect` }, makeContext(['/']));
        missed.push(`${redirectTo}: not refused (${textOf(result).slice(0, 80)})`);
      } catch (error) {
        if (!/refused: the page redirects to/.test((error as Error).message)) missed.push(`${redirectTo}: ${(error as Error).message}`);
      }
      if (hits.length !== 1) missed.push(`${redirectTo}: the server saw ${hits.join(', ')}`);
    }
    assert.deepEqual(missed, []);
  });
});
