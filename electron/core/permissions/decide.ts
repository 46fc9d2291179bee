/**
 * The decision for one call, without asking anyone (SPEC §6): deny rules, then the mode's hard
 * limits (plan denies, bypass allows), then ask rules, then allow rules, then the mode's default.
 * For bash every simple command must be allowed and any denied one denies the whole; constructs
 * whose effect cannot be read and paths that leave the workspace ask even when a rule allows.
 */
import type { Sensitivity } from '../agent/types';
import { matchesWhole } from './bash-pattern';
import { matchesCall, matchesPart, namesTool, type CompiledRule, type RuleList } from './rule-match';
import { isFileEdit, type PermissionMode } from './rule-syntax';
import { protectedLocation } from './protected-files';
import { analyzeCommand, type CommandPart, type ShellAnalysis } from './shell-analysis';
import { parserUnavailable } from './shell-parser';
import { escapeReasons, judgeWrites, type JudgedWrite } from './shell-paths';
import { suggestBash, suggestForTool, type Suggestion } from './suggest';
import { callPaths, givenCommand, toolOfCall, type CallPath, type CallTool, type CalledTool } from './tool-paths';
import { checkWrites, pathRuleFor, protectedWriteText, writeThenRun } from './write-checks';

export interface PermissionCall {
  sessionId: string;
  toolCallId: string;
  toolName: string;
  args: unknown;
  sensitivity: Sensitivity;
  /** The tool called, asked for the call's paths or command; without it, the declared tool of that name. */
  tool?: CalledTool;
  /** The roots the call runs with, when newer than the engine's (a folder added mid-session). */
  workspaceRoots?: readonly string[];
}

export type RuleBook = Record<RuleList, readonly CompiledRule[]>;

export interface DecideContext {
  mode: PermissionMode;
  rules: RuleBook;
  /** Absolute paths; the first is where bash runs and relative paths start. */
  roots: readonly string[];
  home: string;
}

export type Decision =
  | { outcome: 'allow' | 'deny'; decidedBy: 'rule' | 'mode'; rule: string | null; reason: string }
  | {
      outcome: 'ask';
      reasons: string[];
      /** The narrowest rule that would allow the call; null when none can (an ask rule, an unreadable command). */
      suggestedRule: string | null;
      alternativeRule: string | null;
      /** The ask rule that forces the question, if one does; granting cannot outlast it. */
      askRule: string | null;
      urgency: 'normal' | 'high';
    };

const describe = (rule: CompiledRule) => `the ${rule.list} rule ${rule.text} (${rule.source})`;
const quote = (part: CommandPart) => `\`${part.words.join(' ')}\`${part.origin ? ` (run through ${part.origin})` : ''}`;

export function planDenial(toolName: string): string {
  return `${toolName} is not read-only and the session is in plan mode; describe the change instead of making it`;
}

function ask(reasons: string[], suggestion: Suggestion, sensitivity: Sensitivity, askRule: string | null = null): Decision {
  return {
    outcome: 'ask',
    reasons,
    suggestedRule: askRule ? null : suggestion.rule,
    alternativeRule: askRule ? null : suggestion.alternative,
    askRule,
    urgency: sensitivity === 'dangerous' ? 'high' : 'normal',
  };
}

/** Control characters in a reason (a newline in a quoted word) are shown escaped: one readable line. */
function readable(text: string): string {
  return text.replace(/[\x00-\x1f\x7f]/g, (char) =>
    JSON.stringify(char)
      .slice(1, -1)
      .replace(/^\\u00/, '\\x'),
  );
}

export function decide(call: PermissionCall, context: DecideContext): Decision {
  const decision = decideRaw(call, context);
  if (decision.outcome === 'ask') return { ...decision, reasons: decision.reasons.map(readable) };
  return { ...decision, reason: readable(decision.reason) };
}

function decideRaw(call: PermissionCall, context: DecideContext): Decision {
  const rules = (list: RuleList) => context.rules[list].filter((rule) => namesTool(rule, call.toolName));
  const target: CallTool = { args: call.args, tool: toolOfCall(call) };
  const command = givenCommand(target);
  if (command !== null) return decideBash(call, command, context, rules);

  const paths = callPaths(target, context.roots);
  const matching = (list: RuleList) => rules(list).find((rule) => matchesCall(rule, target, paths, context.roots));
  const denied = matching('deny');
  if (denied) return { outcome: 'deny', decidedBy: 'rule', rule: denied.text, reason: `${describe(denied)} forbids this call` };
  if (context.mode === 'plan' && call.sensitivity !== 'readOnly') {
    return { outcome: 'deny', decidedBy: 'mode', rule: null, reason: planDenial(call.toolName) };
  }
  const suggestion = suggestForTool(call.toolName, target, paths);
  const edit = isFileEdit(target.tool);
  const guarded = edit ? protectedPaths(paths ?? [], context) : [];
  // Only a rule with a path that covers the protected file names it; `edit_file` alone does not.
  const named = guarded.length > 0 ? rules('allow').find((rule) => rule.path !== null && matchesCall(rule, target, paths, context.roots)) : undefined;
  if (guarded.length > 0 && !named) {
    const why = guarded.map(({ path, location }) => `${path.given} is the protected ${location}, which decides what runs next`);
    if (context.mode === 'bypass') {
      return { outcome: 'deny', decidedBy: 'mode', rule: null, reason: `${why.join('; ')}; bypass mode does not change it without an allow rule naming it` };
    }
    return ask([...why, 'only an allow rule naming it lets this run'], suggestion, call.sensitivity);
  }
  if (context.mode === 'bypass') return { outcome: 'allow', decidedBy: 'mode', rule: null, reason: 'the session is in bypass mode' };
  const asked = matching('ask');
  if (asked) return ask([`${describe(asked)} asks every time`], suggestion, call.sensitivity, asked.text);
  const allowed = matching('allow');
  if (allowed) return { outcome: 'allow', decidedBy: 'rule', rule: allowed.text, reason: `${describe(allowed)} allows it` };
  return modeDefault(call, edit, context.mode, paths, suggestion);
}

const PROTECTED_NAMES = /(\.git\b|\.cove\b|\.claude\b|\.mcp\.json|\.gitmodules|\.npmrc|\.envrc|\.(bash|zsh)(rc|env|_profile|_login)|\.profile|\.gitconfig)/;

function mentionedProtected(command: string): string | null {
  return PROTECTED_NAMES.exec(command)?.[1] ?? null;
}

function protectedPaths(paths: readonly CallPath[], context: DecideContext): Array<{ path: CallPath; location: string }> {
  const found: Array<{ path: CallPath; location: string }> = [];
  for (const path of paths) {
    const location = protectedLocation(path.real, context.roots, context.home) ?? protectedLocation(path.lexical, context.roots, context.home);
    if (location) found.push({ path, location });
  }
  return found;
}

function modeDefault(call: PermissionCall, edit: boolean, mode: PermissionMode, paths: CallPath[] | null, suggestion: Suggestion): Decision {
  if (call.sensitivity === 'readOnly') return { outcome: 'allow', decidedBy: 'mode', rule: null, reason: 'the tool only reads' };
  if (mode === 'acceptEdits' && edit && paths && paths.length > 0) {
    const outside = paths.filter((path) => path.root === null);
    if (outside.length === 0) return { outcome: 'allow', decidedBy: 'mode', rule: null, reason: 'acceptEdits allows file edits inside the workspace' };
    return ask(
      outside.map((path) => `${path.given} is outside the workspace`),
      suggestion,
      call.sensitivity,
    );
  }
  const why =
    call.sensitivity === 'dangerous' ? `${call.toolName} is marked dangerous and no allow rule covers this call` : `${call.toolName} can change things and no allow rule covers this call`;
  return ask([why], suggestion, call.sensitivity);
}

function decideBash(call: PermissionCall, command: string, context: DecideContext, rules: (list: RuleList) => CompiledRule[]): Decision {
  const analysis = analyzeCommand(command);
  const covers = (rule: CompiledRule, part: CommandPart) => rule.bash === null || matchesPart(rule.bash, part, rule.list);
  const coversWhole = (rule: CompiledRule) => rule.bash !== null && matchesWhole(rule.bash, analysis.normalized);
  /** A rule of `list` that matches some part, with that part. */
  const firstMatch = (list: RuleList) => {
    for (const rule of rules(list)) {
      if (rule.bash === null || coversWhole(rule)) return { rule, part: null };
      const part = analysis.parts.find((candidate) => covers(rule, candidate));
      if (part) return { rule, part };
    }
    return null;
  };

  const denied = firstMatch('deny');
  if (denied) {
    const what = denied.part ? quote(denied.part) : 'this command';
    return { outcome: 'deny', decidedBy: 'rule', rule: denied.rule.text, reason: `${describe(denied.rule)} forbids ${what}` };
  }
  const writes = analysis.parseError === null ? judgeWrites(analysis.writes, context.roots, context.home, analysis.directories, analysis.loops) : [];
  const deniedWrite = writeDenial(writes, context);
  if (deniedWrite) return deniedWrite;
  if (context.mode === 'plan') return { outcome: 'deny', decidedBy: 'mode', rule: null, reason: planDenial(call.toolName) };
  const unclear = analysis.parseError !== null ? [analysis.parseError] : analysis.unreadable;
  const allowRules = rules('allow');
  const exact = allowRules.find(coversWhole);
  const everything = allowRules.find((rule) => rule.bash === null);
  const writeVerdict = checkWrites(writes, { mode: context.mode, roots: context.roots, allowRules: context.rules.allow, allowsEverything: everything !== undefined });
  if (context.mode === 'bypass') return decideBypass(command, analysis, unclear, writes, writeVerdict.protectedWrites, exact, rules);

  const escapes = analysis.parseError === null ? escapeReasons(analysis.paths, context.roots, context.home, analysis.loops) : [];
  const suggestion = suggestBash(analysis, escapes);
  const asked = firstMatch('ask');
  if (asked) {
    const what = asked.part ? ` for ${quote(asked.part)}` : '';
    return ask([`${describe(asked.rule)} asks every time${what}`], suggestion, call.sensitivity, asked.rule.text);
  }
  for (const write of writes) {
    const rule = pathRuleFor(write, context.rules.ask, context.roots);
    if (rule) return ask([`${describe(rule)} asks every time for writing ${write.shown} (${write.by})`], suggestion, call.sensitivity, rule.text);
  }
  if (exact) return { outcome: 'allow', decidedBy: 'rule', rule: exact.text, reason: `${describe(exact)} allows this exact command` };
  if (analysis.parseError !== null) return ask(unclear, suggestion, call.sensitivity);
  const writeReasons = [...writeVerdict.reasons, ...writeThenRun(writes, analysis.parts, context.roots)];

  if (everything) {
    if (escapes.length > 0 || writeReasons.length > 0) return ask([...escapes, ...writeReasons], suggestion, call.sensitivity);
    return { outcome: 'allow', decidedBy: 'rule', rule: everything.text, reason: `${describe(everything)} allows every command` };
  }
  return coverage(call, analysis, allowRules, { unclear: [...unclear, ...writeReasons], escapes, suggestion, mode: context.mode, writes });
}

/** A write to a path an edit_file or write_file deny rule covers is denied like that edit would be. */
function writeDenial(writes: readonly JudgedWrite[], context: DecideContext): Decision | null {
  for (const write of writes) {
    const rule = pathRuleFor(write, context.rules.deny, context.roots);
    if (rule) return { outcome: 'deny', decidedBy: 'rule', rule: rule.text, reason: `${describe(rule)} forbids writing ${write.shown} (${write.by})` };
  }
  return null;
}

function decideBypass(
  command: string,
  analysis: ShellAnalysis,
  unclear: readonly string[],
  writes: readonly JudgedWrite[],
  protectedWrites: readonly JudgedWrite[],
  exact: CompiledRule | undefined,
  rules: (list: RuleList) => CompiledRule[],
): Decision {
  const unavailable = parserUnavailable();
  if (unavailable) return ask([unavailable], { rule: null, alternative: null }, 'mutating');
  const unchecked = rules('deny').find((rule) => rule.bash !== null);
  if ((analysis.parseError !== null || analysis.opaque) && unchecked) {
    return {
      outcome: 'deny',
      decidedBy: 'rule',
      rule: unchecked.text,
      reason: `${describe(unchecked)} cannot be checked against this command, so bypass mode denies it: ${unclear.join('; ')}`,
    };
  }
  if (!exact) {
    // Protected files hold in bypass too: a write Cove cannot place, or a command it cannot read
    // that names one, may be changing one.
    const unplaced = writes.find((write) => write.unknown !== null);
    if (unplaced) {
      const reason = `${unplaced.by} writes a path Cove cannot tell (${unplaced.unknown}), which may be a protected file; bypass mode does not run it`;
      return { outcome: 'deny', decidedBy: 'mode', rule: null, reason };
    }
    const named = analysis.parseError !== null || analysis.opaque ? mentionedProtected(command) : null;
    if (named) {
      const reason = `the command names the protected ${named} and cannot be read for certain (${unclear.join('; ')}); bypass mode does not run it`;
      return { outcome: 'deny', decidedBy: 'mode', rule: null, reason };
    }
  }
  if (protectedWrites.length > 0 && !exact) {
    const write = protectedWrites[0]!;
    return {
      outcome: 'deny',
      decidedBy: 'mode',
      rule: null,
      reason: `${protectedWriteText(write)}; bypass mode does not change it without an allow rule naming it`,
    };
  }
  return { outcome: 'allow', decidedBy: 'mode', rule: null, reason: 'the session is in bypass mode' };
}

function coverage(
  call: PermissionCall,
  analysis: ShellAnalysis,
  allowRules: readonly CompiledRule[],
  found: { unclear: string[]; escapes: string[]; suggestion: Suggestion; mode: PermissionMode; writes: readonly JudgedWrite[] },
): Decision {
  const used: string[] = [];
  const uncovered: CommandPart[] = [];
  for (const part of analysis.parts) {
    const rule = allowRules.find((candidate) => candidate.bash !== null && matchesPart(candidate.bash, part, 'allow'));
    if (!rule) uncovered.push(part);
    else if (!used.includes(rule.text)) used.push(rule.text);
  }
  const reasons = [...found.unclear, ...found.escapes];
  if (analysis.parts.length > 0 && uncovered.length === 0 && reasons.length === 0) {
    return { outcome: 'allow', decidedBy: 'rule', rule: used.join(', '), reason: `allowed by ${used.join(', ')}` };
  }
  if (uncovered.length > 0) {
    const listed = uncovered.slice(0, 3).map(quote).join(', ') + (uncovered.length > 3 ? ` and ${uncovered.length - 3} more` : '');
    reasons.push(`${listed} ${uncovered.length === 1 ? 'is' : 'are'} not covered by an allow rule`);
  } else if (analysis.parts.length === 0 && reasons.length === 0) {
    // A bare `> file` runs no program: under acceptEdits it is an edit like any other.
    if (found.mode === 'acceptEdits' && found.writes.length > 0) return { outcome: 'allow', decidedBy: 'mode', rule: null, reason: 'acceptEdits allows file edits inside the workspace' };
    reasons.push('bash can change things and no allow rule covers this command');
  }
  return ask(reasons, found.suggestion, call.sensitivity);
}
