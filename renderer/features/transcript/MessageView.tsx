/** An assistant message: its text as Markdown, thinking folded away, tool calls being written. */
import type { AssistantItem, AssistantPart } from './model-types';
import { Markdown } from './Markdown';
import { useToggle } from '../../store/use-toggle';
import { ToggleButton } from '../../ui/Toggle';
import { useThrottled } from '../../ui/use-throttled';
import { CopyButton } from '../../ui/CopyButton';
import { CHUNK_ROWS } from './MarkdownTable';

/** While a reply streams, a millisecond between redraws for each this many characters of its last paragraph, up to the most. */
const CHARACTERS_PER_MS = 250;
const MAX_REDRAW_MS = 250;

export function MessageView({ item }: { item: AssistantItem }) {
  const streamed = useThrottled(item.parts, item.streaming ? redrawInterval(item.parts) : 0);
  const parts = streamed.filter((part) => part !== undefined);
  const visible = parts.filter((part) => part.kind !== 'toolCall' || item.streaming);
  if (visible.length === 0 && !item.streaming) return <div className="item empty-message" />;
  return (
    <article className={`item assistant${item.streaming ? ' streaming' : ''}`} aria-label="Cove's reply" aria-busy={item.streaming}>
      <div className="speaker">Cove</div>
      {visible.map((part, index) => {
        if (part.kind === 'text') return <Markdown key={index} text={part.text} />;
        if (part.kind === 'thinking') return <Thinking key={index} toggleKey={`${item.key}:thinking:${index}`} text={part.text} />;
        return (
          <p key={index} className="preparing">
            Preparing {part.toolName}…
          </p>
        );
      })}
      {item.streaming && visible.length === 0 ? <p className="preparing">Thinking…</p> : null}
      {item.cut ? <p className="cut-note">(The reply was cut off when the run ended.)</p> : null}
      {item.streaming || !item.parts.some((part) => part?.kind === 'text' && part.text.trim() !== '') ? null : (
        <div className="message-actions">
          <CopyButton text={() => messageText(item.parts)} what="message" />
        </div>
      )}
    </article>
  );
}

/** What a person copies of a reply: its text as written (Markdown), without thinking or tool calls. */
function messageText(parts: readonly (AssistantPart | undefined)[]): string {
  return parts.flatMap((part) => (part?.kind === 'text' ? [part.text] : [])).join('\n\n');
}

function Thinking({ toggleKey, text }: { toggleKey: string; text: string }) {
  const [open, setOpen] = useToggle(toggleKey);
  return (
    <div className="thinking">
      <ToggleButton open={open} onChange={setOpen} show="Show thinking" hide="Hide thinking" />
      {open ? <div className="thinking-text">{text}</div> : null}
    </div>
  );
}

/**
 * The browser lays out a paragraph whole whenever text is added to it: about 1.5 ms per
 * thousand words, so a reply that streams one endless paragraph would cost more per frame the
 * longer it gets. It is redrawn less often as it grows instead; short ones, every frame. A
 * long table is laid out by chunks of rows (./MarkdownTable.tsx): only its last chunk counts
 * (counting all its rows drew a 1,000-row table every 250 ms, hundreds of rows at a time).
 */
function redrawInterval(parts: readonly (AssistantPart | undefined)[]): number {
  const last = parts.findLast((part) => part?.kind === 'text' || part?.kind === 'thinking');
  if (last?.kind !== 'text' && last?.kind !== 'thinking') return 0;
  return Math.min(MAX_REDRAW_MS, Math.floor(growingLength(last.text) / CHARACTERS_PER_MS));
}

/** How many characters of `text`'s end the browser lays out again when text is added. */
export function growingLength(text: string): number {
  const start = text.lastIndexOf('\n\n') + 1;
  if (
    !text
      .slice(start, start + 200)
      .trimStart()
      .startsWith('|')
  )
    return text.length - start;
  // A table (rows start with a bar): its last CHUNK_ROWS lines at most.
  let at = text.length;
  for (let line = 0; line < CHUNK_ROWS && at > start; line++) at = text.lastIndexOf('\n', at - 1);
  return text.length - Math.max(start, at);
}
