/**
 * Writes a finished session of a chosen length straight into a data folder's store, with the
 * events a real run records, so `cove serve` opens it as it would a session a person worked
 * through. Each run is five transcript items: the prompt, a reply that calls a tool, the tool's
 * card (bash or read_file, with output), the reply after it, and the run's end marker.
 */
import { openStore } from '../electron/core/store';
import { DEFAULT_MODEL } from '../electron/core/agent/pricing';
import { ZERO_USAGE, makeEvent, type CoveEvent, type Usage } from '../shared/events';
import { rendererSkipReason, startRendererFixture, type RendererFixture } from './renderer-fixture';

export const ITEMS_PER_RUN = 5;

export interface StoredTranscript {
  sessionId: string;
  /** Text only the last reply has, to find the transcript's end on the page. */
  lastReply: string;
  items: number;
}

const USAGE: Usage = { input: 1200, output: 180, cacheRead: 0, cacheWrite: 0 };
const COST = { input: 0.0036, output: 0.0027, cacheRead: 0, cacheWrite: 0, total: 0.0063, priced: true };
const EVENTS_PER_BATCH = 1000;

function outputLines(run: number, count: number): string {
  return Array.from({ length: count }, (_, line) => `src/module-${run}/file-${line}.ts: export const value${line} = ${run * line};`).join('\n');
}

function runEvents(sessionId: string, run: number, lastReply: string | null): CoveEvent[] {
  const bash = run % 2 === 0;
  const toolCallId = `toolu_${run}`;
  const toolName = bash ? 'bash' : 'read_file';
  const args = bash ? { command: `rg -n "value" src/module-${run}` } : { path: `src/module-${run}/index.ts` };
  const firstId = `msg_${run}_a`;
  const secondId = `msg_${run}_b`;
  const intro = `Looking at **module ${run}**: I will ${bash ? 'search it' : 'read its index'} first.`;
  const answer =
    lastReply ??
    (run % 5 === 0
      ? `Module ${run} exports these values:\n\n- \`value1\`\n- \`value2\`\n\n\`\`\`ts\nexport const value1 = ${run};\n\`\`\``
      : `Module ${run} is fine: nothing in it needs to change, and its ${bash ? 'search' : 'index'} shows every export in order.`);
  const output = outputLines(run, bash ? 12 : 6);
  const prompt = `Check module ${run} and tell me what it exports.`;
  return [
    makeEvent('userMessage', { sessionId, text: prompt, steered: false }),
    makeEvent('agentStart', { sessionId, model: DEFAULT_MODEL, prompt }),
    makeEvent('turnStart', { sessionId, turn: 1 }),
    makeEvent('messageStart', { sessionId, messageId: firstId, role: 'assistant' }),
    makeEvent('messageUpdate', { sessionId, messageId: firstId, delta: { type: 'text', index: 0, text: intro } }),
    makeEvent('messageEnd', {
      sessionId,
      messageId: firstId,
      content: [
        { type: 'text', text: intro },
        { type: 'tool_use', id: toolCallId, name: toolName, input: args },
      ],
      providerStopReason: 'tool_use',
      usage: USAGE,
    }),
    makeEvent('toolExecutionStart', { sessionId, toolCallId, toolName, args, sensitivity: bash ? 'dangerous' : 'readOnly' }),
    makeEvent('toolExecutionEnd', {
      sessionId,
      toolCallId,
      toolName,
      result: { content: [{ type: 'text', text: output }], details: bash ? { exitCode: 0, durationMs: 40 + (run % 50) } : { lines: 6 } },
      isError: false,
    }),
    makeEvent('turnEnd', { sessionId, turn: 1, usage: USAGE, cost: COST }),
    makeEvent('turnStart', { sessionId, turn: 2 }),
    makeEvent('messageStart', { sessionId, messageId: secondId, role: 'assistant' }),
    makeEvent('messageUpdate', { sessionId, messageId: secondId, delta: { type: 'text', index: 0, text: answer } }),
    makeEvent('messageEnd', { sessionId, messageId: secondId, content: [{ type: 'text', text: answer }], providerStopReason: 'end_turn', usage: USAGE }),
    makeEvent('turnEnd', { sessionId, turn: 2, usage: USAGE, cost: COST }),
    makeEvent('agentEnd', { sessionId, stopReason: 'endTurn', usage: { ...ZERO_USAGE, ...USAGE }, cost: COST }),
  ];
}

/** Stores a done session of about `items` transcript items (rounded up to whole runs). */
export function writeStoredTranscript(dataDir: string, workspace: string, title: string, items: number): StoredTranscript {
  const store = openStore(dataDir);
  try {
    const session = store.createSession({ workspaces: [workspace], title, model: DEFAULT_MODEL, permissionMode: 'default' });
    const runs = Math.ceil(items / ITEMS_PER_RUN);
    const lastReply = `That was the last module (${runs} of ${runs}); the session ends here.`;
    let batch: CoveEvent[] = [];
    for (let run = 1; run <= runs; run++) {
      batch.push(...runEvents(session.id, run, run === runs ? lastReply : null));
      if (batch.length >= EVENTS_PER_BATCH || run === runs) {
        store.appendEvents(session.id, batch);
        batch = [];
      }
    }
    store.addUsage(session.id, { input: USAGE.input * 2 * runs, output: USAGE.output * 2 * runs, cacheRead: 0, cacheWrite: 0 }, COST.total * 2 * runs);
    store.updateSession(session.id, { status: 'done' });
    return { sessionId: session.id, lastReply, items: runs * ITEMS_PER_RUN };
  } finally {
    store.close();
  }
}

/** A `cove serve` whose store holds a finished "Long session" and "Short session", the pair the open benchmarks compare. */
export type LongAndShortFixture = RendererFixture<{ long: StoredTranscript; short: StoredTranscript }>;

/** Starts that host; undefined, having said why under the benchmark's name, where Chromium cannot run. */
export async function startLongAndShort(bench: string, longItems: number, shortItems: number): Promise<LongAndShortFixture | undefined> {
  const why = rendererSkipReason();
  if (why) {
    process.stderr.write(`${bench}: skipped: ${why}\n`);
    return undefined;
  }
  return startRendererFixture({
    prepareHome: (dataDir, workspace) => ({
      long: writeStoredTranscript(dataDir, workspace, 'Long session', longItems),
      short: writeStoredTranscript(dataDir, workspace, 'Short session', shortItems),
    }),
  });
}
