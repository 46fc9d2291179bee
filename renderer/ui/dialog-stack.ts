/**
 * The modal dialogs that are open, newest last. A modal <dialog> sits in the browser's top layer
 * and makes the rest of the page inert, so anything that must stay visible and clickable while one
 * is open (the toasts) is drawn inside the newest one; this stack says which that is.
 */
import { useSyncExternalStore } from 'react';

let stack: HTMLDialogElement[] = [];
const listeners = new Set<() => void>();

function changed(next: HTMLDialogElement[]): void {
  stack = next;
  for (const listener of listeners) listener();
}

export function dialogOpened(dialog: HTMLDialogElement): void {
  changed([...stack.filter((open) => open !== dialog), dialog]);
}

export function dialogClosed(dialog: HTMLDialogElement): void {
  if (stack.includes(dialog)) changed(stack.filter((open) => open !== dialog));
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The newest open modal dialog, or null when none is open. */
export function useTopDialog(): HTMLDialogElement | null {
  return useSyncExternalStore(
    subscribe,
    () => stack.at(-1) ?? null,
    () => null,
  );
}
