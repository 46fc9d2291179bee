/**
 * Writes hidden in a command's options and operands (SPEC §6): for each program Cove knows,
 * which words name a file it writes (`cp`'s destination, `sed -i`'s files, `find -fprint`'s
 * file, `git diff --output`), and which scripts may write or run something Cove cannot see
 * (sed's `w`/`e`, an awk program with `>` or `system`). A write of `null` is a write into the
 * folder the command runs in (`tar -x`, `unzip`, `wget`).
 */
import { sedScriptIsSafe } from './sed-script';
import { literalWord, type Word } from './shell-words';
import { operands, optionValues, write, type Inspector, type WriteFindings } from './write-options';
import { git } from './git-writes';

export type { WriteFindings, WriteTarget } from './write-options';

const allOperands: Inspector = (name, words, values, found) => {
  const valued =
    name === 'truncate'
      ? ['-s', '--size', '-r', '--reference']
      : name === 'mkdir' || name === 'mknod' || name === 'mkfifo'
        ? ['-m', '--mode']
        : name === 'shred'
          ? ['-n', '-s', '--iterations', '--size']
          : [];
  for (const index of operands(values, 1, valued)) write(found, name, words[index]!);
};

const destination: Inspector = (name, words, values, found) => {
  const targets = optionValues(words, values, ['-t'], ['--target-directory']);
  for (const target of targets) write(found, name, target.word, target.skip);
  if (targets.length > 0) return;
  const valued = name === 'install' ? ['-m', '--mode', '-o', '--owner', '-g', '--group', '-S', '--suffix'] : ['-S', '--suffix'];
  const found_ = operands(values, 1, valued);
  if (found_.length >= 2) write(found, name, words[found_.at(-1)!]!);
  else if (found_.length === 1 && name === 'ln') write(found, name, null);
};

const afterMode: Inspector = (name, words, values, found) => {
  const indexes = operands(values, 1);
  const reference = values.some((value) => value.startsWith('--reference'));
  for (const index of reference ? indexes : indexes.slice(1)) write(found, name, words[index]!);
};

const sed: Inspector = (name, words, values, found) => {
  const scripts = optionValues(words, values, ['-e'], ['--expression']);
  const files = optionValues(words, values, ['-f'], ['--file']);
  const valued = ['-e', '--expression', '-f', '--file', '-l', '--line-length'];
  const rest = operands(values, 1, valued);
  const scriptIndex = scripts.length === 0 && files.length === 0 ? rest.shift() : undefined;
  if (scriptIndex !== undefined) found.data.add(scriptIndex);
  for (const index of values.keys()) if (values[index - 1] === '-e' || values[index - 1] === '--expression') found.data.add(index);
  const texts = [...scripts.map((script) => script.word.value.slice(script.skip)), ...(scriptIndex !== undefined ? [values[scriptIndex]!] : [])];
  if (files.length > 0) found.reasons.push(`${name} -f reads its script from a file, which may write files or run commands`);
  else if (texts.some((text) => !sedScriptIsSafe(text))) found.reasons.push(`the ${name} script may write files or run commands (w, W, e, r, R, s///w, s///e)`);
  const inPlace = values.slice(1).some((value) => (/^-[^-]*i/.test(value) && !value.startsWith('--')) || value.startsWith('--in-place'));
  if (inPlace) for (const index of rest) write(found, `${name} -i`, words[index]!);
};

const awk: Inspector = (name, words, values, found) => {
  const valued = ['-F', '-v', '-f', '-i', '--include', '-e', '--source', '--field-separator', '--assign', '--file'];
  const rest = operands(values, 1, valued);
  const sources = optionValues(words, values, ['-e'], ['--source']).map((source) => source.word.value.slice(source.skip));
  if (values.includes('-f') || values.some((value) => value.startsWith('--file'))) {
    found.reasons.push(`${name} -f runs a program from a file, which may write files or run commands`);
  } else {
    const programIndex = sources.length === 0 ? rest.shift() : undefined;
    if (programIndex !== undefined) found.data.add(programIndex);
    const programs = [...sources, ...(programIndex !== undefined ? [values[programIndex]!] : [])];
    if (programs.some((program) => /system|\||>|getline|fflush\s*\(\s*"/.test(program))) {
      found.reasons.push(`the ${name} program may write files or run commands (>, |, system, getline)`);
    }
  }
  if (values.some((value, index) => (value === '-i' && values[index + 1] === 'inplace') || value === '-iinplace')) {
    for (const index of rest) write(found, `${name} -i inplace`, words[index]!);
  }
};

const FIND_WRITE_ACTIONS = new Set(['-fprint', '-fprint0', '-fprintf', '-fls']);

const find: Inspector = (_name, words, values, found) => {
  let start = 1;
  while (start < values.length && /^-[HLP]$|^-O\d$|^-D$/.test(values[start]!)) start += values[start] === '-D' ? 2 : 1;
  let end = start;
  while (end < values.length && !values[end]!.startsWith('-') && values[end] !== '(' && values[end] !== '!') end++;
  const follows = values.slice(1, start).includes('-L') || values.includes('-follow');
  for (let index = end; index < values.length; index++) {
    const value = values[index]!;
    if (FIND_WRITE_ACTIONS.has(value) && index + 1 < values.length) write(found, `find ${value}`, words[index + 1]!);
    if (value === '-delete') {
      if (end === start) write(found, 'find -delete', null);
      for (let path = start; path < end; path++) write(found, 'find -delete', words[path]!);
      if (follows) found.reasons.push('find -L follows symbolic links, so -delete may reach outside the workspace');
    }
    if (follows && /^-(exec|execdir|ok|okdir)$/.test(value)) found.reasons.push(`find -L follows symbolic links, so ${value} may act outside the workspace`);
  }
};

const curl: Inspector = (name, words, values, found) => {
  for (const target of optionValues(
    words,
    values,
    ['-o', '-D', '-c'],
    ['--output', '--dump-header', '--cookie-jar', '--trace', '--trace-ascii', '--stderr', '--libcurl', '--output-dir', '--etag-save', '--hsts', '--alt-svc'],
  )) {
    write(found, name, target.word, target.skip);
  }
  if (values.some((value) => (/^-[A-Za-z]*O/.test(value) && !value.startsWith('--')) || value === '--remote-name' || value === '--remote-name-all')) write(found, `${name} -O`, null);
};

const wget: Inspector = (name, words, values, found) => {
  const outputs = optionValues(words, values, ['-O', '-o', '-a', '-P'], ['--output-document', '--output-file', '--append-output', '--directory-prefix']);
  for (const target of outputs) if (target.word.value.slice(target.skip) !== '-') write(found, name, target.word, target.skip);
  if (!values.some((value) => value === '-O' || value.startsWith('--output-document') || value === '--spider')) write(found, name, null);
};

const outputOption =
  (short: string[], long: string[]): Inspector =>
  (name, words, values, found) => {
    for (const target of optionValues(words, values, short, long)) write(found, name, target.word, target.skip);
  };

const tar: Inspector = (name, words, values, found) => {
  const first = values[1] ?? '';
  const cluster = !first.startsWith('-') ? first : /^-[A-Za-z]+$/.test(first) ? first.slice(1) : '';
  const has = (letter: string, long: string) => cluster.includes(letter) || values.some((value) => value === `-${letter}` || value.startsWith(long));
  const extract = has('x', '--extract') || values.includes('--get');
  const creates = has('c', '--create') || has('r', '--append') || has('u', '--update') || has('A', '--catenate');
  let archive = optionValues(words, values, ['-f'], ['--file'])[0] ?? null;
  if (!archive && cluster.includes('f') && words[2]) archive = { word: words[2], skip: 0 };
  if (creates && archive && archive.word.value.slice(archive.skip) !== '-') write(found, name, archive.word, archive.skip);
  if (extract) {
    const into = optionValues(words, values, ['-C'], ['--directory']);
    if (into.length === 0) write(found, `${name} -x`, null);
    for (const target of into) write(found, `${name} -x`, target.word, target.skip);
  }
};

const unzip: Inspector = (name, words, values, found) => {
  if (values.some((value) => /^-[A-Za-z]*[lptvZ]/.test(value))) return;
  const into = optionValues(words, values, ['-d'], []);
  if (into.length === 0) write(found, name, null);
  for (const target of into) write(found, name, target.word, target.skip);
};

const lastOperand: Inspector = (name, words, values, found) => {
  const valued =
    name === 'rsync'
      ? ['-e', '--rsh', '--rsync-path', '--exclude', '--include', '--filter', '-f', '--chmod', '--chown', '--log-file', '--port', '-T', '--temp-dir', '--backup-dir']
      : ['-P', '-i', '-F', '-o', '-S', '-c', '-l', '-J'];
  const found_ = operands(values, 1, valued);
  if (found_.length >= 2) write(found, name, words[found_.at(-1)!]!);
  if (name === 'rsync') for (const target of optionValues(words, values, [], ['--log-file', '--backup-dir'])) write(found, name, target.word, target.skip);
};

const patch: Inspector = (name, words, values, found) => {
  const outputs = optionValues(words, values, ['-o'], ['--output']);
  for (const target of outputs) write(found, name, target.word, target.skip);
  if (outputs.length === 0 && !values.includes('--dry-run')) {
    const into = optionValues(words, values, ['-d'], ['--directory']);
    if (into.length === 0) write(found, name, null);
    for (const target of into) write(found, name, target.word, target.skip);
  }
};

const compressor: Inspector = (name, words, values, found) => {
  if (values.some((value) => (/^-[A-Za-z]*[clt]/.test(value) && !value.startsWith('--')) || ['--stdout', '--to-stdout', '--list', '--test'].includes(value))) return;
  for (const index of operands(values, 1, ['-S', '--suffix'])) write(found, name, words[index]!);
};

const dd: Inspector = (name, words, values, found) => {
  values.forEach((value, index) => {
    if (value.startsWith('of=')) write(found, name, words[index]!, 3);
  });
};

const uniq: Inspector = (name, words, values, found) => {
  const rest = operands(values, 1, ['-f', '-s', '-w', '--skip-fields', '--skip-chars', '--check-chars']);
  if (rest.length >= 2) write(found, name, words[rest[1]!]!);
};

const packageManager: Inspector = (name, _words, values, found) => {
  const sub = values[1];
  if (sub === 'pkg' && /^(set|delete|fix)$/.test(values[2] ?? '')) write(found, `${name} pkg ${values[2]}`, literalWord('package.json'));
  if (sub === 'version' && values[2] !== undefined && !values[2].startsWith('-')) write(found, `${name} version`, literalWord('package.json'));
  if ((sub === 'config' && /^(set|delete|edit|fix)$/.test(values[2] ?? '')) || sub === 'set') {
    const project = values.some((value) => /^--location(=|$)/.test(value)) && values.some((value) => value === 'project' || value === '--location=project');
    write(found, `${name} config`, literalWord(project ? '.npmrc' : '~/.npmrc'));
  }
};

const dataOnly: Inspector = (_name, _words, values, found) => {
  for (let index = 1; index < values.length; index++) found.data.add(index);
};

const pattern: Inspector = (_name, _words, values, found) => {
  const explicit = values.some((value) => /^-[A-Za-z]*[ef]$/.test(value) || /^--(regexp|file)(=|$)/.test(value));
  values.forEach((_value, index) => {
    if (index > 0 && (values[index - 1] === '-e' || values[index - 1] === '--regexp')) found.data.add(index);
  });
  if (!explicit) {
    const first = operands(values, 1, ['-A', '-B', '-C', '-m', '-d', '-D', '--max-count', '-g', '--glob', '-t', '--type', '-T', '--type-not', '-j', '--threads', '-M', '--max-columns'])[0];
    if (first !== undefined) found.data.add(first);
  }
};

const firstOperandData: Inspector = (_name, _words, values, found) => {
  const first = operands(values, 1, ['--arg', '--argjson', '--slurpfile', '--rawfile', '--indent', '-L'])[0];
  if (first !== undefined) found.data.add(first);
};

const INSPECTORS: Record<string, Inspector> = {
  rm: allOperands,
  rmdir: allOperands,
  unlink: allOperands,
  shred: allOperands,
  touch: allOperands,
  mkdir: allOperands,
  truncate: allOperands,
  mkfifo: allOperands,
  mknod: allOperands,
  tee: allOperands,
  mv: allOperands,
  cp: destination,
  install: destination,
  ln: destination,
  link: destination,
  chmod: afterMode,
  chown: afterMode,
  chgrp: afterMode,
  chattr: afterMode,
  setfacl: afterMode,
  sed: sed,
  gsed: sed,
  awk: awk,
  gawk: awk,
  mawk: awk,
  nawk: awk,
  find: find,
  git: git,
  curl: curl,
  wget: wget,
  sort: outputOption(['-o'], ['--output']),
  time: outputOption(['-o'], ['--output']),
  strace: outputOption(['-o'], ['--output']),
  ltrace: outputOption(['-o'], ['--output']),
  openssl: outputOption(['-out'], []),
  tar: tar,
  bsdtar: tar,
  unzip: unzip,
  rsync: lastOperand,
  scp: lastOperand,
  patch: patch,
  gzip: compressor,
  gunzip: compressor,
  bzip2: compressor,
  bunzip2: compressor,
  xz: compressor,
  unxz: compressor,
  zstd: compressor,
  lz4: compressor,
  dd: dd,
  uniq: uniq,
  npm: packageManager,
  pnpm: packageManager,
  yarn: packageManager,
  bun: packageManager,
  echo: dataOnly,
  printf: dataOnly,
  true: dataOnly,
  false: dataOnly,
  sleep: dataOnly,
  seq: dataOnly,
  expr: dataOnly,
  grep: pattern,
  egrep: pattern,
  fgrep: pattern,
  rg: pattern,
  ag: pattern,
  jq: firstOperandData,
  yq: firstOperandData,
};

/** The writes and write-or-run reasons of one command; `words` starts at the program's name. */
export function inspectWrites(words: readonly Word[]): WriteFindings {
  const found: WriteFindings = { writes: [], reasons: [], data: new Set() };
  const values = words.map((word) => word.value);
  const name = (values[0] ?? '').slice((values[0] ?? '').lastIndexOf('/') + 1);
  INSPECTORS[name]?.(name, words, values, found);
  if (name === 'env' && values.some((value) => /^(-C|--chdir)(=|$)|^-C./.test(value))) {
    found.reasons.push('env -C runs the command in another folder, so its paths cannot be checked');
  }
  return found;
}
