import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { loadPermissionSettings, PermissionSettingsError, saveAlwaysRule } from '../../electron/core/permissions';

function world(t: { after(fn: () => void): void }) {
  const base = mkdtempSync(join(tmpdir(), 'cove-settings-'));
  t.after(() => rmSync(base, { recursive: true, force: true }));
  const coveHome = join(base, 'cove-home');
  const root = join(base, 'workspace');
  const second = join(base, 'second');
  mkdirSync(root);
  mkdirSync(second);
  const write = (path: string, content: unknown) => {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  };
  return { base, coveHome, root, second, write };
}

const rejects = (run: () => unknown, ...fragments: string[]) =>
  assert.throws(run, (error: unknown) => error instanceof PermissionSettingsError && fragments.every((fragment) => error.message.includes(fragment)));

describe('loading permission settings', () => {
  test('merges user, project, local and Claude files of every root, in order', (t) => {
    const { coveHome, root, second, write } = world(t);
    write(join(coveHome, 'settings.json'), { permissions: { allow: ['bash(git status)'], deny: ['bash(rm:*)'] }, defaultMode: 'plan' });
    write(join(root, '.cove', 'settings.json'), { permissions: { allow: ['bash(npm test)'], ask: ['bash(git push:*)'] }, defaultMode: 'acceptEdits', model: 'x' });
    write(join(root, '.cove', 'settings.local.json'), { permissions: { allow: ['edit_file(src/**)'] } });
    write(join(root, '.claude', 'settings.json'), { permissions: { allow: ['Bash(npm run test:*)', 'Grep'], deny: ['Read(./.env)'] }, env: {} });
    write(join(second, '.cove', 'settings.json'), { permissions: { deny: ['write_file'] } });

    const loaded = loadPermissionSettings({ workspaceRoots: [root, second], coveHome });
    assert.deepEqual(
      loaded.sources.map((source) => [source.kind, source.path]),
      [
        ['user', join(coveHome, 'settings.json')],
        ['claude', join(root, '.claude', 'settings.json')],
        ['project', join(root, '.cove', 'settings.json')],
        ['local', join(root, '.cove', 'settings.local.json')],
        ['project', join(second, '.cove', 'settings.json')],
      ],
    );
    const merged = (list: 'allow' | 'ask' | 'deny') => loaded.sources.flatMap((source) => source.rules[list]);
    assert.deepEqual(merged('allow'), ['bash(git status)', 'bash(npm run test:*)', 'search', 'bash(npm test)', 'edit_file(src/**)']);
    assert.deepEqual(merged('ask'), ['bash(git push:*)']);
    assert.deepEqual(merged('deny'), ['bash(rm:*)', 'read_file(./.env)', 'list_files(./.env)', 'search(./.env)', 'write_file']);
    assert.equal(loaded.defaultMode, 'acceptEdits');
    assert.deepEqual(loaded.warnings, []);
  });

  test('no files at all is an empty, valid configuration', (t) => {
    const { coveHome, root } = world(t);
    assert.deepEqual(loadPermissionSettings({ workspaceRoots: [root], coveHome }), { sources: [], warnings: [], defaultMode: undefined });
  });

  test('the local file sets the default mode over the project and user files', (t) => {
    const { coveHome, root, write } = world(t);
    write(join(coveHome, 'settings.json'), { defaultMode: 'bypass' });
    write(join(root, '.cove', 'settings.local.json'), { defaultMode: 'plan' });
    write(join(root, '.cove', 'settings.json'), { defaultMode: 'acceptEdits' });
    assert.equal(loadPermissionSettings({ workspaceRoots: [root], coveHome }).defaultMode, 'plan');
  });

  test('reads defaultMode where Claude Code keeps it, and warns about keys it does not know', (t) => {
    const { coveHome, root, write } = world(t);
    const path = join(root, '.cove', 'settings.json');
    write(path, { permissions: { defaultMode: 'plan', alow: ['bash(ls)'] } });
    const loaded = loadPermissionSettings({ workspaceRoots: [root], coveHome });
    assert.equal(loaded.defaultMode, 'plan');
    assert.deepEqual(loaded.warnings, [`${path}: permissions.alow is not a setting Cove knows (allow, ask, deny, defaultMode); it is ignored`]);
  });

  test('maps Claude Code names, skips its tools Cove lacks with a warning, ignores its mode', (t) => {
    const { coveHome, root, write } = world(t);
    const claude = join(root, '.claude', 'settings.json');
    write(claude, {
      permissions: {
        allow: ['Bash(npm run test:*)', 'Read(src/**)', 'Edit(docs/**)', 'Write(out/*)', 'Glob', 'mcp__github', 'WebFetch(domain:example.com)', 'WebSearch'],
        defaultMode: 'bypassPermissions',
      },
    });
    const loaded = loadPermissionSettings({ workspaceRoots: [root], coveHome });
    assert.deepEqual(loaded.sources[0]!.rules.allow, [
      'bash(npm run test:*)',
      'read_file(src/**)',
      'list_files(src/**)',
      'search(src/**)',
      'edit_file(docs/**)',
      'hashline_edit(docs/**)',
      'write_file(docs/**)',
      'write_file(out/*)',
      'list_files',
      'mcp__github',
      'web_fetch(domain:example.com)',
    ]);
    assert.deepEqual(loaded.warnings, [`${claude}: skipped permissions.allow[7] 'WebSearch': Cove has no WebSearch tool`]);
    assert.equal(loaded.defaultMode, undefined);
  });

  test('a malformed file is an error naming it and the parse problem', (t) => {
    const { coveHome, root, write } = world(t);
    const path = join(root, '.cove', 'settings.json');
    write(path, '{"permissions": {"allow": ["bash(ls)",]}}');
    rejects(() => loadPermissionSettings({ workspaceRoots: [root], coveHome }), path, 'is not valid JSON');
    write(path, '');
    rejects(() => loadPermissionSettings({ workspaceRoots: [root], coveHome }), path, 'is not valid JSON');
    write(path, '[]');
    rejects(() => loadPermissionSettings({ workspaceRoots: [root], coveHome }), path, 'must hold a JSON object');
  });

  test('wrong shapes are errors naming the file and the field', (t) => {
    const { coveHome, root, write } = world(t);
    const path = join(root, '.cove', 'settings.local.json');
    const cases: Array<[unknown, string]> = [
      [{ permissions: [] }, 'permissions must be an object'],
      [{ permissions: { allow: 'bash(ls)' } }, 'permissions.allow must be a list'],
      [{ permissions: { deny: ['bash(rm:*)', 7] } }, 'permissions.deny[1] must be a string'],
      [{ defaultMode: 'yolo' }, 'defaultMode must be one of default, acceptEdits, plan, bypass (got "yolo")'],
    ];
    for (const [content, fragment] of cases) {
      write(path, content);
      rejects(() => loadPermissionSettings({ workspaceRoots: [root], coveHome }), path, fragment);
    }
  });

  test('an invalid rule is an error naming the file and the rule', (t) => {
    const { coveHome, root, write } = world(t);
    const user = join(coveHome, 'settings.json');
    write(user, { permissions: { ask: ['bash(git push'] } });
    rejects(() => loadPermissionSettings({ workspaceRoots: [root], coveHome }), user, 'permissions.ask[0]', "'bash(git push'", 'unbalanced');
    write(user, { permissions: { deny: ['bash(rm:*)', 'Bash(rm:*)'] } });
    rejects(() => loadPermissionSettings({ workspaceRoots: [root], coveHome }), user, 'permissions.deny[1]', "unknown tool 'Bash'");
    rmSync(user);
    const claude = join(root, '.claude', 'settings.json');
    write(claude, { permissions: { deny: ['Bash(rm -rf'] } });
    rejects(() => loadPermissionSettings({ workspaceRoots: [root], coveHome }), claude, "'Bash(rm -rf'");
  });

  test('an unreadable file is an error, not an empty one', (t) => {
    if (process.getuid?.() === 0) return t.skip('root reads every file');
    const { coveHome, root, write } = world(t);
    const path = join(root, '.cove', 'settings.json');
    write(path, { permissions: { deny: ['bash'] } });
    chmodSync(path, 0o000);
    rejects(() => loadPermissionSettings({ workspaceRoots: [root], coveHome }), path, 'cannot be read');
  });
});

describe('saving an always rule', () => {
  test('creates .cove/settings.local.json when there is none', (t) => {
    const { root } = world(t);
    const path = saveAlwaysRule(root, 'bash(npm test)');
    assert.equal(path, join(root, '.cove', 'settings.local.json'));
    assert.deepEqual(JSON.parse(readFileSync(path, 'utf8')), { permissions: { allow: ['bash(npm test)'] } });
  });

  test('adds to allow once, keeping every other key, and leaves no temporary file', (t) => {
    const { root, write } = world(t);
    const path = join(root, '.cove', 'settings.local.json');
    write(path, { defaultMode: 'acceptEdits', permissions: { allow: ['bash(ls:*)'], deny: ['bash(rm:*)'], additionalDirectories: ['x'] }, theme: 'dark' });
    saveAlwaysRule(root, 'edit_file(src/app.ts)');
    saveAlwaysRule(root, 'edit_file(src/app.ts)');
    assert.deepEqual(JSON.parse(readFileSync(path, 'utf8')), {
      defaultMode: 'acceptEdits',
      permissions: { allow: ['bash(ls:*)', 'edit_file(src/app.ts)'], deny: ['bash(rm:*)'], additionalDirectories: ['x'] },
      theme: 'dark',
    });
    assert.deepEqual(readdirSync(dirname(path)), ['settings.local.json']);
  });

  test('refuses to overwrite a malformed file, and refuses an invalid rule', (t) => {
    const { root, write } = world(t);
    const path = join(root, '.cove', 'settings.local.json');
    write(path, '{ not json');
    rejects(() => saveAlwaysRule(root, 'bash(ls)'), path, 'is not valid JSON');
    assert.equal(readFileSync(path, 'utf8'), '{ not json');
    rmSync(path);
    assert.throws(() => saveAlwaysRule(root, 'bash(ls'), /unbalanced/);
    assert.equal(existsSync(path), false);
  });

  test('the saved rule is loaded back as a local rule', (t) => {
    const { coveHome, root } = world(t);
    saveAlwaysRule(root, 'bash(npm run build)');
    const [source] = loadPermissionSettings({ workspaceRoots: [root], coveHome }).sources;
    assert.deepEqual([source!.kind, source!.rules.allow], ['local', ['bash(npm run build)']]);
  });
});
