/**
 * The part of the highlighter that is loaded on first use (highlight.ts imports it dynamically,
 * so esbuild puts it and highlight.js in a chunk of their own). highlight.js rather than Shiki:
 * Shiki ships TextMate grammars and an Oniguruma WebAssembly engine (several hundred kB before
 * the first grammar), highlight.js core with the languages below is about 120 kB minified, runs
 * synchronously on plain regular expressions and needs no WebAssembly under the CSP.
 */
import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import c from 'highlight.js/lib/languages/c';
import cpp from 'highlight.js/lib/languages/cpp';
import csharp from 'highlight.js/lib/languages/csharp';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import dockerfile from 'highlight.js/lib/languages/dockerfile';
import go from 'highlight.js/lib/languages/go';
import graphql from 'highlight.js/lib/languages/graphql';
import ini from 'highlight.js/lib/languages/ini';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import kotlin from 'highlight.js/lib/languages/kotlin';
import lua from 'highlight.js/lib/languages/lua';
import makefile from 'highlight.js/lib/languages/makefile';
import markdown from 'highlight.js/lib/languages/markdown';
import php from 'highlight.js/lib/languages/php';
import plaintext from 'highlight.js/lib/languages/plaintext';
import python from 'highlight.js/lib/languages/python';
import ruby from 'highlight.js/lib/languages/ruby';
import rust from 'highlight.js/lib/languages/rust';
import scss from 'highlight.js/lib/languages/scss';
import shell from 'highlight.js/lib/languages/shell';
import sql from 'highlight.js/lib/languages/sql';
import swift from 'highlight.js/lib/languages/swift';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';

export const LANGUAGES = {
  bash,
  c,
  cpp,
  csharp,
  css,
  diff,
  dockerfile,
  go,
  graphql,
  ini,
  java,
  javascript,
  json,
  kotlin,
  lua,
  makefile,
  markdown,
  php,
  plaintext,
  python,
  ruby,
  rust,
  scss,
  shell,
  sql,
  swift,
  typescript,
  xml,
  yaml,
};
// Building every definition when the chunk loads was one task of 50 to 250 ms, in the middle
// of whatever the page was drawing (the first command card of a flood). A language is built
// when first asked for, and the others one per task after the load.
const unbuilt = new Map(Object.entries(LANGUAGES));

function build(name: string): void {
  const language = unbuilt.get(name);
  if (!language) return;
  unbuilt.delete(name);
  hljs.registerLanguage(name, language);
}

function buildNext(): void {
  const next = unbuilt.keys().next();
  if (next.done) return;
  build(next.value);
  setTimeout(buildNext, 0);
}
setTimeout(buildNext, 0);

/**
 * Each definition's aliases (what a fenced code block names: ts, sh, py, html…), as the
 * definitions give them (test/unit/renderer-highlight.test.ts checks this against them). Aliases
 * are only known once a definition is built: without this table a block fenced `ts` built every
 * language at once, one task of 50–250 ms in the middle of a streamed reply.
 */
export const ALIASES: Readonly<Record<string, keyof typeof LANGUAGES>> = {
  sh: 'bash',
  zsh: 'bash',
  h: 'c',
  cc: 'cpp',
  'c++': 'cpp',
  'h++': 'cpp',
  hpp: 'cpp',
  hh: 'cpp',
  hxx: 'cpp',
  cxx: 'cpp',
  cs: 'csharp',
  'c#': 'csharp',
  patch: 'diff',
  docker: 'dockerfile',
  golang: 'go',
  gql: 'graphql',
  toml: 'ini',
  jsp: 'java',
  js: 'javascript',
  jsx: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  jsonc: 'json',
  json5: 'json',
  kt: 'kotlin',
  kts: 'kotlin',
  ktm: 'kotlin',
  ktx: 'kotlin',
  pluto: 'lua',
  mk: 'makefile',
  mak: 'makefile',
  make: 'makefile',
  md: 'markdown',
  mkdown: 'markdown',
  mkd: 'markdown',
  text: 'plaintext',
  txt: 'plaintext',
  py: 'python',
  gyp: 'python',
  ipython: 'python',
  rb: 'ruby',
  gemspec: 'ruby',
  podspec: 'ruby',
  thor: 'ruby',
  irb: 'ruby',
  rs: 'rust',
  console: 'shell',
  shellsession: 'shell',
  ts: 'typescript',
  tsx: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  html: 'xml',
  xhtml: 'xml',
  rss: 'xml',
  atom: 'xml',
  xjb: 'xml',
  xsd: 'xml',
  xsl: 'xml',
  plist: 'xml',
  wsf: 'xml',
  svg: 'xml',
  yml: 'yaml',
};

/** Whether `language` (a name or one of its aliases: ts, sh, py, html…) can be highlighted. */
export function knowsLanguage(language: string): boolean {
  const name = language.toLowerCase();
  if (hljs.getLanguage(name) === undefined) {
    build(Object.hasOwn(ALIASES, name) ? ALIASES[name]! : name);
    // A name neither a language nor in the table: known, if at all, once all are built.
    if (hljs.getLanguage(name) === undefined) for (const other of [...unbuilt.keys()]) build(other);
  }
  return hljs.getLanguage(name) !== undefined;
}

/** One HTML string per line of `text` (lines split at \n, a \r before it dropped). */
export function highlightToLines(text: string, language: string): string[] | undefined {
  if (!knowsLanguage(language)) return undefined;
  const html = hljs.highlight(text, { language, ignoreIllegals: true }).value;
  return splitLines(html);
}

const TOKEN = /<span class="[^"]*">|<\/span>|\r?\n/g;

/**
 * highlight.js spans run across lines (a block comment, a template string); each line is drawn
 * on its own, so every line closes the spans still open at its end and the next reopens them.
 */
export function splitLines(html: string): string[] {
  const lines: string[] = [];
  const open: string[] = [];
  let line = '';
  let last = 0;
  for (const match of html.matchAll(TOKEN)) {
    const token = match[0];
    line += html.slice(last, match.index);
    last = match.index + token.length;
    if (token.startsWith('<span')) {
      open.push(token);
      line += token;
    } else if (token === '</span>') {
      if (open.pop() !== undefined) line += token;
    } else {
      lines.push(line + '</span>'.repeat(open.length));
      line = open.join('');
    }
  }
  lines.push(line + html.slice(last) + '</span>'.repeat(open.length));
  return lines;
}
