/** A unified diff with added lines green, removed red, hunk headers marked; long diffs folded. */
import { memo, useMemo, useState } from 'react';
import { diffLines, diffStats } from './diff-lines';

const SHOWN_LINES = 80;

/** `lineNumbers` adds a gutter with each line's old and new number (a permission prompt's preview). */
export const DiffView = memo(function DiffView({ diff, lineNumbers = false }: { diff: string; lineNumbers?: boolean }) {
  const lines = useMemo(() => diffLines(diff), [diff]);
  const stats = useMemo(() => diffStats(lines), [lines]);
  const [showAll, setShowAll] = useState(false);
  const shown = showAll ? lines : lines.slice(0, SHOWN_LINES);
  return (
    <div className="diff-frame">
      <div className="diff-stats">
        <span className="diff-added-count">+{stats.added}</span> <span className="diff-removed-count">−{stats.removed}</span>
      </div>
      <pre className="diff" role="group" aria-label={`Diff: ${stats.added} lines added, ${stats.removed} removed`} tabIndex={0}>
        {shown.map((line, index) => (
          <span key={index} className={`diff-line diff-${line.kind}`}>
            {lineNumbers ? (
              <span className="diff-gutter" aria-hidden="true">
                {String(line.oldLine ?? '').padStart(4)} {String(line.newLine ?? '').padStart(4)}{' '}
              </span>
            ) : null}
            {line.text}
            {'\n'}
          </span>
        ))}
      </pre>
      {lines.length > SHOWN_LINES ? (
        <button type="button" className="link-button" onClick={() => setShowAll(!showAll)}>
          {showAll ? 'Show less' : `Show all ${lines.length} lines`}
        </button>
      ) : null}
    </div>
  );
});
