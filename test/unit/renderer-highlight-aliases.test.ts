/**
 * A code block fenced with an alias (`ts`, `sh`, `py`…) builds its own language only. Checked in
 * the module's first synchronous run, before the engine's own background builds (a task each,
 * after the chunk loads) can start; this file runs in a process of its own.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import hljs from 'highlight.js/lib/core';
import { ALIASES, knowsLanguage, LANGUAGES } from '../../renderer/ui/highlight-engine';

const builtBefore = hljs.listLanguages();
const knowsTs = knowsLanguage('ts');
const builtForTs = hljs.listLanguages();

test('a block fenced `ts` builds TypeScript alone, not every language', () => {
  assert.deepEqual(builtBefore, []);
  assert.equal(knowsTs, true);
  assert.deepEqual(builtForTs, ['typescript']);
});

test('the alias table holds every alias the definitions give, and nothing else', () => {
  const expected: Record<string, string> = {};
  for (const [name, define] of Object.entries(LANGUAGES)) for (const alias of define(hljs).aliases ?? []) expected[alias] = name;
  assert.deepEqual({ ...ALIASES }, expected);
});

test('a name that is neither a language nor an alias is still refused', () => {
  assert.equal(knowsLanguage('no-such-language'), false);
});
