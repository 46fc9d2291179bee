/**
 * One composition root (issue 12): the session manager, the permission gate and the MCP hubs
 * are wired in electron/core/engine/ alone, and settings files are opened by the settings
 * module alone, so no host can drift into deciding differently. Checked on the source, since a
 * second wiring would work and pass every other test until the two disagree.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../..');

function sources(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

const files = sources(join(root, 'electron')).map((path) => ({ path: relative(root, path).split('\\').join('/'), text: readFileSync(path, 'utf8') }));

function where(pattern: RegExp): string[] {
  return files.filter((file) => pattern.test(file.text)).map((file) => file.path);
}

test('the session manager, the permission gate and the MCP hubs are wired only by createEngine', () => {
  assert.deepEqual(where(/new SessionManager\(/), ['electron/core/engine/engine.ts']);
  assert.deepEqual(where(/new McpRegistry\(/), ['electron/core/engine/engine.ts']);
  assert.deepEqual(where(/\bcreateSessionGate\(\{/), ['electron/core/engine/engine.ts']);
});

test('the hosts build on createEngine', () => {
  assert.deepEqual(where(/\bcreateEngine\(\{/).sort(), ['electron/cli/run-command.ts', 'electron/core/api/host.ts']);
});

test('settings files are read by the settings module alone', () => {
  // A file that reads files and names a settings file in its code (comments aside) is a second
  // parser, with its own rules and errors.
  const withoutComments = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:])\/\/.*$/gm, '$1');
  const readers = files
    .filter((file) => {
      const code = withoutComments(file.text);
      return /\breadFileSync\b|\breadFile\b/.test(code) && /settings(\.local)?\.json|SETTINGS_FILE|settingsPath|settingsFile/.test(code);
    })
    .map((file) => file.path);
  assert.deepEqual(readers, ['electron/core/settings/settings-files.ts']);
});
