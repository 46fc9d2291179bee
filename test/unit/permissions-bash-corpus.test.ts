/**
 * The bash corpus (test/fixtures/permissions/bash-corpus.ts) against the real engine and real
 * bash: every command is decided with a careful user's rules in default, acceptEdits and bypass;
 * every command the engine lets run is run with bash in a fresh copy of a small world (a git
 * workspace, an outside folder with a canary, a home folder), and the side effects are read back
 * from disk. A hostile command must not be allowed in the modes its class forbids, and nothing
 * allowed may remove the victim, change a protected file or push; legitimate commands must be
 * allowed (at most 5% asked about) and do their work.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PermissionEngine, type PermissionMode } from '../../electron/core/permissions';
import { loadShellParser } from '../../electron/core/permissions/shell-parser';
import { BLOCKED_MODES, CAREFUL_RULES, HOSTILE, LEGITIMATE, type HostileEntry } from '../fixtures/permissions/bash-corpus';

const MODES: PermissionMode[] = ['default', 'acceptEdits', 'bypass'];
const CANARY = 'CANARY-OUTSIDE-7f3a9c';
const PROTECTED = ['.git/config', '.cove/settings.local.json', '.npmrc', '.envrc', '.mcp.json', '.claude', '.gitmodules', '.git/hooks'];

function git(cwd: string, ...args: string[]): void {
  const result = spawnSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' } });
  if (result.status !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr}`);
}

/** The world every run starts from; copied per run so runs cannot meet. */
function makeTemplate(): string {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'cove-bash-corpus-')));
  const template = join(base, 'template');
  const root = join(template, 'workspace');
  const outside = join(template, 'outside');
  const home = join(template, 'home');
  for (const dir of [root, outside, home, join(root, 'src'), join(root, '.cove')]) mkdirSync(dir, { recursive: true });
  writeFileSync(join(root, 'victim.txt'), 'keep me\n');
  writeFileSync(join(root, 'notes.md'), '# notes\n');
  writeFileSync(join(root, 'README.md'), '# demo\n');
  writeFileSync(join(root, 'src', 'app.ts'), 'export const app = 1;\n');
  writeFileSync(join(root, 'src', 'list.txt'), 'b\na\nc\n');
  writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'demo', scripts: { test: 'node -e "process.exit(0)"', 'test:unit': 'node -e "process.exit(0)"' } }, null, 2) + '\n');
  writeFileSync(join(root, 'Makefile'), 'all:\n\t@echo built\n');
  writeFileSync(join(root, '.cove', 'settings.local.json'), '{}\n');
  writeFileSync(join(root, '.npmrc'), '\n');
  writeFileSync(join(root, '.envrc'), '\n');
  writeFileSync(join(outside, 'canary.txt'), `${CANARY}\n`);
  writeFileSync(join(home, '.bashrc'), '# rc\n');
  symlinkSync('../outside', join(root, 'outside-link'));
  git(outside, 'init', '-q', '--bare', 'remote.git');
  git(root, 'init', '-q', '-b', 'main');
  git(root, 'config', 'user.email', 'corpus@example.com');
  git(root, 'config', 'user.name', 'corpus');
  git(root, 'config', 'alias.st', '!touch pwned');
  git(root, 'remote', 'add', 'origin', '../outside/remote.git');
  git(root, 'add', 'src', 'notes.md', 'README.md', 'package.json', 'victim.txt');
  git(root, 'commit', '-q', '-m', 'initial');
  return base;
}

/** What must hold on disk after any allowed run, in any mode. */
function snapshot(world: string) {
  const root = join(world, 'workspace');
  const read = (path: string) => {
    if (!existsSync(path)) return null;
    try {
      return readFileSync(path, 'utf8');
    } catch {
      return readdirSync(path).sort().join(',');
    }
  };
  return {
    victim: read(join(root, 'victim.txt')),
    protected: Object.fromEntries([...PROTECTED.map((name) => [name, read(join(root, name))]), ['~/.bashrc', read(join(world, 'home', '.bashrc'))]]),
    pushed: readdirSync(join(world, 'outside', 'remote.git', 'refs', 'heads')).length + (existsSync(join(world, 'outside', 'remote.git', 'packed-refs')) ? 1 : 0),
  };
}

/** What a command of a blocked class must not have done. */
function hiddenEffects(world: string, output: string): string[] {
  const effects: string[] = [];
  for (const folder of ['workspace', 'outside', 'home']) if (existsSync(join(world, folder, 'pwned'))) effects.push(`${folder}/pwned was created`);
  if (readFileSync(join(world, 'workspace', 'notes.md'), 'utf8') !== '# notes\n') effects.push('notes.md was changed');
  if (output.includes(CANARY)) effects.push('the outside canary was printed');
  return effects;
}

function run(world: string, command: string): { status: number | null; output: string } {
  const script = join(world, 'command.sh');
  writeFileSync(script, command);
  const result = spawnSync('bash', [script], {
    cwd: join(world, 'workspace'),
    encoding: 'utf8',
    timeout: 10_000,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { PATH: process.env.PATH, HOME: join(world, 'home'), GIT_CONFIG_NOSYSTEM: '1', LANG: 'C.UTF-8' },
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

describe('bash corpus on disk', () => {
  let base: string;
  let runs = 0;
  const fresh = () => {
    const world = join(base, `run-${++runs}`);
    cpSync(join(base, 'template'), world, { recursive: true, verbatimSymlinks: true });
    return world;
  };
  const template = () => join(base, 'template');
  const engineFor = (mode: PermissionMode, world: string, allow: string[]) =>
    new PermissionEngine({
      mode,
      workspaceRoots: [join(world, 'workspace')],
      extraRules: { allow: [...CAREFUL_RULES.allow, ...allow], deny: CAREFUL_RULES.deny },
      home: join(world, 'home'),
    });
  const decide = (engine: PermissionEngine, command: string) => engine.decide({ sessionId: 's', toolCallId: 'c', toolName: 'bash', args: { command }, sensitivity: 'mutating' });

  before(async () => {
    base = makeTemplate();
    await loadShellParser();
  });
  after(() => rmSync(base, { recursive: true, force: true }));

  test('holds at least 400 hostile and 60 legitimate commands, covering every class', () => {
    assert.ok(HOSTILE.length >= 400, `only ${HOSTILE.length} hostile commands`);
    assert.ok(LEGITIMATE.length >= 60, `only ${LEGITIMATE.length} legitimate commands`);
    for (const klass of Object.keys(BLOCKED_MODES))
      assert.ok(
        HOSTILE.some((entry) => entry.class === klass),
        `no ${klass} entries`,
      );
    assert.ok(HOSTILE.every((entry) => entry.source.length > 0));
  });

  const check = (entry: HostileEntry) => {
    const failures: string[] = [];
    for (const mode of MODES) {
      // Decided against the template (copies are identical); copied only for a run.
      const decision = decide(engineFor(mode, template(), entry.allow), entry.command);
      const blocked = BLOCKED_MODES[entry.class].includes(mode);
      if (decision.outcome === 'ask') {
        for (const reason of decision.reasons) if (!/^[^\n]{8,}$/.test(reason)) failures.push(`${mode}: unreadable reason ${JSON.stringify(reason)}`);
        if (decision.suggestedRule !== null && /[\x00-\x1f\x7f]/.test(decision.suggestedRule)) failures.push(`${mode}: the suggested rule holds a control character`);
      }
      if (decision.outcome !== 'allow') continue;
      if (blocked) failures.push(`${mode}: allowed (${decision.reason})`);
      const world = fresh();
      const before = snapshot(world);
      const { output } = run(world, entry.command);
      const after = snapshot(world);
      if (after.victim !== before.victim) failures.push(`${mode}: victim.txt was removed or changed`);
      for (const [name, content] of Object.entries(before.protected)) if (after.protected[name] !== content) failures.push(`${mode}: protected ${name} was changed`);
      if (after.pushed !== before.pushed) failures.push(`${mode}: git pushed to the remote`);
      if (blocked) for (const effect of hiddenEffects(world, output)) failures.push(`${mode}: ${effect}`);
      rmSync(world, { recursive: true, force: true });
    }
    return failures;
  };

  for (const klass of Object.keys(BLOCKED_MODES) as Array<keyof typeof BLOCKED_MODES>) {
    test(`hostile: ${klass} (${HOSTILE.filter((entry) => entry.class === klass).length} commands) never runs where it must not`, () => {
      const failures = HOSTILE.filter((entry) => entry.class === klass).flatMap((entry) => check(entry).map((failure) => `${JSON.stringify(entry.command.slice(0, 120))} ${failure}`));
      assert.deepEqual(failures, []);
    });
  }

  test('legitimate commands run without asking (at most 5% asked) and do their work', () => {
    const asked: string[] = [];
    const broken: string[] = [];
    for (const entry of LEGITIMATE) {
      const decision = decide(engineFor(entry.mode, template(), entry.allow), entry.command);
      if (decision.outcome !== 'allow') {
        asked.push(`${entry.command}: ${decision.outcome === 'ask' ? decision.reasons.join('; ') : decision.reason}`);
        continue;
      }
      const world = fresh();
      const before = snapshot(world);
      const { status, output } = run(world, entry.command);
      if (status !== 0) broken.push(`${entry.command}: exit ${status}: ${output.slice(0, 200)}`);
      if (entry.probe && 'output' in entry.probe && !entry.probe.output.test(output))
        broken.push(`${entry.command}: output ${JSON.stringify(output.slice(0, 200))} lacks ${entry.probe.output}`);
      if (entry.probe && 'file' in entry.probe && !existsSync(join(world, 'workspace', entry.probe.file))) broken.push(`${entry.command}: ${entry.probe.file} was not written`);
      assert.deepEqual(snapshot(world), before, `${entry.command} changed the victim or a protected file`);
      rmSync(world, { recursive: true, force: true });
    }
    assert.deepEqual(broken, []);
    assert.ok(asked.length <= Math.floor(LEGITIMATE.length * 0.05), `${asked.length} of ${LEGITIMATE.length} asked:\n${asked.join('\n')}`);
  });
});
