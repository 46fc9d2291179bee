/** The listbox of slash-command and @mention suggestions under the composer. */
import type { Suggestion } from './use-completions';

interface Props {
  id: string;
  kind: 'command' | 'mention';
  suggestions: Suggestion[];
  highlighted: number;
  onAccept(index: number): void;
}

export function CompletionList({ id, kind, suggestions, highlighted, onAccept }: Props) {
  return (
    <ul id={id} role="listbox" aria-label={kind === 'command' ? 'Commands' : 'Files'} className="suggestions composer-suggestions">
      {suggestions.map((suggestion, index) => (
        <li
          key={suggestion.value}
          id={`${id}-${index}`}
          role="option"
          aria-selected={index === highlighted}
          aria-disabled={suggestion.problem ? true : undefined}
          className={`${index === highlighted ? 'highlighted' : ''}${suggestion.problem ? ' has-problem' : ''}`}
          // mousedown, not click: the textarea's blur would close the list before a click lands.
          onMouseDown={(event) => {
            event.preventDefault();
            onAccept(index);
          }}
        >
          <span className="suggestion-label">{suggestion.label}</span>
          {suggestion.detail ? <span className="suggestion-detail">{suggestion.detail}</span> : null}
        </li>
      ))}
    </ul>
  );
}
