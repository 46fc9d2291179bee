/**
 * A tool the product does not ship, declared the way a new built-in would be: one defineTool call
 * and nothing else. Its path argument is called `file` (no built-in's is), so only the
 * declaration can tell the permission engine which path a call touches.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { ToolError } from '../../electron/core/agent/types';
import { defineTool } from '../../electron/core/tools/define-tool';
import { resolveInWorkspace } from '../../electron/core/tools/sandbox';

export const wordCountTool = defineTool({
  name: 'count_words',
  label: 'Count words',
  description: 'Counts the words of a file in the workspace.',
  schema: z.strictObject({
    file: z.string().min(1).describe('The file to count, relative to the workspace root.'),
    unique: z.boolean().optional().describe('Count each word once.'),
  }),
  sensitivity: 'mutating',
  kind: 'read',
  permission: { paths: (args) => [args.file] },
  summary: (args) => `${args.file}${args.unique ? ' (unique words)' : ''}`,
  async execute(args, ctx) {
    const target = resolveInWorkspace(args.file, ctx.workspaceRoots);
    if (!target.exists) throw ToolError.notFound(`${args.file} does not exist`);
    const words = readFileSync(target.absolute, 'utf8').split(/\s+/).filter(Boolean);
    const count = args.unique ? new Set(words).size : words.length;
    return { content: [{ type: 'text', text: `${args.file}: ${count} words` }], details: { count } };
  },
});
