import * as z from 'zod';
import type { JsonSchema } from './tool-result.js';

const SAFE_MIN = Number.MIN_SAFE_INTEGER;
const SAFE_MAX = Number.MAX_SAFE_INTEGER;

/** Converts a zod schema to the JSON Schema of its input: `$schema` stripped, every integer bounded. */
export function toJsonSchema(schema: z.ZodType): JsonSchema {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  delete json.$schema;
  return boundIntegers(json) as JsonSchema;
}

/** Adds safe-integer bounds to every `type: "integer"` node that lacks them (also for hand-written schemas). */
export function boundIntegers(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(boundIntegers);
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) out[key] = boundIntegers(value);
  if (out.type === 'integer') {
    if (typeof out.minimum !== 'number' && typeof out.exclusiveMinimum !== 'number') out.minimum = SAFE_MIN;
    if (typeof out.maximum !== 'number' && typeof out.exclusiveMaximum !== 'number') out.maximum = SAFE_MAX;
  }
  return out;
}

/**
 * Converts a zod schema of a result's `data` to the JSON Schema clients check it against: `$schema` stripped, extra
 * fields allowed (a result may carry more than its schema lists), and an integer's safe-integer bounds left out.
 */
export function toDataJsonSchema(schema: z.ZodType): JsonSchema {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  delete json.$schema;
  return withoutSafeBounds(json) as JsonSchema;
}

function withoutSafeBounds(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutSafeBounds);
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) out[key] = withoutSafeBounds(value);
  if (out.type === 'integer' && out.minimum === SAFE_MIN) delete out.minimum;
  if (out.type === 'integer' && out.maximum === SAFE_MAX) delete out.maximum;
  return out;
}
