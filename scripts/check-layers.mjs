// Enforces ARCHITECTURE.md's import rules, which type-checking alone cannot see:
//   shared/        imports nothing of ours and nothing from Node or Electron
//   electron/core  never imports `electron` or a host (desktop, web, cli, preload) or the renderer
//   electron/cli, electron/web: no `electron`, no renderer
//   renderer/      imports only renderer/ and shared/, never Node or Electron
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const root = process.cwd();
const importPattern = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

function files(dir) {
  let out = [];
  let names;
  try {
    names = readdirSync(dir);
  } catch {
    return out;
  }
  for (const name of names) {
    const path = join(dir, name);
    if (name === 'node_modules') continue;
    if (statSync(path).isDirectory()) out = out.concat(files(path));
    else if (/\.(ts|tsx)$/.test(name)) out.push(path);
  }
  return out;
}

const isNode = (spec) => spec.startsWith('node:') || ['fs', 'path', 'os', 'child_process', 'crypto'].includes(spec);
const rules = [
  {
    dir: 'shared',
    check: (spec, target) =>
      isNode(spec) || spec === 'electron'
        ? 'shared must not import Node or Electron'
        : target && !target.startsWith('shared/')
          ? 'shared imports nothing of ours outside shared/'
          : null,
  },
  {
    dir: 'electron/core',
    check: (spec, target) =>
      spec === 'electron' || spec.startsWith('electron/')
        ? 'the core never imports electron'
        : target && /^(electron\/(desktop|web|cli|preload)|renderer)\//.test(target)
          ? 'the core never imports a host or the renderer'
          : null,
  },
  ...['electron/cli', 'electron/web'].map((dir) => ({
    dir,
    check: (spec, target) =>
      spec === 'electron'
        ? `${dir} runs without Electron`
        : target && /^(renderer|electron\/desktop|electron\/preload)\//.test(target)
          ? `${dir} must not import the renderer or the desktop host`
          : null,
  })),
  {
    dir: 'renderer',
    check: (spec, target) =>
      isNode(spec) || spec === 'electron'
        ? 'the renderer never imports Node or Electron'
        : target && !/^(renderer|shared)\//.test(target)
          ? 'the renderer imports only renderer/ and shared/'
          : null,
  },
];

const problems = [];
for (const rule of rules) {
  for (const file of files(rule.dir)) {
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(importPattern)) {
      const spec = match[1] ?? match[2];
      const target = spec.startsWith('.') ? relative(root, resolve(dirname(file), spec)).split('\\').join('/') : null;
      const problem = rule.check(spec, target);
      if (problem) problems.push(`${file}: imports '${spec}': ${problem}`);
    }
  }
}
if (problems.length > 0) {
  process.stderr.write(problems.join('\n') + '\n');
  process.exit(1);
}
process.stdout.write('import layers ok\n');
