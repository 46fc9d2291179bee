import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { expandCommand, splitArguments } from '../../electron/core/commands/expand-command';
import { listCommands, resolvePrompt } from '../../electron/core/commands/slash-commands';
import { attachMentions, findMentions } from '../../electron/core/prompt/mentions';
import { MemorySnapshotStore, NO_SECRETS } from '../../electron/core/agent/types';
import { removeFolder, tempFolder } from './helpers/tool-context';

describe('command templates', () => {
  test('$ARGUMENTS, $1… and quoted words', () => {
    assert.deepEqual(splitArguments(`a "b c" 'd e' f\\"g`), ['a', 'b c', 'd e', 'f\\"g']);
    assert.equal(expandCommand('Fix $1 in $2 ($ARGUMENTS) $3.', 'bug "src/a b.ts"'), 'Fix bug in src/a b.ts (bug "src/a b.ts") .');
    assert.equal(expandCommand('Just do it.', ''), 'Just do it.');
    assert.equal(expandCommand('Just do it.', 'now'), 'Just do it.\n\nARGUMENTS: now');
  });
});

describe('command files', () => {
  const workspace = tempFolder('commands', {
    '.cove/commands/review.md': '---\ndescription: Review\nargument-hint: <file>\n---\nReview $1',
    '.claude/commands/review.md': 'the .cove file wins over this one',
    '.claude/commands/db/migrate.md': '# Run the migrations\nRun them.',
    '.cove/commands/empty.md': '---\ndescription: nothing\n---\n',
    '.cove/commands/odd.md': '---\ncolour: blue\n---\nbody',
    '.cove/commands/clear.md': 'a file cannot replace a built-in',
  });
  const home = tempFolder('commands-home', { 'commands/mine.md': 'Mine: $ARGUMENTS' });
  after(() => {
    removeFolder(workspace);
    removeFolder(home);
  });
  const folders = { workspaces: [workspace], coveHome: home, home };

  test('listed with built-ins first, namespaces from folders, problems named with their file', () => {
    const commands = listCommands(folders);
    assert.deepEqual(
      commands.map((command) => command.name),
      ['clear', 'compact', 'cost', 'model', 'db:migrate', 'empty', 'mine', 'odd', 'review'],
    );
    const byName = Object.fromEntries(commands.map((command) => [command.name, command]));
    assert.equal(byName.review!.argumentHint, '<file>');
    assert.equal(byName.review!.source, 'project');
    assert.equal(byName.mine!.source, 'user');
    assert.equal(byName['db:migrate']!.description, 'Run the migrations');
    assert.match(byName.empty!.problem!, /empty\.md: the command has no prompt/);
    assert.match(byName.odd!.problem!, /odd\.md: unknown front matter key colour/);
    assert.equal(byName.clear!.source, 'builtin');
  });

  test('resolving: built-ins, custom commands, paths and unknown names', () => {
    assert.deepEqual(resolvePrompt('/review a.ts', folders), { kind: 'prompt', prompt: 'Review a.ts', command: 'review' });
    assert.deepEqual(resolvePrompt('/model  opus ', folders), { kind: 'builtin', name: 'model', args: 'opus' });
    assert.deepEqual(resolvePrompt('/usr/bin/env is odd', folders), { kind: 'prompt', prompt: '/usr/bin/env is odd' });
    assert.throws(() => resolvePrompt('/odd', folders), /\/odd cannot run: .*unknown front matter key/);
    assert.throws(() => resolvePrompt('/reveiw x', folders), /no command \/reveiw/);
  });
});

describe('mentions', () => {
  test('paths after @, quoted paths, trailing punctuation; not e-mail addresses', () => {
    assert.deepEqual(findMentions('see @src/a.ts, @"docs/my notes.md" and (@lib/b.js) not me@x.io @src/a.ts.'), ['src/a.ts', 'docs/my notes.md', 'lib/b.js']);
  });
});

describe('attaching mentions', () => {
  const line = 'x'.repeat(99) + '\n';
  const workspace = tempFolder('mentions', {
    'a.txt': line.repeat(2000),
    'b.txt': line.repeat(2000),
    'c.txt': line.repeat(2000),
    'bin.dat': Buffer.from([0, 1, 2, 3]),
    'docs/readme.md': '# hi\n',
  });
  after(() => removeFolder(workspace));

  test('files, folders and failures; the prompt total is capped', async () => {
    const snapshots = new MemorySnapshotStore();
    const { blocks, attachments } = await attachMentions('@a.txt @b.txt @c.txt @docs/ @bin.dat @missing.ts', {
      workspaceRoots: [workspace],
      secrets: NO_SECRETS,
      snapshots,
      sessionId: 's',
    });
    const byPath = Object.fromEntries(attachments.map((attachment) => [attachment.kind === 'file' ? attachment.path : '', attachment.kind === 'file' ? (attachment.error ?? 'ok') : '']));
    assert.equal(byPath['a.txt'], 'ok');
    assert.equal(byPath['b.txt'], 'ok');
    assert.match(byPath['c.txt']!, /mentions would exceed 512 KB/);
    assert.equal(byPath['docs/'], 'ok');
    assert.match(byPath['bin.dat']!, /binary/);
    assert.match(byPath['missing.ts']!, /does not exist/);
    assert.match(blocks.map((block) => (block.type === 'text' ? block.text : '')).join('\n'), /readme\.md/);
    assert.ok(snapshots.recall('a.txt', /\[a\.txt#(\w+)\]/.exec((blocks[0] as { text: string }).text)![1]!), 'a mention counts as a read for hashline edits');
  });
});
