/**
 * One MCP tool as a Cove tool: `mcp__<server>__<tool>`, always `mutating` (SPEC §6), calling
 * through whatever connection its server has at call time. MCP progress notifications become
 * tool updates whose `details.progress` is a fraction when the server gives a total, so the UI
 * can draw a determinate bar; MCP content becomes text and image blocks for the model.
 */
import { Ajv } from 'ajv';
import { ToolSchema, type CallToolResult, type ContentBlock, type Progress, type Tool as McpToolDefinition } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { ToolError, type JsonSchema, type ResultContent, type Tool, type ToolResult } from '../agent/types';
import { normalizeInputSchema } from './schema-normalize';
import { defineJsonTool } from '../tools/define-tool';

export interface CallOptions {
  signal: AbortSignal;
  onprogress(progress: Progress): void;
}

/** What a tool needs of its server: its name and a way to call it. */
export interface McpCaller {
  readonly name: string;
  /** Throws a ToolError when the server is not running or stops during the call. */
  callTool(tool: string, args: Record<string, unknown>, options: CallOptions): Promise<CallToolResult | { toolResult: unknown }>;
}

export interface McpToolDetails {
  server: string;
  tool: string;
  structuredContent?: unknown;
}

const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);
type ImageType = Extract<ResultContent, { type: 'image' }>['mediaType'];

function base64Bytes(data: string): number {
  return Math.floor((data.replace(/=+$/, '').length * 3) / 4);
}

function imageOrNote(mimeType: string, data: string, what: string): ResultContent {
  if (IMAGE_TYPES.has(mimeType)) return { type: 'image', mediaType: mimeType as ImageType, data };
  return { type: 'text', text: `[${what}: ${mimeType}, ${base64Bytes(data)} bytes, not shown]` };
}

/** MCP content → what the model is sent. Anything that is not text or a usable image is described. */
export function toResultContent(block: ContentBlock): ResultContent {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: block.text };
    case 'image':
      return imageOrNote(block.mimeType, block.data, 'image');
    case 'audio':
      return { type: 'text', text: `[audio: ${block.mimeType}, ${base64Bytes(block.data)} bytes, not shown]` };
    case 'resource': {
      const resource = block.resource;
      const kind = resource.mimeType ? `, ${resource.mimeType}` : '';
      if ('text' in resource && typeof resource.text === 'string') return { type: 'text', text: `[resource ${resource.uri}${kind}]\n${resource.text}` };
      const blob = 'blob' in resource && typeof resource.blob === 'string' ? resource.blob : '';
      if (resource.mimeType && IMAGE_TYPES.has(resource.mimeType)) return imageOrNote(resource.mimeType, blob, `resource ${resource.uri}`);
      return { type: 'text', text: `[resource ${resource.uri}${kind}, ${base64Bytes(blob)} bytes of binary data, not shown]` };
    }
    case 'resource_link': {
      const description = block.description ? `: ${block.description}` : '';
      return { type: 'text', text: `[resource link ${block.name} ${block.uri}${description}]` };
    }
    default:
      return { type: 'text', text: JSON.stringify(block) };
  }
}

/** The result of `tools/call` as a ToolResult; an `isError` result throws, as Cove's tools do. */
export function toToolResult(result: CallToolResult | { toolResult: unknown }, server: string, tool: string): ToolResult {
  if (!('content' in result)) {
    // Servers of protocol version 2024-10-07 answer with `toolResult`.
    return { content: [{ type: 'text', text: JSON.stringify(result.toolResult) }], details: { server, tool } satisfies McpToolDetails };
  }
  const content = (result.content ?? []).map(toResultContent);
  const structured = result.structuredContent;
  if (content.length === 0 && structured !== undefined) content.push({ type: 'text', text: JSON.stringify(structured) });
  const details: McpToolDetails = { server, tool, ...(structured === undefined ? {} : { structuredContent: structured }) };
  if (result.isError) {
    const text = content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n');
    throw ToolError.failed(text || `MCP tool ${tool} on server ${server} reported an error without a message`, details);
  }
  return { content, details };
}

/** What the UI receives for one progress notification. */
export function progressUpdate(progress: Progress): ToolResult {
  const fraction = progress.total ? Math.min(1, Math.max(0, progress.progress / progress.total)) : undefined;
  return { content: [], details: { progress: fraction, progressRaw: progress } };
}

/**
 * One page of `tools/list`, read tool by tool. The SDK's listTools refuses the whole page when
 * one tool's inputSchema is not `type: "object"`, so one bad tool would cost the server all of
 * them; here each definition is checked on its own and the bad ones are reported.
 */
export const LOOSE_TOOL_PAGE = z.looseObject({ tools: z.array(z.unknown()), nextCursor: z.string().optional() });

export function readToolPage(page: z.infer<typeof LOOSE_TOOL_PAGE>): { tools: McpToolDefinition[]; problems: string[] } {
  const tools: McpToolDefinition[] = [];
  const problems: string[] = [];
  page.tools.forEach((raw, index) => {
    const record = raw !== null && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
    const name = typeof record.name === 'string' ? record.name : `#${index + 1}`;
    // The schema is judged by toParameters; the rest of the definition by the protocol's own schema.
    const parsed = ToolSchema.safeParse({ ...record, inputSchema: { type: 'object' } });
    if (!parsed.success) {
      problems.push(`tool ${name} is left out: its definition is malformed (${parsed.error.issues[0]?.message ?? 'invalid'})`);
      return;
    }
    tools.push({ ...parsed.data, inputSchema: record.inputSchema as McpToolDefinition['inputSchema'] });
  });
  return { tools, problems };
}

/** A tool whose input schema cannot be put in a form the API accepts; its server's other tools still work. */
export class UnusableSchemaError extends Error {}

/**
 * The tool's inputSchema as Cove's parameters, normalized into what the API accepts
 * (schema-normalize.ts), without `$schema` (the engine's validator speaks draft-07 and refuses
 * other dialects). A schema that cannot be normalized throws UnusableSchemaError; one the
 * validator cannot compile is replaced by an open object rather than breaking every run.
 */
export function toParameters(inputSchema: McpToolDefinition['inputSchema'], validator: Ajv): { parameters: JsonSchema; problem?: string } {
  const normalized = normalizeInputSchema(inputSchema);
  if (!normalized.ok) throw new UnusableSchemaError(normalized.reason);
  const parameters: JsonSchema = normalized.schema;
  try {
    validator.compile(parameters);
    return { parameters };
  } catch (error) {
    return { parameters: { type: 'object', additionalProperties: true }, problem: (error as Error).message };
  }
}

/** A validator for `toParameters`; one per tool listing, so schemas of old listings are not kept. */
export function schemaValidator(): Ajv {
  return new Ajv({ strict: false, allowUnionTypes: true, logger: false });
}

export function createMcpTool(caller: McpCaller, definition: McpToolDefinition, name: string, validator: Ajv): Tool {
  const server = caller.name;
  const original = definition.name;
  const { parameters, problem } = toParameters(definition.inputSchema, validator);
  const summary = definition.description?.trim() || definition.title || original;
  const note = problem ? ` (Its parameter schema could not be used: ${problem})` : '';
  return defineJsonTool<Record<string, unknown> | undefined>({
    name,
    label: definition.title || definition.annotations?.title || original,
    description: `MCP server ${server}: ${summary}${note}`,
    parameters,
    sensitivity: 'mutating',
    kind: 'other',
    async execute(params, ctx) {
      const result = await caller.callTool(original, params ?? {}, {
        signal: ctx.signal,
        onprogress: (progress) => {
          ctx.onUpdate(progressUpdate(progress));
          if (progress.message) ctx.onProgress(progress.message);
        },
      });
      return toToolResult(result, server, original);
    },
  });
}
