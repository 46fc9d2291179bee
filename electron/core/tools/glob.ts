/** Globs and path order shared by list_files and search. */
import picomatch from 'picomatch';

/** Matches a glob the way list_files and search's `include` document it. */
export function globMatcher(glob: string): (relativePath: string) => boolean {
  const pattern = glob.replace(/^\.?\//, '');
  return picomatch(pattern, { dot: true, basename: !pattern.includes('/') });
}

/** Tree order: compares paths folder by folder, so `a/b/c` sorts with `a/b`, before `a/b.txt`. */
export function compareTreeOrder(a: string, b: string): number {
  const left = a.split('/');
  const right = b.split('/');
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    if (left[i] !== right[i]) return left[i]! < right[i]! ? -1 : 1;
  }
  return left.length - right.length;
}
