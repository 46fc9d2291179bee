/**
 * `workspace:complete` answers folder names (or full paths) that complete what was typed. The
 * accepted completion ends with a separator, so the next keystroke lists what is inside.
 */

function separatorOf(path: string): string {
  return /^[A-Za-z]:\\/.test(path) || (path.includes('\\') && !path.includes('/')) ? '\\' : '/';
}

function isFullPath(folder: string): boolean {
  return folder.startsWith('/') || folder.startsWith('~') || /^[A-Za-z]:[\\/]/.test(folder) || folder.startsWith('\\\\');
}

export function completedPath(prefix: string, folder: string): string {
  const separator = separatorOf(isFullPath(folder) ? folder : prefix);
  const base = isFullPath(folder) ? folder : prefix.slice(0, Math.max(prefix.lastIndexOf('/'), prefix.lastIndexOf('\\')) + 1) + folder;
  return base.endsWith(separator) ? base : base + separator;
}
