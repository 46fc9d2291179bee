/**
 * Windows path rules for the workspace sandbox (sandbox.ts), written with path.win32 so they are
 * tested on any OS. NTFS compares names without case, Win32 accepts `/` and `\`, spells the same
 * folder `C:\x`, `c:/x`, `\\?\C:\x`, and a share `\\server\share` or `\\?\UNC\server\share`; a
 * prefix check on the raw strings would refuse a path inside the workspace or, worse, pass one
 * outside that only looks alike. Some names mean something other than a file in the folder:
 * `file:stream` (an alternate data stream), `NUL`, `CON`, `COM1` (devices, in any folder),
 * `\\.\` (the device namespace), names ending in dots or spaces (Win32 drops them, so
 * `.env.` opens `.env`), and `C:name` (relative to a current folder per drive); those are refused.
 */
import { win32 } from 'node:path';

const DEVICE_NAMES = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|conin\$|conout\$)(\..*)?$/i;

/** The path in one spelling: `\` separators, no `\\?\` prefix, no trailing separator, lower case. */
export function windowsPathKey(path: string): string {
  let text = path.replace(/\//g, '\\');
  if (/^\\\\\?\\unc\\/i.test(text)) text = `\\\\${text.slice(8)}`;
  else if (/^\\\\\?\\[a-z]:/i.test(text)) text = text.slice(4);
  const normalized = win32.normalize(text);
  const root = win32.parse(normalized).root;
  const trimmed = normalized.length > root.length ? normalized.replace(/\\+$/, '') : normalized;
  return trimmed.toLowerCase();
}

/** Whether `path` is `root` or lies under it, both absolute Windows paths. */
export function isInsideWindows(path: string, root: string): boolean {
  const inner = windowsPathKey(path);
  const outer = windowsPathKey(root);
  if (inner === outer) return true;
  return inner.startsWith(outer.endsWith('\\') ? outer : `${outer}\\`);
}

/** Why Windows would not read `path` as a plain file or folder name, or null. */
export function windowsPathProblem(path: string): string | null {
  const text = path.replace(/\//g, '\\');
  if (/^\\\\[.?]\\(?!unc\\|[a-z]:)/i.test(text)) return `${path} is in the Windows device namespace, not a file path`;
  if (/^[a-z]:(?!\\)/i.test(text)) return `${path} is relative to the current folder of drive ${text[0]!.toUpperCase()}:, which Cove does not know; write ${text.slice(0, 2)}\\…`;
  const withoutPrefix = text.replace(/^\\\\\?\\(unc\\)?/i, '');
  const withoutDrive = withoutPrefix.replace(/^[a-z]:/i, '');
  if (withoutDrive.includes(':')) return `${path} names an alternate data stream (":"), not a file`;
  for (const component of withoutDrive.split('\\')) {
    if (component === '' || component === '.' || component === '..') continue;
    if (/[. ]$/.test(component)) return `${path}: Windows drops the dots and spaces that end "${component}", so it would open another name`;
    if (DEVICE_NAMES.test(component.trim())) return `${path}: "${component}" is a Windows device name, not a file`;
  }
  return null;
}
