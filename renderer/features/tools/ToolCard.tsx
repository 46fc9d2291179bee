/**
 * A tool call: what it does, its state (running with progress, done, failed, denied), its
 * arguments, its diff, and its output — streamed terminal output for a tool of kind `execute`.
 * The title is the tool's own label and summary, as core sent them.
 */
import { memo } from 'react';
import type { ToolItem } from '../transcript/model-types';
import { duration } from '../../ui/format';
import { ProgressBar } from '../../ui/ProgressBar';
import { useToggle } from '../../store/use-toggle';
import { ToggleButton } from '../../ui/Toggle';
import { useNow } from '../../ui/use-now';
import { DiffView } from './DiffView';
import { Terminal } from './Terminal';
import { isEmptyTerminal } from './terminal-buffer';
import { TextOutput } from './TextOutput';
import { inlineResult, toolLabel, toolSummary } from './tool-summary';
import { SubagentAnswer } from '../subagents/SubagentAnswer';

interface RunDetails {
  exitCode?: number | null;
  signal?: string;
  timedOut?: boolean;
  durationMs?: number;
}

export const ToolCard = memo(function ToolCard({ item }: { item: ToolItem }) {
  const running = item.status === 'running';
  const now = useNow(1000, running);
  const result = item.result;
  const details = (result?.details && typeof result.details === 'object' ? result.details : {}) as RunDetails;
  const denied = result?.errorKind === 'denied';
  // The accessible name stays the tool's name, the identifier people and scripts look for.
  const name = item.toolName;
  const title = toolLabel(item.toolName, item.label);
  const summary = toolSummary(item.summary, item.args);
  // Sessions recorded before events carried a kind still stream a terminal.
  const executes = item.toolKind === 'execute' || item.terminal !== null;
  const state = stateLabel(item);
  const errorText = item.isError && result ? textOf(result.content) : '';
  const hasTerminal = item.terminal !== null && !isEmptyTerminal(item.terminal);
  const [argsOpen, setArgsOpen] = useToggle(`${item.key}:arguments`);
  const [outputOpen, setOutputOpen] = useToggle(`${item.key}:output`, executes);
  const inline = !running && !denied && !item.isError && !hasTerminal && result !== null ? inlineResult(result.content) : null;
  const showOutput = !denied && inline === null && (hasTerminal || (running && item.partialText !== null) || (!item.isError && result !== null && result.content.length > 0));
  const elapsedMs = running ? now - item.startedAt : (details.durationMs ?? null);

  return (
    <article className={`item tool-card tool-${item.status}${denied ? ' tool-denied' : ''}`} aria-label={`${name} tool: ${state}`} data-tool-call-id={item.toolCallId}>
      <header className="tool-header">
        <span className={`tool-icon${running ? ' spin' : ''}`} aria-hidden="true">
          {running ? '◐' : item.status === 'done' ? '✓' : '✕'}
        </span>
        <span className="tool-name" title={name}>
          {title}
        </span>
        {summary ? (
          <code className="tool-summary" title={summary}>
            {summary}
          </code>
        ) : null}
        <span className="tool-state">{state}</span>
        {executes && result ? <ExitBadge details={details} /> : null}
        {elapsedMs !== null && !running ? <span className="tool-elapsed">{duration(elapsedMs)}</span> : null}
        {result?.redactions ? (
          <span className="badge redaction-badge">
            {result.redactions} {result.redactions === 1 ? 'secret' : 'secrets'} redacted
          </span>
        ) : null}
      </header>

      {running ? <ProgressBar label={`${name} progress`} fraction={item.progress} elapsedMs={now - item.startedAt} /> : null}
      {item.statusLine && running ? <p className="status-line">{item.statusLine}</p> : null}

      {denied ? (
        <p className="tool-denial" role="note">
          <strong>Denied:</strong> {errorText.replace(/^Tool call denied:\s*/, '')}
        </p>
      ) : errorText ? (
        <pre className="tool-error" role="group" aria-label={`${name} error`}>
          {errorText}
        </pre>
      ) : null}

      {inline !== null ? (
        <p className="tool-result-line" role="group" aria-label={`${name} output`}>
          {inline}
        </p>
      ) : null}

      <div className="tool-sections">
        <ToggleButton open={argsOpen} onChange={setArgsOpen} show="Show arguments" hide="Hide arguments" />
        {showOutput ? <ToggleButton open={outputOpen} onChange={setOutputOpen} show="Show output" hide="Hide output" /> : null}
      </div>
      {argsOpen ? (
        <pre className="tool-arguments" role="group" aria-label={`${name} arguments`}>
          {JSON.stringify(item.args, null, 2) ?? 'null'}
        </pre>
      ) : null}
      {result?.diff ? <DiffView diff={result.diff} /> : null}
      {showOutput && outputOpen ? (
        hasTerminal ? (
          <Terminal buffer={item.terminal!} label={`${name} output`} />
        ) : running ? (
          <pre className="partial-output">{item.partialText}</pre>
        ) : item.toolName === 'subagent' ? (
          <SubagentAnswer content={result!.content} label={`${name} output`} />
        ) : (
          <TextOutput content={result!.content} label={`${name} output`} />
        )
      ) : null}
    </article>
  );
});

function stateLabel(item: ToolItem): string {
  if (item.status === 'running') return 'Running';
  if (item.status === 'done') return 'Done';
  switch (item.result?.errorKind) {
    case 'denied':
      return 'Denied';
    case 'cancelled':
      return 'Cancelled';
    case 'interrupted':
      return 'Interrupted';
    case undefined:
      return item.result ? 'Failed' : 'Interrupted';
    default:
      return 'Failed';
  }
}

function ExitBadge({ details }: { details: RunDetails }) {
  if (details.timedOut) return <span className="badge exit-badge exit-bad">timed out</span>;
  if (typeof details.exitCode === 'number') {
    return <span className={`badge exit-badge ${details.exitCode === 0 ? 'exit-ok' : 'exit-bad'}`}>exit {details.exitCode}</span>;
  }
  if (details.signal) return <span className="badge exit-badge exit-bad">killed ({details.signal})</span>;
  return null;
}

function textOf(content: readonly { type: string; text?: string }[]): string {
  return content.flatMap((block) => (block.type === 'text' && block.text ? [block.text] : [])).join('\n');
}
