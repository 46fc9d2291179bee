/**
 * The permission engine's one concession to the sandbox: when it is enabled but cannot run here,
 * a bash call that would have been allowed is asked about instead (denied headless, where no one
 * can answer), and a call that asks anyway says that it would run unsandboxed. A deny stays a deny.
 */
import type { Decision } from '../permissions/decide';

export function withoutSandbox(decision: Decision, reason: string | null, canAsk: boolean): Decision {
  if (reason === null || decision.outcome === 'deny') return decision;
  if (decision.outcome === 'ask') return { ...decision, reasons: [...decision.reasons, reason] };
  if (!canAsk) return { outcome: 'deny', decidedBy: 'mode', rule: null, reason: `${reason}; cove run has no one to ask, so it is denied` };
  return { outcome: 'ask', reasons: [reason], suggestedRule: null, alternativeRule: null, askRule: null, urgency: 'normal' };
}
