/**
 * When a chunk of the interface cannot be loaded (the server went away mid-load, or was rebuilt
 * and no longer has the files this page names), the page says so instead of staying blank.
 */

/** What a failed load says: which part could not load, and the browser's reason. */
export function loadFailureText(what: string, error: unknown): string {
  return `Cove could not load ${what} (${error instanceof Error ? error.message : String(error)}).`;
}

/** The whole interface failed to load: nothing of React is there to retry, so a reload is the way. */
export function showLoadFailure(root: HTMLElement, error: unknown): void {
  const message = document.createElement('p');
  message.setAttribute('role', 'alert');
  message.className = 'inline-error';
  message.textContent = `${loadFailureText('its interface', error)} Reload the page to try again.`;
  root.replaceChildren(message);
}
