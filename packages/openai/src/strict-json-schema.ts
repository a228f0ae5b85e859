import type { JsonSchema } from 'toolhost';

/** Keywords kept by {@link toStrictJsonSchema}; the rest (defaults, string lengths, …) is dropped, the host still validates it. */
const STRICT_KEYWORDS = new Set([
  'type',
  'description',
  'title',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'enum',
  'const',
  'anyOf',
  'pattern',
  'format',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minItems',
  'maxItems',
  '$defs',
  '$ref',
]);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isObjectSchema(node: Record<string, unknown>): boolean {
  return node.type === 'object' || (node.type === undefined && isObject(node.properties));
}

/** True when a JSON Schema node already accepts `null`. */
export function allowsNull(node: unknown): boolean {
  if (!isObject(node)) return true;
  if (node.type === 'null') return true;
  if (Array.isArray(node.type) && node.type.includes('null')) return true;
  if (Array.isArray(node.enum) && node.enum.includes(null)) return true;
  if (Array.isArray(node.anyOf) && node.anyOf.some(allowsNull)) return true;
  return (
    Object.keys(node).length === 0 ||
    (node.type === undefined &&
      node.anyOf === undefined &&
      node.enum === undefined &&
      node.const === undefined &&
      node.properties === undefined)
  );
}

function nullable(node: Record<string, unknown>): Record<string, unknown> {
  if (allowsNull(node)) return node;
  if (typeof node.type === 'string' && node.anyOf === undefined) {
    const out: Record<string, unknown> = { ...node, type: [node.type, 'null'] };
    if (Array.isArray(node.enum)) out.enum = [...(node.enum as unknown[]), null];
    return out;
  }
  const { description, ...rest } = node;
  return description === undefined ? { anyOf: [rest, { type: 'null' }] } : { description, anyOf: [rest, { type: 'null' }] };
}

function strictNode(node: unknown): unknown {
  if (!isObject(node)) return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (!STRICT_KEYWORDS.has(key)) continue;
    if (key === 'properties' || key === '$defs') {
      out[key] = Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([name, child]) => [name, strictNode(child)]));
    } else if (key === 'items') out.items = strictNode(value);
    else if (key === 'anyOf') out.anyOf = (value as unknown[]).map(strictNode);
    else out[key] = value;
  }
  if (isObjectSchema(node)) {
    const properties = (out.properties as Record<string, Record<string, unknown>> | undefined) ?? {};
    const required = new Set(Array.isArray(node.required) ? (node.required as string[]) : []);
    for (const [name, child] of Object.entries(properties)) if (!required.has(name)) properties[name] = nullable(child);
    out.type = 'object';
    out.properties = properties;
    out.required = Object.keys(properties);
    out.additionalProperties = false;
  }
  return out;
}

/**
 * Converts a tool's input schema to the strict-mode subset: every property required, optional ones nullable,
 * `additionalProperties: false`, unsupported keywords dropped. Send the model's nulls through {@link stripNulls}.
 */
export function toStrictJsonSchema(schema: JsonSchema): JsonSchema {
  return strictNode(schema) as JsonSchema;
}

/** Removes the nulls a strict-mode model sends for optional properties whose original schema does not accept null. */
export function stripNulls(value: unknown, schema: unknown): unknown {
  if (Array.isArray(value)) {
    const items = isObject(schema) ? schema.items : undefined;
    return value.map((item) => stripNulls(item, items));
  }
  if (!isObject(value) || !isObject(schema)) return value;
  const properties = isObject(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    const childSchema = properties[key];
    if (child === null && !required.has(key) && childSchema !== undefined && !allowsNull(childSchema)) continue;
    out[key] = stripNulls(child, childSchema);
  }
  return out;
}
