// Which chunks the first screen needs, as modulepreload hints in index.html. The entry (app.js)
// is small and loads the interface with import() (renderer/app/main.tsx); without hints the
// browser would only learn of those chunks once app.js ran, and of their own imports once
// each was parsed: a waterfall of round trips before the first render.
import { relative } from 'node:path';

/** The modules whose chunks the first screen loads: the entry's import() of the interface. */
export const FIRST_SCREEN_MODULES = ['renderer/app/mount.tsx'];
/**
 * Chunks fetched later, by the name renderer/app/feature-chunks.ts gives them, whose files
 * index.html lists (not fetches): their prefetch then asks for every file at once, instead of
 * the chunk's own file first and the shared chunks it imports only once that has arrived.
 */
export const LATER_MODULES = { sessionView: 'renderer/features/session/SessionView.tsx' };
const ENTRY_SCRIPT = '<script type="module" src="./app.js"></script>';

/** Paths (relative to outdir) of the chunks to preload: the first-screen modules' chunks and every chunk they or the entry import statically. */
export function firstScreenChunks(metafile, outdir) {
  const outputs = metafile.outputs;
  const byModule = new Map(Object.entries(outputs).flatMap(([path, output]) => (output.entryPoint ? [[output.entryPoint, path]] : [])));
  const entry = Object.keys(outputs).find((path) => relative(outdir, path) === 'app.js');
  if (!entry) throw new Error(`the renderer build wrote no app.js in ${outdir}`);
  const wanted = new Set();
  const visit = (path) => {
    for (const imported of outputs[path]?.imports ?? []) {
      if (imported.kind === 'import-statement' && !wanted.has(imported.path)) {
        wanted.add(imported.path);
        visit(imported.path);
      }
    }
  };
  visit(entry);
  for (const module of FIRST_SCREEN_MODULES) {
    const path = byModule.get(module);
    if (!path) throw new Error(`the renderer build made no chunk for ${module}: is it still loaded with import()?`);
    wanted.add(path);
    visit(path);
  }
  wanted.delete(entry);
  return [...wanted].map((path) => relative(outdir, path).split('\\').join('/')).sort();
}

/** The files a later module's import() needs beyond what the first screen has preloaded: the chunks it imports statically (its own file is fetched by the import() itself). */
export function laterChunkFiles(metafile, outdir, module) {
  const outputs = metafile.outputs;
  const path = Object.entries(outputs).find(([, output]) => output.entryPoint === module)?.[0];
  if (!path) throw new Error(`the renderer build made no chunk for ${module}: is it still loaded with import()?`);
  const preloaded = new Set(firstScreenChunks(metafile, outdir));
  const files = new Set();
  const visit = (from) => {
    for (const imported of outputs[from]?.imports ?? []) {
      const file = relative(outdir, imported.path).split('\\').join('/');
      if (imported.kind === 'import-statement' && !files.has(file) && !preloaded.has(file) && file !== 'app.js') {
        files.add(file);
        visit(imported.path);
      }
    }
  };
  visit(path);
  return [...files].sort();
}

/** index.html with the hints placed before the entry's script tag. */
export function withPreloads(html, metafile, outdir) {
  if (!html.includes(ENTRY_SCRIPT)) throw new Error(`renderer/index.html must load the entry as ${ENTRY_SCRIPT}`);
  const links = firstScreenChunks(metafile, outdir).map((path) => `<link rel="modulepreload" href="./${path}" />\n    `);
  const later = Object.entries(LATER_MODULES).map(
    ([name, module]) => `<meta name="cove-chunk-files" data-chunk="${name}" content="${laterChunkFiles(metafile, outdir, module).join(' ')}" />\n    `,
  );
  return html.replace(ENTRY_SCRIPT, `${links.join('')}${later.join('')}${ENTRY_SCRIPT}`);
}
