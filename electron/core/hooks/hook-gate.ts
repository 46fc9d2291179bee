/**
 * PreToolUse hooks composed with the permission engine, as one middleware. The order is a
 * choice: hooks run first, so a hook can refuse, rewrite or question any call; then the rules
 * decide, and a deny rule (or plan mode) always wins. A hook's "allow" only stands in for the
 * person: it skips a prompt the mode would have shown, never a denial, and never an explicit ask
 * rule, which is the person's standing demand to be asked (Claude Code settled on the same after
 * hooks were found lifting deny and ask rules: anthropics/claude-code#39344, #82451). A hook's
 * "ask" puts the question to the person even where a rule allows; headless, nobody can answer,
 * so it is denied.
 */
import { summarize } from '../agent/tool-facts';
import type { ToolDecision, ToolMiddleware } from '../agent/types';
import type { Decision, PermissionCall } from '../permissions/decide';
import type { AuditEntry, PermissionOutcome } from '../permissions/engine-types';
import type { Prompter } from '../sessions/permission-prompts';
import type { SessionHooks } from './session-hooks';

/** What the composition needs of the permission engine. */
export interface PermissionView {
  decide(call: PermissionCall): Decision;
  check(call: PermissionCall, signal: AbortSignal): Promise<PermissionOutcome>;
}

export interface HookGateOptions {
  engine: PermissionView;
  fallback: ToolMiddleware;
  hooks: SessionHooks;
  prompter?: Prompter;
  audit?(entry: AuditEntry): void;
  redact?(value: unknown): unknown;
}

export function hookedPermissions(options: HookGateOptions): ToolMiddleware {
  const { engine, hooks } = options;
  return {
    name: 'permissions',
    beforeTool: async (request) => {
      if (!hooks.has('PreToolUse')) return options.fallback.beforeTool(request);
      const verdict = await hooks.preToolUse(request);
      const args = verdict.updatedInput ?? request.args;
      const call: PermissionCall = {
        sessionId: request.sessionId,
        toolCallId: request.toolCallId,
        toolName: request.toolName,
        args,
        sensitivity: request.sensitivity,
        ...(request.tool ? { tool: request.tool } : {}),
        workspaceRoots: request.workspaceRoots,
      };
      const allowed: ToolDecision = verdict.updatedInput === undefined ? { action: 'allow' } : { action: 'modify', args };
      const record = (decision: 'allow' | 'deny', decidedBy: AuditEntry['decidedBy'], reason: string) =>
        options.audit?.({
          sessionId: call.sessionId,
          toolCallId: call.toolCallId,
          toolName: call.toolName,
          args: options.redact ? options.redact(args) : args,
          decision,
          decidedBy,
          // The audit's columns predate hooks: the deciding hook is named where a rule would be.
          rule: decidedBy === 'rule' ? 'PreToolUse hook' : null,
          scope: decidedBy === 'person' ? 'once' : null,
          reason,
          at: Date.now(),
        });
      const byRules = async (): Promise<ToolDecision> => {
        const outcome = await engine.check(call, request.signal);
        return outcome.decision === 'allow' ? allowed : { action: 'deny', reason: outcome.reason };
      };

      if (verdict.permission === 'deny') {
        const reason = `a PreToolUse hook blocked it: ${verdict.reason}`;
        record('deny', 'rule', reason);
        return { action: 'deny', reason };
      }
      const decision = engine.decide(call);
      if (verdict.permission === 'allow' && decision.outcome === 'ask' && decision.askRule === null) {
        record('allow', 'rule', `a PreToolUse hook allowed it: ${verdict.reason}`);
        return allowed;
      }
      if (verdict.permission !== 'ask' || decision.outcome !== 'allow') return byRules();
      const question = `a PreToolUse hook asks before this call: ${verdict.reason}`;
      if (!options.prompter) {
        const reason = `${question}; cove run has no one to ask, so it is denied`;
        record('deny', 'headless', reason);
        return { action: 'deny', reason };
      }
      const shown = (value: unknown) => (options.redact ? options.redact(value) : value);
      const summary = request.tool ? shown(summarize(request.tool, args)) : undefined;
      const answer = await options.prompter(
        {
          toolCallId: call.toolCallId,
          toolName: call.toolName,
          args: shown(args),
          ...(request.tool ? { label: request.tool.label } : {}),
          ...(typeof summary === 'string' ? { summary } : {}),
          sensitivity: call.sensitivity,
          reasons: [question],
          suggestedRule: null,
        },
        request.signal,
      );
      if (answer.decision === 'deny') {
        const reason = `the person denied it${answer.reason ? `: ${answer.reason}` : ''}`;
        record('deny', 'person', reason);
        return { action: 'deny', reason };
      }
      record('allow', 'person', 'allowed once, after a PreToolUse hook asked');
      return allowed;
    },
  };
}
