import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import Anthropic from '@anthropic-ai/sdk';
import { block, reply, startModelServer, type Script, type ScriptedServer } from '../support/model-server';

const params = {
  model: 'claude-test-model',
  max_tokens: 256,
  messages: [{ role: 'user' as const, content: 'Say hello' }],
};

async function withServer(script: Script, run: (server: ScriptedServer, client: Anthropic) => Promise<void>) {
  const server = await startModelServer(script);
  try {
    await run(server, new Anthropic({ apiKey: 'test-key', baseURL: server.url, maxRetries: 0 }));
  } finally {
    await server.close();
  }
}

async function collectEvents(stream: AsyncIterable<Anthropic.MessageStreamEvent>) {
  const events: Anthropic.MessageStreamEvent[] = [];
  let error: unknown;
  try {
    for await (const event of stream) events.push(event);
  } catch (caught) {
    error = caught;
  }
  return { events, error };
}

describe('model server streaming', () => {
  test('streams text in the requested number of deltas with stop reason and usage', async () => {
    const usage = { input_tokens: 42, output_tokens: 7, cache_read_input_tokens: 5 };
    await withServer([reply.text('Hello from the scripted model', { chunks: 4, usage })], async (_server, client) => {
      const deltas: string[] = [];
      const stream = client.messages.stream(params).on('text', (delta) => deltas.push(delta));
      const message = await stream.finalMessage();
      assert.equal(deltas.length, 4);
      assert.equal(deltas.join(''), 'Hello from the scripted model');
      assert.deepEqual(
        message.content.map((content) => content.type),
        ['text'],
      );
      assert.equal(message.stop_reason, 'end_turn');
      assert.equal(message.model, 'claude-test-model');
      assert.match(message.id, /^msg_/);
      assert.deepEqual(message.usage, { ...usage, cache_creation_input_tokens: 0 });
    });
  });

  test('thinking, text and tool_use blocks arrive as the SDK parses them', async () => {
    const input = { path: 'src/a.ts', lines: [1, 2], nested: { deep: 'ünïcode 🙂' } };
    const script = [
      reply.message([
        block.thinking('Let me look at the file first.', { signature: 'sig-abc' }),
        block.text('Reading it now.'),
        block.toolUse('read_file', input, { chunks: 5 }),
        block.toolUse('list_files', {}, { id: 'toolu_given' }),
      ]),
      reply.message([block.toolUse('read_file', input)]),
    ];
    await withServer(script, async (_server, client) => {
      const first = await client.messages.stream(params).finalMessage();
      assert.equal(first.stop_reason, 'tool_use');
      const [thinking, text, toolUse, given] = first.content;
      assert.deepEqual(thinking, { type: 'thinking', thinking: 'Let me look at the file first.', signature: 'sig-abc' });
      assert.equal(text?.type === 'text' && text.text, 'Reading it now.');
      assert.ok(toolUse?.type === 'tool_use' && given?.type === 'tool_use');
      assert.deepEqual(toolUse.input, input);
      assert.equal(toolUse.name, 'read_file');
      assert.match(toolUse.id, /^toolu_/);
      assert.equal(given.id, 'toolu_given');
      assert.deepEqual(given.input, {});
      const second = await client.messages.stream(params).finalMessage();
      const secondToolUse = second.content[0];
      assert.notEqual(second.id, first.id);
      assert.ok(secondToolUse?.type === 'tool_use');
      assert.notEqual(secondToolUse.id, toolUse.id);
    });
  });

  test('the wire carries the API event sequence, including ping and an empty first input_json_delta', async () => {
    await withServer([reply.message([block.toolUse('bash', { command: 'ls' }, { chunks: 2 })])], async (server) => {
      const response = await fetch(`${server.url}/v1/messages`, {
        method: 'POST',
        headers: { 'x-api-key': 'k', 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
        body: JSON.stringify({ ...params, stream: true }),
      });
      assert.match(response.headers.get('content-type') ?? '', /^text\/event-stream/);
      const records = (await response.text()).split('\n\n').filter(Boolean);
      const parsed = records.map((record) => {
        const [eventLine, dataLine, ...rest] = record.split('\n');
        assert.deepEqual(rest, []);
        const data = JSON.parse(dataLine!.replace(/^data: /, '')) as { type: string; delta?: { partial_json?: string } };
        assert.equal(eventLine, `event: ${data.type}`);
        return data;
      });
      assert.deepEqual(
        parsed.map((data) => data.type),
        ['message_start', 'content_block_start', 'ping', 'content_block_delta', 'content_block_delta', 'content_block_delta', 'content_block_stop', 'message_delta', 'message_stop'],
      );
      assert.deepEqual(
        parsed.slice(3, 6).map((data) => data.delta?.partial_json),
        ['', '{"comman', 'd":"ls"}'],
      );
    });
  });

  test('rawToolUse streams invalid JSON verbatim', async () => {
    const script = [reply.message([block.rawToolUse('bash', '{"command": "ls"', { chunks: 3 })])];
    await withServer(script, async (_server, client) => {
      const stream = await client.messages.create({ ...params, stream: true });
      const { events, error } = await collectEvents(stream);
      assert.equal(error, undefined);
      const json = events.flatMap((event) => (event.type === 'content_block_delta' && event.delta.type === 'input_json_delta' ? [event.delta.partial_json] : []));
      assert.equal(json.join(''), '{"command": "ls"');
      assert.equal(json.length, 4);
    });
  });

  test('manyDeltas delivers every delta', async () => {
    await withServer([reply.manyDeltas(20_000, { delta: 'ab ' })], async (_server, client) => {
      let count = 0;
      const message = await client.messages
        .stream(params)
        .on('text', () => count++)
        .finalMessage();
      assert.equal(count, 20_000);
      assert.equal(message.content[0]?.type === 'text' && message.content[0].text.length, 60_000);
    });
  });
});

describe('model server plain replies and recording', () => {
  test('answers stream:false with a full message and records the request', async () => {
    const script = [reply.message([block.text('plain'), block.toolUse('grep', { pattern: 'x' })])];
    await withServer(script, async (server, client) => {
      const message = await client.messages.create({ ...params, system: 'be brief' });
      assert.equal(message.content[0]?.type === 'text' && message.content[0].text, 'plain');
      assert.deepEqual(message.content[1]?.type === 'tool_use' && message.content[1].input, { pattern: 'x' });
      assert.equal(message.stop_reason, 'tool_use');
      const [recorded] = server.requests;
      assert.equal(server.requests.length, 1);
      assert.equal(recorded?.path, '/v1/messages');
      assert.equal(recorded?.apiKey, 'test-key');
      assert.match(recorded?.headers['anthropic-version'] ?? '', /^\d{4}-\d{2}-\d{2}$/);
      assert.equal(recorded?.body.system, 'be brief');
      assert.deepEqual(recorded?.body.messages, params.messages);
      assert.equal(message.usage.input_tokens, Math.ceil(recorded!.rawBody.length / 4));
    });
  });

  test('a script function answers from what was sent, with the request index', async () => {
    const script: Script = (request, index) => reply.text(`${index}:${request.body.system === 'summarise' ? 'summary' : 'answer'}`);
    await withServer(script, async (_server, client) => {
      const first = await client.messages.create({ ...params, system: 'summarise' });
      const second = await client.messages.create(params);
      assert.equal(first.content[0]?.type === 'text' && first.content[0].text, '0:summary');
      assert.equal(second.content[0]?.type === 'text' && second.content[0].text, '1:answer');
    });
  });

  test('a request without a key gets 401 and does not consume the script', async () => {
    await withServer([reply.text('for the keyed request')], async (server, client) => {
      const response = await fetch(`${server.url}/v1/messages`, {
        method: 'POST',
        headers: { 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
        body: JSON.stringify(params),
      });
      assert.equal(response.status, 401);
      assert.deepEqual(((await response.json()) as { error: unknown }).error, {
        type: 'authentication_error',
        message: 'x-api-key header is required',
      });
      const message = await client.messages.create(params);
      assert.equal(message.content[0]?.type === 'text' && message.content[0].text, 'for the keyed request');
      assert.equal(server.requests.length, 2);
    });
  });

  test('running out of script is a 500 naming the cause, and listed in problems', async () => {
    await withServer([reply.text('only one')], async (server, client) => {
      await client.messages.create(params);
      await assert.rejects(client.messages.create(params), (error: unknown) => {
        assert.ok(error instanceof Anthropic.InternalServerError);
        assert.match(error.message, /script ran out: request 2/);
        return true;
      });
      assert.equal(server.problems.length, 1);
      assert.match(server.problems[0]!, /script ran out/);
    });
  });

  test('unknown routes and a throwing script function are errors listed in problems', async () => {
    const script: Script = () => {
      throw new Error('no reply for this task');
    };
    await withServer(script, async (server, client) => {
      const response = await fetch(`${server.url}/v1/complete`, { headers: { 'x-api-key': 'k' } });
      assert.equal(response.status, 404);
      await response.body?.cancel();
      await assert.rejects(client.messages.create(params), /script threw for request 1: no reply for this task/);
      assert.equal(server.problems.length, 2);
      assert.match(server.problems[0]!, /not GET \/v1\/complete/);
      assert.deepEqual(server.requests.length, 1);
    });
  });
});

describe('model server failures', () => {
  const cases = [
    { status: 429, type: 'rate_limit_error', errorClass: Anthropic.RateLimitError },
    { status: 529, type: 'overloaded_error', errorClass: Anthropic.OverloadedError },
    { status: 500, type: 'api_error', errorClass: Anthropic.InternalServerError },
    { status: 400, type: 'invalid_request_error', errorClass: Anthropic.BadRequestError },
    { status: 401, type: 'authentication_error', errorClass: Anthropic.AuthenticationError },
  ] as const;
  for (const { status, type, errorClass } of cases) {
    test(`error ${status} raises the SDK's ${errorClass.name}`, async () => {
      await withServer([reply.error(status, type, `failure ${status}`, { retryAfter: 7 })], async (_server, client) => {
        await assert.rejects(client.messages.stream(params).finalMessage(), (error: unknown) => {
          assert.ok(error instanceof errorClass);
          assert.equal(error.status, status);
          assert.equal(error.type, type);
          assert.equal(error.apiMessage, `failure ${status}`);
          assert.equal(error.headers?.get('retry-after'), '7');
          return true;
        });
      });
    });
  }

  test('a stream error event raises an APIError of its type after the earlier deltas', async () => {
    await withServer([reply.streamError('overloaded_error', 'Overloaded')], async (_server, client) => {
      const { events, error } = await collectEvents(await client.messages.create({ ...params, stream: true }));
      assert.ok(error instanceof Anthropic.APIError);
      assert.equal(error.type, 'overloaded_error');
      assert.equal(events.filter((event) => event.type === 'content_block_delta').length, 3);
      assert.ok(!events.some((event) => event.type === 'message_delta'));
    });
  });

  test('a cut stream makes the SDK throw after exactly the events sent', async () => {
    await withServer([reply.cut({ afterEvents: 4 })], async (server, client) => {
      const { events, error } = await collectEvents(await client.messages.create({ ...params, stream: true }));
      assert.ok(error instanceof Error);
      assert.deepEqual(
        events.map((event) => event.type),
        ['message_start', 'content_block_start', 'content_block_delta'],
      );
      assert.equal(server.requests[0]?.clientDisconnected, false);
    });
  });

  for (const afterEvents of [undefined, 3]) {
    test(`a hang (afterEvents ${afterEvents}) ends when the client aborts, and the server sees it`, async () => {
      await withServer([reply.hang({ afterEvents })], async (server, client) => {
        const abort = new AbortController();
        const pending = client.messages.stream(params, { signal: abort.signal }).finalMessage();
        await server.waitForRequests(1);
        abort.abort();
        await assert.rejects(pending, Anthropic.APIUserAbortError);
        await server.waitForDisconnect(0);
        assert.equal(server.requests[0]?.clientDisconnected, true);
      });
    });
  }

  test('a delayed reply lets a later request finish first', async () => {
    await withServer([reply.delay(500, reply.text('slow')), reply.text('fast')], async (server, client) => {
      const finished: string[] = [];
      const record = (promise: Promise<Anthropic.Message>) => promise.then((message) => finished.push(message.content[0]?.type === 'text' ? message.content[0].text : ''));
      const slow = record(client.messages.create(params));
      await server.waitForRequests(1);
      await Promise.all([slow, record(client.messages.create(params))]);
      assert.deepEqual(finished, ['fast', 'slow']);
    });
  });

  test('close ends hanging and delayed requests promptly and rejects waiters', async () => {
    const server = await startModelServer([reply.hang(), reply.delay(600_000, reply.text('never'))]);
    const client = new Anthropic({ apiKey: 'k', baseURL: server.url, maxRetries: 0 });
    const hanging = assert.rejects(client.messages.create(params), Anthropic.APIConnectionError);
    await server.waitForRequests(1);
    const delayed = assert.rejects(client.messages.create(params), Anthropic.APIConnectionError);
    await server.waitForRequests(2);
    const waiting = assert.rejects(server.waitForRequests(3), /closed while waiting for 3 requests \(received 2\)/);
    const started = Date.now();
    await server.close();
    await Promise.all([hanging, delayed, waiting]);
    assert.ok(Date.now() - started < 5_000);
    assert.deepEqual(server.problems, []);
  });
});
