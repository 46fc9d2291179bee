/**
 * A tool call on one line: icon, the tool's label and summary, its state and duration. It opens
 * (click or Enter/Space on the line) to the call's arguments and its output. What needs eyes
 * stays out of the fold: a running call's progress, an error, a denial, an edit's diff, and the
 * terminal of a command. A command that exited non-zero is Failed, whatever the result says.
 */
import { memo, useId } from 'react';
import type { ToolItem } from '../transcript/model-types';
import { duration } from '../../ui/format';
import { ProgressBar } from '../../ui/ProgressBar';
import { useToggle } from '../../store/use-toggle';
import { CopyButton } from '../../ui/CopyButton';
import { useNow } from '../../ui/use-now';
import { DiffView } from './DiffView';
import { Terminal } from './Terminal';
import { isEmptyTerminal } from './terminal-buffer';
import { outputText, TextOutput } from './TextOutput';
import { ToolArguments } from './ToolArguments';
import { stripMarkers } from './tool-markers';
import { callOutcome, cleanExit } from './tool-outcome';
import { ToolToggle } from './ToolToggle';
import { inlineResult, toolLabel, toolSummary } from './tool-summary';
import { SubagentAnswer } from '../subagents/SubagentAnswer';

export const ToolCard = memo(function ToolCard({ item }: { item: ToolItem }) {
  const running = item.status === 'running';
  const now = useNow(1000, running);
  const result = item.result;
  const outcome = callOutcome(item);
  const denied = outcome.tone === 'denied';
  // The accessible name stays the tool's name, the identifier people and scripts look for.
  const name = item.toolName;
  const title = toolLabel(item.toolName, item.label);
  const summary = stripMarkers(toolSummary(item.summary, item.args));
  // Sessions recorded before events carried a kind still stream a terminal.
  const executes = item.toolKind === 'execute' || item.terminal !== null;
  const errorText = item.isError && result ? stripMarkers(outputText(result.content)) : '';
  const hasTerminal = item.terminal !== null && !isEmptyTerminal(item.terminal);
  const [open, setOpen] = useToggle(`${item.key}:open`, executes);
  const bodyId = useId();
  const inline =
    !running && !item.isError && !hasTerminal && result !== null
      ? inlineResult(result.content.map((block) => (block.type === 'text' ? { ...block, text: stripMarkers(block.text) } : block)))
      : null;
  const hasOutput = !denied && inline === null && (hasTerminal || (running && item.partialText !== null) || (!item.isError && result !== null && result.content.length > 0));
  const details = result?.details;
  const durationMs = details && typeof details === 'object' ? (details as { durationMs?: unknown }).durationMs : undefined;
  const elapsedMs = running ? null : typeof durationMs === 'number' ? durationMs : item.endedAt !== null ? item.endedAt - item.startedAt : null;
  const exitedCleanly = executes && cleanExit(details) === 0;

  return (
    <article className={`item tool-card tool-${outcome.tone}`} aria-label={`${name} tool: ${outcome.label}`} data-tool-call-id={item.toolCallId}>
      <header className="tool-header">
        <ToolToggle open={open} bodyId={bodyId} tone={outcome.tone} running={running} onToggle={() => setOpen(!open)}>
          <span className="tool-name" title={name}>
            {title}
          </span>
          {summary ? (
            <code className="tool-summary" title={summary}>
              {summary}
            </code>
          ) : null}
        </ToolToggle>
        {inline !== null ? (
          <span className="tool-result-line" role="group" aria-label={`${name} output`} title={inline}>
            {inline}
          </span>
        ) : null}
        <span className="tool-state">{outcome.label}</span>
        {exitedCleanly ? <span className="badge exit-badge exit-ok">exit 0</span> : null}
        {elapsedMs !== null ? <span className="tool-elapsed">{duration(elapsedMs)}</span> : null}
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

      {result?.diff ? <DiffView diff={result.diff} /> : null}
      {open ? (
        <div id={bodyId} className="tool-body">
          <ToolArguments args={item.args} kind={item.toolKind} label={`${name} arguments`} hasResultDiff={Boolean(result?.diff)} />
          {hasOutput ? (
            hasTerminal ? (
              <div className="output-frame">
                {result ? <CopyButton text={() => stripMarkers(outputText(result.content))} what="output" className="output-copy" /> : null}
                <Terminal buffer={item.terminal!} label={`${name} output`} />
              </div>
            ) : running ? (
              <pre className="partial-output">{item.partialText}</pre>
            ) : item.toolName === 'subagent' ? (
              <SubagentAnswer content={result!.content} label={`${name} output`} />
            ) : (
              <TextOutput content={result!.content} label={`${name} output`} />
            )
          ) : null}
        </div>
      ) : null}
    </article>
  );
});
