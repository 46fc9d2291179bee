// Reads the bare clones `fetch` leaves (MIRROR_DIR/owner+name/repo) at their HEAD, for the scripts
// that build Cove's held-out credential corpora from other scanners' test suites.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

/** `git`, `files` (paths under a folder) and `show` (a file's text) for each source's repository, and its HEAD commit. */
export function mirrorReader(mirror, sources) {
  const gitDir = (name) => join(mirror, `${sources[name].repo.replace('/', '+')}`, 'repo');
  const git = (name, ...args) => execFileSync('git', ['-C', gitDir(name), ...args], { encoding: 'utf8', maxBuffer: 1 << 28 });
  return {
    git,
    files: (name, under) => git(name, 'ls-tree', '-r', '--name-only', 'HEAD', under).split('\n').filter(Boolean),
    show: (name, path) => git(name, 'show', `HEAD:${path}`),
    /** The sources with the commit each was read at, as the corpus files record them. */
    withCommits: () => Object.fromEntries(Object.entries(sources).map(([name, source]) => [name, { ...source, commit: git(name, 'rev-parse', 'HEAD').trim() }])),
  };
}
