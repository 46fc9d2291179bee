/**
 * The permission keys typed in the message box: with the box empty, Y, S, A and N answer the
 * newest waiting prompt (focus is in the box after sending, right where a prompt finds the
 * person). With text in the box they are letters, always: a key never both types and answers.
 */
import type { PermissionRequestEvent } from '../../../shared/events';
import type { PermissionAnswer } from '../../store/permissions-slice';
import type { TranscriptState } from '../transcript/model-types';

export type ApproveAction = 'once' | 'session' | 'always' | 'deny';

const KEYS: Record<string, ApproveAction> = { y: 'once', s: 'session', a: 'always', n: 'deny' };

interface KeyPress {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  isComposing?: boolean;
}

export function approveKeyAction(press: KeyPress, draft: string): ApproveAction | null {
  if (draft !== '' || press.ctrlKey || press.metaKey || press.altKey || press.isComposing) return null;
  return KEYS[press.key.toLowerCase()] ?? null;
}

/** The newest prompt of the session still waiting, the main agent's or a subagent's. */
export function newestWaitingPrompt(state: TranscriptState | undefined): PermissionRequestEvent | null {
  const item = state?.items.findLast((candidate) => candidate.kind === 'permission' && !candidate.decision && !candidate.expired);
  return item?.kind === 'permission' ? item.request : null;
}

/** As the card answers it without edits: Always saves the suggested rule. */
export function answerFor(action: ApproveAction, request: PermissionRequestEvent): PermissionAnswer {
  if (action === 'deny') return { decision: 'deny' };
  if (action === 'always') return { decision: 'allow', scope: 'always', ...(request.suggestedRule ? { rule: request.suggestedRule } : {}) };
  return { decision: 'allow', scope: action };
}
