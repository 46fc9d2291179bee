import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { block, reply } from '../support/model-server';
import { cliFixture } from '../support/cove-cli';
import type { CoveEvent } from '../../shared/events';

/** A page server on 127.0.0.1, which is loopback: each test that reaches it gives the explicit rule. */
let pages: Server;
let base: string;
let hits: string[] = [];
const SECRET = 'AKIA' + 'Q3EGRZ7TBXN4WLPC';

before(async () => {
  pages = createServer((request, response) => {
    hits.push(request.url ?? '');
    const url = request.url ?? '/';
    if (url === '/article') {
      response.setHeader('content-type', 'text/html; charset=utf-8');
      response.end(`<!doctype html><html><head><title>Release notes</title><style>body{color:red}</style></head><body>
        <nav>menu</nav><main><h1>Version 2</h1><p>Faster <strong>startup</strong>, see <a href="/docs">the docs</a>.</p>
        <script>window.stolen = "SCRIPT_BODY_MUST_NOT_APPEAR"</script><p>Key: ${SECRET}</p></main></body></html>`);
    } else if (url === '/huge') {
      response.setHeader('content-type', 'text/plain');
      response.end('x'.repeat(400_000));
    } else if (url === '/to-private') {
      response.writeHead(302, { location: 'http://10.255.255.1/admin' }).end();
    } else if (url === '/to-localhost') {
      response.writeHead(302, { location: `http://localhost:${(pages.address() as AddressInfo).port}/article` }).end();
    } else if (url === '/binary') {
      response.setHeader('content-type', 'application/octet-stream');
      response.end(Buffer.from([0, 1, 2, 3]));
    } else response.writeHead(404).end('no such page');
  });
  await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(pages.address() as AddressInfo).port}`;
});
after(() => new Promise<void>((resolve) => pages.close(() => resolve())));

/** Ends in the order the calls were made (parallel calls finish in any order). */
function toolEnds(events: CoveEvent[]) {
  return events.filter((event) => event.type === 'toolExecutionEnd').sort((a, b) => a.toolCallId.localeCompare(b.toolCallId));
}
function resultText(event: CoveEvent): string {
  return event.type === 'toolExecutionEnd' ? event.result.content.map((part) => (part.type === 'text' ? part.text : '')).join('') : '';
}

describe('web_fetch through cove run', () => {
  test('an allowed loopback host is fetched as Markdown, without scripts or styles, and redacted', async () => {
    const f = await cliFixture([reply.message([block.toolUse('web_fetch', { url: `${base}/article` }, { id: 'toolu_fetch' })]), reply.text('Version 2 is faster.')]);
    try {
      hits = [];
      const result = await f.home.run(['run', '--json', '--workspace', f.workspace, '--allow', 'web_fetch(domain:127.0.0.1)', 'what is new?']);
      assert.equal(result.code, 0, result.stderr);
      const [end] = toolEnds(result.events);
      assert.equal(end?.type === 'toolExecutionEnd' && end.isError, false, resultText(end!));
      const sent = JSON.stringify(f.server.requests[1]!.body.messages.at(-1));
      assert.match(sent, /# Version 2/);
      assert.match(sent, /Faster \*\*startup\*\*/);
      assert.match(sent, /Release notes/);
      assert.doesNotMatch(sent, /SCRIPT_BODY_MUST_NOT_APPEAR|color:red/);
      assert.ok(!sent.includes(SECRET), 'the access key is redacted before the model sees it');
      assert.deepEqual(hits, ['/article']);
    } finally {
      await f.close();
    }
  });

  test('without an explicit rule a loopback address is refused, even in bypass mode, and nothing is requested', async () => {
    const f = await cliFixture([reply.message([block.toolUse('web_fetch', { url: `${base}/article` }, { id: 'toolu_fetch' })]), reply.text('refused')]);
    try {
      hits = [];
      const result = await f.home.run(['run', '--json', '--workspace', f.workspace, '--permission-mode', 'bypass', 'fetch it']);
      assert.equal(result.code, 0, result.stderr);
      const [end] = toolEnds(result.events);
      assert.equal(end?.type === 'toolExecutionEnd' && end.isError, true, resultText(end!));
      assert.match(resultText(end!), /127\.0\.0\.1 resolves to 127\.0\.0\.1, a loopback address.*web_fetch\(domain:127\.0\.0\.1\)/);
      assert.deepEqual(hits, []);
    } finally {
      await f.close();
    }
  });

  test('a host without an allow rule is asked about, and headless that is a denial naming the rule', async () => {
    const f = await cliFixture([reply.message([block.toolUse('web_fetch', { url: 'https://example.com/page' }, { id: 'toolu_fetch' })]), reply.text('ok')]);
    try {
      const result = await f.home.run(['run', '--json', '--workspace', f.workspace, 'fetch it']);
      assert.equal(result.code, 0, result.stderr);
      const [end] = toolEnds(result.events);
      assert.equal(end?.type === 'toolExecutionEnd' && end.isError, true);
      assert.match(resultText(end!), /web_fetch\(domain:example\.com\)/);
    } finally {
      await f.close();
    }
  });

  test('a deny rule for the host wins over an allow rule for it', async () => {
    const f = await cliFixture([reply.message([block.toolUse('web_fetch', { url: `${base}/article` }, { id: 'toolu_fetch' })]), reply.text('ok')]);
    try {
      hits = [];
      const result = await f.home.run(['run', '--json', '--workspace', f.workspace, '--allow', 'web_fetch(domain:127.0.0.1)', '--deny', 'web_fetch(domain:127.0.0.1)', 'fetch it']);
      assert.equal(result.code, 0, result.stderr);
      assert.match(resultText(toolEnds(result.events)[0]!), /denied/i);
      assert.deepEqual(hits, []);
    } finally {
      await f.close();
    }
  });

  test('a redirect to a private address is refused; one to another host is reported, not followed', async () => {
    const f = await cliFixture([
      reply.message([
        block.toolUse('web_fetch', { url: `${base}/to-private` }, { id: 'toolu_1_private' }),
        block.toolUse('web_fetch', { url: `${base}/to-localhost` }, { id: 'toolu_2_local' }),
      ]),
      reply.text('ok'),
    ]);
    try {
      hits = [];
      const result = await f.home.run(['run', '--json', '--workspace', f.workspace, '--allow', 'web_fetch(domain:127.0.0.1)', 'fetch them']);
      assert.equal(result.code, 0, result.stderr);
      const [toPrivate, toLocal] = toolEnds(result.events);
      assert.equal(toPrivate?.type === 'toolExecutionEnd' && toPrivate.isError, true);
      assert.match(resultText(toPrivate!), /refused: the page redirects to http:\/\/10\.255\.255\.1\/admin.*private address/);
      // localhost is loopback too, and no rule names it: refused before any request reaches it.
      assert.equal(toLocal?.type === 'toolExecutionEnd' && toLocal.isError, true);
      assert.match(resultText(toLocal!), /localhost is a loopback name/);
      assert.deepEqual(hits.sort(), ['/to-localhost', '/to-private']);
    } finally {
      await f.close();
    }
  });

  test('a long page is cut at the cap and says so; binary content is refused by its type', async () => {
    const f = await cliFixture([
      reply.message([
        block.toolUse('web_fetch', { url: `${base}/huge` }, { id: 'toolu_1_huge' }),
        block.toolUse('web_fetch', { url: `${base}/binary` }, { id: 'toolu_2_binary' }),
        block.toolUse('web_fetch', { url: 'ftp://example.com/file' }, { id: 'toolu_3_ftp' }),
      ]),
      reply.text('ok'),
    ]);
    try {
      const result = await f.home.run(['run', '--json', '--workspace', f.workspace, '--allow', 'web_fetch(domain:127.0.0.1)', '--allow', 'web_fetch', 'fetch them']);
      assert.equal(result.code, 0, result.stderr);
      const [huge, binary, ftp] = toolEnds(result.events);
      const hugeText = resultText(huge!);
      assert.match(hugeText, /page cut: the first 100,000 characters/);
      assert.ok(hugeText.length < 101_000, `the result holds ${hugeText.length} characters`);
      assert.match(resultText(binary!), /application\/octet-stream, not a page/);
      assert.match(resultText(ftp!), /must be an http or https URL/);
    } finally {
      await f.close();
    }
  });
});
