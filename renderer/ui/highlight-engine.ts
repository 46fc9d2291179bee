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

const LANGUAGES = {
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

/** Whether `language` (a name or one of its aliases: ts, sh, py, html…) can be highlighted. */
export function knowsLanguage(language: string): boolean {
  const name = language.toLowerCase();
  if (hljs.getLanguage(name) === undefined) {
    build(name);
    // Aliases are in the definitions: an alias is known once all are built.
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
