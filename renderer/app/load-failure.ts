/**
 * When a chunk of the interface cannot be loaded (the server went away mid-load, or was rebuilt
 * and no longer has the files this page names), the page says so instead of staying blank.
 */
export function showLoadFailure(root: HTMLElement, error: unknown): void {
  const message = document.createElement('p');
  message.setAttribute('role', 'alert');
  message.className = 'inline-error';
  message.textContent = `Cove could not load its interface (${error instanceof Error ? error.message : String(error)}). Reload the page to try again.`;
  root.replaceChildren(message);
}
