/**
 * A show/hide button whose state lives in the store (keyed by item and part), so it survives
 * the item scrolling out of the virtualized transcript and back.
 */
import { useCove } from '../store';

export function useToggle(key: string, initial = false): [boolean, (value: boolean) => void] {
  const value = useCove((state) => state.toggles[key] ?? initial);
  const setToggle = useCove((state) => state.setToggle);
  return [value, (next) => setToggle(key, next)];
}

export function ToggleButton({ open, onChange, show, hide, controls }: { open: boolean; onChange(value: boolean): void; show: string; hide: string; controls?: string }) {
  return (
    <button type="button" className="link-button" aria-expanded={open} aria-controls={controls} onClick={() => onChange(!open)}>
      <span aria-hidden="true">{open ? '▾' : '▸'}</span> {open ? hide : show}
    </button>
  );
}
