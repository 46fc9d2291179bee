/**
 * MCP input schemas in the form the Messages API accepts for `input_schema`. The API rejects a
 * request whose tool schema it cannot take (and with it every turn of the session), so each
 * schema is rewritten here once, when the server lists its tools:
 *
 * - the top level must be a plain `type: "object"`: top-level `allOf` is merged, and top-level
 *   `anyOf`/`oneOf` become one object whose properties are the union of the branches and whose
 *   required fields are those every branch requires (the branch is still the model's to pick);
 * - local `$ref`s (`#/$defs/…`, `#/definitions/…`) are inlined and the definitions dropped;
 * - `format` values outside the documented set, and keywords that only describe documents
 *   (`$schema`, `$id`, `$comment`), are removed.
 *
 * What cannot be rewritten (a top level that is not an object, a recursive or remote `$ref`, a
 * schema too large or too deep) is reported, and the caller leaves that one tool out.
 */

type Schema = Record<string, unknown>;

export type Normalized = { ok: true; schema: Schema; changes: string[] } | { ok: false; reason: string };

/** String formats the API documents for tool input schemas. */
const FORMATS = new Set(['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'uri', 'ipv4', 'ipv6', 'uuid']);
const DROPPED = ['$schema', '$id', '$comment'];
const MAX_DEPTH = 32;
const MAX_BYTES = 100_000;

class Unusable extends Error {}

const isSchema = (value: unknown): value is Schema => value !== null && typeof value === 'object' && !Array.isArray(value);

function definitionsOf(root: Schema): Map<string, unknown> {
  const found = new Map<string, unknown>();
  for (const key of ['$defs', 'definitions']) {
    const group = root[key];
    if (!isSchema(group)) continue;
    for (const [name, value] of Object.entries(group)) found.set(`#/${key}/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`, value);
  }
  return found;
}

function rewrite(node: unknown, definitions: Map<string, unknown>, trail: string[], changes: Set<string>, depth: number): unknown {
  if (depth > MAX_DEPTH) throw new Unusable(`it nests deeper than ${MAX_DEPTH} levels`);
  if (Array.isArray(node)) return node.map((item) => rewrite(item, definitions, trail, changes, depth + 1));
  if (!isSchema(node)) return node;
  if (typeof node.$ref === 'string') {
    const ref = node.$ref;
    if (trail.includes(ref)) throw new Unusable(`its $ref ${ref} refers to itself`);
    const target = definitions.get(ref);
    if (target === undefined) throw new Unusable(`its $ref ${ref} cannot be resolved`);
    changes.add('inlined $ref');
    const { $ref: _, ...siblings } = node;
    const inlined = rewrite(target, definitions, [...trail, ref], changes, depth + 1);
    return isSchema(inlined) ? { ...inlined, ...(rewrite(siblings, definitions, trail, changes, depth + 1) as Schema) } : inlined;
  }
  const out: Schema = {};
  for (const [key, value] of Object.entries(node)) {
    if (DROPPED.includes(key) || key === '$defs' || key === 'definitions') continue;
    if (key === 'format' && typeof value === 'string' && !FORMATS.has(value)) {
      changes.add(`dropped format "${value}"`);
      continue;
    }
    // Inside `properties` the keys are property names, not keywords.
    if (key === 'properties' && isSchema(value)) {
      out[key] = Object.fromEntries(Object.entries(value).map(([name, child]) => [name, rewrite(child, definitions, trail, changes, depth + 1)]));
      continue;
    }
    out[key] = rewrite(value, definitions, trail, changes, depth + 1);
  }
  return out;
}

function objectParts(schema: Schema, where: string): { properties: Schema; required: string[]; rest: Schema } {
  const type = schema.type;
  const objectType = type === undefined || type === 'object' || (Array.isArray(type) && type.includes('object'));
  if (!objectType) throw new Unusable(`${where} is of type ${JSON.stringify(type)}, not an object`);
  const { type: _, properties, required, ...rest } = schema;
  return {
    properties: isSchema(properties) ? properties : {},
    required: Array.isArray(required) ? required.filter((name): name is string => typeof name === 'string') : [],
    rest,
  };
}

function mergeProperty(existing: unknown, added: unknown): unknown {
  if (existing === undefined || JSON.stringify(existing) === JSON.stringify(added)) return added;
  return { anyOf: [existing, added] };
}

/** Folds top-level combinators into one object schema. */
function flattenTop(schema: Schema, changes: Set<string>): Schema {
  let current = schema;
  for (let round = 0; round < MAX_DEPTH; round++) {
    const combinator = (['allOf', 'anyOf', 'oneOf'] as const).find((key) => Array.isArray(current[key]));
    if (!combinator) break;
    const branches = current[combinator] as unknown[];
    if (branches.length === 0 || !branches.every(isSchema)) throw new Unusable(`its top-level ${combinator} holds something that is not a schema`);
    const { [combinator]: _, ...base } = current;
    const parts = [objectParts(base, 'the top level'), ...branches.map((branch, index) => objectParts(flattenTop(branch as Schema, changes), `${combinator} branch ${index + 1}`))];
    const properties: Schema = {};
    for (const part of parts) for (const [name, value] of Object.entries(part.properties)) properties[name] = mergeProperty(properties[name], value);
    const own = parts[0]!.required;
    const branchRequired = parts.slice(1).map((part) => part.required);
    const required =
      combinator === 'allOf'
        ? [...new Set([...own, ...branchRequired.flat()])]
        : [...new Set([...own, ...branchRequired.reduce((common, next) => common.filter((name) => next.includes(name)))])];
    const rest = Object.assign({}, ...parts.slice(1).map((part) => part.rest), parts[0]!.rest) as Schema;
    delete rest.additionalProperties;
    changes.add(`merged top-level ${combinator}`);
    current = { ...rest, type: 'object', properties, ...(required.length > 0 ? { required } : {}) };
  }
  for (const key of ['not', 'if', 'then', 'else', 'dependentSchemas']) {
    if (key in current) {
      const { [key]: _, ...rest } = current;
      current = rest;
      changes.add(`dropped top-level ${key}`);
    }
  }
  return current;
}

export function normalizeInputSchema(input: unknown): Normalized {
  if (!isSchema(input)) return { ok: false, reason: 'its input schema is not a JSON object' };
  let size: number;
  try {
    size = JSON.stringify(input).length;
  } catch {
    return { ok: false, reason: 'its input schema cannot be serialized' };
  }
  if (size > MAX_BYTES) return { ok: false, reason: `its input schema is ${size} bytes, over the ${MAX_BYTES} Cove sends` };
  const changes = new Set<string>();
  try {
    const inlined = rewrite(input, definitionsOf(input), [], changes, 0) as Schema;
    const flat = flattenTop(inlined, changes);
    const { properties, required, rest } = objectParts(flat, 'the top level');
    return { ok: true, schema: { ...rest, type: 'object', properties, ...(required.length > 0 ? { required } : {}) }, changes: [...changes] };
  } catch (error) {
    if (error instanceof Unusable) return { ok: false, reason: error.message };
    throw error;
  }
}
