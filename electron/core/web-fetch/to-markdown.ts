/**
 * Page text for the model. HTML is parsed with linkedom (a DOM without a browser), stripped of
 * everything that is not reading matter (scripts, styles, frames, forms, inline SVG), and turned
 * into Markdown by turndown, the converter most agents use; other text types pass through.
 * Both are field-made: a home-made tag stripper is where script bodies leak into the text.
 */

const NOT_CONTENT = ['script', 'style', 'noscript', 'template', 'iframe', 'frame', 'frameset', 'object', 'embed', 'svg', 'canvas', 'form', 'link', 'meta', 'head'];

/** Both converters load on the first page: together they are a tenth of `cove run`'s start-up, and most runs fetch nothing. */
export async function htmlToMarkdown(html: string): Promise<{ title: string; markdown: string }> {
  const [{ parseHTML }, { default: TurndownService }] = await Promise.all([import('linkedom'), import('turndown')]);
  const { document } = parseHTML(html);
  const title = document.querySelector('title')?.textContent?.trim() ?? '';
  for (const element of [...document.querySelectorAll(NOT_CONTENT.join(','))]) element.remove();
  const root = document.querySelector('main, article') ?? document.body ?? document.documentElement;
  const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
  // Images carry no text the model can use, and data: URLs would fill the context.
  turndown.remove(['img' as never, 'picture' as never]);
  const markdown = turndown
    .turndown(root?.innerHTML ?? '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return { title, markdown };
}

export type PageKind = 'html' | 'text' | 'binary';

export function kindOf(contentType: string, body: Buffer): PageKind {
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  if (type === 'text/html' || type === 'application/xhtml+xml') return 'html';
  if (type.startsWith('text/') || /^application\/([\w.+-]+\+)?(json|xml|javascript|x-yaml|yaml|toml)$/.test(type)) return 'text';
  if (type === '' && !body.subarray(0, 8192).includes(0)) return /^\s*<(!doctype html|html)/i.test(body.subarray(0, 512).toString('utf8')) ? 'html' : 'text';
  return 'binary';
}

/** The charset a Content-Type names, when TextDecoder knows it; UTF-8 otherwise. */
export function decodeBody(body: Buffer, contentType: string): string {
  const charset = /charset=["']?([\w-]+)/i.exec(contentType)?.[1];
  try {
    return new TextDecoder(charset ?? 'utf-8').decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
}
