/**
 * What Cove knows of each model: its context window, output limit and thinking support. The
 * Models API (`GET /v1/models`) is the authority; its answer is cached in COVE_HOME for a day and
 * used from there when the API cannot be reached. Where neither knows a model, the price table's
 * limits apply, and for a model nobody knows (a gateway's or Ollama's), safe defaults: a small
 * window, a modest output limit and no thinking parameter, which any Messages endpoint accepts.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type Anthropic from '@anthropic-ai/sdk';
import { z } from 'zod';
import type { ModelListView } from '../../../shared/contract';
import { PRICE_TABLE, priceRow, type ThinkingSupport } from './pricing';
import { describeFailure } from './retry';

export interface ModelSpec {
  id: string;
  displayName: string;
  contextWindow: number;
  maxOutput: number;
  thinking: ThinkingSupport;
  /** Where the limits came from. */
  source: 'api' | 'table' | 'default';
}

export const CATALOG_FILE = 'model-catalog.json';
const DAY_MS = 24 * 60 * 60 * 1000;
/** After a failed listing the API is asked again only this much later, so a gateway without one is not told off on every run. */
const RETRY_AFTER_FAILURE_MS = 60 * 60 * 1000;
const FETCH_TIMEOUT_MS = 10_000;

export const UNKNOWN_LIMITS = { contextWindow: 200_000, maxOutput: 8_192, thinking: 'none' as ThinkingSupport };

// Each entry is read on its own: one malformed model does not cost the others.
const supported = z.object({ supported: z.boolean() }).partial();
const apiModel = z.object({
  id: z.string().min(1),
  display_name: z.string().optional(),
  max_input_tokens: z.number().int().positive().nullish(),
  max_tokens: z.number().int().positive().nullish(),
  capabilities: z
    .object({
      thinking: z
        .object({ supported: z.boolean().optional(), types: z.object({ adaptive: supported.optional(), enabled: supported.optional() }).partial().optional() })
        .partial()
        .optional(),
    })
    .partial()
    .nullish(),
});
type ApiModel = z.infer<typeof apiModel>;

const cacheFile = z.object({ fetchedAt: z.number(), baseURL: z.string(), models: z.array(z.unknown()), failedAt: z.number().optional() });
type Cache = { fetchedAt: number; models: ApiModel[]; failedAt?: number };

function thinkingOf(model: ApiModel): ThinkingSupport | undefined {
  const thinking = model.capabilities?.thinking;
  if (!thinking) return undefined;
  if (thinking.types?.adaptive?.supported) return 'adaptive';
  if (thinking.types?.enabled?.supported || thinking.supported) return 'enabled';
  return 'none';
}

/** Valid entries of a Models API page or cache, and how many were not. */
export function parseModels(entries: readonly unknown[]): { models: ApiModel[]; rejected: number } {
  const models: ApiModel[] = [];
  let rejected = 0;
  for (const entry of entries) {
    const parsed = apiModel.safeParse(entry);
    if (parsed.success) models.push(parsed.data);
    else rejected++;
  }
  return { models, rejected };
}

export class ModelCatalog {
  private readonly byId: Map<string, ApiModel>;

  constructor(
    readonly models: readonly ApiModel[],
    /** How the catalog was obtained, for Settings and logs. */
    readonly origin: 'api' | 'cache' | 'none',
  ) {
    this.byId = new Map(models.map((model) => [model.id, model]));
  }

  spec(id: string): ModelSpec {
    const table = priceRow(id);
    const api = this.byId.get(id);
    if (api) {
      return {
        id,
        displayName: api.display_name ?? id,
        contextWindow: api.max_input_tokens ?? table?.contextWindow ?? UNKNOWN_LIMITS.contextWindow,
        maxOutput: api.max_tokens ?? table?.maxOutput ?? UNKNOWN_LIMITS.maxOutput,
        thinking: thinkingOf(api) ?? table?.thinking ?? UNKNOWN_LIMITS.thinking,
        source: 'api',
      };
    }
    if (table) return { id, displayName: id, contextWindow: table.contextWindow, maxOutput: table.maxOutput, thinking: table.thinking, source: 'table' };
    return { id, displayName: id, ...UNKNOWN_LIMITS, source: 'default' };
  }

  /** The models the key can use, as the Models API listed them; empty when it never answered. */
  list(): ModelSpec[] {
    return this.models.map((model) => this.spec(model.id));
  }
}

export const EMPTY_CATALOG = new ModelCatalog([], 'none');

export interface LoadCatalogOptions {
  client: Pick<Anthropic, 'models' | 'baseURL'>;
  coveHome: string;
  now?: number;
  /** Told once when the API could not be used, with what Cove uses instead. */
  log(message: string): void;
}

function readCache(path: string, baseURL: string): Cache | undefined {
  try {
    const parsed = cacheFile.safeParse(JSON.parse(readFileSync(path, 'utf8')));
    // A cache of another endpoint describes other models.
    if (!parsed.success || parsed.data.baseURL !== baseURL) return undefined;
    return { fetchedAt: parsed.data.fetchedAt, models: parseModels(parsed.data.models).models, failedAt: parsed.data.failedAt };
  } catch {
    return undefined;
  }
}

function writeCache(path: string, baseURL: string, cache: Cache, log: (message: string) => void): void {
  try {
    mkdirSync(dirname(path), { recursive: true });
    const temporary = `${path}.${process.pid}.tmp`;
    writeFileSync(temporary, JSON.stringify({ ...cache, baseURL }), { mode: 0o600 });
    renameSync(temporary, path);
  } catch (error) {
    log(`the model catalog could not be cached in ${path}: ${(error as Error).message}`);
  }
}

async function fetchModels(client: LoadCatalogOptions['client']): Promise<{ models: ApiModel[]; rejected: number; seen: number }> {
  const entries: unknown[] = [];
  const signal = AbortSignal.timeout(FETCH_TIMEOUT_MS);
  for await (const model of client.models.list({ limit: 1000 }, { signal, maxRetries: 1 })) entries.push(model);
  return { ...parseModels(entries), seen: entries.length };
}

/** The catalog for this endpoint: the cache when it is under a day old, else the Models API, else the stale cache. */
export async function loadCatalog(options: LoadCatalogOptions): Promise<ModelCatalog> {
  const path = join(options.coveHome, CATALOG_FILE);
  const baseURL = options.client.baseURL;
  const now = options.now ?? Date.now();
  const cached = readCache(path, baseURL);
  const usable = cached && cached.models.length > 0 ? new ModelCatalog(cached.models, 'cache') : EMPTY_CATALOG;
  if (cached && now - cached.fetchedAt < DAY_MS && cached.models.length > 0) return usable;
  // The failure was already reported; until it is worth asking again, the fallback stands quietly.
  if (cached?.failedAt !== undefined && now - cached.failedAt < RETRY_AFTER_FAILURE_MS) return usable;
  let reason: string;
  try {
    const fetched = await fetchModels(options.client);
    if (fetched.models.length > 0) {
      if (fetched.rejected > 0) options.log(`the Models API listed ${fetched.rejected} model(s) Cove could not read; they are left out`);
      writeCache(path, baseURL, { fetchedAt: now, models: fetched.models }, options.log);
      return new ModelCatalog(fetched.models, 'api');
    }
    reason = fetched.seen > 0 ? 'answered with no model Cove could read' : 'listed no models';
  } catch (error) {
    reason = `did not answer (${describeFailure(error).message})`;
  }
  const fallback = usable.origin === 'cache' ? 'the cached catalog' : 'built-in limits and prices';
  options.log(`the Models API at ${baseURL} ${reason}; using ${fallback}`);
  writeCache(path, baseURL, { fetchedAt: cached?.fetchedAt ?? 0, models: cached?.models ?? [], failedAt: now }, options.log);
  return usable;
}

/**
 * One catalog per process, loaded when a run first needs it and again once it is a day old.
 * Never rejects: a client that cannot be built (no key yet) gives the built-in limits.
 */
export function catalogSource(options: Omit<LoadCatalogOptions, 'client' | 'now'> & { client(): LoadCatalogOptions['client'] }): () => Promise<ModelCatalog> {
  let loaded: { at: number; catalog: Promise<ModelCatalog> } | undefined;
  return () => {
    if (!loaded || Date.now() - loaded.at >= DAY_MS) {
      const catalog = Promise.resolve()
        .then(() => loadCatalog({ client: options.client(), coveHome: options.coveHome, log: options.log }))
        .catch(() => EMPTY_CATALOG);
      loaded = { at: Date.now(), catalog };
    }
    return loaded.catalog;
  };
}

/** What Settings offers: the models the key can use when the Models API answered, else the current ones of the price table. */
export function modelChoices(catalog: ModelCatalog): ModelListView {
  const listed = catalog.list();
  const specs = listed.length > 0 ? listed : PRICE_TABLE.filter((row) => row.status === 'current').map((row) => catalog.spec(row.id));
  return {
    source: listed.length > 0 ? 'api' : 'builtin',
    models: specs.map((spec) => ({ id: spec.id, displayName: spec.displayName, contextWindow: spec.contextWindow, maxOutput: spec.maxOutput, priced: priceRow(spec.id) !== undefined })),
  };
}
