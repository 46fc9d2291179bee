import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { readSettingsObject, SettingsFileError } from '../../electron/core/settings/settings-files';
import { readWorkspaceSettings, sessionDefaults } from '../../electron/core/settings/workspace-settings';
import { DEFAULT_MODEL } from '../../electron/core/agent/pricing';

function world(t: { after(fn: () => void): void }) {
  const base = mkdtempSync(join(tmpdir(), 'cove-settings-module-'));
  t.after(() => rmSync(base, { recursive: true, force: true }));
  const coveHome = join(base, 'home');
  const root = join(base, 'workspace');
  mkdirSync(root);
  const write = (path: string, content: unknown) => {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  };
  const files = {
    user: join(coveHome, 'settings.json'),
    claude: join(root, '.claude', 'settings.json'),
    project: join(root, '.cove', 'settings.json'),
    local: join(root, '.cove', 'settings.local.json'),
  };
  const read = () => readWorkspaceSettings({ coveHome, workspaceRoots: [root] });
  return { coveHome, root, write, files, read };
}

const names =
  (path: string, ...fragments: string[]) =>
  (error: unknown) =>
    error instanceof SettingsFileError && error.message.startsWith(`${path}: `) && fragments.every((fragment) => error.message.includes(fragment));

describe('the settings module', () => {
  test('parses a file once per change and sees every change', (t) => {
    const { files, write } = world(t);
    write(files.user, { model: 'claude-a' });
    const first = readSettingsObject(files.user);
    assert.equal(readSettingsObject(files.user), first, 'an unchanged file is not parsed again');
    write(files.user, { model: 'claude-b' });
    assert.deepEqual(readSettingsObject(files.user), { model: 'claude-b' });
    rmSync(files.user);
    assert.equal(readSettingsObject(files.user), undefined);
  });

  test('every view comes from the same files, in SPEC order', (t) => {
    const { files, write, read } = world(t);
    write(files.user, { model: 'claude-user', defaultMode: 'plan', subagents: { maxConcurrent: 2 }, secrets: { files: ['*.secret'] }, sandbox: { network: 'all' } });
    write(files.claude, { model: 'claude-from-claude', permissions: { allow: ['Bash(npm test)'] }, hooks: { Stop: [{ hooks: [{ type: 'command', command: 'true' }] }] } });
    write(files.project, {
      model: 'claude-project',
      defaultMode: 'acceptEdits',
      permissions: { deny: ['bash(rm:*)'] },
      secrets: { files: ['config/*.yml', '*.secret'] },
      subagents: { maxConcurrent: 32 },
    });
    write(files.local, { permissions: { allow: ['read_file'] }, sandbox: { network: 'none' } });
    const settings = read();
    assert.equal(settings.model(), 'claude-project', "the most specific Cove file wins; Claude Code model names are Claude Code's");
    assert.equal(settings.defaultMode(), 'acceptEdits');
    assert.equal(settings.maxSubagents(), 2, 'a project does not raise how many subagents run at once');
    assert.deepEqual(settings.secretFiles(), ['*.secret', 'config/*.yml']);
    assert.deepEqual(
      settings.permissions().sources.map((source) => [source.kind, source.rules]),
      [
        ['user', { allow: [], ask: [], deny: [] }],
        ['claude', { allow: ['bash(npm test)'], ask: [], deny: [] }],
        ['project', { allow: [], ask: [], deny: ['bash(rm:*)'] }],
        ['local', { allow: ['read_file'], ask: [], deny: [] }],
      ],
    );
    assert.deepEqual(settings.sandbox(), { enabled: true, network: 'none', writable: [] });
    assert.deepEqual(
      settings.hooks().map((hook) => [hook.event, hook.kind]),
      [['Stop', 'claude']],
    );
    assert.deepEqual(sessionDefaults(settings), { model: 'claude-project', permissionMode: 'acceptEdits' });
    assert.deepEqual(sessionDefaults(settings, { model: 'claude-flag', permissionMode: 'plan' }), { model: 'claude-flag', permissionMode: 'plan' });
  });

  test('with no files at all the defaults apply', (t) => {
    const { read } = world(t);
    const settings = read();
    assert.deepEqual(sessionDefaults(settings), { model: DEFAULT_MODEL, permissionMode: 'default' });
    assert.equal(settings.maxSubagents(), 4);
    assert.deepEqual(settings.secretFiles(), []);
  });

  test('a malformed file or field is an error naming the file and the field', (t) => {
    const { files, write, read } = world(t);
    write(files.project, '{"model": ');
    assert.throws(read, names(files.project, 'is not valid JSON'));
    const cases: Array<[string, unknown, (settings: ReturnType<typeof read>) => unknown, string]> = [
      [files.project, { model: 7 }, (s) => s.model(), 'model must be a model id'],
      [files.local, { secrets: { files: 'x' } }, (s) => s.secretFiles(), 'secrets.files must be a list of globs'],
      [files.local, { secrets: { files: [''] } }, (s) => s.secretFiles(), 'secrets.files[0] must be a non-empty glob'],
      [files.project, { secrets: { globs: [] } }, (s) => s.secretFiles(), 'secrets.globs is not a secrets setting'],
      [files.user, { subagents: { maxConcurrent: 0 } }, (s) => s.maxSubagents(), 'subagents.maxConcurrent must be a whole number from 1 to 32'],
      [files.project, { defaultMode: 'yolo' }, (s) => s.defaultMode(), 'defaultMode must be one of'],
      [files.project, { sandbox: { enabled: 'no' } }, (s) => s.sandbox(), 'sandbox.enabled must be true or false'],
      [files.claude, { hooks: { Stop: 'x' } }, (s) => s.hooks(), 'hooks.Stop must be a list'],
    ];
    for (const [path, content, view, fragment] of cases) {
      rmSync(join(dirname(files.project)), { recursive: true, force: true });
      rmSync(dirname(files.claude), { recursive: true, force: true });
      rmSync(files.user, { force: true });
      write(path, content);
      assert.throws(() => view(read()), names(path, fragment), `${JSON.stringify(content)} in ${path}`);
    }
  });

  test('a misspelt key, or a key only the person may set, is named as ignored', (t) => {
    const { files, write, read } = world(t);
    write(files.user, { sandbox: {}, sandboxx: { enabled: false }, enabledMcpjsonServers: ['docs'] });
    write(files.project, { enableAllProjectMcpServers: true, subagents: { maxConcurrent: 32 }, model: 'claude-a' });
    write(files.claude, { includeCoAuthoredBy: false });
    assert.deepEqual(read().warnings(), [
      `${files.user}: sandboxx is not a Cove setting (permissions, defaultMode, model, sandbox, hooks, secrets, checkpoints, subagents, enabledMcpjsonServers, enableAllProjectMcpServers, windowsShell, $schema); it is ignored`,
      `${files.project}: enableAllProjectMcpServers is read only from your own settings.json in COVE_HOME, since a workspace's settings come with the project; it is ignored here`,
      `${files.project}: subagents is read only from your own settings.json in COVE_HOME, since a workspace's settings come with the project; it is ignored here`,
    ]);
  });

  test('a workspace may not turn every ask off, but the person may', (t) => {
    const { files, write, read } = world(t);
    // Claude Code keeps defaultMode inside permissions, and Cove reads it there too.
    for (const [path, content] of [
      [files.project, { defaultMode: 'bypass' }],
      [files.local, { defaultMode: 'bypass' }],
      [files.project, { permissions: { defaultMode: 'bypass' } }],
    ] as const) {
      rmSync(dirname(files.project), { recursive: true, force: true });
      write(path, content);
      assert.throws(() => read().defaultMode(), names(path, 'defaultMode "bypass"', 'your own settings.json'));
    }
    rmSync(dirname(files.project), { recursive: true, force: true });
    write(files.claude, { permissions: { defaultMode: 'bypassPermissions' } });
    assert.equal(read().defaultMode(), 'default', "Claude Code's mode is not carried over");
    rmSync(dirname(files.project), { recursive: true, force: true });
    write(files.user, { defaultMode: 'bypass' });
    assert.equal(read().defaultMode(), 'bypass');
    write(files.project, { defaultMode: 'plan' });
    assert.equal(read().defaultMode(), 'plan', 'a workspace may still tighten the mode');
  });
});
