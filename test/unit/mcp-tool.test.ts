import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { ToolError } from '../../electron/core/agent/types';
import { checkArguments } from '../../electron/core/agent/validate';
import {
  createMcpTool,
  progressUpdate,
  schemaValidator,
  toParameters,
  UnusableSchemaError,
  toResultContent,
  toToolResult,
  type CallOptions,
  type McpCaller,
} from '../../electron/core/mcp/mcp-tool';
import { recordingContext } from '../fixtures/mcp/support';

const PNG = 'iVBORw0KGgo=';

describe('MCP results', () => {
  test('text and supported images pass through; other content is described in text', () => {
    assert.deepEqual(toResultContent({ type: 'text', text: 'hello' }), { type: 'text', text: 'hello' });
    assert.deepEqual(toResultContent({ type: 'image', mimeType: 'image/png', data: PNG }), { type: 'image', mediaType: 'image/png', data: PNG });
    assert.deepEqual(toResultContent({ type: 'image', mimeType: 'image/svg+xml', data: 'PHN2Zz4=' }), { type: 'text', text: '[image: image/svg+xml, 5 bytes, not shown]' });
    assert.deepEqual(toResultContent({ type: 'audio', mimeType: 'audio/wav', data: 'AAAA' }), { type: 'text', text: '[audio: audio/wav, 3 bytes, not shown]' });
    assert.deepEqual(toResultContent({ type: 'resource', resource: { uri: 'file:///notes.md', mimeType: 'text/markdown', text: '# Notes' } }), {
      type: 'text',
      text: '[resource file:///notes.md, text/markdown]\n# Notes',
    });
    assert.deepEqual(toResultContent({ type: 'resource', resource: { uri: 'demo://blob/1', mimeType: 'application/octet-stream', blob: 'AAAAAA==' } }), {
      type: 'text',
      text: '[resource demo://blob/1, application/octet-stream, 4 bytes of binary data, not shown]',
    });
    assert.deepEqual(toResultContent({ type: 'resource', resource: { uri: 'demo://img', mimeType: 'image/png', blob: PNG } }), { type: 'image', mediaType: 'image/png', data: PNG });
    assert.deepEqual(toResultContent({ type: 'resource_link', name: 'Report', uri: 'demo://report', description: 'the weekly report' }), {
      type: 'text',
      text: '[resource link Report demo://report: the weekly report]',
    });
  });

  test('structuredContent goes to details, and stands in for missing content', () => {
    const result = toToolResult({ content: [], structuredContent: { temperature: 36 } }, 'weather', 'forecast');
    assert.deepEqual(result, {
      content: [{ type: 'text', text: '{"temperature":36}' }],
      details: { server: 'weather', tool: 'forecast', structuredContent: { temperature: 36 } },
    });
  });

  test('an isError result throws a failed ToolError carrying the server text', () => {
    assert.throws(
      () => toToolResult({ content: [{ type: 'text', text: 'disk full' }], isError: true }, 'files', 'write'),
      (error: unknown) => error instanceof ToolError && error.kind === 'failed' && error.message === 'disk full',
    );
    assert.throws(
      () => toToolResult({ content: [], isError: true }, 'files', 'write'),
      (error: unknown) => error instanceof ToolError && /write on server files reported an error/.test(error.message),
    );
  });

  test('progress is a fraction only when the total is known, clamped to 0..1', () => {
    assert.deepEqual(progressUpdate({ progress: 2, total: 5 }), { content: [], details: { progress: 0.4, progressRaw: { progress: 2, total: 5 } } });
    assert.equal((progressUpdate({ progress: 7 }).details as { progress?: number }).progress, undefined);
    assert.equal((progressUpdate({ progress: 9, total: 5 }).details as { progress?: number }).progress, 1);
  });
});

describe('MCP tool parameters', () => {
  test('the schema dialect is dropped and the type is object, so the engine validator accepts it', async () => {
    const { parameters, problem } = toParameters(
      { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', properties: { n: { type: 'number' } }, required: ['n'] },
      schemaValidator(),
    );
    assert.equal(problem, undefined);
    assert.deepEqual(parameters, { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] });
    const tool = { name: 't', label: 't', description: '', parameters, sensitivity: 'mutating' as const, execute: async () => ({ content: [] }) };
    assert.equal(await checkArguments(tool, { n: 1 }), null);
    assert.match((await checkArguments(tool, {}))!, /missing required field 'n'/);
  });

  test('a schema the validator cannot compile becomes an open object, with the reason', () => {
    const { parameters, problem } = toParameters({ type: 'object', properties: { x: { type: 'string', pattern: '(' } } }, schemaValidator());
    assert.deepEqual(parameters, { type: 'object', additionalProperties: true });
    assert.match(problem!, /pattern|regular expression|Invalid/i);
  });

  test('a $ref that cannot be resolved leaves the tool out, naming the reference', () => {
    assert.throws(
      () => toParameters({ type: 'object', properties: { x: { $ref: '#/definitions/missing' } } }, schemaValidator()),
      (error: Error) => error instanceof UnusableSchemaError && /#\/definitions\/missing/.test(error.message),
    );
  });
});

describe('MCP tool wrapper', () => {
  function fakeServer(answer: (tool: string, args: Record<string, unknown>, options: CallOptions) => ReturnType<McpCaller['callTool']>): McpCaller & { calls: unknown[] } {
    const calls: unknown[] = [];
    return {
      name: 'fake',
      calls,
      callTool: (tool, args, options) => {
        calls.push({ tool, args });
        return answer(tool, args, options);
      },
    };
  }

  test('is mutating, labelled by title, described with its server, and calls the original name', async () => {
    const server = fakeServer(async (_tool, args) => ({ content: [{ type: 'text', text: `got ${args.path}` }] }));
    const tool = createMcpTool(
      server,
      { name: 'read.file', title: 'Read a file', description: 'Reads one file', inputSchema: { type: 'object' } },
      'mcp__fake__read_file',
      schemaValidator(),
    );
    assert.equal(tool.name, 'mcp__fake__read_file');
    assert.equal(tool.sensitivity, 'mutating');
    assert.equal(tool.label, 'Read a file');
    assert.equal(tool.description, 'MCP server fake: Reads one file');
    const result = await tool.execute({ path: 'a.txt' }, recordingContext());
    assert.deepEqual(server.calls, [{ tool: 'read.file', args: { path: 'a.txt' } }]);
    assert.deepEqual(result.content, [{ type: 'text', text: 'got a.txt' }]);
  });

  test('progress notifications become updates, and messages become progress lines', async () => {
    const server = fakeServer(async (_tool, _args, options) => {
      options.onprogress({ progress: 1, total: 4, message: 'indexing' });
      options.onprogress({ progress: 3, total: 4 });
      return { content: [{ type: 'text', text: 'done' }] };
    });
    const tool = createMcpTool(server, { name: 'index', inputSchema: { type: 'object' } }, 'mcp__fake__index', schemaValidator());
    const context = recordingContext();
    await tool.execute({}, context);
    assert.deepEqual(
      context.updates.map((update) => (update.details as { progress?: number }).progress),
      [0.25, 0.75],
    );
    assert.deepEqual(context.progress, ['indexing']);
    assert.equal(tool.label, 'index');
  });
});
