/**
 * A bash command in its permission prompt with its risky parts marked, as main read them with
 * the permission engine's parser: each mark is highlighted, numbered, and listed below in words
 * (what it does and why), so the meaning never rests on colour alone.
 */
import { memo, useMemo, type ReactNode } from 'react';
import type { CommandMark, CommandMarkKind } from '../../../shared/events';
import { segmentMarks } from './command-segments';

export const MARK_LABELS: Record<CommandMarkKind, string> = {
  writes: 'Writes',
  deletes: 'Deletes',
  network: 'Network',
  outside: 'Outside the workspace',
  'runs-code': 'Runs code',
};

export const CommandMarksView = memo(function CommandMarksView({ command, marks }: { command: string; marks: readonly CommandMark[] }) {
  // Marks that no longer lie on their text (the command was shortened or redacted since) are listed, not drawn.
  const placed = useMemo(() => marks.filter((mark) => command.slice(mark.start, mark.end) === mark.text), [command, marks]);
  const segments = useMemo(() => segmentMarks(command, placed), [command, placed]);
  const number = (mark: CommandMark) => marks.indexOf(mark) + 1;
  const parts: ReactNode[] = segments.map((segment, index) => {
    const endings = segment.ending.map((mark) => (
      <sup key={`n${number(mark)}`} className={`command-mark-number mark-${mark.kind}`} aria-hidden="true">
        {number(mark)}
      </sup>
    ));
    if (segment.marks.length === 0) return <span key={index}>{segment.text}</span>;
    const innermost = segment.marks[0]!;
    return (
      <span key={index}>
        <mark
          className={`command-mark mark-${innermost.kind}${segment.marks.length > 1 ? ' nested' : ''}`}
          title={segment.marks.map((mark) => `${MARK_LABELS[mark.kind]}: ${mark.note}`).join('\n')}
        >
          {segment.text}
        </mark>
        {endings}
      </span>
    );
  });
  return (
    <div className="command-marks">
      <pre className="permission-summary command-marked" aria-label="The command, with its risky parts marked">
        {parts}
      </pre>
      {marks.length > 0 ? (
        <ol className="command-mark-legend" aria-label="Risky parts of this command">
          {marks.map((mark, index) => (
            <li key={index} className={`mark-${mark.kind}`}>
              <span className={`badge command-mark-kind mark-${mark.kind}`}>{MARK_LABELS[mark.kind]}</span> <code>{mark.text}</code>: {mark.note}
            </li>
          ))}
        </ol>
      ) : null}
    </div>
  );
});
