/** A unified diff with added lines green, removed red, hunk headers marked; long diffs folded. */
import { memo, useMemo, useState } from 'react';
import { diffLines, diffStats } from './diff-lines';

const SHOWN_LINES = 80;

export const DiffView = memo(function DiffView({ diff }: { diff: string }) {
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
