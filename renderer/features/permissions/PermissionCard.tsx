/**
 * A permission prompt: what the agent wants to run, how risky it is, why Cove asks, and the
 * four answers (a denial may carry a reason for the agent). Keys work when the card has focus, and for the newest waiting card also when
 * nothing that takes typing has focus (see ./permission-keys.ts). The card resolves when main
 * publishes the decision.
 */
import { memo, useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { PermissionDecisionEvent, Sensitivity } from '../../../shared/events';
import { useCove } from '../../store';
import { useToggle } from '../../store/use-toggle';
import { ToggleButton } from '../../ui/Toggle';
import { toolLabel, toolSummary } from '../tools/tool-summary';
import { PermissionPreviewView } from './PermissionPreviewView';
import { CommandMarksView } from './CommandMarksView';
import type { PermissionItem } from '../transcript/model-types';
import { actionForKey, isTypingTarget, type PermissionAction } from './permission-keys';
import { InlineMarkdown } from '../transcript/Markdown';
import { ToolArguments } from '../tools/ToolArguments';

const SENSITIVITY_LABELS: Record<Sensitivity, string> = {
  readOnly: 'Read only',
  mutating: 'Makes changes',
  dangerous: 'Dangerous',
};

export const PermissionCard = memo(function PermissionCard({ item, newestPending }: { item: PermissionItem; newestPending: boolean }) {
  const request = item.request;
  const answering = useCove((state) => state.answering[request.requestId]);
  const answerPermission = useCove((state) => state.answerPermission);
  const [rule, setRule] = useState(request.suggestedRule ?? '');
  const [reason, setReason] = useState('');
  const [argsOpen, setArgsOpen] = useToggle(`${item.key}:arguments`);
  const open = item.decision === null && !item.expired;
  const title = toolLabel(request.toolName, request.label);
  const summary = toolSummary(request.summary, request.args);

  const act = (action: PermissionAction) => {
    if (!open || answering) return;
    if (action === 'deny') void answerPermission(request, { decision: 'deny', ...(reason.trim() ? { reason: reason.trim() } : {}) });
    else if (action === 'always') void answerPermission(request, { decision: 'allow', scope: 'always', ...(rule.trim() ? { rule: rule.trim() } : {}) });
    else void answerPermission(request, { decision: 'allow', scope: action });
  };
  const latestAct = useRef(act);
  latestAct.current = act;

  useEffect(() => {
    if (!newestPending || !open) return;
    const onKeyDown = (event: globalThis.KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
      if (document.querySelector('dialog[open]')) return;
      const target = event.target;
      if (target instanceof HTMLElement && target !== document.body && !target.closest('[data-transcript]')) return;
      if (target instanceof HTMLElement && target.closest('[data-permission-request]')) return;
      if (isTypingTarget(target, event.key)) return;
      const action = actionForKey(event.key);
      if (!action) return;
      event.preventDefault();
      latestAct.current(action);
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [newestPending, open]);

  const onKeyDown = (event: KeyboardEvent) => {
    if (!open || event.ctrlKey || event.metaKey || event.altKey || isTypingTarget(event.target, event.key)) return;
    const action = actionForKey(event.key);
    if (!action) return;
    event.preventDefault();
    event.stopPropagation();
    act(action);
  };

  return (
    <article
      className={`item permission-card sensitivity-${request.sensitivity}${open ? ' open' : ' resolved'}`}
      aria-label={`Permission request${item.subagentName ? ` from subagent ${item.subagentName}` : ''}: ${request.toolName}`}
      data-permission-request={request.requestId}
      tabIndex={open ? 0 : -1}
      onKeyDown={onKeyDown}
    >
      <header className="permission-header">
        <span aria-hidden="true">{request.sensitivity === 'dangerous' ? '⚠' : '?'}</span>
        <strong title={request.toolName}>{item.subagentName ? `Subagent ‘${item.subagentName}’ asks: allow ${title}?` : `Allow ${title}?`}</strong>
        <span className={`badge sensitivity-badge sensitivity-${request.sensitivity}`}>{SENSITIVITY_LABELS[request.sensitivity]}</span>
      </header>
      {request.marks && typeof bashCommand(request.args) === 'string' ? (
        <CommandMarksView command={bashCommand(request.args)!} marks={request.marks} />
      ) : summary ? (
        <pre className="permission-summary">{summary}</pre>
      ) : null}
      {request.preview ? <PermissionPreviewView preview={request.preview} /> : null}
      {request.reasons.length > 0 ? (
        <ul className="permission-reasons" aria-label="Why Cove asks">
          {request.reasons.map((reason, index) => (
            <li key={index}>
              <InlineMarkdown text={reason} />
            </li>
          ))}
        </ul>
      ) : null}
      <ToggleButton open={argsOpen} onChange={setArgsOpen} show="Show arguments" hide="Hide arguments" />
      {argsOpen ? <ToolArguments args={request.args} kind={undefined} label={`${request.toolName} arguments`} hasResultDiff={Boolean(request.preview?.diff)} /> : null}

      {item.decision ? (
        <p className={`permission-outcome outcome-${item.decision.decision}`} role="status">
          {decisionText(item.decision)}
        </p>
      ) : item.expired ? (
        <p className="permission-outcome" role="status">
          No longer waiting: the run ended before an answer.
        </p>
      ) : (
        <div className="permission-actions">
          <button type="button" className="primary" disabled={Boolean(answering)} onClick={() => act('once')} aria-keyshortcuts="Y Enter">
            Allow once
          </button>
          <button type="button" disabled={Boolean(answering)} onClick={() => act('session')} aria-keyshortcuts="S">
            Allow for session
          </button>
          <span className="always-group">
            <button type="button" disabled={Boolean(answering)} onClick={() => act('always')} aria-keyshortcuts="A">
              Always allow
            </button>
            <input
              className="rule-input"
              aria-label="Rule to always allow"
              value={rule}
              placeholder={`${request.toolName}(…)`}
              disabled={Boolean(answering)}
              onChange={(event) => setRule(event.target.value)}
              onKeyDown={(event) => {
                if (event.key === 'Enter') {
                  event.preventDefault();
                  act('always');
                }
              }}
            />
          </span>
          <span className="deny-group">
            <button type="button" className="danger" disabled={Boolean(answering)} onClick={() => act('deny')} aria-keyshortcuts="N Escape">
              Deny
            </button>
            <input
              className="reason-input"
              aria-label="Tell the agent why (optional)"
              placeholder="Tell the agent why (optional)"
              value={reason}
              maxLength={2000}
              disabled={Boolean(answering)}
              onChange={(event) => setReason(event.target.value)}
              onKeyDown={(event) => {
                if (event.key === 'Enter') {
                  event.preventDefault();
                  act('deny');
                }
              }}
            />
          </span>
          <span className="shortcut-hint" aria-hidden="true">
            {answering ? 'Sending…' : 'Y allow once · S session · A always · N deny'}
          </span>
        </div>
      )}
    </article>
  );
});

function bashCommand(args: unknown): string | undefined {
  const command = (args as { command?: unknown } | null)?.command;
  return typeof command === 'string' ? command : undefined;
}

function decisionText(decision: PermissionDecisionEvent): string {
  if (decision.decision === 'deny') return '✕ Denied';
  if (decision.scope === 'session') return '✓ Allowed for this session';
  if (decision.scope === 'always') return `✓ Always allowed${decision.rule ? `: ${decision.rule}` : ''}`;
  if (decision.rule) return `✓ Allowed by rule ${decision.rule}`;
  return '✓ Allowed once';
}
