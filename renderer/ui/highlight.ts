/**
 * Syntax highlighting for code blocks, file contents and diffs. The highlighter itself
 * (highlight-engine.ts, with highlight.js) is a separate chunk fetched on first use, so the
 * first paint of the app never waits for it; until it arrives, and for languages it does not
 * know, callers show plain text.
 *
 * Each line comes back as its own HTML string with balanced spans and escaped text, so a
 * virtualized or diffed view can place any line anywhere. Colours are the `--hl-*` variables
 * of styles/highlight.css.
 */
import { useEffect, useState } from 'react';
import type * as Engine from './highlight-engine';
import { HighlightQueue, sharedLines } from './highlight-queue';

type EngineModule = typeof Engine;

/**
 * Beyond this size the text stays plain: highlight.js works in one synchronous pass, and a
 * 50,000-character file already takes tens of milliseconds, a visible stall while scrolling.
 */
export const MAX_HIGHLIGHTED_CHARACTERS = 50_000;
const CACHE_SIZE = 64;

let engine: EngineModule | undefined;
let loading: Promise<EngineModule> | undefined;
// Virtualized rows unmount and remount as they scroll; the cache spares highlighting them again.
const cache = new Map<string, string[] | undefined>();

function loadEngine(): Promise<EngineModule> {
  loading ??= import('./highlight-engine').then(
    (module) => (engine = module),
    (error: unknown) => {
      // Allow a later attempt (a chunk request can fail while the server restarts).
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

/**
 * What the cache holds for `text` (touching it, so it is kept longest): its lines, undefined for
 * an unknown language or text over MAX_HIGHLIGHTED_CHARACTERS, or null when it was never done.
 */
function fromCache(text: string, language: string): string[] | undefined | null {
  if (text.length > MAX_HIGHLIGHTED_CHARACTERS) return undefined;
  const key = `${language}\u0000${text}`;
  if (!cache.has(key)) return null;
  const lines = cache.get(key);
  cache.delete(key);
  cache.set(key, lines);
  return lines;
}

function highlightNow(loaded: EngineModule, text: string, language: string): string[] | undefined {
  const known = fromCache(text, language);
  if (known !== null) return known;
  const lines = loaded.highlightToLines(text, language);
  cache.set(`${language}\u0000${text}`, lines);
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  return lines;
}

/** Highlighted lines once the highlighter has loaded; undefined for an unknown language. */
export async function highlightLines(text: string, language: string | undefined): Promise<string[] | undefined> {
  if (language === undefined) return undefined;
  return highlightNow(await loadEngine(), text, language);
}

/** A text's highlight as it was delivered, kept while a newer text of the same block waits. */
interface Delivered {
  text: string;
  language: string;
  lines: string[] | undefined;
}

/** One block per task, after the highlighter has loaded (./highlight-queue.ts). */
const queue = new HighlightQueue((text, language) => (engine === undefined ? null : highlightNow(engine, text, language)), loadEngine);

/**
 * Highlighted lines for a component, one HTML string per line of `text`: undefined while none
 * is known (the highlighter still loading, the block waiting for its turn, an unknown language,
 * text over MAX_HIGHLIGHTED_CHARACTERS), and the component shows plain text. A text highlighted
 * before (the cache) comes back at once. While a grown text waits, the lines it shares with the
 * text highlighted before keep their colours and the others are undefined, so a streamed code
 * block does not flash plain on every redraw.
 */
export function useHighlightedLines(text: string, language: string | undefined): (string | undefined)[] | undefined {
  const [owner] = useState(() => ({}));
  const [delivered, setDelivered] = useState<Delivered | undefined>(undefined);
  // Read once a render: a block highlighted before (or one never to be) needs no turn.
  const cached = language === undefined || engine === undefined ? null : fromCache(text, language);
  const known = cached !== null;
  useEffect(() => {
    if (language === undefined || known) return;
    queue.ask(owner, { text, language, deliver: (lines) => setDelivered({ text, language, lines }) });
    return () => queue.withdraw(owner);
  }, [owner, text, language, known]);
  if (language === undefined) return undefined;
  if (known) return cached;
  if (delivered?.language !== language || delivered.lines === undefined) return undefined;
  return delivered.text === text ? delivered.lines : sharedLines(delivered.text, delivered.lines, text);
}

const BY_EXTENSION: Readonly<Record<string, string>> = {
  ts: 'typescript',
  tsx: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  js: 'javascript',
  jsx: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  json: 'json',
  jsonc: 'json',
  json5: 'json',
  py: 'python',
  pyi: 'python',
  sh: 'bash',
  bash: 'bash',
  zsh: 'bash',
  css: 'css',
  scss: 'scss',
  html: 'xml',
  htm: 'xml',
  xml: 'xml',
  svg: 'xml',
  vue: 'xml',
  md: 'markdown',
  markdown: 'markdown',
  yml: 'yaml',
  yaml: 'yaml',
  rs: 'rust',
  go: 'go',
  java: 'java',
  kt: 'kotlin',
  kts: 'kotlin',
  c: 'c',
  h: 'c',
  cc: 'cpp',
  cpp: 'cpp',
  cxx: 'cpp',
  hpp: 'cpp',
  hh: 'cpp',
  cs: 'csharp',
  rb: 'ruby',
  php: 'php',
  sql: 'sql',
  diff: 'diff',
  patch: 'diff',
  ini: 'ini',
  toml: 'ini',
  cfg: 'ini',
  conf: 'ini',
  swift: 'swift',
  lua: 'lua',
  graphql: 'graphql',
  gql: 'graphql',
};

const BY_NAME: Readonly<Record<string, string>> = {
  dockerfile: 'dockerfile',
  containerfile: 'dockerfile',
  makefile: 'makefile',
  gnumakefile: 'makefile',
  '.bashrc': 'bash',
  '.zshrc': 'bash',
  '.profile': 'bash',
  '.gitconfig': 'ini',
  '.editorconfig': 'ini',
};

/** The highlighter's language for a file path (either separator), or undefined if none fits. */
export function languageForPath(path: string): string | undefined {
  const name = (path.split(/[\\/]/).pop() ?? '').toLowerCase();
  const byName = BY_NAME[name];
  if (byName !== undefined) return byName;
  if (name.startsWith('dockerfile.')) return 'dockerfile';
  const dot = name.lastIndexOf('.');
  return dot > 0 ? BY_EXTENSION[name.slice(dot + 1)] : undefined;
}
