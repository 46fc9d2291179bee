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

export async function runWithHooks(agent: Agent, hooks: SessionHooks, prompt: string, firstInProcess: boolean, attachments?: readonly ConversationBlock[]): Promise<RunOutcome> {
  const context: string[] = [];
  if (firstInProcess) context.push(...(await hooks.sessionStart(agent.messages.length > 0 ? 'resume' : 'startup')));
  const submitted = await hooks.userPromptSubmit(prompt);
  if (submitted.blocked !== undefined) {
    return { stopReason: 'error', usage: { ...ZERO_USAGE }, cost: { ...ZERO_COST }, error: `a UserPromptSubmit hook blocked the prompt, so it was not sent: ${submitted.blocked}` };
  }
  let outcome = await agent.run(withHookContext(prompt, [...context, ...submitted.context]), undefined, attachments);
  for (let round = 0; outcome.stopReason === 'endTurn' && round < MAX_STOP_CONTINUATIONS; round++) {
    const reason = await hooks.stop(round > 0);
    if (reason === undefined) break;
    outcome = await agent.run(`A Stop hook asks you to go on: ${reason}`);
  }
  await hooks.idle();
  return outcome;
}
