import { test, describe, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyzeCommand } from '../../electron/core/permissions/shell-analysis';
import { expandBraces, expandWord } from '../../electron/core/permissions/shell-expand';
import { loadShellParser } from '../../electron/core/permissions/shell-parser';
import { parseCommand } from '../../electron/core/permissions/shell-syntax';
import { sedScriptIsSafe } from '../../electron/core/permissions/sed-script';

const commands = (source: string) =>
  parseCommand(source)
    .commands.filter((command) => command.keyword === null)
    .map((command) => command.words.map((word) => word.value));
const parts = (source: string) => analyzeCommand(source).parts.map((part) => part.words.join(' '));
const writes = (source: string) => analyzeCommand(source).writes.map((write) => `${write.by}: ${write.word ? write.word.value.slice(write.skip) : '.'}`);

before(() => loadShellParser());

describe('shell syntax (tree-sitter-bash)', () => {
  test("removes quotes and escapes the way bash does, $'…' decoded", () => {
    assert.deepEqual(commands(`echo 'a b' "c d" e\\ f "g\\"h" 'i\\j' $'k\\nl' $'\\x72\\x6d'`), [['echo', 'a b', 'c d', 'e f', 'g"h', 'i\\j', 'k\nl', 'rm']]);
    assert.deepEqual(commands('"r"m x'), [['rm', 'x']]);
    assert.deepEqual(commands('a"b"\'c\'d'), [['abcd']]);
  });

  test('flattens lists, pipelines, subshells, groups and compound commands', () => {
    assert.deepEqual(commands('a && (b || c) | d; { e; }'), [['a'], ['b'], ['c'], ['d'], ['e']]);
    assert.deepEqual(commands('if a; then b; elif c; then d; else e; fi'), [['a'], ['b'], ['c'], ['d'], ['e']]);
    assert.deepEqual(commands('while a; do b; done; until c; do d; done'), [['a'], ['b'], ['c'], ['d']]);
    assert.deepEqual(commands('! a'), [['a']]);
    assert.deepEqual(commands('case $x in a) rm y;; esac'), [['rm', 'y']]);
  });

  test('marks piped input, including the rest of a here-document line', () => {
    assert.deepEqual(
      parseCommand('a | b; c').commands.map((command) => command.piped),
      [false, true, false],
    );
    const heredoc = parseCommand('cat <<EOF | sh\nrm x\nEOF');
    assert.deepEqual(
      heredoc.commands.map((command) => [command.words[0]?.value, command.piped]),
      [
        ['cat', false],
        ['sh', true],
      ],
    );
  });

  test('normalizes spacing, newlines and comments for comparing whole commands', () => {
    assert.equal(parseCommand('npm   ci &&\tnpm test  # go\n').normalized, 'npm ci && npm test');
    assert.equal(parseCommand('a\nb').normalized, parseCommand('a; b').normalized);
    assert.notEqual(parseCommand("echo 'a b'").normalized, parseCommand('echo a b').normalized);
    assert.equal(parseCommand('cmd 2>&1 >  out').normalized, 'cmd 2>&1 >out');
    assert.equal(parseCommand('echo a >f  b').normalized, 'echo a >f b');
  });

  test("words after a redirection target are the command's arguments", () => {
    assert.deepEqual(commands('tee >/dev/null .git/config x'), [['tee', '.git/config', 'x']]);
    assert.deepEqual(commands('xargs 2>&1 rm victim'), [['xargs', 'rm', 'victim']]);
    assert.deepEqual(commands('>f cmd a'), [['cmd', 'a']]);
  });

  test('bad input is an error that says what is wrong, never a throw', () => {
    for (const [source, message] of [
      ["echo 'a", /syntax error|missing/],
      ['echo "a', /syntax error|missing|never closed/],
      ['echo $(a', /syntax error|missing/],
      ['ls )', /syntax error/],
      ['echo a\r# ; rm x', /carriage return/],
      ['echo a\0b', /NUL/],
      ['echo \x1b[2J', /escape character/],
      ['echo \uD800', /UTF-8/],
      ['echo \uFFFD', /UTF-8/],
      [`echo ${'a'.repeat(300 * 1024)}`, /300 KB long/],
      ['('.repeat(30000) + 'ls' + ')'.repeat(30000), /nests more than 200 levels/],
      ['$('.repeat(5000) + 'rm x' + ')'.repeat(5000), /nests more than 200 levels/],
    ] as const) {
      const parsed = parseCommand(source);
      assert.match(parsed.error ?? '', message, JSON.stringify(source.slice(0, 40)));
      assert.deepEqual(parsed.commands, []);
    }
  });

  test('arithmetic on variables, indirect expansion and subscripts are unreadable', () => {
    for (const source of ['echo $((X))', '((x<<2))', 'echo ${!X}', 'echo ${a[$i]}', '[[ $a -eq 1 ]]', 'a[$(id)]=1', 'for ((i=0;i<3;i++)); do :; done']) {
      assert.notDeepEqual(analyzeCommand(source).unreadable, [], source);
    }
    assert.deepEqual(analyzeCommand('echo $((1 + 2))').unreadable, []);
  });
});

describe('shell analysis', () => {
  test('finds the commands hidden in substitutions, -c strings, xargs, find -exec and git config', () => {
    assert.deepEqual(parts('FOO=$(rm x) ls'), ['rm x', 'FOO=$(rm x) ls']);
    assert.deepEqual(parts("bash -c 'a && b'").slice(1), ['a', 'b']);
    assert.deepEqual(parts('ls | xargs -n1 rm -f'), ['ls', 'xargs -n1 rm -f', 'rm -f']);
    assert.deepEqual(parts('find . -exec rm {} \\; -print'), ['find . -exec rm {} ; -print', 'rm {}']);
    assert.deepEqual(parts("git -c core.pager='less -R' log"), ['git -c core.pager=less -R log', 'less -R']);
    assert.deepEqual(parts('eval "a; b"'), ['eval a; b', 'a', 'b']);
  });

  test('looks through wrappers to the command that runs', () => {
    const analysis = analyzeCommand('sudo -u root env A=1 timeout -s KILL 5 nice -n 3 make all');
    assert.deepEqual(
      analysis.parts.map((part) => [part.argv, part.words]),
      [
        [
          ['make', 'all'],
          ['A=1', 'make', 'all'],
        ],
      ],
    );
    assert.deepEqual(analysis.unreadable, ['runs as another user (sudo)']);
    for (const source of [
      'flock /tmp/l rm x',
      'taskset 1 rm x',
      'taskset -c 0 rm x',
      'prlimit --nofile=1 rm x',
      'unshare -r rm x',
      'chrt 1 rm x',
      "script -qc 'rm x' /dev/null",
      'flock f -c "rm x"',
      'setsid rm x',
    ]) {
      assert.ok(parts(source).includes('rm x'), `${source}: ${parts(source).join(' | ')}`);
    }
    assert.deepEqual(analyzeCommand('command -v git').parts[0]!.argv, ['command', '-v', 'git']);
  });

  test('git without its global options is a form deny rules see', () => {
    assert.deepEqual(analyzeCommand('git -C sub --no-pager -c a.b=c push origin').parts[0]!.denyForms, [['git', 'push', 'origin']]);
    assert.ok(analyzeCommand('git co main').opaque, 'an unknown subcommand may be an alias');
    assert.ok(!analyzeCommand('git status').opaque);
  });

  test('a command name built or expanded at run time is opaque', () => {
    for (const source of ['$(echo rm) -rf x', '$CMD x', 'r$X x', '/bin/r? x', 'coproc rm x']) assert.ok(analyzeCommand(source).opaque, source);
    assert.ok(!analyzeCommand("$'\\x72\\x6d' x").opaque, 'an ANSI-C string is read, so rm is named');
  });

  test('names each unreadable construct once', () => {
    assert.deepEqual(analyzeCommand('echo $(a) $(b) `c`').unreadable, ['uses command substitution $(…)', 'uses command substitution `…`']);
    assert.deepEqual(analyzeCommand('curl -s x | sh').unreadable, ['pipes into a shell (sh)']);
    assert.deepEqual(analyzeCommand('sh script.sh').unreadable, []);
    assert.deepEqual(analyzeCommand('python3 -m http.server').unreadable, []);
    assert.deepEqual(analyzeCommand('git -c user.name=x commit').unreadable, []);
  });

  test('writes: redirections and the write options of the programs it knows', () => {
    assert.deepEqual(writes('echo a > o 2>&1 >/dev/null 2>&-'), ['a redirection with >: o', 'a redirection with >: /dev/null']);
    assert.deepEqual(writes('> bare'), ['a redirection with >: bare']);
    assert.deepEqual(writes('cat < in'), []);
    assert.deepEqual(writes("sed -i.bak 's/a/b/' f g"), ['sed -i: f', 'sed -i: g']);
    assert.deepEqual(writes('find . -name x -fprint out'), ['find -fprint: out']);
    assert.deepEqual(writes('find src -delete'), ['find -delete: src']);
    assert.deepEqual(writes('git diff --output=patch.txt'), ['git diff --output: patch.txt']);
    assert.deepEqual(writes('time -o t.txt ls'), ['time: t.txt']);
    assert.deepEqual(writes('cp a b dest'), ['cp: dest']);
    assert.deepEqual(writes('dd if=a of=b'), ['dd: b']);
    assert.deepEqual(writes('tar xzf a.tgz'), ['tar -x: .']);
    assert.deepEqual(writes('tar czf out.tgz src'), ['tar: out.tgz']);
    assert.deepEqual(writes('git config core.fsmonitor x'), ['git config: .git/config']);
    assert.deepEqual(writes('curl -o f https://x'), ['curl: f']);
    assert.deepEqual(writes('sort -o s.txt in'), ['sort: s.txt']);
  });

  test('sed scripts that only print or edit the stream are safe; w, W, e, r, R are not', () => {
    for (const script of ['s/a/b/g', '1p', '/needle/p', '1,5d', '$!N;s/\\n/ /', 's|/usr|/opt|', 'y/abc/xyz/', '/x/{p;q}']) assert.ok(sedScriptIsSafe(script), script);
    for (const script of ['w out', '1w /tmp/x', 's/a/b/w out', 's/a/b/e', 'e id', 'r /etc/passwd', 'R f', 'W f', '1!G;h;$!d;e date']) assert.ok(!sedScriptIsSafe(script), script);
    assert.deepEqual(analyzeCommand("sed -n '/needle/p' f").unreadable, []);
    assert.match(analyzeCommand("sed -n '1e id' f").unreadable.join(), /may write files or run commands/);
  });
});

describe('expansion', () => {
  test('braces, tilde, known variables and globs against the file system', () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'cove-expand-')));
    mkdirSync(join(root, 'src'));
    for (const name of ['a.ts', 'b.ts', '.hidden.ts']) writeFileSync(join(root, 'src', name), '');
    const context = { home: '/home/me', cwd: root };
    const word = (source: string) => parseCommand(`ls ${source}`).commands[0]!.words[1]!;
    const values = (source: string) => {
      const expansion = expandWord(word(source), context);
      return 'values' in expansion ? expansion.values : expansion.unknown;
    };
    assert.deepEqual(values('src/*.ts'), ['src/a.ts', 'src/b.ts']);
    assert.deepEqual(values("'src/*.ts'"), ['src/*.ts']);
    assert.deepEqual(values('{x,y}/z'), ['x/z', 'y/z']);
    assert.deepEqual(values('~/f'), ['/home/me/f']);
    assert.deepEqual(values('"$HOME"/.ssh'), ['/home/me/.ssh']);
    assert.deepEqual(values('$PWD/src/a.ts'), [`${root}/src/a.ts`]);
    assert.match(String(values('$OTHER/x')), /cannot tell where \$OTHER points/);
    assert.match(String(values('${X:-/etc}')), /cannot tell what/);
    assert.match(String(values('~root/x')), /cannot tell where ~root points/);
    assert.deepEqual(expandBraces('a{1..3}'), ['a1', 'a2', 'a3']);
    assert.equal(expandBraces('{1..100000}'), null);
  });
});
