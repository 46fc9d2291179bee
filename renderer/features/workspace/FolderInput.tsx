/**
 * A path field that completes folder names as the person types (`workspace:complete`): the
 * suggestions are an ARIA listbox; ArrowDown/ArrowUp move through them, Tab or Enter accepts
 * the highlighted one, Escape closes the list. Enter with nothing highlighted submits.
 */
import { useEffect, useId, useState } from 'react';
import { call } from '../../transport/client';
import { completedPath } from './completion';

const COMPLETE_DELAY_MS = 120;
const MAX_SUGGESTIONS = 12;

interface Props {
  id?: string;
  label: string;
  value: string;
  onChange(value: string): void;
  onSubmit(): void;
  onBlur?(): void;
  autoFocus?: boolean;
  invalid?: boolean;
  describedBy?: string;
}

export function FolderInput({ id, label, value, onChange, onSubmit, onBlur, autoFocus, invalid, describedBy }: Props) {
  const listId = useId();
  const [suggestions, setSuggestions] = useState<string[]>([]);
  const [open, setOpen] = useState(false);
  const [highlighted, setHighlighted] = useState(-1);
  const [typed, setTyped] = useState(false);

  useEffect(() => {
    if (!typed || value.trim() === '') {
      setSuggestions([]);
      return;
    }
    let current = true;
    const timer = setTimeout(async () => {
      const response = await call('workspace:complete', { prefix: value });
      if (!current || !response.ok) return;
      setSuggestions(response.value.folders.slice(0, MAX_SUGGESTIONS).map((folder) => completedPath(value, folder)));
      setHighlighted(-1);
      setOpen(true);
    }, COMPLETE_DELAY_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [value, typed]);

  const showing = open && suggestions.length > 0;
  const accept = (index: number) => {
    const choice = suggestions[index];
    if (choice === undefined) return;
    onChange(choice);
    setTyped(true);
    setOpen(false);
  };

  return (
    <div className="folder-input">
      <input
        id={id}
        type="text"
        role="combobox"
        aria-label={label}
        aria-autocomplete="list"
        aria-expanded={showing}
        aria-controls={listId}
        aria-activedescendant={showing && highlighted >= 0 ? `${listId}-${highlighted}` : undefined}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy}
        autoComplete="off"
        spellCheck={false}
        autoFocus={autoFocus}
        placeholder="/path/to/project"
        value={value}
        onChange={(event) => {
          setTyped(true);
          onChange(event.target.value);
        }}
        onBlur={() => {
          setOpen(false);
          onBlur?.();
        }}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
            if (suggestions.length === 0) return;
            event.preventDefault();
            setOpen(true);
            const step = event.key === 'ArrowDown' ? 1 : -1;
            setHighlighted((index) => (index + step + suggestions.length) % suggestions.length);
          } else if (event.key === 'Tab' && showing && !event.shiftKey) {
            event.preventDefault();
            accept(Math.max(0, highlighted));
          } else if (event.key === 'Enter') {
            event.preventDefault();
            if (showing && highlighted >= 0) accept(highlighted);
            else {
              // Submitting settles the path: no completions until the person types again.
              setTyped(false);
              setOpen(false);
              onSubmit();
            }
          } else if (event.key === 'Escape' && showing) {
            event.preventDefault();
            event.stopPropagation();
            setOpen(false);
          }
        }}
      />
      <ul id={listId} role="listbox" aria-label="Folder suggestions" className="suggestions" hidden={!showing}>
        {suggestions.map((suggestion, index) => (
          <li
            key={suggestion}
            id={`${listId}-${index}`}
            role="option"
            aria-selected={index === highlighted}
            className={index === highlighted ? 'highlighted' : undefined}
            // mousedown, not click: the input's blur would close the list before a click lands.
            onMouseDown={(event) => {
              event.preventDefault();
              accept(index);
            }}
          >
            {suggestion}
          </li>
        ))}
      </ul>
    </div>
  );
}
