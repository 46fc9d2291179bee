import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { reply } from '../support/model-server';
import { cliFixture } from '../support/cove-cli';

type Block = { type: string; text?: string; source?: { media_type: string; data: string } };
function firstUserBlocks(f: Awaited<ReturnType<typeof cliFixture>>): Block[] {
  const message = f.server.requests[0]!.body.messages.at(-1)!;
  return message.content as Block[];
}
function write(root: string, path: string, content: string | Buffer): void {
  mkdirSync(join(root, path, '..'), { recursive: true });
  writeFileSync(join(root, path), content);
}

describe('custom slash commands through cove run', () => {
  test('a project command is filled with its arguments; a .claude command with a namespace works too', async () => {
    const f = await cliFixture([reply.text('reviewed'), reply.text('committed')]);
    try {
      write(f.workspace, '.cove/commands/review.md', '---\ndescription: Review a file\nargument-hint: <file> <focus>\n---\nReview $1 with a focus on $2.\nAll arguments: $ARGUMENTS');
      write(f.workspace, '.claude/commands/git/commit.md', 'Write a commit message for the staged changes.');
      const review = await f.home.run(['run', '--json', '--workspace', f.workspace, '/review src/app.ts "error handling"']);
      assert.equal(review.code, 0, review.stderr);
      const [text] = firstUserBlocks(f);
      assert.equal(text!.text, 'Review src/app.ts with a focus on error handling.\nAll arguments: src/app.ts "error handling"');
      const user = review.events.find((event) => event.type === 'userMessage');
      assert.ok(user?.type === 'userMessage');
      assert.equal(user.text, '/review src/app.ts "error handling"');
      assert.equal(user.command, 'review');

      const commit = await f.home.run(['run', '--workspace', f.workspace, '/git:commit keep it short']);
      assert.equal(commit.code, 0, commit.stderr);
      const sent = (f.server.requests[1]!.body.messages.at(-1)!.content as Block[])[0]!.text;
      assert.equal(sent, 'Write a commit message for the staged changes.\n\nARGUMENTS: keep it short');
    } finally {
      await f.close();
    }
  });

  test('an unknown command and a command with bad front matter fail before any request, naming the problem', async () => {
    const f = await cliFixture([reply.text('never')]);
    try {
      write(f.workspace, '.cove/commands/broken.md', '---\ndescription: [a, b]\nthis is not yaml\n---\nbody');
      const unknown = await f.home.run(['run', '--workspace', f.workspace, '/nope now']);
      assert.equal(unknown.code, 2);
      assert.match(unknown.stderr, /no command \/nope; the commands here are \/clear, \/compact, \/cost, \/model/);
      const broken = await f.home.run(['run', '--workspace', f.workspace, '/broken']);
      assert.equal(broken.code, 2);
      assert.match(broken.stderr, /\/broken cannot run: .*broken\.md: line 3 of the front matter is not "key: value"/);
      assert.equal(f.server.requests.length, 0);
      // A path is no command: it goes to the model as written.
      const path = await f.home.run(['run', '--workspace', f.workspace, '/etc/hosts looks wrong']);
      assert.equal(path.code, 0, path.stderr);
      assert.equal(firstUserBlocks(f)[0]!.text, '/etc/hosts looks wrong');
    } finally {
      await f.close();
    }
  });

  test('built-ins answer without the model: /model switches, /cost reports', async () => {
    const f = await cliFixture([reply.text('hi')]);
    try {
      const first = await f.home.run(['run', '--workspace', f.workspace, 'hello']);
      assert.equal(first.code, 0, first.stderr);
      const model = await f.home.run(['run', '--workspace', f.workspace, '--continue', '/model claude-haiku-4-5']);
      assert.equal(model.code, 0, model.stderr);
      assert.match(model.stdout, /Model set to claude-haiku-4-5/);
      const cost = await f.home.run(['run', '--workspace', f.workspace, '--continue', '/cost']);
      assert.match(cost.stdout, /This session: \$[\d.]+ · [\d,]+ input.*model claude-haiku-4-5/);
      const json = await f.home.run(['run', '--json', '--workspace', f.workspace, '--continue', '/model']);
      const answer = json.events.find((event) => event.type === 'userMessage');
      assert.ok(answer?.type === 'userMessage');
      assert.equal(answer.command, 'model');
      assert.equal(answer.answer, 'This session uses claude-haiku-4-5. Switch with /model <model id>.');
      assert.equal(f.server.requests.length, 1);
    } finally {
      await f.close();
    }
  });
});

describe('/compact through cove run', () => {
  test("replaces the earlier turns with the model's summary, keeping what the person asked for; the next prompt builds on it", async () => {
    const f = await cliFixture([reply.text('The port is 8080.'), reply.text('The user asked which port the app uses; it is 8080.'), reply.text('Still 8080.')]);
    try {
      const first = await f.home.run(['run', '--workspace', f.workspace, 'Which port does the app use?']);
      assert.equal(first.code, 0, first.stderr);
      const compact = await f.home.run(['run', '--json', '--workspace', f.workspace, '--continue', '/compact the port number']);
      assert.equal(compact.code, 0, compact.stderr);
      const summaryRequest = f.server.requests[1]!.body;
      assert.deepEqual(summaryRequest.tools ?? [], []);
      const asked = JSON.stringify(summaryRequest.messages);
      assert.match(asked, /Which port does the app use\?/);
      assert.match(asked, /Keep in particular: the port number/);
      assert.ok(
        compact.events.some((event) => event.type === 'contextCompacted' && event.summarized),
        JSON.stringify(compact.events) + compact.stderr,
      );
      const answer = compact.events.find((event) => event.type === 'userMessage');
      assert.ok(answer?.type === 'userMessage' && /Conversation compacted/.test(answer.answer ?? ''), JSON.stringify(answer));

      const next = await f.home.run(['run', '--workspace', f.workspace, '--continue', 'And now?']);
      assert.equal(next.code, 0, next.stderr);
      const sent = JSON.stringify(f.server.requests[2]!.body.messages);
      assert.match(sent, /it is 8080/, 'the summary replaces the earlier turns');
      assert.doesNotMatch(sent, /Which port does the app use/, 'the compacted prompt is not sent again');
    } finally {
      await f.close();
    }
  });
});

describe('@file mentions through cove run', () => {
  test('a mentioned file is attached as read_file shows it, redacted; one outside the workspace is not', async () => {
    const f = await cliFixture([reply.text('seen')]);
    try {
      const key = 'sk-ant-api03-' + 'Zx8Qw3Rt6Yu1Io4Pa7Sd0Fg2Hj5Kl9Zx8Cv3Bn6Mq1We4Rt7Yu0Io3Pa6Sd9Fg2Hj5Kl8Zx1Cv4Bn7Mq0We3-AAAAAAAA';
      write(f.workspace, 'src/config.ts', `export const port = 8080;\nexport const key = "${key}";\n`);
      const result = await f.home.run(['run', '--json', '--workspace', f.workspace, 'why is @src/config.ts failing? compare @../outside.txt and mail me@example.com']);
      assert.equal(result.code, 0, result.stderr);
      const blocks = firstUserBlocks(f);
      assert.equal(blocks[0]!.text, 'why is @src/config.ts failing? compare @../outside.txt and mail me@example.com');
      const attached = blocks
        .slice(1)
        .map((block) => block.text ?? '')
        .join('\n');
      assert.match(attached, /<attached-file mention="@src\/config\.ts">\n\[src\/config\.ts#\w+\]\n1│export const port = 8080;/);
      assert.ok(!attached.includes(key), 'the key in the mentioned file is redacted');
      assert.doesNotMatch(attached, /outside\.txt"/);
      assert.match(result.stderr, /@\.\.\/outside\.txt is not attached: \.\.\/outside\.txt is outside the workspace/);
      const user = result.events.find((event) => event.type === 'userMessage');
      assert.ok(user?.type === 'userMessage');
      assert.deepEqual(
        user.attachments?.map((attachment) => attachment.kind === 'file' && [attachment.path, Boolean(attachment.error)]),
        [
          ['src/config.ts', false],
          ['../outside.txt', true],
        ],
      );
    } finally {
      await f.close();
    }
  });
});

describe('images through cove run', () => {
  test('--image sends image blocks; a large one is scaled down to fit and stored with the session', async () => {
    const f = await cliFixture([reply.text('a red square and a wide gradient')]);
    try {
      const small = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#ff0000' } })
        .png()
        .toBuffer();
      const wide = await sharp({ create: { width: 4000, height: 1000, channels: 3, background: '#00ff00' } })
        .jpeg()
        .toBuffer();
      write(f.workspace, 'small.png', small);
      write(f.workspace, 'shot.jpg', wide);
      const result = await f.home.run(['run', '--json', '--workspace', f.workspace, '--image', join(f.workspace, 'small.png'), '-i', join(f.workspace, 'shot.jpg'), 'what do you see?'], {
        cwd: f.workspace,
      });
      assert.equal(result.code, 0, result.stderr);
      const images = firstUserBlocks(f).filter((block) => block.type === 'image');
      assert.equal(images.length, 2);
      assert.equal(images[0]!.source!.media_type, 'image/png');
      assert.deepEqual(Buffer.from(images[0]!.source!.data, 'base64'), small);
      const scaled = await sharp(Buffer.from(images[1]!.source!.data, 'base64')).metadata();
      assert.deepEqual([scaled.width, scaled.height], [2000, 500]);
      assert.match(result.stderr, /shot\.jpg was scaled down to 2000×500/);
      const user = result.events.find((event) => event.type === 'userMessage');
      assert.ok(user?.type === 'userMessage');
      const ids = user.attachments!.flatMap((attachment) => (attachment.kind === 'image' ? [attachment.attachmentId] : []));
      assert.equal(ids.length, 2);
      assert.deepEqual(readdirSync(join(f.home.path, 'attachments', user.sessionId)).sort(), [...ids].sort());
      assert.ok(!JSON.stringify(user).includes(images[0]!.source!.data), 'events name images, they do not carry them');
    } finally {
      await f.close();
    }
  });

  test('a file that is no image, or is missing, is refused with the reason before any request', async () => {
    const f = await cliFixture([reply.text('never')]);
    try {
      write(f.workspace, 'fake.png', 'not a picture at all');
      const fake = await f.home.run(['run', '--workspace', f.workspace, '--image', join(f.workspace, 'fake.png'), 'look']);
      assert.equal(fake.code, 2);
      assert.match(fake.stderr, /fake\.png: not a PNG, JPEG, GIF or WebP image/);
      const missing = await f.home.run(['run', '--workspace', f.workspace, '--image', 'nowhere.png', 'look']);
      assert.equal(missing.code, 2);
      assert.match(missing.stderr, /--image nowhere\.png: no such file/);
      assert.equal(f.server.requests.length, 0);
    } finally {
      await f.close();
    }
  });
});
