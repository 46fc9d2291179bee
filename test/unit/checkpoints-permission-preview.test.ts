/**
 * The preview in a file edit's permission prompt: the real tools' dry run in a scratch folder.
 * The workspace never changes; a failing edit says why; secrets never show.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemorySnapshotStore, NO_SECRETS, type SecretRedactor } from '../../electron/core/agent/types';
import { previewChange, previewingPrompter } from '../../electron/core/checkpoints/permission-preview';
import { editFileTool } from '../../electron/core/tools/edit-file';
import { writeFileTool } from '../../electron/core/tools/write-file';
import { hashlineEditTool } from '../../electron/core/tools/hashline-edit';
import type { PromptRequest } from '../../electron/core/sessions/permission-prompts';

const SECRET = 'sk-live-0123456789abcdef';
const redactor: SecretRedactor = { redact: (text) => ({ text: text.split(SECRET).join('[REDACTED]'), count: 0 }) };

function workspace(): { root: string; env: Parameters<typeof previewChange>[2] } {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'cove-preview-ws-')));
  writeFileSync(join(root, 'app.ts'), 'const a = 1;\nconst b = 2;\nconst b2 = 2;\n');
  return { root, env: { workspaceRoots: [root], snapshots: new MemorySnapshotStore(), secrets: () => redactor } };
}

describe('permission preview', () => {
  test("an edit's diff, a new file's content, and the workspace unchanged", async () => {
    const { root, env } = workspace();
    try {
      const edit = await previewChange(editFileTool, { path: 'app.ts', old_text: 'const a = 1;', new_text: 'const a = 10;' }, env);
      assert.equal(edit.error, undefined);
      assert.match(edit.diff!, /^-const a = 1;$/m);
      assert.match(edit.diff!, /^\+const a = 10;$/m);
      assert.match(edit.diff!, /\+\+\+ b\/app\.ts/);
      const created = await previewChange(writeFileTool, { path: 'src/new.ts', content: `export const key = '${SECRET}';\n` }, env);
      assert.equal(created.newFile, true);
      assert.match(created.diff!, /^\+export const key = '\[REDACTED\]';$/m);
      assert.doesNotMatch(created.diff!, new RegExp(SECRET));
      assert.deepEqual(readdirSync(root), ['app.ts']);
      assert.equal(readFileSync(join(root, 'app.ts'), 'utf8'), 'const a = 1;\nconst b = 2;\nconst b2 = 2;\n');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  test('an edit that would fail says so: no match, several matches, a stale hashline tag, outside the workspace', async () => {
    const { root, env } = workspace();
    try {
      const missing = await previewChange(editFileTool, { path: 'app.ts', old_text: 'const z = 9;', new_text: 'x' }, env);
      assert.equal(missing.diff, undefined);
      assert.match(missing.error!, /app\.ts/);
      const several = await previewChange(editFileTool, { path: 'app.ts', old_text: ' = 2;', new_text: ' = 3;' }, env);
      assert.match(several.error!, /occurs 2 times in app\.ts/);
      const stale = await previewChange(hashlineEditTool, { patch: '[app.ts#zzzzzz]\nreplace 1\n|const a = 5;\n' }, env);
      assert.ok(stale.error, 'a tag the model was never shown cannot apply');
      assert.doesNotMatch(stale.error!, /cove-preview-/, 'the scratch folder never shows');
      const outside = await previewChange(writeFileTool, { path: '../escape.txt', content: 'x' }, env);
      assert.match(outside.error!, /outside the workspace/);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  test('the prompter adds a preview to file edits only', async () => {
    const { root, env } = workspace();
    try {
      const seen: PromptRequest[] = [];
      const prompter = previewingPrompter(
        async (request) => (seen.push(request), { decision: 'deny' }),
        () => [writeFileTool],
        { ...env, secrets: () => NO_SECRETS },
      );
      const base = { toolCallId: 't1', sensitivity: 'mutating' as const, reasons: [], suggestedRule: null };
      await prompter({ ...base, toolName: 'write_file', args: { path: 'n.txt', content: 'hello\n' } }, new AbortController().signal);
      await prompter({ ...base, toolName: 'bash', args: { command: 'ls' } }, new AbortController().signal);
      assert.match(seen[0]!.preview!.diff!, /^\+hello$/m);
      assert.equal(seen[1]!.preview, undefined);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
