import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { readFileTool } from '../../electron/core/tools/read-file';
import { hashTag, normalizeContent } from '../../electron/core/tools/hashline-tag';
import { makeContext, removeFolder, tempFolder, textOf, toolError } from './helpers/tool-context';

let base: string;
let root: string;

function numberedFile(count: number): string {
  return Array.from({ length: count }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
}

/** A valid 1×1 PNG, built here so the test owns its bytes. */
function tinyPng(): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (bytes: Buffer) => {
    let c = 0xffffffff;
    for (const byte of bytes) c = crcTable[(c ^ byte) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([length, body, sum]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(1, 0);
  header.writeUInt32BE(1, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // truecolor
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.from([0, 255, 0, 0]))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

before(() => {
  base = tempFolder('read');
  root = join(base, 'ws');
  mkdirSync(join(root, 'src'), { recursive: true });
  writeFileSync(join(base, 'outside.txt'), 'outside\n');
  writeFileSync(join(root, 'src', 'app.ts'), 'const a = 1;\nconst b = 2;  \n\nexport { a, b };\n');
  writeFileSync(join(root, 'long.txt'), numberedFile(5000));
  writeFileSync(join(root, 'crlf.txt'), 'one\r\ntwo\r\nthree');
  writeFileSync(join(root, 'wide.txt'), `short\n${'x'.repeat(5000)}\nend\n`);
  writeFileSync(join(root, 'empty.txt'), '');
  writeFileSync(join(root, 'binary.dat'), Buffer.from([0x41, 0x42, 0x00, 0x43, 0x0a]));
  writeFileSync(join(root, 'huge.log'), '');
  truncateSync(join(root, 'huge.log'), 1024 ** 3);
  writeFileSync(join(root, 'pixel.png'), tinyPng());
  writeFileSync(join(root, 'fake.png'), 'not really an image\n');
  writeFileSync(join(root, 'big.png'), tinyPng());
  truncateSync(join(root, 'big.png'), 6 * 1024 * 1024);
});

after(() => removeFolder(base));

const read = (params: { path: string; offset?: number; limit?: number }) => readFileTool.execute(params, makeContext([root]));

describe('read_file output', () => {
  test('header with the tag, right-aligned numbered lines, and the snapshot remembered', async () => {
    const context = makeContext([root]);
    const result = await readFileTool.execute({ path: 'src/app.ts' }, context);
    const content = 'const a = 1;\nconst b = 2;  \n\nexport { a, b };\n';
    const tag = hashTag(content);
    assert.equal(textOf(result), `[src/app.ts#${tag}]\n1│const a = 1;\n2│const b = 2;  \n3│\n4│export { a, b };`);
    assert.equal(context.snapshots.recall('src/app.ts', tag), normalizeContent(content));
    assert.deepEqual((result.details as { totalLines: number }).totalLines, 4);
  });

  test('pages a long file and says how to continue', async () => {
    const text = textOf(await read({ path: 'long.txt' }));
    const lines = text.split('\n');
    assert.equal(lines.length, 1 + 2000 + 1);
    assert.equal(lines[1], '   1│line 1');
    assert.equal(lines[2000], '2000│line 2000');
    assert.equal(lines[2001], '… 3,000 more lines; call read_file with offset=2001 to continue');
  });

  test('offset and limit pick a window', async () => {
    const lines = textOf(await read({ path: 'long.txt', offset: 4001, limit: 3 })).split('\n');
    assert.deepEqual(lines.slice(1), ['4001│line 4001', '4002│line 4002', '4003│line 4003', '… 997 more lines; call read_file with offset=4004 to continue']);
    const tail = textOf(await read({ path: 'long.txt', offset: 4999 })).split('\n');
    assert.deepEqual(tail.slice(1), ['4999│line 4999', '5000│line 5000']);
  });

  test('an offset past the end is an invalid argument naming the file', async () => {
    const error = await toolError(() => read({ path: 'long.txt', offset: 5001 }));
    assert.equal(error.kind, 'invalidArgs');
    assert.match(error.message, /long\.txt, which has 5,000 lines/);
  });

  test('CRLF lines are shown without carriage returns', async () => {
    assert.deepEqual(
      textOf(await read({ path: 'crlf.txt' }))
        .split('\n')
        .slice(1),
      ['1│one', '2│two', '3│three'],
    );
  });

  test('a very long line is cut with a marker', async () => {
    const lines = textOf(await read({ path: 'wide.txt' })).split('\n');
    assert.equal(lines[2], `2│${'x'.repeat(2000)} … [line cut: 3,000 more characters]`);
    assert.equal(lines[3], '3│end');
  });

  test('one call returns at most 256 KB, and says where to go on', async () => {
    writeFileSync(join(root, 'dense.txt'), Array.from({ length: 300 }, (_, i) => `${i + 1}`.padEnd(1000, '.')).join('\n'));
    const lines = textOf(await read({ path: 'dense.txt' })).split('\n');
    const note = lines.pop()!;
    const next = Number(/^… (\d+) more lines \(output capped at 256 KB\); call read_file with offset=(\d+) to continue$/.exec(note)?.[2]);
    assert.equal(next, lines.length);
    assert.ok(lines.join('\n').length <= 256 * 1024);
    assert.match(lines[lines.length - 1]!, new RegExp(`^${next - 1}│${next - 1}\\.`));
    const rest = textOf(await read({ path: 'dense.txt', offset: next })).split('\n');
    assert.match(rest[1]!, new RegExp(`^${next}│${next}\\.`));
  });

  test('an empty file says so', async () => {
    assert.match(textOf(await read({ path: 'empty.txt' })), /^\[empty\.txt#[0-9a-z]{6}\]\n\(empty file\)$/);
  });
});

describe('read_file refusals name the path', () => {
  test('binary', async () => {
    const error = await toolError(() => read({ path: 'binary.dat' }));
    assert.equal(error.kind, 'failed');
    assert.match(error.message, /^binary\.dat is a binary file/);
  });

  test('a sparse 1 GB file is refused by its size', async () => {
    const error = await toolError(() => read({ path: 'huge.log' }));
    assert.match(error.message, /^huge\.log is 1\.0 GB, over the 10 MB limit for text files/);
  });

  test('a directory points to list_files', async () => {
    const error = await toolError(() => read({ path: 'src' }));
    assert.match(error.message, /^src is a directory.*list_files/);
  });

  test('a missing file suggests its sibling with another extension', async () => {
    const error = await toolError(() => read({ path: 'src/app.js' }));
    assert.equal(error.kind, 'notFound');
    assert.equal(error.message, 'src/app.js does not exist; did you mean src/app.ts?');
  });

  test('outside the workspace', async () => {
    const error = await toolError(() => read({ path: '../outside.txt' }));
    assert.equal(error.message, '../outside.txt is outside the workspace');
  });

  test('permission denied', { skip: process.getuid?.() === 0 ? 'root reads everything' : false }, async () => {
    writeFileSync(join(root, 'locked.txt'), 'x');
    chmodSync(join(root, 'locked.txt'), 0o000);
    const error = await toolError(() => read({ path: 'locked.txt' }));
    assert.match(error.message, /^Permission denied: cannot read locked\.txt$/);
  });
});

describe('read_file images', () => {
  test('a PNG comes back as an image block', async () => {
    const result = await read({ path: 'pixel.png' });
    const image = result.content.find((block) => block.type === 'image');
    assert.ok(image && image.type === 'image');
    assert.equal(image.mediaType, 'image/png');
    assert.deepEqual(Buffer.from(image.data, 'base64'), tinyPng());
  });

  test('a .png that is text is read as text', async () => {
    assert.match(textOf(await read({ path: 'fake.png' })), /1│not really an image/);
  });

  test('an image over 5 MB is refused with the limit', async () => {
    const error = await toolError(() => read({ path: 'big.png' }));
    assert.match(error.message, /^big\.png is a 6\.0 MB image, over the 5\.0 MB limit for images$/);
  });
});
