/** An assistant message: its text as Markdown, thinking folded away, tool calls being written. */
import type { AssistantItem } from './model-types';
import { Markdown } from './Markdown';
import { ToggleButton, useToggle } from '../../ui/Toggle';

export function MessageView({ item }: { item: AssistantItem }) {
  const parts = item.parts.filter((part) => part !== undefined);
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
    </article>
  );
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
