/**
 * `web_fetch`: an http(s) page as Markdown (HTML) or text, capped. Whether to fetch from a host
 * at all is the permission engine's call (`web_fetch(domain:…)` rules; without one it asks);
 * this tool adds what a rule cannot see: where the name really leads. Private and loopback
 * addresses are reached only with an explicit rule naming the host, checked on every hop.
 * The engine redacts the result like every tool's output.
 */
import { z } from 'zod';
import { ToolError, type ToolResult } from '../agent/types';
import { declareTool } from '../tools/define-tool';
import { fetchPage, MAX_BODY_BYTES, type HostAccess } from './fetch-page';
import { hostOfUrl, type HostPattern } from './host-rule';
import { decodeBody, htmlToMarkdown, kindOf } from './to-markdown';

const schema = z.strictObject({
  url: z.string().describe('The http or https URL to fetch.'),
  prompt: z.string().optional().describe('What to look for on the page (optional).'),
});

type WebFetchParams = z.infer<typeof schema>;

export interface WebFetchOptions {
  /** The allow rules' `web_fetch(domain:…)` patterns, read at each call (rules change in a session). */
  allowedHosts(): readonly HostPattern[];
  maxBytes?: number;
  maxChars?: number;
}

/** What the model gets at most; a page is rarely worth more of the context. */
export const MAX_RESULT_CHARS = 100_000;

const DESCRIPTION = `Fetch a web page (http or https) and read it as Markdown (HTML pages) or plain text.

- url: the full URL. A redirect to another host is not followed: you are told where it leads, and may fetch that URL.
- prompt: optional, what you are looking for on the page (shown to the person with the request).
- Long pages are cut at ${MAX_RESULT_CHARS.toLocaleString('en-US')} characters. Binary content (images, archives) is refused.
- The person decides which hosts may be fetched; private and local network addresses need a rule naming the host.`;

const webFetch = declareTool({
  name: 'web_fetch',
  label: 'Fetch web page',
  description: DESCRIPTION,
  schema,
  sensitivity: 'mutating',
  kind: 'fetch',
  permission: { url: (args) => args.url },
  summary: (args) => args.url,
});

export function createWebFetchTool(options: WebFetchOptions) {
  const access: HostAccess = {
    allowed: (host) => options.allowedHosts().some((pattern) => pattern.matches(host)),
    privateAllowed: (host) => options.allowedHosts().some((pattern) => pattern.explicit && pattern.matches(host)),
  };
  return webFetch.implement(async (params, ctx) => {
    const host = hostOfUrl(params.url);
    if (!host) throw ToolError.invalidArgs(`url must be an http or https URL (got ${JSON.stringify(params.url)})`);
    ctx.onProgress(`fetching ${host}`);
    let page;
    try {
      page = await fetchPage(params.url, access, ctx.signal, options.maxBytes ?? MAX_BODY_BYTES);
    } catch (error) {
      if (ctx.signal.aborted) throw ToolError.cancelled();
      throw ToolError.failed(`could not fetch ${params.url}: ${(error as Error).message}`);
    }
    return describePage(page, params, options.maxChars ?? MAX_RESULT_CHARS);
  });
}

async function describePage(page: Awaited<ReturnType<typeof fetchPage>>, params: WebFetchParams, maxChars: number): Promise<ToolResult> {
  const details = { url: page.url, status: page.status, contentType: page.contentType, bytes: page.body.length, truncated: page.truncated };
  if (page.redirectedTo) {
    const text = `${page.url} redirects to ${page.redirectedTo}, on another host. To read it, call web_fetch with that URL.`;
    return { content: [{ type: 'text', text }], details: { ...details, redirectedTo: page.redirectedTo } };
  }
  const kind = kindOf(page.contentType, page.body);
  if (kind === 'binary') throw ToolError.failed(`${page.url} is ${page.contentType || 'binary content'}, not a page web_fetch can read as text`);
  const decoded = decodeBody(page.body, page.contentType);
  const { title, markdown } = kind === 'html' ? await htmlToMarkdown(decoded) : { title: '', markdown: decoded };
  let text = markdown;
  let cut = page.truncated;
  if (text.length > maxChars) {
    text = text.slice(0, maxChars);
    cut = true;
  }
  const header = [`[${page.url}] HTTP ${page.status}${title ? ` · ${title}` : ''}`, ...(params.prompt ? [`Looking for: ${params.prompt}`] : [])];
  const footer = cut ? [`… [page cut: the first ${text.length.toLocaleString('en-US')} characters are shown]`] : [];
  if (page.status >= 400) header.push(`The server answered ${page.status}.`);
  return { content: [{ type: 'text', text: [...header, '', text, ...footer].join('\n') }], details: { ...details, truncated: cut } };
}
