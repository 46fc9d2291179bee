/**
 * One file's diff in the review pane: hunk by hunk, unified or side by side, with old and new
 * line numbers. Each hunk can be reverted on its own; each line number is a button that opens a
 * comment on that line, collected by the pane and sent to the agent as one prompt. Signs (+ −)
 * and labels carry the meaning, colour only repeats it.
 */
import { Fragment, memo, useMemo, useState, type ReactNode } from 'react';
import type { ChangedFileView } from '../../../shared/contract';
import { languageForPath, useHighlightedLines } from '../../ui/highlight';
import type { DiffLine } from '../tools/diff-lines';
import { lineContent, reviewHunks, splitRows, type LineComment, type ReviewHunk } from './review-diff';

export type ReviewLayout = 'unified' | 'split';

/** More rows than this per file wait for "Show all": a generated file should not stall the pane. */
const SHOWN_ROWS = 400;

const SIGNS = { added: '+', removed: '−', context: ' ' } as const;

interface Props {
  file: ChangedFileView;
  layout: ReviewLayout;
  comments: readonly LineComment[];
  onComment(comment: LineComment): void;
  onRemoveComment(comment: LineComment): void;
  onRevertHunk?(hunk: ReviewHunk): void;
}

/** Where a comment on this line lands: the new file's number, or the old one's for a removed line. */
function anchor(line: DiffLine): { line: number; removed: boolean } | null {
  if (line.kind === 'removed' && line.oldLine !== undefined) return { line: line.oldLine, removed: true };
  if ((line.kind === 'added' || line.kind === 'context') && line.newLine !== undefined) return { line: line.newLine, removed: false };
  return null;
}

const keyOf = (place: { line: number; removed: boolean }) => `${place.removed ? 'old' : 'new'}:${place.line}`;

/**
 * The old file's lines and the new file's lines that the hunks show, each as one text, and where
 * every diff line falls in them: what the highlighter colours, a side at a time.
 */
function sides(hunks: readonly ReviewHunk[]) {
  const old: string[] = [];
  const fresh: string[] = [];
  const at = new Map<DiffLine, { old?: number; new?: number }>();
  for (const line of hunks.flatMap((hunk) => hunk.lines)) {
    if (line.kind === 'context' && !line.text.startsWith(' ')) continue;
    const place: { old?: number; new?: number } = {};
    if (line.kind !== 'added') place.old = old.push(lineContent(line)) - 1;
    if (line.kind !== 'removed') place.new = fresh.push(lineContent(line)) - 1;
    at.set(line, place);
  }
  return { old: old.join('\n'), new: fresh.join('\n'), at };
}

export const ReviewDiff = memo(function ReviewDiff({ file, layout, comments, onComment, onRemoveComment, onRevertHunk }: Props) {
  const hunks = useMemo(() => reviewHunks(file.diff), [file.diff]);
  const texts = useMemo(() => sides(hunks), [hunks]);
  const language = languageForPath(file.path);
  const oldHtml = useHighlightedLines(texts.old, language);
  const newHtml = useHighlightedLines(texts.new, language);
  const [editing, setEditing] = useState<string | null>(null);
  const [draft, setDraft] = useState('');
  const [showAll, setShowAll] = useState(false);
  const columns = layout === 'split' ? 4 : 3;

  /** A line number; the one on the side a comment lands on is the button that opens it. */
  const numberButton = (line: DiffLine | null, side: 'old' | 'new') => {
    const place = line && anchor(line);
    const number = side === 'old' ? line?.oldLine : line?.newLine;
    if (!line || number === undefined) return <td className="review-number" />;
    if (!place || place.removed !== (side === 'old')) return <td className="review-number">{number}</td>;
    const key = keyOf(place);
    return (
      <td className="review-number">
        <button
          type="button"
          className="review-line-button"
          aria-label={`Comment on ${file.path} line ${place.line}${place.removed ? ' (removed)' : ''}`}
          aria-expanded={editing === key}
          onClick={() => {
            setEditing(editing === key ? null : key);
            setDraft('');
          }}
        >
          {number}
        </button>
      </td>
    );
  };

  const code = (line: DiffLine | null) => {
    if (!line) return <td className="review-code review-empty" />;
    const sign = line.kind === 'added' || line.kind === 'removed' || line.kind === 'context' ? SIGNS[line.kind] : '';
    const place = texts.at.get(line);
    // Plain text until the highlighter has loaded, and for languages it does not know; its HTML is escaped text in spans.
    const html = line.kind === 'removed' ? place?.old !== undefined && oldHtml?.[place.old] : place?.new !== undefined && newHtml?.[place.new];
    return (
      <td className={`review-code diff-${line.kind}`}>
        <span className="review-sign">{sign}</span>
        {typeof html === 'string' ? <span dangerouslySetInnerHTML={{ __html: html }} /> : lineContent(line)}
      </td>
    );
  };

  /** The comments on a line and, when it is open, the editor: rows under the line. */
  const commentRows = (lines: Array<DiffLine | null>) => {
    const rows: ReactNode[] = [];
    for (const line of lines) {
      const place = line && anchor(line);
      if (!line || !place) continue;
      const key = keyOf(place);
      for (const comment of comments.filter((entry) => entry.line === place.line && entry.removed === place.removed)) {
        rows.push(
          <tr key={`c${key}:${comments.indexOf(comment)}`} className="review-comment-row">
            <td colSpan={columns}>
              <div className="review-comment" role="note" aria-label={`Comment on line ${place.line}`}>
                <span className="review-comment-text">{comment.text}</span>
                <button type="button" className="link-button" onClick={() => onRemoveComment(comment)}>
                  Remove
                </button>
              </div>
            </td>
          </tr>,
        );
      }
      if (editing !== key) continue;
      const submit = () => {
        if (draft.trim() === '') return;
        onComment({ root: file.root, path: file.path, ...place, quote: lineContent(line), text: draft.trim() });
        setEditing(null);
        setDraft('');
      };
      rows.push(
        <tr key={`e${key}`} className="review-comment-row">
          <td colSpan={columns}>
            <div className="review-comment-editor">
              <textarea
                aria-label={`Your comment on ${file.path} line ${place.line}`}
                value={draft}
                rows={2}
                maxLength={4000}
                autoFocus
                onChange={(event) => setDraft(event.target.value)}
                onKeyDown={(event) => {
                  if (event.key === 'Enter' && (event.metaKey || event.ctrlKey)) submit();
                  if (event.key === 'Escape') {
                    event.stopPropagation();
                    setEditing(null);
                  }
                }}
              />
              <button type="button" className="primary" disabled={draft.trim() === ''} onClick={submit}>
                Add comment
              </button>
              <button type="button" onClick={() => setEditing(null)}>
                Cancel
              </button>
            </div>
          </td>
        </tr>,
      );
    }
    return rows;
  };

  let budget = showAll ? Infinity : SHOWN_ROWS;
  const total = hunks.reduce((sum, hunk) => sum + hunk.lines.length, 0);
  return (
    <div className="review-diff">
      {hunks.map((hunk) => {
        if (budget <= 0) return null;
        const rows: ReactNode[] = [];
        if (layout === 'split') {
          for (const [index, row] of splitRows(hunk.lines).entries()) {
            if (budget-- <= 0) break;
            rows.push(
              <Fragment key={index}>
                <tr className="review-row">
                  {numberButton(row.left, 'old')}
                  {code(row.left && row.left.kind !== 'added' ? row.left : null)}
                  {numberButton(row.right, 'new')}
                  {code(row.right && row.right.kind !== 'removed' ? row.right : null)}
                </tr>
                {commentRows(row.left === row.right ? [row.left] : [row.left, row.right])}
              </Fragment>,
            );
          }
        } else {
          for (const [index, line] of hunk.lines.entries()) {
            if (budget-- <= 0) break;
            rows.push(
              <Fragment key={index}>
                <tr className="review-row">
                  {numberButton(line, 'old')}
                  {numberButton(line, 'new')}
                  {code(line)}
                </tr>
                {commentRows([line])}
              </Fragment>,
            );
          }
        }
        return (
          <section key={hunk.index} className="review-hunk" aria-label={`Hunk ${hunk.index + 1} of ${file.path}`}>
            <div className="review-hunk-header">
              <code>{hunk.header}</code>
              {onRevertHunk ? (
                <button type="button" className="link-button" onClick={() => onRevertHunk(hunk)}>
                  Revert hunk
                </button>
              ) : null}
            </div>
            <table className={`review-table review-${layout}`}>
              <colgroup>
                {layout === 'split' ? (
                  <>
                    <col className="review-number-column" />
                    <col />
                    <col className="review-number-column" />
                    <col />
                  </>
                ) : (
                  <>
                    <col className="review-number-column" />
                    <col className="review-number-column" />
                    <col />
                  </>
                )}
              </colgroup>
              <tbody>{rows}</tbody>
            </table>
          </section>
        );
      })}
      {total > SHOWN_ROWS ? (
        <button type="button" className="link-button" onClick={() => setShowAll(!showAll)}>
          {showAll ? 'Show less' : `Show all ${total} lines`}
        </button>
      ) : null}
    </div>
  );
});
