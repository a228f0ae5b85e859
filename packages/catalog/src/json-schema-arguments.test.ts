import { describe, expect, it } from 'vitest';
import { validateJsonSchemaArguments } from './json-schema-arguments.js';

const SCHEMA = {
  type: 'object',
  properties: {
    owner: { type: 'string', minLength: 1 },
    state: { type: 'string', enum: ['open', 'closed'], default: 'open' },
    count: { type: 'integer', minimum: 1, maximum: 100 },
    ratio: { type: 'number', exclusiveMaximum: 1 },
    labels: { type: 'array', items: { type: 'string' }, maxItems: 3 },
    draft: { type: 'boolean' },
    meta: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'], additionalProperties: false },
    nested: { $ref: '#/$defs/pair' },
    note: { type: ['string', 'null'] },
    code: { type: 'string', pattern: '^[A-Z]+-\\d+$' },
  },
  required: ['owner'],
  $defs: { pair: { type: 'object', properties: { a: { type: 'integer' } }, required: ['a'] } },
};

const check = (args: Record<string, unknown>) => validateJsonSchemaArguments('demo', SCHEMA, args);

describe('validateJsonSchemaArguments', () => {
  it('accepts valid arguments and fills top-level defaults', () => {
    expect(check({ owner: 'me', labels: ['a'], meta: { id: 'x' }, nested: { a: 1 }, note: null, code: 'ENG-12' })).toEqual({
      ok: true,
      value: { owner: 'me', state: 'open', labels: ['a'], meta: { id: 'x' }, nested: { a: 1 }, note: null, code: 'ENG-12' },
    });
  });

  it('names missing required fields with their type', () => {
    expect(check({})).toEqual({ ok: false, message: 'Invalid arguments for demo: missing required field "owner" (expected string)' });
  });

  it('rejects wrong types, enums and bounds with the field and what was expected', () => {
    const result = check({ owner: 1, state: 'merged', count: 1.5, ratio: 1, labels: ['a', 'b', 'c', 'd'] });
    expect(result.ok).toBe(false);
    const message = (result as { message: string }).message;
    expect(message).toContain('"owner" must be a string, received number');
    expect(message).toContain('"state" must be one of "open", "closed"');
    expect(message).toContain('"count" must be an integer, received number');
    expect(message).toContain('"ratio" is too big: expected <1');
    expect(message).toContain('"labels" allows at most 3 items');
    expect((check({ owner: 'me', count: 0 }) as { message: string }).message).toContain('"count" is too small: expected >=1');
    expect((check({ owner: 'me', code: 'eng12' }) as { message: string }).message).toContain('"code" must match the pattern');
    expect((check({ owner: '' }) as { message: string }).message).toContain('"owner" is too short');
  });

  it('checks nested objects, arrays and local $refs', () => {
    const result = check({ owner: 'me', labels: ['a', 2], meta: { extra: true }, nested: {} });
    const message = (result as { message: string }).message;
    expect(message).toContain('"labels[1]" must be a string, received number');
    expect(message).toContain('missing required field "meta.id" (expected string)');
    expect(message).toContain('unknown field "extra" in meta');
    expect(message).toContain('missing required field "nested.a" (expected integer)');
  });

  it('rejects unknown top-level fields unless the schema allows them', () => {
    expect(check({ owner: 'me', titel: 'x' })).toEqual({
      ok: false,
      message:
        'Invalid arguments for demo: unknown field "titel" (accepted: owner, state, count, ratio, labels, draft, meta, nested, note, code)',
    });
    expect(validateJsonSchemaArguments('open', { type: 'object', properties: {}, additionalProperties: true }, { any: 1 }).ok).toBe(true);
    expect(validateJsonSchemaArguments('none', { type: 'object' }, { any: 1 })).toEqual({
      ok: false,
      message: 'Invalid arguments for none: unknown field "any" (this tool takes no arguments)',
    });
  });

  it('accepts a value that fits one anyOf branch and rejects one that fits none', () => {
    const schema = { type: 'object', properties: { id: { anyOf: [{ type: 'integer' }, { type: 'string', pattern: '^\\d+$' }] } } };
    expect(validateJsonSchemaArguments('x', schema, { id: 4 }).ok).toBe(true);
    expect(validateJsonSchemaArguments('x', schema, { id: '42' }).ok).toBe(true);
    expect(validateJsonSchemaArguments('x', schema, { id: 'abc' })).toEqual({
      ok: false,
      message: 'Invalid arguments for x: "id" does not match any allowed form',
    });
  });

  it('reports at most five problems', () => {
    const schema = { type: 'object', properties: {}, required: ['a', 'b', 'c', 'd', 'e', 'f', 'g'] };
    const message = (validateJsonSchemaArguments('x', schema, {}) as { message: string }).message;
    expect(message.split(';')).toHaveLength(5);
  });

  it('follows JSON Schema 2020-12 through ajv: nullable, oneOf, $schema, unknown keywords and formats', () => {
    const schema = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: {
        when: { type: 'string', format: 'date-time', 'x-ui': 'picker' },
        count: { type: 'integer', nullable: true, multipleOf: 5 },
        id: { oneOf: [{ type: 'integer' }, { type: 'number' }] },
        tags: { type: 'array', items: { type: 'string' }, uniqueItems: true },
      },
    };
    expect(validateJsonSchemaArguments('x', schema, { when: 'not a date', count: null, tags: ['a'] }).ok).toBe(true);
    expect(validateJsonSchemaArguments('x', schema, { count: 7 })).toEqual({
      ok: false,
      message: 'Invalid arguments for x: "count" must be multiple of 5',
    });
    // An integer fits both branches of this oneOf: JSON Schema rejects it, and the message says why.
    expect(validateJsonSchemaArguments('x', schema, { id: 3 })).toEqual({
      ok: false,
      message: 'Invalid arguments for x: "id" matches more than one allowed form',
    });
    expect(validateJsonSchemaArguments('x', schema, { id: 2.5 }).ok).toBe(true);
    expect((validateJsonSchemaArguments('x', schema, { tags: ['a', 'a'] }) as { message: string }).message).toContain(
      '"tags" must NOT have duplicate items',
    );
    expect(validateJsonSchemaArguments('x', schema, { count: Number.POSITIVE_INFINITY })).toEqual({
      ok: false,
      message: 'Invalid arguments for x: "count" must be a finite number',
    });
  });

  it('treats a field set to undefined as not sent, and leaves a schema ajv cannot compile unchecked', () => {
    expect(check({ owner: 'me', count: undefined })).toEqual({ ok: true, value: { owner: 'me', state: 'open' } });
    const external = { type: 'object', properties: { spec: { $ref: 'https://example.com/spec.json' } } };
    expect(validateJsonSchemaArguments('x', external, { spec: { any: 1 } })).toEqual({ ok: true, value: { spec: { any: 1 } } });
  });
});
