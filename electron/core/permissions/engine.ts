/**
 * The permission engine (SPEC §6) as a tool middleware: one instance per session, holding the
 * session's mode, its rules and the grants a person gave. Calls that need a person are asked
 * one at a time (parallel calls queue), and every queued call is decided again when its turn
 * comes, so a grant given for the first of two identical calls covers the second. Without an
 * `ask` callback (headless) such calls are denied with the reason and the rule that would allow
 * them. Every decision, automatic or a person's, goes to `audit`.
 */
import { homedir } from 'node:os';
import type { ToolMiddleware } from '../agent/types';
import { decide, type Decision, type PermissionCall, type RuleBook } from './decide';
import { headlessReason, type AuditEntry, type PermissionAnswer, type PermissionAsk, type PermissionEngineOptions, type PermissionOutcome } from './engine-types';
import { compileRule, type CompiledRule, type RuleList } from './rule-match';
import type { PermissionMode } from './rule-syntax';
import { localSettingsPath, saveAlwaysRule } from './settings';
import { withoutSandbox } from '../bash-sandbox/permission';
import { loadShellParser } from './shell-parser';
import { givenCommand, toolOfCall } from './tool-paths';
import { summarize } from '../agent/tool-facts';

/** Whether the call runs a command line (bash), asked of its tool. */
function runsCommand(call: PermissionCall): boolean {
  return givenCommand({ args: call.args, tool: toolOfCall(call) }) !== null;
}

const LISTS: readonly RuleList[] = ['allow', 'ask', 'deny'];
const CANCELLED = Symbol('cancelled');

function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T | typeof CANCELLED> {
  if (signal.aborted) return Promise.resolve(CANCELLED);
  return new Promise((resolve, reject) => {
    const onAbort = () => resolve(CANCELLED);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

export class PermissionEngine {
  private currentMode: PermissionMode;
  private readonly rules: Record<RuleList, CompiledRule[]> = { allow: [], ask: [], deny: [] };
  /** Rules a person granted: for this session, or always (also saved to the workspace). */
  private readonly grants: Array<{ rule: CompiledRule; scope: 'session' | 'always' }> = [];
  /** Resolves when the prompt before the newest one is done; prompts run one at a time. */
  private queue: Promise<void> = Promise.resolve();
  private requests = 0;
  private readonly home: string;
  private readonly now: () => number;

  constructor(private readonly options: PermissionEngineOptions) {
    this.currentMode = options.mode;
    this.home = options.home ?? homedir();
    this.now = options.now ?? Date.now;
    // The bash grammar loads in the background; `check` waits for it, and until it is loaded
    // (or if it fails) `decide` asks about every bash call, saying why.
    void loadShellParser();
    for (const list of LISTS) {
      for (const text of options.extraRules?.[list] ?? []) this.rules[list].push(compileRule(text, list, 'command line', this.home));
      for (const source of options.settings ?? []) {
        for (const text of source.rules[list]) this.rules[list].push(compileRule(text, list, source.path, this.home));
      }
    }
  }

  get mode(): PermissionMode {
    return this.currentMode;
  }

  setMode(mode: PermissionMode): void {
    this.currentMode = mode;
  }

  /** Rules granted "for this session", in the order given. */
  get sessionGrants(): string[] {
    return this.grants.filter((grant) => grant.scope === 'session').map((grant) => grant.rule.text);
  }

  private roots(call: PermissionCall): readonly string[] {
    return call.workspaceRoots && call.workspaceRoots.length > 0 ? call.workspaceRoots : this.options.workspaceRoots;
  }

  /** Resolves once the bash parser is loaded or has failed (then bash calls ask with the reason). */
  ready(): Promise<void> {
    return loadShellParser();
  }

  /** The decision without asking anyone: allow, deny, or ask with the reasons and a rule to offer. */
  decide(call: PermissionCall): Decision {
    const book: RuleBook = { ...this.rules, allow: [...this.rules.allow, ...this.grants.map((grant) => grant.rule)] };
    const decision = decide(call, { mode: this.currentMode, rules: book, roots: this.roots(call), home: this.home });
    if (!runsCommand(call) || !this.options.bashUnsandboxed) return decision;
    return withoutSandbox(decision, this.options.bashUnsandboxed(), this.options.ask !== undefined);
  }

  /** Decides, asking a person when needed, and records the decision. */
  async check(call: PermissionCall, signal: AbortSignal): Promise<PermissionOutcome> {
    if (runsCommand(call)) await Promise.all([loadShellParser(), this.options.bashSandboxKnown?.()]);
    const decision = this.decide(call);
    if (decision.outcome !== 'ask') return this.settle(call, decision);
    if (!this.options.ask) {
      const reason = this.redactedText(headlessReason({ ...decision, suggestedRule: this.keepable(decision.suggestedRule) }));
      this.record(call, { decision: 'deny', decidedBy: 'headless', rule: null, scope: null, reason });
      return { decision: 'deny', reason };
    }
    const previous = this.queue;
    let release!: () => void;
    this.queue = new Promise((resolve) => (release = resolve));
    try {
      if ((await untilAborted(previous, signal)) === CANCELLED) return this.cancelled(call, null);
      return await this.prompt(call, signal);
    } finally {
      // Released only once the earlier prompts are done too, so a cancelled waiter never lets
      // the next one show a second card.
      void previous.then(release);
    }
  }

  middleware(): ToolMiddleware {
    return {
      name: 'permissions',
      beforeTool: async (request) => {
        const outcome = await this.check(
          {
            sessionId: request.sessionId,
            toolCallId: request.toolCallId,
            toolName: request.toolName,
            args: request.args,
            sensitivity: request.sensitivity,
            ...(request.tool ? { tool: request.tool } : {}),
            workspaceRoots: request.workspaceRoots,
          },
          request.signal,
        );
        return outcome.decision === 'allow' ? { action: 'allow' } : { action: 'deny', reason: outcome.reason };
      },
    };
  }

  private settle(call: PermissionCall, decision: Extract<Decision, { outcome: 'allow' | 'deny' }>): PermissionOutcome {
    const reason = this.redactedText(decision.reason);
    this.record(call, { decision: decision.outcome, decidedBy: decision.decidedBy, rule: decision.rule, scope: null, reason });
    return { decision: decision.outcome, reason };
  }

  private async prompt(call: PermissionCall, signal: AbortSignal): Promise<PermissionOutcome> {
    // Grants given while this call waited its turn may cover it now.
    const decision = this.decide(call);
    if (decision.outcome !== 'ask') return this.settle(call, decision);
    const request: PermissionAsk = {
      requestId: `${call.toolCallId}:permission:${++this.requests}`,
      toolCallId: call.toolCallId,
      toolName: call.toolName,
      args: this.redacted(call.args),
      ...this.shown(call),
      sensitivity: call.sensitivity,
      urgency: decision.urgency,
      reasons: decision.reasons.map((reason) => this.redactedText(reason)),
      suggestedRule: this.keepable(decision.suggestedRule),
      alternativeRule: this.keepable(decision.alternativeRule),
      grantable: decision.askRule === null,
    };
    const answer = await untilAborted(this.options.ask!(request, signal), signal);
    if (answer === CANCELLED) return this.cancelled(call, request.requestId);
    if (answer.decision === 'deny') {
      const reason = `the person denied it${answer.reason ? `: ${answer.reason}` : ''}`;
      return this.answered(call, request, { decision: 'deny', decidedBy: 'person', rule: null, scope: null, reason });
    }
    return this.grant(call, request, answer);
  }

  /** The tool's label and the call's summary for the prompt, redacted like the arguments. */
  private shown(call: PermissionCall): { label?: string; summary?: string } {
    const tool = toolOfCall(call);
    if (!tool) return {};
    return { label: tool.label, summary: this.redactedText(summarize(tool, call.args)) };
  }

  /** A rule holding a secret would leak it into a settings file and never match the redacted text. */
  private keepable(rule: string | null): string | null {
    return rule !== null && this.redacted(rule) === rule ? rule : null;
  }

  private grant(call: PermissionCall, request: PermissionAsk, answer: Extract<PermissionAnswer, { decision: 'allow' }>): PermissionOutcome {
    const once = (reason: string) => this.answered(call, request, { decision: 'allow', decidedBy: 'person', rule: null, scope: 'once', reason });
    if (answer.scope === 'once') return once('allowed once');
    if (!request.grantable) return once(`allowed once: an ask rule asks about this call every time, so ${answer.scope} cannot apply`);
    const text = answer.rule?.trim() || request.suggestedRule;
    if (!text) return once(`allowed once: no rule covers this call, so ${answer.scope} cannot apply`);
    let rule: CompiledRule;
    try {
      rule = compileRule(text, 'allow', answer.scope === 'always' ? localSettingsPath(this.saveRoot(call)) : 'this session', this.home);
    } catch (error) {
      return once(`allowed once: ${(error as Error).message}`);
    }
    const grant = { rule, scope: answer.scope };
    this.grants.push(grant);
    if (this.decide(call).outcome !== 'allow') {
      this.grants.splice(this.grants.indexOf(grant), 1);
      return once(`allowed once: the rule ${rule.text} does not cover this call, so it was not kept`);
    }
    if (answer.scope === 'session') {
      return this.answered(call, request, { decision: 'allow', decidedBy: 'person', rule: rule.text, scope: 'session', reason: 'allowed for this session' });
    }
    try {
      const path = saveAlwaysRule(this.saveRoot(call), rule.text);
      return this.answered(call, request, { decision: 'allow', decidedBy: 'person', rule: rule.text, scope: 'always', reason: `allowed always; saved to ${path}` });
    } catch (error) {
      grant.scope = 'session';
      const reason = `allowed for this session only: ${(error as Error).message}`;
      return this.answered(call, request, { decision: 'allow', decidedBy: 'person', rule: rule.text, scope: 'session', reason });
    }
  }

  private saveRoot(call: PermissionCall): string {
    return this.options.workspaceRoots[0] ?? this.roots(call)[0]!;
  }

  private cancelled(call: PermissionCall, requestId: string | null): PermissionOutcome {
    const reason = 'the permission request was cancelled before anyone answered';
    this.record(call, { decision: 'deny', decidedBy: 'person', rule: null, scope: null, reason });
    if (requestId) this.options.onAnswer?.({ requestId, toolCallId: call.toolCallId, decision: 'deny', scope: null, rule: null });
    return { decision: 'deny', reason };
  }

  private answered(call: PermissionCall, request: PermissionAsk, entry: Omit<AuditEntry, 'sessionId' | 'toolCallId' | 'toolName' | 'args' | 'at'>): PermissionOutcome {
    this.record(call, entry);
    this.options.onAnswer?.({ requestId: request.requestId, toolCallId: call.toolCallId, decision: entry.decision, scope: entry.scope, rule: entry.rule });
    return { decision: entry.decision, reason: entry.reason ?? '' };
  }

  private redacted(value: unknown): unknown {
    return this.options.redact ? this.options.redact(value) : value;
  }

  private redactedText(text: string): string {
    const redacted = this.redacted(text);
    return typeof redacted === 'string' ? redacted : text;
  }

  private record(call: PermissionCall, entry: Omit<AuditEntry, 'sessionId' | 'toolCallId' | 'toolName' | 'args' | 'at'>): void {
    this.options.audit?.({
      sessionId: call.sessionId,
      toolCallId: call.toolCallId,
      toolName: call.toolName,
      args: this.redacted(call.args),
      ...entry,
      at: this.now(),
    });
  }
}
