// models:list through a real host: the Models API of the endpoint (the scripted server here) names
// the models Settings offers; an endpoint without one falls back to the current models.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileKeyVault } from '../../electron/core/api/api-key';
import { createHost } from '../../electron/core/api/host';
import type { ModelListView, Response } from '../../shared/contract';
import { startModelServer, type ModelsAnswer } from '../support/model-server';

async function listThrough(models: ModelsAnswer | undefined) {
  const server = await startModelServer([], models ? { models } : {});
  const dataDir = mkdtempSync(join(tmpdir(), 'cove-models-list-'));
  process.env.ANTHROPIC_BASE_URL = server.url;
  process.env.ANTHROPIC_API_KEY = 'test-key';
  const logs: string[] = [];
  const host = createHost({ dataDir, host: 'browser', version: '0.0.0-test', vault: new FileKeyVault(dataDir), log: (m) => logs.push(m) });
  try {
    const response = (await host.dispatch('models:list', {})) as Response<ModelListView>;
    return { response, logs, listings: server.modelListings };
  } finally {
    await host.close();
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

test('Settings lists what the Models API says the key can use', async () => {
  const model = (id: string) => ({ type: 'model', id, display_name: id, created_at: '2026-10-07T00:00:00Z', max_input_tokens: 1_000_000, max_tokens: 128_000 });
  const { response, listings } = await listThrough({ kind: 'list', data: [model('claude-haiku-5-5'), model('claude-sonnet-5-5')] });
  assert.ok(response.ok);
  assert.equal(response.value.source, 'api');
  assert.deepEqual(
    response.value.models.map((m) => m.id),
    ['claude-haiku-5-5', 'claude-sonnet-5-5'],
  );
  assert.equal(listings, 1);
});

test('an endpoint without a Models API offers the current models, and says so once', async () => {
  const { response, logs } = await listThrough(undefined);
  assert.ok(response.ok);
  assert.equal(response.value.source, 'builtin');
  assert.ok(response.value.models.some((m) => m.id === 'claude-sonnet-5-5'));
  assert.equal(logs.filter((line) => /Models API/.test(line)).length, 1);
});
