import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { assignToolNames, MAX_TOOL_NAME_LENGTH, sanitizeToolName } from '../../electron/core/mcp/mcp-names';
import { OutputTail } from '../../electron/core/mcp/output-tail';
import { serverEnvironment } from '../../electron/core/mcp/stdio-transport';

const API_NAME = /^[A-Za-z0-9_-]{1,64}$/;

describe('MCP tool names', () => {
  test('a plain name is offered as mcp__<server>__<tool>', () => {
    assert.deepEqual(
      [...assignToolNames('everything', ['echo', 'get-sum'])],
      [
        ['echo', 'mcp__everything__echo'],
        ['get-sum', 'mcp__everything__get-sum'],
      ],
    );
  });

  test('characters the API refuses become underscores', () => {
    assert.equal(sanitizeToolName('files.read/all π'), 'files_read_all__');
    const name = assignToolNames('docs', ['files.read/all π']).get('files.read/all π')!;
    assert.match(name, API_NAME);
    assert.ok(name.startsWith('mcp__docs__files_read_all__'), name);
  });

  test('a long name is cut to 64 characters with a hash suffix, stable and distinct', () => {
    const long = 'summarize_the_entire_repository_history_and_produce_a_report_of_everything';
    const longer = `${long}_in_detail`;
    const names = assignToolNames('research-server', [long, longer]);
    for (const name of names.values()) {
      assert.match(name, API_NAME);
      assert.equal(name.length, MAX_TOOL_NAME_LENGTH);
      assert.match(name, /^mcp__research-server__summarize_.*_[0-9a-f]{6}$/);
    }
    assert.notEqual(names.get(long), names.get(longer));
    assert.deepEqual(assignToolNames('research-server', [longer, long]), names, 'the listing order does not matter');
  });

  test('a renamed tool that would collide gets a hash suffix; the tool that needed no change keeps its name', () => {
    for (const order of [
      ['a.b', 'a_b'],
      ['a_b', 'a.b'],
    ]) {
      const names = assignToolNames('s', order);
      assert.equal(names.get('a_b'), 'mcp__s__a_b');
      assert.match(names.get('a.b')!, /^mcp__s__a_b_[0-9a-f]{6}$/);
    }
  });

  test('names already taken by another server are not reused', () => {
    const taken = new Set<string>();
    const first = assignToolNames('a', ['_b'], taken);
    const second = assignToolNames('a_', ['b'], taken);
    assert.equal(first.get('_b'), 'mcp__a___b');
    assert.notEqual(second.get('b'), 'mcp__a___b');
    assert.match(second.get('b')!, API_NAME);
  });
});

describe('stdio server environment', () => {
  const source = { PATH: '/usr/bin', HOME: '/home/me', LANG: 'C.UTF-8', ANTHROPIC_API_KEY: 'sk-ant-secret', ANTHROPIC_AUTH_TOKEN: 'token', AWS_SECRET: 'x', BASH_FUNC: '() { echo; }' };

  test('keeps a minimal base and never passes credentials that are not configured', () => {
    const environment = serverEnvironment({ LEVEL: 'debug' }, source);
    assert.deepEqual(environment, { PATH: '/usr/bin', HOME: '/home/me', LANG: 'C.UTF-8', LEVEL: 'debug' });
  });

  test('passes a credential the configuration names, and configured values override the base', () => {
    const environment = serverEnvironment({ ANTHROPIC_API_KEY: 'sk-ant-for-this-server', PATH: '/opt/bin' }, source);
    assert.equal(environment.ANTHROPIC_API_KEY, 'sk-ant-for-this-server');
    assert.equal(environment.PATH, '/opt/bin');
    assert.equal(environment.ANTHROPIC_AUTH_TOKEN, undefined);
  });
});

describe('stderr tail', () => {
  test('keeps at most the last N lines', () => {
    const tail = new OutputTail(64 * 1024, 3);
    for (let line = 1; line <= 10; line++) tail.append(`line ${line}\n`);
    assert.equal(tail.toString(), 'line 8\nline 9\nline 10\n');
  });

  test('keeps at most the last N characters, starting at a line boundary', () => {
    const tail = new OutputTail(40, 500);
    for (let line = 1; line <= 100; line++) tail.append(`message number ${line}\n`);
    const text = tail.toString();
    assert.ok(text.length <= 40, `${text.length} characters`);
    assert.ok(text.endsWith('message number 100\n'));
    assert.ok(text.startsWith('message number'), text);
  });

  test('notes of its own start on a fresh line', () => {
    const tail = new OutputTail();
    tail.append('partial');
    tail.note('server stopped');
    assert.equal(tail.toString(), 'partial\n[cove] server stopped\n');
  });
});
