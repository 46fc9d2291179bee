/**
 * Argument checks before any middleware or tool sees them: a declared tool's own (zod) check,
 * otherwise the JSON Schema (MCP tools, whose schemas come from their servers).
 * Messages name the field, because the model reads them and must fix exactly that.
 */
import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import type { Tool } from './types';

/** Ajv is loaded by the first tool without a zod check (MCP's): a run of built-in tools never loads its 270 KB. */
let ajv: Promise<Ajv> | undefined;
const compiled = new WeakMap<Tool, ValidateFunction>();

async function validatorFor(tool: Tool): Promise<ValidateFunction> {
  let validate = compiled.get(tool);
  if (!validate) {
    // Ajv is CommonJS: under Node its class is a named export; in the esbuild bundle a dynamic
    // import's namespace holds it as `default` (module.exports, which also carries `Ajv`).
    ajv ??= import('ajv').then((module) => {
      const AjvClass = module.Ajv ?? (module as unknown as { default: { Ajv: typeof module.Ajv } }).default.Ajv;
      return new AjvClass({ allErrors: true, strict: false, allowUnionTypes: true });
    });
    validate = (await ajv).compile(tool.parameters);
    compiled.set(tool, validate);
  }
  return validate;
}

function fieldName(error: ErrorObject): string {
  const path = error.instancePath.replace(/^\//, '').replace(/\//g, '.');
  return path || 'arguments';
}

function describe(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return `missing required field '${[fieldName(error), params.missingProperty].filter((p) => p !== 'arguments').join('.')}'`;
    case 'additionalProperties':
      return `unknown field '${[fieldName(error), params.additionalProperty].filter((p) => p !== 'arguments').join('.')}'`;
    case 'type':
      return `field '${fieldName(error)}' must be ${params.type}`;
    case 'enum':
      return `field '${fieldName(error)}' must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    default:
      return `field '${fieldName(error)}' ${error.message ?? 'is invalid'}`;
  }
}

/**
 * Null when the arguments fit the schema, otherwise one line naming every problem. A tool's own
 * check answers at once, so parallel calls rejected by it end in the order they were made; the
 * JSON Schema check answers once Ajv is loaded.
 */
export function checkArguments(tool: Tool, args: unknown): string | null | Promise<string | null> {
  if (tool.check) {
    const checked = tool.check(args);
    return checked.ok ? null : `Invalid arguments for ${tool.name}: ${[...new Set(checked.problems)].join('; ')}`;
  }
  return validatorFor(tool).then((validate) => {
    if (validate(args)) return null;
    const problems = [...new Set((validate.errors ?? []).map(describe))];
    return `Invalid arguments for ${tool.name}: ${problems.join('; ')}`;
  });
}
