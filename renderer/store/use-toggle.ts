/**
 * A show/hide state kept in the store (keyed by item and part), so it survives the item
 * scrolling out of the virtualized transcript and back. ui/Toggle.tsx draws the button.
 */
import { useCove } from './index';

export function useToggle(key: string, initial = false): [boolean, (value: boolean) => void] {
  const value = useCove((state) => state.toggles[key] ?? initial);
  const setToggle = useCove((state) => state.setToggle);
  return [value, (next) => setToggle(key, next)];
}
