// The import layers of eslint.config.mjs, each shown to fail on a planted violation and to pass
// on the code as it is, so a rule that silently stops resolving imports is caught.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { ESLint } from 'eslint';
// @ts-expect-error the config is plain JavaScript without declarations
import { layerRules } from '../../eslint.config.mjs';

const eslint = new ESLint({ ruleFilter: ({ ruleId }) => (layerRules as string[]).includes(ruleId) });

async function problems(filePath: string, text: string): Promise<string[]> {
  const [result] = await eslint.lintText(text, { filePath });
  return result!.messages.map((message) => `${message.ruleId}: ${message.message}`);
}

function assertOne(found: string[], rule: string, words: RegExp): void {
  assert.equal(found.length, 1, `expected one problem, got: ${found.join('; ') || 'none'}`);
  assert.ok(found[0]!.startsWith(`${rule}: `), found[0]);
  assert.match(found[0]!, words);
}

describe('import layers', () => {
  it('keeps permissions, the store and MCP out of the agent loop', async () => {
    assertOne(
      await problems('electron/core/agent/planted.ts', "import { decide } from '../permissions/decide';\nvoid decide;\n"),
      'import-x/no-restricted-paths',
      /agent loop knows nothing of permissions/,
    );
    assertOne(
      await problems('electron/core/agent/planted.ts', "import type { EventLog } from '../store/event-log';\nexport type Log = EventLog;\n"),
      'import-x/no-restricted-paths',
      /agent loop/,
    );
  });

  it('keeps the store out of ui/', async () => {
    assertOne(
      await problems('renderer/ui/Planted.tsx', "import { useCove } from '../store';\nvoid useCove;\n"),
      'import-x/no-restricted-paths',
      /ui\/ components take what they show as props/,
    );
  });

  it('finds an import cycle, and none in the store as it is', async () => {
    const file = 'renderer/store/request.ts';
    const real = readFileSync(file, 'utf8');
    assert.deepEqual(await problems(file, real), []);
    assertOne(await problems(file, `${real}\nimport { useCove } from './index';\nvoid useCove;\n`), 'import-x/no-cycle', /Dependency cycle/);
  });

  it('keeps hosts out of the core, Node out of shared and the renderer, and values of shared out of the page', async () => {
    assertOne(await problems('electron/core/planted.ts', "import { serve } from '../web/server';\nvoid serve;\n"), 'import-x/no-restricted-paths', /core never imports a host/);
    assertOne(await problems('electron/core/planted.ts', "import { app } from 'electron';\nvoid app;\n"), 'no-restricted-imports', /only the desktop host and preload import electron/);
    assertOne(await problems('shared/planted.ts', "import { readFileSync } from 'node:fs';\nvoid readFileSync;\n"), 'import-x/no-nodejs-modules', /node:fs/);
    assertOne(
      await problems('renderer/planted.ts', "import { requests } from '../shared/contract';\nvoid requests;\n"),
      '@typescript-eslint/no-restricted-imports',
      /only types from shared/,
    );
    assert.deepEqual(await problems('renderer/planted.ts', "import type { RequestName } from '../shared/contract';\nexport type Name = RequestName;\n"), []);
  });
});
