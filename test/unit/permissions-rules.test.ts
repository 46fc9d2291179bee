import { test, describe, before } from 'node:test';
import assert from 'node:assert/strict';
import { matchesWhole, matchesWords, parseBashPattern } from '../../electron/core/permissions/bash-pattern';
import { parseRule } from '../../electron/core/permissions';
import { PERMISSION_MODES } from '../../electron/core/permissions';
import { compileRule, namesTool } from '../../electron/core/permissions/rule-match';
import { parseCommand } from '../../electron/core/permissions/shell-syntax';
import { loadShellParser } from '../../electron/core/permissions/shell-parser';

describe('rule syntax', () => {
  test('reads Tool and Tool(specifier)', () => {
    assert.deepEqual(parseRule('bash'), { tool: 'bash', specifier: null, text: 'bash' });
    assert.deepEqual(parseRule('  bash(npm run test:*) '), { tool: 'bash', specifier: 'npm run test:*', text: 'bash(npm run test:*)' });
    assert.deepEqual(parseRule('read_file(src/**)'), { tool: 'read_file', specifier: 'src/**', text: 'read_file(src/**)' });
    assert.deepEqual(parseRule('bash(echo "(")').specifier, 'echo "("');
    assert.equal(parseRule('mcp__github').tool, 'mcp__github');
    assert.equal(parseRule('mcp__github__create_issue').tool, 'mcp__github__create_issue');
    assert.equal(parseRule('subagent(reviewer)').specifier, 'reviewer');
    assert.equal(parseRule('skill').tool, 'skill');
  });

  test('refuses malformed rules with a message quoting the rule', () => {
    const cases: Array<[string, RegExp]> = [
      ['bash(npm test', /unbalanced parentheses/],
      ['bash(a))', /unbalanced parentheses/],
      ['bash(echo (a)', /unbalanced parentheses/],
      ['Bash(ls)', /unknown tool 'Bash' \(did you mean bash\?\)/],
      ['Read', /did you mean read_file/],
      ['shell(ls)', /unknown tool 'shell'/],
      ['bash()', /empty specifier/],
      ['', /empty/],
      ['mcp__github(x)', /MCP rules take no specifier/],
      ['mcp__', /expected Tool|MCP rules/],
      ['mcp__a__b__c', /MCP rules are mcp__server or mcp__server__tool/],
      ['bash(:*)', /needs a command before :\*/],
      ['bash(git * push:*)', /cannot hold another \*/],
      ['bash(git:* log)', /may only end a rule/],
      ["bash(echo 'x)", /cannot be parsed/],
      ['bash(a && b:*)', /one simple command/],
      ['read file', /expected Tool/],
    ];
    for (const [rule, message] of cases) {
      assert.throws(
        () => parseRule(rule),
        (error: unknown) => error instanceof Error && error.message.includes(`'${rule.trim()}'`) && message.test(error.message),
        rule,
      );
    }
  });

  test('the four modes of SPEC §6', () => {
    assert.deepEqual([...PERMISSION_MODES], ['default', 'acceptEdits', 'plan', 'bypass']);
  });
});

describe('bash patterns', () => {
  before(() => loadShellParser());
  const matches = (specifier: string, command: string) => matchesWords(parseBashPattern(specifier), command.split(' '));

  test('exact rules compare words', () => {
    assert.ok(matches('npm test', 'npm test'));
    assert.ok(matches('npm   test', 'npm test'));
    assert.ok(!matches('npm test', 'npm test --watch'));
    assert.ok(!matches('npm test', 'npm'));
    assert.ok(matchesWords(parseBashPattern('git commit -m "a b"'), ['git', 'commit', '-m', 'a b']));
    assert.ok(!matchesWords(parseBashPattern('git commit -m "a b"'), ['git', 'commit', '-m', 'a', 'b']));
  });

  test('prefix rules stop at a word boundary, or a : inside the last word', () => {
    assert.ok(matches('npm run test:*', 'npm run test'));
    assert.ok(matches('npm run test:*', 'npm run test:unit'));
    assert.ok(matches('npm run test:*', 'npm run test --coverage'));
    assert.ok(!matches('npm run test:*', 'npm run testx'));
    assert.ok(!matches('npm run test:*', 'npm run test-e2e'));
    assert.ok(!matches('npm run test:*', 'npm run'));
    assert.ok(matches('git:*', 'git'));
    assert.ok(!matches('git:*', 'gitk'));
  });

  test('glob rules match within one command, a trailing " *" also matching nothing', () => {
    assert.ok(matches('git *', 'git status'));
    assert.ok(matches('git *', 'git'));
    assert.ok(!matches('git *', 'gitk'));
    assert.ok(matches('* --version', 'node --version'));
    assert.ok(!matches('* --version', 'node --version --extra'));
    assert.ok(matches('ls*', 'lsof'));
    assert.ok(matches('docker compose * logs', 'docker compose -f x.yml logs'));
  });

  test('exact rules for a whole compound command match only that whole', () => {
    const pattern = parseBashPattern('npm ci && npm test');
    assert.equal(pattern.kind === 'exact' && pattern.words, null);
    assert.ok(matchesWhole(pattern, parseCommand('npm ci  &&  npm test').normalized));
    assert.ok(!matchesWhole(pattern, parseCommand('npm ci && npm test && rm x').normalized));
    assert.ok(!matchesWords(pattern, ['npm', 'ci']));
  });
});

describe('tool names in rules', () => {
  const rule = (text: string) => compileRule(text, 'allow', 'test', '/home/someone');

  test('a server rule covers its tools and nothing else', () => {
    assert.ok(namesTool(rule('mcp__github'), 'mcp__github__create_issue'));
    assert.ok(namesTool(rule('mcp__github__*'), 'mcp__github__create_issue'));
    assert.ok(!namesTool(rule('mcp__git'), 'mcp__github__create_issue'));
    assert.ok(!namesTool(rule('mcp__github__create_issue'), 'mcp__github__delete_repo'));
    assert.ok(!namesTool(rule('bash'), 'mcp__bash__run'));
    assert.ok(!namesTool(rule('edit_file'), 'write_file'));
  });
});
