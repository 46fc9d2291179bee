/**
 * Every file tool's refusals name the path the model gave and never reveal where the workspace
 * lives: tool results reach the model's transcript.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { symlinkSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import type { Tool } from '../../electron/core/agent/types';
import { editFileTool } from '../../electron/core/tools/edit-file';
import { listFilesTool } from '../../electron/core/tools/list-files';
import { readFileTool } from '../../electron/core/tools/read-file';
import { createSearchTool } from '../../electron/core/tools/search';
import { writeFileTool } from '../../electron/core/tools/write-file';
import { makeContext, removeFolder, tempFolder, toolError } from './helpers/tool-context';

let base: string;
let root: string;

before(() => {
  base = tempFolder('errors', {
    'outside/secret.txt': 'secret\n',
    'ws/src/app.ts': 'same();\nsame();\n',
    'ws/blob.bin': Buffer.from([0, 1, 2]),
    'ws/huge.txt': '',
  });
  root = join(base, 'ws');
  truncateSync(join(root, 'huge.txt'), 20 * 1024 * 1024);
  symlinkSync(join(base, 'outside'), join(root, 'linked'));
});

after(() => removeFolder(base));

const cases: Array<[Tool, Record<string, unknown>, string]> = [
  [readFileTool, { path: 'missing.ts' }, 'missing.ts'],
  [readFileTool, { path: '../outside/secret.txt' }, '../outside/secret.txt'],
  [readFileTool, { path: 'linked/secret.txt' }, 'linked/secret.txt'],
  [readFileTool, { path: 'blob.bin' }, 'blob.bin'],
  [readFileTool, { path: 'huge.txt' }, 'huge.txt'],
  [readFileTool, { path: 'src' }, 'src'],
  [readFileTool, { path: 'src/app.ts', offset: 10 }, 'src/app.ts'],
  [writeFileTool, { path: '../outside/new.txt', content: 'x' }, '../outside/new.txt'],
  [writeFileTool, { path: 'linked/new.txt', content: 'x' }, 'linked/new.txt'],
  [writeFileTool, { path: 'src', content: 'x' }, 'src'],
  [editFileTool, { path: 'missing.ts', old_text: 'a', new_text: 'b' }, 'missing.ts'],
  [editFileTool, { path: 'linked/secret.txt', old_text: 'secret', new_text: 'b' }, 'linked/secret.txt'],
  [editFileTool, { path: 'src/app.ts', old_text: 'absent();', new_text: 'b' }, 'src/app.ts'],
  [editFileTool, { path: 'src/app.ts', old_text: 'same();', new_text: 'b' }, 'src/app.ts'],
  [editFileTool, { path: 'huge.txt', old_text: 'a', new_text: 'b' }, 'huge.txt'],
  [listFilesTool, { path: 'missing' }, 'missing'],
  [listFilesTool, { path: '..' }, '..'],
  [listFilesTool, { path: 'src/app.ts' }, 'src/app.ts'],
  [createSearchTool({ engine: 'builtin' }), { pattern: 'x', path: 'missing' }, 'missing'],
  [createSearchTool({ engine: 'builtin' }), { pattern: 'x', path: 'linked' }, 'linked'],
];

for (const [tool, params, given] of cases) {
  test(`${tool.name} ${JSON.stringify(params)}`, async () => {
    const error = await toolError(() => tool.execute(params, makeContext([root])));
    assert.ok(error.message.includes(given), `does not name ${given}: ${error.message}`);
    assert.ok(!error.message.includes(base), `reveals the workspace location: ${error.message}`);
  });
}
