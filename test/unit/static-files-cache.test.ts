// cove serve keeps the renderer's files in memory, but a file rewritten on disk (a rebuild while
// it runs) is served as it now is, never as it was.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assetResponse, resolveAsset } from '../../electron/web/static-files';

let root: string;
before(() => {
  root = mkdtempSync(join(tmpdir(), 'cove-static-'));
});
after(() => rmSync(root, { recursive: true, force: true }));

async function body(pathname: string): Promise<string> {
  const asset = await resolveAsset(root, pathname);
  assert.equal(asset.kind, 'file');
  if (asset.kind !== 'file') return '';
  return String((await assetResponse(asset, undefined)).body);
}

test('a rewritten file is served with its new content, of another size or of the same size', async () => {
  const file = join(root, 'app.js');
  writeFileSync(file, 'export const version = 1;');
  assert.equal(await body('/app.js'), 'export const version = 1;');
  assert.equal(await body('/app.js'), 'export const version = 1;', 'served again from memory, unchanged');
  writeFileSync(file, 'export const version = 22;');
  assert.equal(await body('/app.js'), 'export const version = 22;');
  writeFileSync(file, 'export const version = 33;');
  // Same size: the modification time tells the versions apart.
  const later = new Date(Date.now() + 5_000);
  utimesSync(file, later, later);
  assert.equal(await body('/app.js'), 'export const version = 33;');
});

test('index.html is kept too, and is still never cached by the browser', async () => {
  writeFileSync(join(root, 'index.html'), '<!doctype html><p>one</p>');
  const asset = await resolveAsset(root, '/');
  assert.equal(asset.kind === 'file' && asset.isIndex, true);
  if (asset.kind !== 'file') return;
  const answer = await assetResponse(asset, undefined);
  assert.equal(answer.headers['cache-control'], 'no-store');
  assert.equal(String(answer.body), '<!doctype html><p>one</p>');
});
