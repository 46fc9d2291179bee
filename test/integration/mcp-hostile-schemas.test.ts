// An MCP server with schemas the API would reject: through the hub and the engine, every tool
// Cove offers has a schema the API accepts (checked against the API's documented rules), the
// ones that cannot be repaired are left out with a warning, and every other tool still works.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { McpHub } from '../../electron/core/mcp/mcp-hub';
import { startEngine } from '../support/engine';
import { block, reply } from '../support/model-server';
import { fixture, FAST, stdioServer } from '../fixtures/mcp/support';

const FORMATS = new Set(['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'uri', 'ipv4', 'ipv6', 'uuid']);

/** What the Messages API refuses in an input_schema (tool use docs, "input_schema"), found anywhere in it. */
function apiProblems(schema: Record<string, unknown>): string[] {
  const problems: string[] = [];
  if (schema.type !== 'object') problems.push(`top-level type ${JSON.stringify(schema.type)}`);
  for (const key of ['anyOf', 'oneOf', 'allOf']) if (key in schema) problems.push(`top-level ${key}`);
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (!node || typeof node !== 'object') return;
    const record = node as Record<string, unknown>;
    if ('$ref' in record) problems.push(`$ref ${String(record.$ref)}`);
    if (typeof record.format === 'string' && !FORMATS.has(record.format)) problems.push(`format ${record.format}`);
    Object.values(record).forEach(walk);
  };
  walk(schema);
  return problems;
}

let workspace: string;
let hub: McpHub;
const logs: string[] = [];

before(() => {
  workspace = mkdtempSync(join(tmpdir(), 'cove-mcp-hostile-'));
  hub = new McpHub({
    workspace,
    dataDir: workspace,
    config: { servers: [stdioServer('hostile', [fixture('hostile-schema-server.mjs')])], problems: [] },
    log: (message) => logs.push(message),
    ...FAST,
  });
});

after(async () => {
  await hub.close();
  rmSync(workspace, { recursive: true, force: true });
});

const WORKING = {
  plain: { value: 'v' },
  union_any_of: { path: 'src', glob: '*.ts' },
  union_one_of: { kind: 'file', file: 'a.txt' },
  intersection_all_of: { owner: 'o', repo: 'r' },
  pydantic_refs: { person: { name: 'Ada', home: { city: 'London' } } },
  odd_formats: { link: '../x', count: 3, when: '2026-12-01T00:00:00Z' },
};

test('hostile MCP schemas: every offered schema is one the API accepts, the rest are left out with a warning, the others all work', async () => {
  const names = Object.keys(WORKING);
  const engine = await startEngine(
    [reply.message(names.map((name, index) => block.toolUse(`mcp__hostile__${name}`, WORKING[name as keyof typeof WORKING], { id: `toolu_h${index}` }))), reply.text('All done.')],
    { toolSources: [hub.toolSource()], workspaceRoots: [workspace] },
  );
  try {
    const outcome = await engine.agent.run('Use every tool.');
    assert.equal(outcome.stopReason, 'endTurn');
    const offered = (engine.server.requests[0]!.body.tools ?? []) as Array<{ name: string; input_schema: Record<string, unknown> }>;
    assert.deepEqual(offered.map((tool) => tool.name).sort(), names.map((name) => `mcp__hostile__${name}`).sort());
    for (const tool of offered) assert.deepEqual(apiProblems(tool.input_schema), [], tool.name);

    const anyOf = offered.find((tool) => tool.name === 'mcp__hostile__union_any_of')!.input_schema;
    assert.deepEqual(anyOf.required, ['path']);
    const refs = offered.find((tool) => tool.name === 'mcp__hostile__pydantic_refs')!.input_schema as { properties: { person: { properties: { home: { required: string[] } } } } };
    assert.deepEqual(refs.properties.person.properties.home.required, ['city']);

    const ends = engine.ofType('toolExecutionEnd');
    assert.equal(ends.length, names.length);
    for (const end of ends) {
      assert.equal(end.isError, false, JSON.stringify(end.result));
      const name = end.toolName.replace('mcp__hostile__', '');
      assert.equal((end.result.content[0] as { text: string }).text, `${name} got ${JSON.stringify(WORKING[name as keyof typeof WORKING])}`);
    }

    const status = hub.status().find((server) => server.name === 'hostile')!;
    assert.equal(status.toolCount, names.length);
    const warned = (status.warnings ?? []).join('\n');
    for (const left of ['not_an_object', 'array_top', 'recursive_tree', 'remote_ref']) {
      assert.match(warned, new RegExp(`tool ${left} is left out`));
      assert.ok(
        logs.some((line) => line.includes(`tool ${left} is left out`)),
        `${left} is logged`,
      );
    }
    assert.match(warned, /recursive_tree is left out: its \$ref #\/\$defs\/Node refers to itself/);
  } finally {
    await engine.close();
  }
});
