/**
 * The folder paths in a drop. The desktop host can tell the path of a dropped File; a browser
 * cannot, but file managers put `text/uri-list` (file:// URLs) on the drag, which is decoded
 * here. Plain text that is an absolute path is accepted too.
 */
import { useCove } from '../../store';
import { transport } from '../../transport/client';
import { parseUriList, pathStyleOf } from './file-url';

export function canHoldPaths(data: DataTransfer | null): boolean {
  if (!data) return false;
  const types = Array.from(data.types);
  return types.includes('Files') || types.includes('text/uri-list');
}

export function droppedPaths(data: DataTransfer): { paths: string[]; errors: string[] } {
  const platform = useCove.getState().appInfo?.platform ?? (navigator.platform.toLowerCase().startsWith('win') ? 'win32' : 'linux');
  const style = pathStyleOf(platform);
  const pathForFile = transport().pathForFile;
  const paths: string[] = [];
  const errors: string[] = [];
  if (pathForFile) {
    for (const file of Array.from(data.files)) {
      const path = pathForFile(file);
      if (path) paths.push(path);
      else errors.push(`Cove could not tell where "${file.name}" is on disk; drop it from a file manager or type its path.`);
    }
  }
  if (paths.length === 0) {
    const list = parseUriList(data.getData('text/uri-list'), style);
    paths.push(...list.paths);
    errors.push(...list.errors);
  }
  if (paths.length === 0 && errors.length === 0) {
    const text = data.getData('text/plain').trim();
    if (/^(\/|~\/|[A-Za-z]:\\)/.test(text) && !text.includes('\n')) paths.push(text);
  }
  if (paths.length === 0 && errors.length === 0) {
    errors.push('What was dropped has no folder path. Drop a folder from your file manager, or type or paste its path.');
  }
  return { paths, errors };
}
