import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { MAX_IMAGE_BYTES, MAX_IMAGE_SIDE, prepareImage } from '../../electron/core/prompt/images';

describe('prompt images', () => {
  test('a small image passes unchanged', async () => {
    const png = await sharp({ create: { width: 10, height: 10, channels: 4, background: '#123456' } })
      .png()
      .toBuffer();
    const prepared = await prepareImage('a.png', png);
    assert.equal(prepared.resized, false);
    assert.equal(prepared.data, png);
    assert.equal(prepared.mediaType, 'image/png');
  });

  test('a tall screenshot is scaled to the side limit, keeping its aspect and format', async () => {
    const webp = await sharp({ create: { width: 600, height: 3000, channels: 3, background: '#00ff00' } })
      .webp()
      .toBuffer();
    const prepared = await prepareImage('tall.webp', webp);
    assert.equal(prepared.resized, true);
    assert.equal(prepared.mediaType, 'image/webp');
    assert.deepEqual([prepared.width, prepared.height], [400, MAX_IMAGE_SIDE]);
  });

  test('noise that stays too large as PNG is sent as JPEG under the byte limit', async () => {
    const side = 1900;
    const noise = await sharp(randomBytes(side * side * 3), { raw: { width: side, height: side, channels: 3 } })
      .png({ compressionLevel: 0 })
      .toBuffer();
    assert.ok(noise.length > MAX_IMAGE_BYTES, `the fixture is ${noise.length} bytes`);
    const prepared = await prepareImage('noise.png', noise);
    assert.equal(prepared.resized, true);
    assert.ok(prepared.data.length <= MAX_IMAGE_BYTES);
    assert.equal(prepared.mediaType, 'image/jpeg');
    assert.equal((await sharp(prepared.data).metadata()).format, 'jpeg');
  });

  test('a PNG header over garbage, and text, are refused with the reason', async () => {
    const header = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    await assert.rejects(prepareImage('broken.png', Buffer.concat([header, randomBytes(200)])), /broken\.png: the image\/png image cannot be decoded/);
    await assert.rejects(prepareImage('notes.png', Buffer.from('hello')), /notes\.png: not a PNG, JPEG, GIF or WebP image/);
  });
});
