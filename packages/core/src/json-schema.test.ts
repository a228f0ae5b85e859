import * as z from 'zod';
import { describe, expect, it } from 'vitest';
import { boundIntegers, toJsonSchema } from './json-schema.js';

describe('toJsonSchema', () => {
  it('emits the input schema: defaults optional, $schema stripped, unknown fields refused', () => {
    const schema = z.strictObject({ name: z.string(), count: z.int().min(1).max(9).default(3) });
    expect(toJsonSchema(schema)).toEqual({
      type: 'object',
      properties: { name: { type: 'string' }, count: { default: 3, type: 'integer', minimum: 1, maximum: 9 } },
      required: ['name'],
      additionalProperties: false,
    });
  });

  it('bounds every integer', () => {
    const json = toJsonSchema(z.object({ n: z.int() })) as { properties: { n: Record<string, unknown> } };
    expect(json.properties.n).toMatchObject({ type: 'integer', minimum: Number.MIN_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER });
    expect(boundIntegers({ type: 'object', properties: { a: { type: 'integer', minimum: 0 } } })).toEqual({
      type: 'object',
      properties: { a: { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER } },
    });
  });
});
