/**
 * One run of a session with its hooks around it: SessionStart (once per session in this
 * process) and UserPromptSubmit before the prompt is sent, their stdout added as context; a
 * blocked prompt is never sent; Stop after the run, where a blocking Stop hook sends its reason
 * back as the next prompt, a bounded number of times so two hooks cannot keep a run alive.
 */
import { ZERO_USAGE } from '../../../shared/events';
import type { Agent, RunOutcome } from '../agent/agent';
import { ZERO_COST } from '../agent/pricing';
import type { ConversationBlock } from '../agent/types';
import { withHookContext, type SessionHooks } from './session-hooks';

const MAX_STOP_CONTINUATIONS = 3;

/** `signal` stops the hooks and the agent alike, whichever is running; `attachments` go with the prompt. */
export async function runWithHooks(
  agent: Agent,
  hooks: SessionHooks,
  prompt: string,
  firstInProcess: boolean,
  signal: AbortSignal,
  attachments?: readonly ConversationBlock[],
  resume = false,
): Promise<RunOutcome> {
  const ended = (stopReason: 'error' | 'aborted', error?: string): RunOutcome => ({ stopReason, usage: { ...ZERO_USAGE }, cost: { ...ZERO_COST }, ...(error ? { error } : {}) });
  const context: string[] = [];
  if (firstInProcess) context.push(...(await hooks.sessionStart(agent.messages.length > 0 ? 'resume' : 'startup', signal)));
  // A resumed run's prompt was submitted (and checked) when it was first sent.
  const submitted = resume ? { context: [] } : await hooks.userPromptSubmit(prompt, signal);
  if (signal.aborted) return ended('aborted');
  if ('blocked' in submitted && submitted.blocked !== undefined) return ended('error', `a UserPromptSubmit hook blocked the prompt, so it was not sent: ${submitted.blocked}`);
  let outcome = await agent.run(withHookContext(prompt, [...context, ...submitted.context]), signal, attachments, resume);
  for (let round = 0; outcome.stopReason === 'endTurn' && round < MAX_STOP_CONTINUATIONS; round++) {
    const reason = await hooks.stop(round > 0, signal);
    if (reason === undefined || signal.aborted) break;
    outcome = await agent.run(`A Stop hook asks you to go on: ${reason}`, signal);
  }
  await hooks.idle();
  return outcome;
}
