/**
 * The files a git command writes beyond the work tree (shell-writes.ts): `--output` of the diff
 * family, `format-patch -o`, `.git/config` by `config`, `remote` and `branch -u`, `.gitmodules`
 * by `submodule add`, and the folder a `clone` or `worktree add` creates.
 */
import { literalWord } from './shell-words';
import { operands, optionValues, write, type Inspector } from './write-options';

const GIT_GLOBAL_VALUED = ['-c', '-C', '--git-dir', '--work-tree', '--namespace', '--config-env', '--super-prefix', '--exec-path'];

export const git: Inspector = (_name, words, values, found) => {
  const at = operands(values, 1, GIT_GLOBAL_VALUED)[0];
  if (at === undefined) return;
  const sub = values[at]!;
  const tail = words.slice(at);
  const tailValues = values.slice(at);
  if (['diff', 'log', 'show', 'format-patch', 'whatchanged', 'range-diff', 'diff-tree', 'diff-files', 'diff-index'].includes(sub)) {
    for (const target of optionValues(tail, tailValues, [], ['--output'])) write(found, `git ${sub} --output`, target.word, target.skip);
  }
  if (sub === 'format-patch') for (const target of optionValues(tail, tailValues, ['-o'], ['--output-directory'])) write(found, 'git format-patch -o', target.word, target.skip);
  if (sub === 'config' && !tailValues.some((value) => /^(--get|--get-all|--get-regexp|--list|-l|--show-origin|get|list)/.test(value))) {
    const rest = operands(tailValues, 1, ['--file', '-f', '--type', '--default', '--comment', '--blob']);
    const setting = tailValues[rest[0] ?? -1] === 'set' || tailValues.includes('--unset') || tailValues.includes('--unset-all') || tailValues.includes('--add') || rest.length >= 2;
    if (setting) {
      const file = optionValues(tail, tailValues, ['-f'], ['--file'])[0];
      if (file) write(found, 'git config', file.word, file.skip);
      else if (tailValues.includes('--global')) write(found, 'git config --global', literalWord('~/.gitconfig'));
      else if (tailValues.includes('--system')) write(found, 'git config --system', literalWord('/etc/gitconfig'));
      else write(found, 'git config', literalWord('.git/config'));
    }
  }
  if (
    (sub === 'remote' && /^(add|rename|remove|rm|set-url|set-head|set-branches)$/.test(tailValues[1] ?? '')) ||
    (sub === 'branch' && tailValues.some((value) => value.startsWith('--set-upstream') || value === '-u'))
  ) {
    write(found, `git ${sub}`, literalWord('.git/config'));
  }
  if (sub === 'submodule' && tailValues[1] === 'add') {
    write(found, 'git submodule add', literalWord('.gitmodules'));
    write(found, 'git submodule add', literalWord('.git/config'));
  }
  if (sub === 'clone' || (sub === 'worktree' && tailValues[1] === 'add')) {
    const rest = operands(tailValues, sub === 'clone' ? 1 : 2, [
      '-b',
      '--branch',
      '-o',
      '--origin',
      '--depth',
      '-c',
      '--config',
      '--reference',
      '--template',
      '-u',
      '--upload-pack',
      '-j',
      '--jobs',
      '--filter',
      '--separate-git-dir',
    ]);
    const target = sub === 'clone' ? rest[1] : rest[0];
    write(found, `git ${sub}`, target !== undefined ? tail[target]! : null);
  }
};
