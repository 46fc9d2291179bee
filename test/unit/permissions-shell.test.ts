import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeCommand } from '../../electron/core/permissions/shell-analysis';
import { lex, ShellSyntaxError, type Token } from '../../electron/core/permissions/shell-lexer';
import { parseCommand } from '../../electron/core/permissions/shell-parse';

const words = (tokens: Token[]) => tokens.map((token) => (token.kind === 'word' ? token.value : token.kind === 'operator' ? `<${token.op}>` : `[${token.op}${token.target.value}]`));
const commands = (source: string) => parseCommand(source).commands.map((command) => command.words.map((word) => word.value));
const parts = (source: string) => analyzeCommand(source).parts.map((part) => part.words.join(' '));

describe('shell lexer', () => {
  test('removes quotes and escapes the way bash does', () => {
    assert.deepEqual(words(lex(`echo 'a b' "c d" e\\ f "g\\"h" 'i\\j' $'k\\nl'`)), ['echo', 'a b', 'c d', 'e f', 'g"h', 'i\\j', 'k\nl']);
    assert.deepEqual(words(lex('"r"m x')), ['rm', 'x']);
    assert.deepEqual(words(lex('a"b"\'c\'d')), ['abcd']);
  });

  test('splits on every operator, and not inside quotes', () => {
    assert.deepEqual(words(lex('a&&b||c;d|e|&f&g\nh')), ['a', '<&&>', 'b', '<||>', 'c', '<;>', 'd', '<|>', 'e', '<|&>', 'f', '<&>', 'g', '<\n>', 'h']);
    assert.deepEqual(words(lex(`echo "a;b" 'c&&d' e\\;f`)), ['echo', 'a;b', 'c&&d', 'e;f']);
  });

  test('reads redirections with their targets and file descriptors', () => {
    const tokens = lex('cmd >out 2>&1 <in >>log &>all 2>/dev/null');
    assert.deepEqual(words(tokens), ['cmd', '[>out]', '[>&1]', '[<in]', '[>>log]', '[&>all]', '[>/dev/null]']);
    const duplicated = tokens.filter((token) => token.kind === 'redirect').map((token) => token.kind === 'redirect' && [token.fd, token.duplicates]);
    assert.deepEqual(duplicated, [[null, false], ['2', true], [null, false], [null, false], [null, false], ['2', false]]);
  });

  test('keeps nested command sources and expanded variables', () => {
    const [, word] = lex('echo "x$(rm -rf "a b")y${HOME}`id`$USER"') as Array<Extract<Token, { kind: 'word' }>>;
    assert.deepEqual(word!.substitutions, [
      { kind: 'command', source: 'rm -rf "a b"' },
      { kind: 'backtick', source: 'id' },
    ]);
    assert.deepEqual(word!.variables, ['HOME', 'USER']);
    const [single] = lex("'$(rm x) $HOME'") as Array<Extract<Token, { kind: 'word' }>>;
    assert.deepEqual([single!.substitutions, single!.variables], [[], []]);
  });

  test('reads here-documents: quoted ones stay literal, others are expanded', () => {
    const tokens = lex('cat <<EOF >out\nhi $(whoami)\nEOF\ncat <<\'END\'\n$(rm x)\nEND\necho done');
    const docs = tokens.flatMap((token) => (token.kind === 'redirect' && token.heredoc ? [token.heredoc] : []));
    assert.deepEqual(docs.map((doc) => [doc.delimiter, doc.quoted, doc.body, doc.substitutions.map((s) => s.source)]), [
      ['EOF', false, 'hi $(whoami)', ['whoami']],
      ['END', true, '$(rm x)', []],
    ]);
    assert.deepEqual(words(tokens).slice(-3), ['<\n>', 'echo', 'done']);
  });

  test('arithmetic, parameter defaults and process substitution', () => {
    const [, arithmetic] = lex('echo $(( (1 + 2) * $(rm x) ))') as Array<Extract<Token, { kind: 'word' }>>;
    assert.deepEqual(arithmetic!.substitutions, [{ kind: 'command', source: 'rm x' }]);
    const [, parameter] = lex('echo ${A:-$(rm y)}') as Array<Extract<Token, { kind: 'word' }>>;
    assert.deepEqual([parameter!.variables, parameter!.substitutions], [['A'], [{ kind: 'command', source: 'rm y' }]]);
    const [, process] = lex('diff <(ls a) >(tee b)') as Array<Extract<Token, { kind: 'word' }>>;
    assert.deepEqual(process!.substitutions, [{ kind: 'process', source: 'ls a' }]);
  });

  test('comments end at the line; a # inside a word is not one', () => {
    assert.deepEqual(words(lex('echo a#b # rm x\nls')), ['echo', 'a#b', '<\n>', 'ls']);
  });

  test('throws on what it cannot read, saying what', () => {
    for (const [source, message] of [
      ["echo 'a", /single quote/],
      ['echo "a', /double quote/],
      ['echo $(a', /never closed/],
      ['echo `a', /backtick/],
      ['echo ${a', /\$\{/],
      ['ls )', /\)/],
      ['ls >', /no target/],
    ] as const) {
      assert.throws(() => lex(source), (error: unknown) => error instanceof ShellSyntaxError && message.test(error.message), source);
    }
  });
});

describe('shell parser', () => {
  test('flattens lists, pipelines, subshells, groups and compound commands', () => {
    assert.deepEqual(commands('a && (b || c) | d; { e; }'), [['a'], ['b'], ['c'], ['d'], ['e']]);
    assert.deepEqual(commands('if a; then b; elif c; then d; else e; fi'), [['a'], ['b'], ['c'], ['d'], ['e']]);
    assert.deepEqual(commands('while a; do b; done; until c; do d; done'), [['a'], ['b'], ['c'], ['d']]);
    assert.deepEqual(commands('! a'), [['a']]);
  });

  test('separates assignments and keeps for-loop words out of the commands', () => {
    const [command] = parseCommand('A=1 B="x y" cmd C=2').commands;
    assert.deepEqual([command!.assignments.map((w) => w.value), command!.words.map((w) => w.value)], [['A=1', 'B=x y'], ['cmd', 'C=2']]);
    const parsed = parseCommand('for f in a b; do cat "$f"; done');
    assert.deepEqual(parsed.commands.map((c) => [c.keyword, c.words.map((w) => w.value)]), [
      ['for', ['f', 'in', 'a', 'b']],
      [null, ['cat', '$f']],
    ]);
  });

  test('marks piped input', () => {
    assert.deepEqual(parseCommand('a | b; c').commands.map((command) => command.piped), [false, true, false]);
  });

  test('reports function definitions and reads array assignments', () => {
    assert.deepEqual(parseCommand('f() { rm x; }').unreadable, ['defines a shell function']);
    assert.deepEqual(parseCommand('function g { ls; }').unreadable, ['defines a shell function']);
    const [array, echo] = parseCommand('a=(1 2 3); echo ok').commands;
    assert.deepEqual(array!.assignments.map((word) => word.value), ['a=', '1', '2', '3']);
    assert.deepEqual(echo!.words.map((word) => word.value), ['echo', 'ok']);
  });

  test('normalizes spacing, newlines and comments for comparing whole commands', () => {
    assert.equal(parseCommand('npm   ci &&\tnpm test  # go\n').normalized, 'npm ci && npm test');
    assert.equal(parseCommand('a\nb').normalized, parseCommand('a; b').normalized);
    assert.notEqual(parseCommand("echo 'a b'").normalized, parseCommand('echo a b').normalized);
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
    assert.deepEqual(analysis.parts.map((part) => [part.argv, part.words]), [[['make', 'all'], ['A=1', 'make', 'all']]]);
    assert.deepEqual(analysis.unreadable, ['runs as another user (sudo)']);
    assert.deepEqual(analyzeCommand('command -v git').parts[0]!.argv, ['command', '-v', 'git']);
  });

  test('names each unreadable construct once', () => {
    assert.deepEqual(analyzeCommand('echo $(a) $(b) `c`').unreadable, ['uses command substitution $(…)', 'uses command substitution `…`']);
    assert.deepEqual(analyzeCommand('curl -s x | sh').unreadable, ['pipes into a shell (sh)']);
    assert.deepEqual(analyzeCommand('sh script.sh').unreadable, []);
    assert.deepEqual(analyzeCommand('python3 -m http.server').unreadable, []);
    assert.deepEqual(analyzeCommand('git -c user.name=x commit').unreadable, []);
  });

  test('collects the words that may be paths, with redirection targets', () => {
    const analysis = analyzeCommand('cp -r src --target=/opt/x dest > log.txt 2>&1');
    assert.deepEqual(
      analysis.paths.map((path) => [path.text, path.redirect]),
      [['log.txt', '>'], ['src', null], ['/opt/x', null], ['dest', null]],
    );
  });

  test('reports a parse error instead of guessing', () => {
    const analysis = analyzeCommand("echo 'oops");
    assert.match(analysis.parseError ?? '', /single quote/);
    assert.deepEqual(analysis.parts, []);
  });

  test('deeply nested command strings stop being read', () => {
    let command = 'rm x';
    for (let level = 0; level < 10; level++) command = `bash -c ${JSON.stringify(command)}`;
    assert.ok(analyzeCommand(command).unreadable.includes('nests commands too deeply to read'));
  });
});
