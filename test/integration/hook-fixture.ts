/**
 * Hooks for integration tests: small Node scripts written into a folder, run by `cove run`
 * through its real settings files, each recording what it was given so a test can check the
 * JSON a hook received and what it did on disk.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CoveEvent, HookRunEvent } from '../../shared/events';

/** A hook command that runs `body` (JavaScript, with `input` holding the parsed stdin) under node. */
export function nodeHook(folder: string, name: string, body: string): string {
  mkdirSync(folder, { recursive: true });
  const path = join(folder, `${name}.mjs`);
  writeFileSync(
    path,
    `import { writeFileSync } from 'node:fs';\nlet raw = '';\nfor await (const chunk of process.stdin) raw += chunk;\nconst input = JSON.parse(raw);\nwriteFileSync(${JSON.stringify(join(folder, `${name}.stdin.json`))}, raw);\n${body}\n`,
  );
  return `'${process.execPath}' '${path}'`;
}

/** What the hook named `name` was given on stdin, once it ran. */
export function hookInput(folder: string, name: string): Record<string, unknown> {
  return JSON.parse(readFileSync(join(folder, `${name}.stdin.json`), 'utf8')) as Record<string, unknown>;
}

export function writeHooks(
  file: string,
  hooks: Record<string, Array<{ matcher?: string; hooks: Array<{ type: string; command: string; timeout?: number }> }>>,
  extra: Record<string, unknown> = {},
): void {
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, JSON.stringify({ ...extra, hooks }));
}

export function hookRuns(events: CoveEvent[]): HookRunEvent[] {
  return events.filter((event): event is HookRunEvent => event.type === 'hookRun');
}
