// The renderer is an ES module bundle whose highlighter is a chunk under chunks/: a module script
// with any other MIME type than JavaScript is refused by the browser, so both hosts must serve
// the built chunk files as JavaScript. index.html preloads the first screen's chunks and lists
// (without fetching) the session view's shared chunks for its prefetch.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveRendererFile } from '../../electron/desktop/renderer-files';
import { resolveAsset } from '../../electron/web/static-files';

describe('chunks of the renderer bundle', () => {
  let root: string;
  before(() => {
    root = mkdtempSync(join(tmpdir(), 'cove-chunks-'));
    mkdirSync(join(root, 'chunks'));
    writeFileSync(join(root, 'chunks', 'highlight-engine-ABC123.js'), 'export const x = 1;');
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  test('the desktop app:// scheme serves a chunk as JavaScript', () => {
    const file = resolveRendererFile('app://cove/chunks/highlight-engine-ABC123.js', root);
    assert.ok('contentType' in file, JSON.stringify(file));
    assert.match(file.contentType, /^text\/javascript/);
    assert.equal(file.path, join(root, 'chunks', 'highlight-engine-ABC123.js'));
  });

  test('cove serve serves a chunk as JavaScript', async () => {
    const asset = await resolveAsset(root, '/chunks/highlight-engine-ABC123.js');
    assert.equal(asset.kind, 'file');
    assert.match(asset.kind === 'file' ? asset.contentType : '', /^text\/javascript/);
  });

  test(
    'a built renderer loads as a module and names only chunks it ships',
    { skip: existsSync('dist/renderer/index.html') ? false : 'the renderer is not built (node scripts/build.mjs)' },
    () => {
      assert.match(readFileSync('dist/renderer/index.html', 'utf8'), /<script type="module" src="\.\/app\.js"><\/script>/);
      const shipped = new Set(readdirSync('dist/renderer/chunks'));
      const sources = ['dist/renderer/app.js', ...[...shipped].map((name) => join('dist/renderer/chunks', name))].map((path) => readFileSync(path, 'utf8'));
      // app.js names its chunks as chunks/x.js; chunks name each other as ./x.js.
      const named = sources.flatMap((source) => [...source.matchAll(/(?:chunks\/|\.\/)([\w-]+\.js)/g)].map((match) => match[1]!));
      assert.ok(
        named.some((name) => name.startsWith('highlight-engine-')),
        'the bundle imports the highlighter chunk',
      );
      for (const name of named) assert.ok(shipped.has(name), `${name} is in dist/renderer/chunks`);
    },
  );

  test(
    'index.html preloads the chunks of the first screen, and only chunks it ships',
    { skip: existsSync('dist/renderer/index.html') ? false : 'the renderer is not built (node scripts/build.mjs)' },
    () => {
      const html = readFileSync('dist/renderer/index.html', 'utf8');
      const preloaded = [...html.matchAll(/<link rel="modulepreload" href="\.\/chunks\/([\w-]+\.js)" \/>/g)].map((match) => match[1]!);
      const shipped = new Set(readdirSync('dist/renderer/chunks'));
      assert.ok(
        preloaded.some((name) => name.startsWith('mount-')),
        `the interface's chunk is preloaded: ${preloaded.join(', ')}`,
      );
      assert.ok(!preloaded.some((name) => name.startsWith('highlight-engine-') || name.startsWith('SettingsDialog-')), 'chunks used later are not preloaded');
      for (const name of preloaded) assert.ok(shipped.has(name), `${name} is in dist/renderer/chunks`);
      // Each hint is before the entry's script, so the downloads start together.
      assert.ok(html.lastIndexOf('modulepreload') < html.indexOf('src="./app.js"'));
      // The session view's shared chunks are listed for its prefetch, not fetched with the first screen.
      const listed = /<meta name="cove-chunk-files" data-chunk="sessionView" content="([^"]*)"/.exec(html)?.[1]?.split(' ').filter(Boolean) ?? [];
      assert.ok(listed.length > 0, "index.html lists the session view's shared chunks");
      for (const file of listed) {
        const name = file.replace(/^chunks\//, '');
        assert.ok(shipped.has(name), `${name} is in dist/renderer/chunks`);
        assert.ok(!preloaded.includes(name), `${name} is not preloaded with the first screen`);
      }
    },
  );
});
