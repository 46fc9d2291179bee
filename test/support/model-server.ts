// A scripted stand-in for the Anthropic Messages API on 127.0.0.1, so engine tests drive the real
// SDK over HTTP. Each POST /v1/messages takes the next scripted reply (or asks the script function).
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type Anthropic from '@anthropic-ai/sdk';
import type { ApiErrorType, MessageReply, Reply } from './model-replies';
import { contentEventCount, errorBody, messageBody, nextRequestId, sseEvent, statusForErrorType, streamEvents, type WireContext } from './model-wire';
import { flattenHeaders, parseJsonObject, readBody, sendJson } from './model-server-http';

export { block, reply } from './model-replies';
export type { ApiErrorType, MessageReply, Reply, ScriptedBlock, StopReason, Usage } from './model-replies';

export interface RecordedRequest {
  method: string;
  /** Path with query string, e.g. '/v1/messages'. */
  path: string;
  /** Header names lower-cased; repeated headers joined with ', '. */
  headers: Record<string, string>;
  body: Anthropic.MessageCreateParams;
  rawBody: string;
  /** The x-api-key header, or else the token of `authorization: Bearer` (how SDK 1.x sends apiKey). */
  apiKey: string | undefined;
  /** Becomes true when the client closes the connection before its reply is complete. */
  clientDisconnected: boolean;
}

/** What GET /v1/models answers: a list of model objects, an API error, or a body sent verbatim. */
export type ModelsAnswer = { kind: 'list'; data: unknown[] } | { kind: 'error'; status: number; errorType: ApiErrorType } | { kind: 'body'; body: string };

export interface ModelServerOptions {
  /** Without it the Models API answers 404, as a gateway without one does. */
  models?: ModelsAnswer;
  /** When set, any other key is refused with 401 authentication_error, as the real API refuses a wrong key. */
  validApiKeys?: readonly string[];
}

export type ScriptFunction = (request: RecordedRequest, index: number) => Reply | Promise<Reply>;
/** Replies consumed in order, or a function answering each authenticated request by its content. */
export type Script = Reply[] | ScriptFunction;

export interface ScriptedServer {
  /** Base URL for the SDK's baseURL / ANTHROPIC_BASE_URL, e.g. http://127.0.0.1:40123 */
  url: string;
  /** Every POST /v1/messages with a JSON body, in arrival order, including unauthenticated ones. */
  requests: RecordedRequest[];
  /** What went wrong on the server's side: script ran out or threw, unknown routes, bad bodies. */
  problems: string[];
  /** How many GET /v1/models requests arrived. */
  modelListings: number;
  waitForRequests(count: number): Promise<void>;
  /** Resolves once the client disconnects from request `requestIndex` before its reply ended. */
  waitForDisconnect(requestIndex: number): Promise<void>;
  /** Ends every open or hanging connection and cancels pending delays. */
  close(): Promise<void>;
}

interface Exchange {
  response: http.ServerResponse;
  requestId: string;
  streaming: boolean;
  signal: AbortSignal;
  context: WireContext;
}

interface Waiter {
  ready(): boolean;
  describe(): string;
  resolve(): void;
  reject(error: Error): void;
}

const eventStreamHeaders = { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' };

class ModelServer implements ScriptedServer {
  url = '';
  requests: RecordedRequest[] = [];
  problems: string[] = [];
  modelListings = 0;
  private scriptIndex = 0;
  private closing = false;
  private readonly shutdown = new AbortController();
  private readonly sockets = new Set<Socket>();
  private waiters: Waiter[] = [];
  /** Responses the server broke off on purpose, so their close is not the client leaving. */
  private readonly cutResponses = new WeakSet<http.ServerResponse>();
  readonly httpServer = http.createServer((request, response) => {
    this.handle(request, response).catch((error: unknown) => {
      if (this.closing) return;
      this.problems.push(`model server failed on ${request.method} ${request.url}: ${(error as Error).message}`);
      response.destroy();
    });
  });

  constructor(
    private readonly script: Script,
    private readonly options: ModelServerOptions = {},
  ) {
    this.httpServer.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
  }

  waitForRequests(count: number): Promise<void> {
    return this.wait(
      () => this.requests.length >= count,
      () => `${count} requests (received ${this.requests.length})`,
    );
  }

  waitForDisconnect(requestIndex: number): Promise<void> {
    return this.wait(
      () => this.requests[requestIndex]?.clientDisconnected === true,
      () => `the client to disconnect from request ${requestIndex}`,
    );
  }

  async close(): Promise<void> {
    if (!this.closing) {
      this.closing = true;
      this.shutdown.abort();
      for (const socket of this.sockets) socket.destroy();
      this.settleWaiters();
    }
    if (this.httpServer.listening) await new Promise<void>((resolve) => this.httpServer.close(() => resolve()));
  }

  private wait(ready: () => boolean, describe: () => string): Promise<void> {
    return new Promise((resolve, reject) => {
      this.waiters.push({ ready, describe, resolve, reject });
      this.settleWaiters();
    });
  }

  private settleWaiters() {
    this.waiters = this.waiters.filter((waiter) => {
      if (waiter.ready()) waiter.resolve();
      else if (this.closing) waiter.reject(new Error(`model server closed while waiting for ${waiter.describe()}`));
      else return true;
      return false;
    });
  }

  private async handle(request: http.IncomingMessage, response: http.ServerResponse) {
    const rawBody = await readBody(request);
    if (rawBody === undefined) return;
    const requestId = nextRequestId();
    const fail = (status: number, errorType: ApiErrorType, message: string, problem: boolean) => {
      if (problem) this.problems.push(message);
      // x-should-retry: false so the SDK's own retries do not hide a broken test setup.
      const headers = { 'request-id': requestId, ...(problem ? { 'x-should-retry': 'false' } : {}) };
      sendJson(response, status, errorBody(errorType, message, requestId), headers);
    };
    const path = request.url ?? '/';
    const keyOf = (headers: Record<string, string>) => headers['x-api-key'] || /^Bearer (\S+)/.exec(headers['authorization'] ?? '')?.[1];
    const refusedKey = (key: string | undefined) => key !== undefined && this.options.validApiKeys !== undefined && !this.options.validApiKeys.includes(key);
    if (request.method === 'GET' && new URL(path, 'http://127.0.0.1').pathname === '/v1/models') {
      if (refusedKey(keyOf(flattenHeaders(request.headers)))) return fail(401, 'authentication_error', 'invalid x-api-key', false);
      return this.listModels(response, requestId);
    }
    if (request.method !== 'POST' || new URL(path, 'http://127.0.0.1').pathname !== '/v1/messages') {
      const message = `model server only answers POST /v1/messages, not ${request.method} ${path}`;
      return fail(404, 'not_found_error', message, true);
    }
    const body = parseJsonObject(rawBody);
    if (body === undefined) {
      const message = `request body to ${path} is not a JSON object: ${rawBody.slice(0, 200)}`;
      return fail(400, 'invalid_request_error', message, true);
    }
    const headers = flattenHeaders(request.headers);
    const recorded: RecordedRequest = {
      method: request.method,
      path,
      headers,
      body: body as unknown as Anthropic.MessageCreateParams,
      rawBody,
      apiKey: keyOf(headers),
      clientDisconnected: false,
    };
    this.requests.push(recorded);
    const connection = new AbortController();
    const disconnected = () => {
      if (!response.writableFinished && !this.closing && !this.cutResponses.has(response)) recorded.clientDisconnected = true;
      connection.abort();
      this.settleWaiters();
    };
    if (request.socket.destroyed) disconnected();
    else response.on('close', disconnected);
    this.settleWaiters();

    if (!recorded.apiKey) {
      return fail(401, 'authentication_error', 'x-api-key header is required', false);
    }
    if (refusedKey(recorded.apiKey)) return fail(401, 'authentication_error', 'invalid x-api-key', false);
    if (!recorded.headers['anthropic-version']) {
      return fail(400, 'invalid_request_error', 'anthropic-version: header is required', false);
    }
    const index = this.scriptIndex++;
    let scripted: Reply;
    try {
      scripted = await this.replyFor(recorded, index);
    } catch (error) {
      return fail(500, 'api_error', (error as Error).message, true);
    }
    const model = typeof body['model'] === 'string' ? body['model'] : 'claude-scripted';
    const exchange: Exchange = {
      response,
      requestId,
      streaming: body['stream'] === true,
      signal: AbortSignal.any([connection.signal, this.shutdown.signal]),
      context: { model, inputTokens: Math.ceil(rawBody.length / 4) },
    };
    await this.deliver(scripted, exchange, index);
  }

  private listModels(response: http.ServerResponse, requestId: string): void {
    this.modelListings++;
    const answer = this.options.models;
    const headers = { 'request-id': requestId, 'x-should-retry': 'false' };
    if (!answer) return sendJson(response, 404, errorBody('not_found_error', 'Not found', requestId), headers);
    if (answer.kind === 'error') return sendJson(response, answer.status, errorBody(answer.errorType, 'scripted Models API error', requestId), headers);
    if (answer.kind === 'body') {
      response.writeHead(200, { 'content-type': 'application/json', ...headers });
      response.end(answer.body);
      return;
    }
    const data = answer.data as Array<{ id?: unknown }>;
    const first = data[0]?.id;
    const last = data.at(-1)?.id;
    sendJson(response, 200, { data, has_more: false, first_id: typeof first === 'string' ? first : null, last_id: typeof last === 'string' ? last : null }, headers);
  }

  private async replyFor(recorded: RecordedRequest, index: number): Promise<Reply> {
    const { script } = this;
    if (typeof script !== 'function') {
      const scripted = script[index];
      if (scripted === undefined) {
        throw new Error(`model server script ran out: request ${index + 1} (${recorded.path}) has no reply; the script has ${script.length}`);
      }
      return scripted;
    }
    try {
      return await script(recorded, index);
    } catch (error) {
      throw new Error(`model server script threw for request ${index + 1}: ${(error as Error).message}`);
    }
  }

  private async deliver(scripted: Reply, exchange: Exchange, index: number): Promise<void> {
    const { response, requestId, streaming, context } = exchange;
    if (exchange.signal.aborted) return;
    switch (scripted.kind) {
      case 'delay':
        try {
          await sleep(scripted.milliseconds, undefined, { signal: exchange.signal });
        } catch {
          return; // the client left or the server closed; nobody is waiting for the reply
        }
        return this.deliver(scripted.reply, exchange, index);
      case 'error':
        return sendJson(response, scripted.status, errorBody(scripted.errorType, scripted.message, requestId), {
          'request-id': requestId,
          ...scripted.headers,
        });
      case 'message':
        if (streaming) {
          response.writeHead(200, { ...eventStreamHeaders, 'request-id': requestId });
          response.end(streamEvents(scripted, context).join(''));
          return;
        }
        try {
          return sendJson(response, 200, messageBody(scripted, context), { 'request-id': requestId });
        } catch (error) {
          this.problems.push(`reply ${index + 1}: ${(error as Error).message}`);
          return sendJson(response, 500, errorBody('api_error', (error as Error).message, requestId), {
            'request-id': requestId,
            'x-should-retry': 'false',
          });
        }
      case 'stream-error': {
        const body = errorBody(scripted.errorType, scripted.message, requestId);
        if (!streaming) {
          return sendJson(response, statusForErrorType(scripted.errorType), body, { 'request-id': requestId });
        }
        response.writeHead(200, { ...eventStreamHeaders, 'request-id': requestId });
        response.end(this.leadingEvents(scripted, context) + sseEvent('error', body));
        return;
      }
      case 'cut':
        if (streaming) {
          response.writeHead(200, { ...eventStreamHeaders, 'request-id': requestId });
          response.flushHeaders();
          response.write(this.leadingEvents(scripted, context));
        }
        // end() sends what was written, then FIN, with the chunked body left unterminated.
        this.cutResponses.add(response);
        response.socket?.end();
        return;
      case 'raw':
        if (streaming) {
          response.writeHead(200, { ...eventStreamHeaders, 'request-id': requestId });
          response.end(scripted.body);
          return;
        }
        this.problems.push(`reply ${index + 1}: a raw event replay can only be streamed`);
        return sendJson(response, 500, errorBody('api_error', 'raw replies are streamed only', requestId), { 'request-id': requestId, 'x-should-retry': 'false' });
      case 'hang':
        if (streaming && scripted.afterEvents !== undefined) {
          response.writeHead(200, { ...eventStreamHeaders, 'request-id': requestId });
          response.flushHeaders();
          response.write(this.leadingEvents(scripted, context));
        }
        return; // left open: the client's abort or close() ends it
    }
  }

  private leadingEvents(scripted: { afterEvents: number | undefined; partial: MessageReply }, context: WireContext): string {
    const events = streamEvents(scripted.partial, context);
    return events.slice(0, scripted.afterEvents ?? contentEventCount(events)).join('');
  }
}

/** Starts a model server on 127.0.0.1 with a free port. Close it in the test's teardown. */
export async function startModelServer(script: Script, options: ModelServerOptions = {}): Promise<ScriptedServer> {
  const server = new ModelServer(script, options);
  await new Promise<void>((resolve, reject) => {
    server.httpServer.once('error', reject);
    server.httpServer.listen(0, '127.0.0.1', () => resolve());
  });
  server.url = `http://127.0.0.1:${(server.httpServer.address() as AddressInfo).port}`;
  return server;
}
