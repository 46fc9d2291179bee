// The model catalog against the scripted server's GET /v1/models, through the real SDK, with its
// cache as a real file in a temporary COVE_HOME.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { CATALOG_FILE, EMPTY_CATALOG, loadCatalog, modelChoices } from '../../electron/core/agent/model-catalog';
import { startModelServer, type ModelsAnswer } from '../support/model-server';

// The Models API object, as documented for GET /v1/models.
function apiModel(id: string, window: number, output: number, adaptive: boolean) {
  return {
    type: 'model',
    id,
    display_name: id.replace('claude-', 'Claude '),
    created_at: '2026-09-28T00:00:00Z',
    max_input_tokens: window,
    max_tokens: output,
    capabilities: { thinking: { supported: true, types: { adaptive: { supported: adaptive }, enabled: { supported: !adaptive } } } },
  };
}

async function withCatalog(
  models: ModelsAnswer | undefined,
  run: (load: (now?: number) => ReturnType<typeof loadCatalog>, logs: string[], home: string, listings: () => number) => Promise<void>,
) {
  const server = await startModelServer([], models ? { models } : {});
  const home = mkdtempSync(join(tmpdir(), 'cove-catalog-'));
  const logs: string[] = [];
  const client = new Anthropic({ apiKey: 'k', baseURL: server.url, maxRetries: 0 });
  try {
    await run(
      (now) => loadCatalog({ client, coveHome: home, now, log: (m) => logs.push(m) }),
      logs,
      home,
      () => server.modelListings,
    );
  } finally {
    await server.close();
    rmSync(home, { recursive: true, force: true });
  }
}

test('the Models API gives window, output limit and thinking; the answer is cached for a day', async () => {
  const answer: ModelsAnswer = { kind: 'list', data: [apiModel('claude-sonnet-5-5', 1_000_000, 128_000, true), apiModel('claude-gateway-x', 64_000, 4_096, false)] };
  await withCatalog(answer, async (load, logs, home, listings) => {
    const catalog = await load(1_000);
    assert.equal(catalog.origin, 'api');
    assert.deepEqual(catalog.spec('claude-sonnet-5-5'), {
      id: 'claude-sonnet-5-5',
      displayName: 'Claude sonnet-5-5',
      contextWindow: 1_000_000,
      maxOutput: 128_000,
      thinking: 'adaptive',
      source: 'api',
    });
    assert.equal(catalog.spec('claude-gateway-x').contextWindow, 64_000);
    assert.equal(catalog.spec('claude-gateway-x').thinking, 'enabled');
    assert.deepEqual(
      catalog.list().map((m) => m.id),
      ['claude-sonnet-5-5', 'claude-gateway-x'],
    );
    assert.equal(JSON.parse(readFileSync(join(home, CATALOG_FILE), 'utf8')).models.length, 2);
    const again = await load(1_000 + 60 * 60 * 1000);
    assert.equal(again.origin, 'cache');
    assert.equal(listings(), 1);
    await load(1_000 + 25 * 60 * 60 * 1000);
    assert.equal(listings(), 2, 'a day-old cache is refreshed');
    assert.deepEqual(logs, []);
  });
});

test('without a Models API (a gateway, Ollama) the table and safe defaults apply, said once', async () => {
  await withCatalog(undefined, async (load, logs, _home, listings) => {
    const catalog = await load(0);
    assert.equal(catalog.origin, 'none');
    assert.equal(catalog.spec('claude-opus-5-5').source, 'table');
    assert.equal(catalog.spec('claude-opus-5-5').contextWindow, 1_000_000);
    const unknown = catalog.spec('qwen3-coder:30b');
    assert.deepEqual({ ...unknown }, { id: 'qwen3-coder:30b', displayName: 'qwen3-coder:30b', contextWindow: 200_000, maxOutput: 8_192, thinking: 'none', source: 'default' });
    assert.equal(logs.length, 1);
    assert.match(logs[0]!, /Models API .* did not answer .*built-in limits and prices/);
    // The next runs within the hour neither ask again nor say it again.
    await load(30 * 60 * 1000);
    assert.equal(listings(), 1);
    assert.equal(logs.length, 1);
    await load(2 * 60 * 60 * 1000);
    assert.equal(listings(), 2);
  });
});

for (const [name, answer] of [
  ['garbage JSON', { kind: 'body', body: '{"data": [ not json' }],
  ['entries of the wrong shape', { kind: 'list', data: [{ id: 7 }, 'claude', null] }],
  ['a server error', { kind: 'error', status: 500, errorType: 'api_error' }],
] as Array<[string, ModelsAnswer]>) {
  test(`a Models API answering ${name} falls back to the cache, saying so once`, async () => {
    await withCatalog(answer, async (load, logs, home) => {
      writeFileSync(join(home, CATALOG_FILE), JSON.stringify({ fetchedAt: 0, baseURL: 'elsewhere', models: [] }));
      const none = await load(5 * 24 * 60 * 60 * 1000);
      assert.equal(none.origin, 'none', 'a cache of another endpoint is not used');
      assert.equal(logs.length, 1);
    });
  });
}

test('a stale cache is used offline, and one malformed cached entry does not cost the others', async () => {
  await withCatalog({ kind: 'error', status: 529, errorType: 'overloaded_error' }, async (load, logs, home) => {
    assert.equal((await load(0)).origin, 'none');
    // The cache names the endpoint it came from; write one for this endpoint, ten days old.
    const endpoint = logs[0]!.match(/Models API at (\S+) /)![1]!;
    const models = [apiModel('claude-sonnet-5-5', 900_000, 100_000, true), { id: '' }];
    writeFileSync(join(home, CATALOG_FILE), JSON.stringify({ fetchedAt: 0, baseURL: endpoint, models }));
    logs.length = 0;
    const catalog = await load(10 * 24 * 60 * 60 * 1000);
    assert.equal(catalog.origin, 'cache');
    assert.equal(catalog.spec('claude-sonnet-5-5').contextWindow, 900_000);
    assert.equal(logs.length, 1);
    assert.match(logs[0]!, /using the cached catalog/);
  });
});

test('Settings offers the models the key can use, or the current ones when no Models API answered', async () => {
  await withCatalog({ kind: 'list', data: [apiModel('claude-opus-5-5', 1_000_000, 128_000, true), apiModel('claude-internal-x', 50_000, 4_000, false)] }, async (load) => {
    const view = modelChoices(await load());
    assert.equal(view.source, 'api');
    assert.deepEqual(
      view.models.map((m) => [m.id, m.priced, m.contextWindow]),
      [
        ['claude-opus-5-5', true, 1_000_000],
        ['claude-internal-x', false, 50_000],
      ],
    );
  });
  const builtin = modelChoices(EMPTY_CATALOG);
  assert.equal(builtin.source, 'builtin');
  assert.deepEqual(
    builtin.models.map((m) => m.id),
    ['claude-fable-5-1', 'claude-opus-5-5', 'claude-sonnet-5-5', 'claude-haiku-5-5'],
  );
});
