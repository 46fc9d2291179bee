/**
 * The marks a bash prompt draws over its command (electron/core/permissions/command-marks.ts):
 * a table of hostile commands from the bypass corpus (test/fixtures/permissions/bash-corpus.ts)
 * with the span and kind each must mark, then properties over the whole corpus: every mark lies
 * on the text it names, every write class marks a write, every escape the engine finds is
 * marked, text the parser refuses has no marks.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CommandMark, CommandMarkKind } from '../../shared/events';
import { commandMarks, markingPrompter, type MarkContext } from '../../electron/core/permissions/command-marks';
import { analyzeCommand } from '../../electron/core/permissions/shell-analysis';
import { loadShellParser } from '../../electron/core/permissions/shell-parser';
import { escapeReasons } from '../../electron/core/permissions/shell-paths';
import type { PromptRequest } from '../../electron/core/sessions/permission-prompts';
import { HOSTILE, LEGITIMATE } from '../fixtures/permissions/bash-corpus';

let base: string;
let context: MarkContext;

before(async () => {
  await loadShellParser();
  base = realpathSync(mkdtempSync(join(tmpdir(), 'cove-marks-')));
  const root = join(base, 'workspace');
  for (const folder of [join(root, 'src'), join(base, 'outside'), join(base, 'home')]) mkdirSync(folder, { recursive: true });
  writeFileSync(join(root, 'victim.txt'), 'keep me\n');
  writeFileSync(join(base, 'outside', 'canary.txt'), 'CANARY\n');
  symlinkSync('../outside', join(root, 'outside-link'));
  context = { roots: [root], home: join(base, 'home') };
});
after(() => rmSync(base, { recursive: true, force: true }));

/** [command, kind, the marked text, and when several marks share a text, which one: its note]. */
const TABLE: Array<[string, CommandMarkKind, string, RegExp?]> = [
  ['rm victim.txt', 'deletes', 'victim.txt', /rm/],
  ['rm -rfv victim.txt', 'deletes', 'victim.txt'],
  ['sudo -u root rm victim.txt', 'deletes', 'victim.txt'],
  ['sudo -u root rm victim.txt', 'outside', 'sudo', /another user/],
  // A valued option clustered after flags still takes the next word: the command is rm, not root.
  ['sudo -Eu root rm victim.txt', 'deletes', 'victim.txt'],
  ['strace -fo /dev/null rm victim.txt', 'deletes', 'victim.txt'],
  ['timeout -s KILL 5 rm victim.txt', 'deletes', 'victim.txt'],
  ["bash -c 'rm victim.txt'", 'deletes', 'victim.txt'],
  ["bash -c 'rm victim.txt'", 'runs-code', 'bash', /-c/],
  ["script -qc 'rm victim.txt' /dev/null", 'deletes', 'victim.txt'],
  ['eval "rm victim.txt"', 'deletes', 'victim.txt'],
  ['eval "rm victim.txt"', 'runs-code', 'eval'],
  ['echo victim.txt | xargs rm', 'deletes', 'rm', /given/],
  ['echo victim.txt | xargs rm', 'runs-code', 'xargs'],
  ['find . -name notes.md -delete', 'deletes', '.', /finds/],
  ['ls $(rm victim.txt)', 'runs-code', '$(rm victim.txt)'],
  ['ls $(rm victim.txt)', 'deletes', 'victim.txt'],
  ['ls `rm victim.txt`', 'runs-code', '`rm victim.txt`'],
  ['cat <(rm victim.txt)', 'runs-code', '<(rm victim.txt)'],
  ['$(echo rm) victim.txt', 'runs-code', '$(echo rm)'],
  ['X=rm; $X victim.txt', 'runs-code', '$X', /built at run time/],
  ['echo rm victim.txt | sh', 'runs-code', 'sh', /pipes into a shell/],
  ['python3 -c \'import os; os.remove("victim.txt")\'', 'runs-code', 'python3', /-c/],
  ["GIT_PAGER='rm victim.txt' git log -1", 'runs-code', "GIT_PAGER='rm victim.txt'"],
  ["GIT_PAGER='rm victim.txt' git log -1", 'deletes', 'victim.txt'],
  ['LD_PRELOAD=./evil.so ls', 'runs-code', 'LD_PRELOAD=./evil.so'],
  ['git st', 'runs-code', 'st', /alias/],
  ['ls && git push origin HEAD', 'network', 'git push'],
  ['git -C . push origin HEAD', 'network', 'git -C . push'],
  ['git push --force origin HEAD', 'deletes', 'git push', /history/],
  ['git clean -fdx', 'deletes', 'git clean'],
  ['git reset --hard HEAD~1', 'deletes', 'git reset'],
  ['curl -s file://$PWD/../outside/canary.txt', 'network', 'curl'],
  ['curl -s -o pwned file://$PWD/../outside/canary.txt', 'writes', 'pwned'],
  // Flags clustered before an option that takes a file.
  ['curl -so pwned file://$PWD/../outside/canary.txt', 'writes', 'pwned'],
  ['wget -qO ../outside/pwned https://example.com', 'outside', '../outside/pwned'],
  ['wget -q -O pwned file:///etc/hostname', 'network', 'wget'],
  ['npm install left-pad', 'network', 'npm install'],
  ['python3 -m pip install requests', 'network', 'python3 -m pip install'],
  ['cat </dev/tcp/example.com/80', 'network', '/dev/tcp/example.com/80'],
  ['rsync -a src/app.ts host:backup/', 'network', 'host:backup/'],
  ['echo owned > pwned', 'writes', 'pwned', /redirection with >/],
  ['ls &>> pwned', 'writes', 'pwned'],
  ["echo x > 'pwned'", 'writes', "'pwned'"],
  ['sort --output=pwned src/list.txt', 'writes', 'pwned'],
  ['git diff --output=pwned', 'writes', 'pwned'],
  ['find . -fprint0 pwned', 'writes', 'pwned'],
  ["sed -n -i 's/a/b/' notes.md", 'writes', 'notes.md', /sed -i/],
  ["sed -n '1w pwned' src/app.ts", 'writes', 'sed', /may write/],
  ['cp src/app.ts pwned', 'writes', 'pwned'],
  ['dd if=src/app.ts of=pwned', 'writes', 'pwned'],
  ['tar -xf ../outside/evil.tar', 'writes', 'tar', /folder it runs in/],
  ['npm pkg set description=x', 'writes', 'npm', /package\.json/],
  ['echo x > .git/config', 'writes', '.git/config', /decides what runs next/],
  ["echo 'touch pwned' > run.sh && sh run.sh", 'runs-code', 'sh run.sh', /script/],
  ["echo 'touch pwned' > run.sh && chmod +x run.sh && ./run.sh", 'runs-code', './run.sh'],
  ["printf 'all:\\n\\ttouch pwned\\n' > Makefile && make", 'runs-code', 'make'],
  ['npm pkg set scripts.test="touch pwned" && npm test', 'runs-code', 'npm test', /package\.json/],
  ['cat ../outside/canary.txt', 'outside', '../outside/canary.txt'],
  ['cat "$HOME"/../outside/canary.txt', 'outside', '"$HOME"/../outside/canary.txt'],
  ['cat outside-link/canary.txt', 'outside', 'outside-link/canary.txt', /symbolic link/],
  ['cd ../outside && cat canary.txt', 'outside', '../outside'],
  ['echo x > ~/pwned', 'outside', '~/pwned'],
  ['git diff --output=../outside/pwned', 'outside', '../outside/pwned'],
  ['env -C ../outside cat canary.txt', 'outside', '../outside'],
  ['cat /etc/hostname', 'outside', '/etc/hostname'],
  // Positions count UTF-16 units, as the renderer's strings do.
  ["echo 'é😀' > x; rm y", 'deletes', 'y'],
];

const marked = (command: string) => commandMarks(command, context);

describe('command marks', () => {
  test('each hostile command of the table is marked on the right span', () => {
    const failures: string[] = [];
    for (const [command, kind, text, note] of TABLE) {
      const marks = marked(command);
      const hit = marks.find((mark) => mark.kind === kind && mark.text === text && (!note || note.test(mark.note)));
      if (!hit) failures.push(`${JSON.stringify(command)}: no ${kind} mark on ${JSON.stringify(text)}; got ${describeMarks(marks)}`);
    }
    assert.deepEqual(failures, []);
  });

  test('a plain read marks nothing, and the corpus of everyday commands marks no deletes or network', () => {
    assert.deepEqual(marked('ls -la src'), []);
    assert.deepEqual(marked('grep -rn export src'), []);
    const loud = LEGITIMATE.flatMap((entry) =>
      marked(entry.command)
        .filter((mark) => mark.kind === 'deletes' || mark.kind === 'network')
        .map((mark) => `${entry.command}: ${mark.kind} ${mark.text}`),
    );
    assert.deepEqual(loud, []);
  });

  test('over the whole corpus every mark names the text it lies on, with a note', () => {
    for (const entry of [...HOSTILE, ...LEGITIMATE]) {
      for (const mark of marked(entry.command)) {
        assert.ok(mark.start >= 0 && mark.start < mark.end && mark.end <= entry.command.length, `${JSON.stringify(entry.command)}: ${JSON.stringify(mark)}`);
        assert.equal(entry.command.slice(mark.start, mark.end), mark.text);
        assert.ok(mark.note.trim().length > 0, `${JSON.stringify(entry.command)}: a mark without a note`);
      }
    }
  });

  test('every write, chain and protected-file command marks what it writes', () => {
    const unmarked = HOSTILE.filter((entry) => ['write', 'chain', 'protected'].includes(entry.class) && analyzeCommand(entry.command).parseError === null)
      .filter((entry) => !marked(entry.command).some((mark) => mark.kind === 'writes' || mark.kind === 'deletes'))
      .map((entry) => entry.command);
    assert.deepEqual(unmarked, []);
  });

  test('every path the escape tier finds outside the workspace is marked outside', () => {
    const unmarked: string[] = [];
    for (const entry of HOSTILE) {
      const analysis = analyzeCommand(entry.command);
      if (analysis.parseError !== null) continue;
      const escapes = escapeReasons(analysis.paths, context.roots, context.home, analysis.loops);
      if (escapes.length > 0 && !marked(entry.command).some((mark) => mark.kind === 'outside')) unmarked.push(entry.command);
    }
    assert.deepEqual(unmarked, []);
    assert.ok(HOSTILE.filter((entry) => entry.class === 'outside').every((entry) => marked(entry.command).some((mark) => mark.kind === 'outside')));
  });

  test('code run out of sight is marked for every chain and nearly every hidden command', () => {
    const chains = HOSTILE.filter((entry) => entry.class === 'chain');
    assert.ok(chains.every((entry) => marked(entry.command).some((mark) => mark.kind === 'runs-code')));
    const hidden = HOSTILE.filter((entry) => entry.class === 'hidden');
    const silent = hidden.filter((entry) => marked(entry.command).length === 0).map((entry) => entry.command);
    // `git grep -O'cmd'` (the option glued to its value) is not read by the analysis either; see the report.
    assert.deepEqual(silent, ["git grep -O'touch pwned' app"]);
  });

  test('text the parser refuses carries no marks: the prompt says why instead', () => {
    for (const entry of HOSTILE.filter((candidate) => candidate.class === 'bad-input')) {
      if (analyzeCommand(entry.command).parseError !== null) assert.deepEqual(marked(entry.command), [], JSON.stringify(entry.command));
    }
  });

  test('the prompter marks bash prompts over the redacted command and leaves other tools alone', async () => {
    const seen: PromptRequest[] = [];
    const prompter = markingPrompter(
      async (request) => {
        seen.push(request);
        return { decision: 'deny' };
      },
      { roots: context.roots, home: context.home, secrets: () => ({ redact: (text: string) => ({ text: text.replace('sk-secret-123', '[REDACTED]'), found: [] }) }) as never },
    );
    const base = { toolCallId: 't', sensitivity: 'mutating' as const, reasons: [], suggestedRule: null };
    const signal = new AbortController().signal;
    await prompter({ ...base, toolName: 'bash', args: { command: 'curl -H "x: sk-secret-123" https://example.com > out.txt' } }, signal);
    await prompter({ ...base, toolName: 'write_file', args: { path: 'a', content: 'rm x' } }, signal);
    const [bash, write] = seen;
    const command = (bash!.args as { command: string }).command;
    assert.equal(command, 'curl -H "x: [REDACTED]" https://example.com > out.txt');
    const out = bash!.marks!.find((mark) => mark.kind === 'writes')!;
    assert.equal(command.slice(out.start, out.end), 'out.txt');
    assert.ok(bash!.marks!.some((mark) => mark.kind === 'network' && mark.text === 'curl'));
    assert.equal(write!.marks, undefined);
  });
});

function describeMarks(marks: readonly CommandMark[]): string {
  return marks.length === 0 ? 'none' : marks.map((mark) => `${mark.kind}[${mark.text}]`).join(' ');
}
