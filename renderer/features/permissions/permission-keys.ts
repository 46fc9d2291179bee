/** The keys of a permission card: Y or Enter allow once, S for the session, A always, N or Escape deny. */
export type PermissionAction = 'once' | 'session' | 'always' | 'deny';

export function actionForKey(key: string): PermissionAction | null {
  switch (key.toLowerCase()) {
    case 'y':
    case 'enter':
      return 'once';
    case 's':
      return 'session';
    case 'a':
      return 'always';
    case 'n':
    case 'escape':
      return 'deny';
    default:
      return null;
  }
}

/** Typing in a field, or pressing Enter/Space on a button, is not a shortcut. */
export function isTypingTarget(target: EventTarget | null, key: string): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName)) return true;
  return (key === 'Enter' || key === ' ') && (target.tagName === 'BUTTON' || target.tagName === 'A' || target.tagName === 'SUMMARY');
}
