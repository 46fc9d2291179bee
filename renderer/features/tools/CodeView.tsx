/**
 * Code with syntax colour (renderer/ui/highlight.ts) and, for file contents, a gutter of line
 * numbers. Plain text until the highlighter has loaded, or for a language it does not know.
 * The only HTML inserted is the highlighter's, which escapes the text and adds nothing but
 * `<span class>`.
 */
import { memo, useMemo } from 'react';
import { useHighlightedLines } from '../../ui/highlight';

interface Props {
  text: string;
  language: string | undefined;
  /** The number of the first line, to draw a gutter; none without it. */
  firstLine?: number;
  label?: string;
  className?: string;
}

/** A final newline ends the last line; it does not start an empty one. */
function withoutFinalNewline(text: string): string {
  return text.endsWith('\n') ? text.slice(0, text.endsWith('\r\n') ? -2 : -1) : text;
}

export const CodeView = memo(function CodeView({ text, language, firstLine, label, className = '' }: Props) {
  const body = withoutFinalNewline(text);
  const lines = useMemo(() => body.split(/\r?\n/), [body]);
  const highlighted = useHighlightedLines(body, language);
  const width = firstLine === undefined ? 0 : String(firstLine + lines.length - 1).length;
  // Every line in colour (while a grown block waits for its turn, its new lines are plain).
  const whole = highlighted !== undefined && !highlighted.includes(undefined);
  return (
    <pre className={`code-view ${className}`.trim()} role={label ? 'group' : undefined} aria-label={label} tabIndex={0} data-highlighted={whole ? language : undefined}>
      <code>
        {lines.map((line, index) => (
          <span key={index} className="code-line">
            {firstLine === undefined ? null : (
              <span className="code-gutter" aria-hidden="true">
                {String(firstLine + index).padStart(width)}
              </span>
            )}
            {highlighted?.[index] === undefined ? line : <span dangerouslySetInnerHTML={{ __html: highlighted[index] }} />}
            {'\n'}
          </span>
        ))}
      </code>
    </pre>
  );
});
