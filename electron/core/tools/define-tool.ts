/**
 * One declaration per tool: its name, label, zod schema (the JSON schema the model sees is
 * derived from it, and the argument type inferred), what the permission engine asks of a call,
 * the one-line summary the UI shows, and how it runs. Declarations register themselves by name,
 * so the rule parser knows every tool and its specifier without a table of its own.
 */
import { z } from 'zod';
import type { ArgumentCheck, JsonSchema, Sensitivity, Tool, ToolContext, ToolKind, ToolPermission, ToolResult } from '../agent/types';

export type { ToolKind, ToolPermission };

export interface ToolDeclaration<S extends z.ZodType = z.ZodType> {
  name: string;
  /** Human-readable, for cards and prompts. */
  label: string;
  description: string;
  schema: S;
  sensitivity: Sensitivity;
  kind: ToolKind;
  permission: ToolPermission<z.infer<S>>;
  /** What the call does, in one line (a path, a command); without it the first text argument. */
  summary?(args: z.infer<S>): string;
}

/** A declared tool waiting for its implementation (tools whose behaviour depends on options). */
export interface DeclaredTool<S extends z.ZodType> {
  readonly declaration: ToolDeclaration<S>;
  /** The runnable tool; `description` may be replaced when it lists per-session choices. */
  implement(execute: (args: z.infer<S>, ctx: ToolContext) => Promise<ToolResult>, overrides?: { description?: string }): Tool<z.infer<S>>;
}

/** What a rule or a permission decision needs to know of a tool, by name. */
export type ToolFacts = Pick<Tool, 'name' | 'label' | 'kind' | 'permission' | 'summary' | 'sensitivity'>;

const declared = new Map<string, ToolFacts>();

/** Declares a tool and registers its name; `implement` binds the behaviour later. */
export function declareTool<S extends z.ZodType>(declaration: ToolDeclaration<S>): DeclaredTool<S> {
  const parameters = jsonSchemaOf(declaration.schema);
  const check = (args: unknown): ArgumentCheck => {
    const parsed = declaration.schema.safeParse(args, { reportInput: true });
    return parsed.success ? { ok: true } : { ok: false, problems: parsed.error.issues.map(describeIssue) };
  };
  const facts: ToolFacts = {
    name: declaration.name,
    label: declaration.label,
    kind: declaration.kind,
    permission: declaration.permission as ToolPermission,
    summary: declaration.summary as ToolFacts['summary'],
    sensitivity: declaration.sensitivity,
  };
  // A later declaration of the same name replaces the earlier one (a test redefining its tool).
  declared.set(declaration.name, facts);
  return {
    declaration,
    implement: (execute, overrides = {}) => ({
      ...facts,
      description: overrides.description ?? declaration.description,
      parameters,
      check,
      execute,
    }),
  };
}

/**
 * What a tool that acts on the one file its `path` argument names declares (read_file,
 * write_file, edit_file): rules and prompts judge that path, and the card shows it. One
 * definition, so the three cannot drift apart in what they ask permission for.
 */
export const ONE_FILE = {
  permission: { paths: (args: { path?: string }) => (args.path ? [args.path] : []) },
  summary: (args: { path: string }) => args.path,
};

/** Declares and implements a tool in one step. */
export function defineTool<S extends z.ZodType>(declaration: ToolDeclaration<S> & { execute(args: z.infer<S>, ctx: ToolContext): Promise<ToolResult> }): Tool<z.infer<S>> {
  const { execute, ...rest } = declaration;
  return declareTool(rest).implement(execute);
}

/**
 * A tool whose schema arrives as JSON Schema (an MCP server's), checked as such by the engine.
 * It is not registered by name: such tools come and go with their servers, and rules name them
 * by pattern (`mcp__server__tool`).
 */
export function defineJsonTool<P = Record<string, unknown>>(
  declaration: Omit<ToolDeclaration, 'schema' | 'permission' | 'summary'> & {
    parameters: JsonSchema;
    permission?: ToolPermission<P>;
    summary?(args: P): string;
    execute(args: P, ctx: ToolContext): Promise<ToolResult>;
  },
): Tool<P> {
  return { permission: 'none', ...declaration };
}

/** A declared tool by name, or undefined (MCP tools are never registered: their names come by pattern). */
export function declaredTool(name: string): ToolFacts | undefined {
  return declared.get(name);
}

export function declaredToolNames(): string[] {
  return [...declared.keys()];
}

/** The paths a call names, asked of the tool itself; null for a tool that takes none. */
export function toolPaths(tool: Pick<Tool, 'permission'> | undefined, args: unknown): string[] | null {
  const permission = tool?.permission;
  if (!permission || typeof permission !== 'object' || !('paths' in permission)) return null;
  try {
    return permission.paths(args);
  } catch {
    // Arguments that do not fit (a middleware's rewrite) name no path rather than crash the gate.
    return [];
  }
}

/** The command line a call runs, or null for a tool that runs none. */
export function toolCommand(tool: Pick<Tool, 'permission'> | undefined, args: unknown): string | null {
  const permission = tool?.permission;
  if (!permission || typeof permission !== 'object' || !('command' in permission)) return null;
  try {
    const command: unknown = args && typeof args === 'object' ? permission.command(args) : '';
    return typeof command === 'string' ? command : '';
  } catch {
    // An empty command is one the shell analysis cannot allow: the call asks.
    return '';
  }
}

/** How a rule's specifier is read for this tool: a path glob, a bash pattern, a host, a name glob, or none. */
export function specifierKind(tool: Pick<Tool, 'permission'> | undefined): 'paths' | 'command' | 'url' | 'name' | 'none' {
  const permission = tool?.permission;
  if (!permission || typeof permission !== 'object') return 'none';
  if ('paths' in permission) return 'paths';
  if ('command' in permission) return 'command';
  if ('url' in permission) return 'url';
  return 'name';
}

/** The JSON schema sent to the model: zod's, without the `$schema` tag and the safe-integer bounds zod adds to every integer. */
function jsonSchemaOf(schema: z.ZodType): JsonSchema {
  const json = z.toJSONSchema(schema, {
    override: ({ jsonSchema }) => {
      if (jsonSchema.type !== 'integer') return;
      if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum;
      if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum;
    },
  }) as JsonSchema;
  delete json.$schema;
  return json;
}

function fieldOf(path: readonly PropertyKey[]): string {
  return path.map(String).join('.');
}

/** One problem in the words the model needs to fix it: the field by name and what it must be. */
function describeIssue(issue: z.core.$ZodIssue): string {
  const field = fieldOf(issue.path);
  const within = (key: string) => [field, key].filter((part) => part !== '').join('.');
  switch (issue.code) {
    case 'unrecognized_keys':
      return issue.keys.map((key) => `unknown field '${within(key)}'`).join('; ');
    case 'invalid_type':
      if (issue.input === undefined && field !== '') return `missing required field '${field}'`;
      return `field '${field || 'arguments'}' must be ${issue.expected === 'int' ? 'integer' : issue.expected}`;
    case 'invalid_value':
      return `field '${field || 'arguments'}' must be one of ${issue.values.map((value) => JSON.stringify(value)).join(', ')}`;
    default:
      return `field '${field || 'arguments'}' ${issue.message.replace(/^Invalid input: /, '')}`;
  }
}
