// MCP input schemas into the form the Messages API accepts, one class of problem per test.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { normalizeInputSchema } from '../../electron/core/mcp/schema-normalize';

function ok(input: unknown) {
  const result = normalizeInputSchema(input);
  assert.ok(result.ok, result.ok ? '' : result.reason);
  return result;
}

test('a top-level anyOf becomes one object: the union of properties, the fields every branch requires', () => {
  const { schema, changes } = ok({
    anyOf: [
      { type: 'object', properties: { a: { type: 'string' }, shared: { type: 'string' } }, required: ['a', 'shared'] },
      { type: 'object', properties: { b: { type: 'number' }, shared: { type: 'string' } }, required: ['b', 'shared'] },
    ],
  });
  assert.deepEqual(schema, { type: 'object', properties: { a: { type: 'string' }, shared: { type: 'string' }, b: { type: 'number' } }, required: ['shared'] });
  assert.deepEqual(changes, ['merged top-level anyOf']);
});

test('a property defined differently by two branches accepts either definition', () => {
  const { schema } = ok({ oneOf: [{ properties: { x: { type: 'string' } } }, { properties: { x: { type: 'number' } } }] });
  assert.deepEqual((schema.properties as Record<string, unknown>).x, { anyOf: [{ type: 'string' }, { type: 'number' }] });
});

test('a top-level allOf is merged with every branch requirement', () => {
  const { schema } = ok({
    allOf: [
      { properties: { a: {} }, required: ['a'] },
      { properties: { b: {} }, required: ['b'] },
    ],
  });
  assert.deepEqual(schema.required, ['a', 'b']);
});

test('nested combinators are left alone: the API accepts them below the top level', () => {
  const inner = { anyOf: [{ type: 'string' }, { type: 'null' }] };
  const { schema, changes } = ok({ type: 'object', properties: { v: inner } });
  assert.deepEqual((schema.properties as Record<string, unknown>).v, inner);
  assert.deepEqual(changes, []);
});

test('local $refs are inlined, siblings kept, definitions dropped', () => {
  const { schema } = ok({
    definitions: { Id: { type: 'string', format: 'uuid' } },
    type: 'object',
    properties: { id: { $ref: '#/definitions/Id', description: 'the id' }, list: { type: 'array', items: { $ref: '#/definitions/Id' } } },
  });
  assert.deepEqual(schema, {
    type: 'object',
    properties: { id: { type: 'string', format: 'uuid', description: 'the id' }, list: { type: 'array', items: { type: 'string', format: 'uuid' } } },
  });
});

test('a property named like a keyword ($ref, format) is a property, not a keyword', () => {
  const { schema } = ok({ type: 'object', properties: { format: { type: 'string' }, $ref: { type: 'string' } } });
  assert.deepEqual(Object.keys(schema.properties as object), ['format', '$ref']);
});

test('unsupported formats and document-only keywords are dropped; supported formats stay', () => {
  const { schema, changes } = ok({
    $schema: 'x',
    $id: 'y',
    $comment: 'z',
    type: 'object',
    properties: { a: { type: 'string', format: 'uri-reference' }, b: { type: 'string', format: 'email' } },
  });
  assert.deepEqual(schema, { type: 'object', properties: { a: { type: 'string' }, b: { type: 'string', format: 'email' } } });
  assert.deepEqual(changes, ['dropped format "uri-reference"']);
});

for (const [name, input, reason] of [
  ['a string top level', { type: 'string' }, /not an object/],
  ['an array top level', { type: 'array' }, /not an object/],
  ['a branch that is not an object', { anyOf: [{ type: 'object' }, { type: 'string' }] }, /anyOf branch 2/],
  ['a recursive $ref', { $defs: { N: { properties: { next: { $ref: '#/$defs/N' } } } }, properties: { n: { $ref: '#/$defs/N' } } }, /refers to itself/],
  ['a remote $ref', { properties: { c: { $ref: 'https://example.com/c.json' } } }, /cannot be resolved/],
  ['not an object at all', ['type', 'object'], /not a JSON object/],
  ['a huge schema', { type: 'object', description: 'x'.repeat(200_000) }, /bytes/],
] as Array<[string, unknown, RegExp]>) {
  test(`${name} cannot be normalized, and says why`, () => {
    const result = normalizeInputSchema(input);
    assert.equal(result.ok, false);
    assert.match(result.ok ? '' : result.reason, reason);
  });
}
