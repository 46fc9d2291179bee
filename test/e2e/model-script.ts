/**
 * What the scripted model answers in the end-to-end tests, chosen by the session's first
 * prompt, so several sessions can share one model server. Each flow is one prompt.
 */
import type { RecordedRequest } from '../support/model-server';
import { block, reply, type Reply } from '../support/model-server';

export const PROMPTS = {
  hello: 'Say hello',
  write: 'Create hello.txt',
  deny: 'Write notes.txt',
  bash: 'Run the slow counter',
  hang: 'Think it over',
} as const;

export const HELLO_REPLY = 'Hello! I looked around **this** folder.';
export const WRITTEN = 'Hello from Cove\n';
/** Prints for about 1.5 s, so the running state is on screen long enough to see. */
export const SLOW_COMMAND = 'for i in 1 2 3 4 5 6; do echo "tick $i"; sleep 0.25; done';

function toolResults(request: RecordedRequest): number {
  return request.body.messages.reduce((count, message) => {
    if (typeof message.content === 'string') return count;
    return count + message.content.filter((part) => part.type === 'tool_result').length;
  }, 0);
}

function firstPrompt(request: RecordedRequest): string {
  return JSON.stringify(request.body.messages[0]?.content ?? '');
}

export function modelScript(request: RecordedRequest): Reply {
  const prompt = firstPrompt(request);
  const step = toolResults(request);
  if (prompt.includes(PROMPTS.hello)) return reply.text(`${HELLO_REPLY}\n\n- one\n- two`);
  if (prompt.includes(PROMPTS.write)) {
    if (step === 0) return reply.message([block.text('I will write the file.'), block.toolUse('write_file', { path: 'hello.txt', content: WRITTEN })]);
    return reply.text('Wrote hello.txt.');
  }
  if (prompt.includes(PROMPTS.deny)) {
    if (step === 0) return reply.message([block.text('Writing the notes.'), block.toolUse('write_file', { path: 'notes.txt', content: 'private\n' })]);
    return reply.text('Understood, I left notes.txt alone.');
  }
  if (prompt.includes(PROMPTS.bash)) {
    if (step === 0) return reply.message([block.text('Running it.'), block.toolUse('bash', { command: SLOW_COMMAND })]);
    return reply.text('The counter reached 6.');
  }
  if (prompt.includes(PROMPTS.hang)) return reply.hang({ afterEvents: 4, partial: reply.text('Let me think about this carefully', { chunks: 3 }) });
  throw new Error(`the e2e model script has no reply for ${prompt.slice(0, 120)}`);
}
