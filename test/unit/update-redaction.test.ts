/**
 * A tool's streamed update is redacted once, with the session's set, where it is made (by the
 * agent, or by the tool itself when it says so), and published without a second pass over the
 * same text; the events that reach listeners and the store hold no secret either way.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import type { CoveEvent } from '../../shared/events';
import type { SecretRedactor } from '../../electron/core/agent/types';
import { SessionManager } from '../../electron/core/sessions/session-manager';
import { createSessionGate } from '../../electron/core/permissions';
import { SecretSet } from '../../electron/core/secrets';
import { openStore } from '../../electron/core/store';
import { block, reply, startModelServer } from '../support/model-server';
import { testTool } from '../support/engine';

const SECRET = 'walrus-tusk-9f83h2k1x';

test("each update's text passes the session's secret set once, and nothing published or stored holds the secret", async () => {
  const workspace = mkdtempSync(join(tmpdir(), 'cove-update-redaction-'));
  const home = mkdtempSync(join(tmpdir(), 'cove-update-redaction-home-'));
  const set = new SecretSet({ values: [{ value: SECRET, label: 'test' }] });
  const seen: string[] = [];
  const counting: SecretRedactor = {
    redact(text) {
      seen.push(text);
      return set.redact(text);
    },
  };
  const streamer = testTool('streamer', (_params, ctx) => {
    ctx.onUpdate({ content: [{ type: 'text', text: `agent-redacts-1 ${SECRET}` }] });
    ctx.onUpdate({ content: [{ type: 'text', text: `agent-redacts-2 ${SECRET}` }] });
    ctx.onUpdate({ content: [], details: { chunk: ctx.secrets.redact(`tool-redacts-3 ${SECRET}`).text } }, { redacted: true });
    return { content: [{ type: 'text', text: 'streamed' }] };
  });
  const server = await startModelServer([reply.message([block.toolUse('streamer', { value: 'go' })]), reply.text('done')]);
  const store = openStore(home);
  const manager: SessionManager = new SessionManager({
    store,
    createClient: () => new Anthropic({ apiKey: 'k', baseURL: server.url, maxRetries: 0 }),
    tools: () => [streamer],
    secrets: () => counting,
    permissionGate: (session) => createSessionGate({ workspaces: session.workspaces, mode: 'bypass', coveHome: home, store, redactor: manager.redactorOf(session.id) }),
    retry: { baseDelayMs: 1 },
  });
  const events: CoveEvent[] = [];
  manager.subscribe((event) => events.push(event));
  try {
    const session = manager.createSession({ workspaces: [workspace], model: 'claude-sonnet-5', permissionMode: 'bypass' });
    assert.equal((await manager.run(session.id, 'stream')).stopReason, 'endTurn');
    const updates = events.filter((event) => event.type === 'toolExecutionUpdate');
    assert.equal(updates.length, 3);
    for (const marker of ['agent-redacts-1', 'agent-redacts-2', 'tool-redacts-3']) {
      assert.equal(seen.filter((text) => text.includes(marker)).length, 1, `${marker} was redacted once: ${JSON.stringify(seen.filter((text) => text.includes(marker)))}`);
    }
    manager.settleEvents(session.id);
    for (const [where, text] of [
      ['published', JSON.stringify(updates)],
      ['stored', JSON.stringify(store.loadEvents(session.id))],
    ] as const) {
      assert.ok(!text.includes(SECRET), `${where} updates hold the secret`);
      assert.equal(text.match(/\[REDACTED:test\]/g)?.length, 3, `${where} updates say where the secret was`);
    }
  } finally {
    await manager.stopAll();
    store.close();
    await server.close();
    rmSync(workspace, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  }
});
