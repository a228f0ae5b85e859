import type { ArgumentsCheck } from '@toolhost/core';

type Schema = Record<string, unknown>;

const MAX_PROBLEMS = 5;
const MAX_DEPTH = 32;

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function matchesType(value: unknown, type: string): boolean {
  const actual = typeOf(value);
  if (type === 'number') return actual === 'number' || actual === 'integer';
  return actual === type;
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

function describeTypes(types: string[]): string {
  return types.map(article).join(' or ');
}

function fieldName(path: string[]): string {
  return path.length ? path.join('.').replace(/\.\[/g, '[') : 'arguments';
}

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

interface Walk {
  root: Schema;
  problems: string[];
}

function resolve(schema: Schema, walk: Walk): Schema | undefined {
  const ref = schema.$ref;
  if (typeof ref !== 'string') return schema;
  const match = /^#\/(\$defs|definitions)\/([^/]+)$/.exec(ref);
  const target = match ? (walk.root[match[1]] as Record<string, unknown> | undefined)?.[decodeURIComponent(match[2])] : undefined;
  return isObject(target) ? target : undefined;
}

/** Validates one value; pushes a message per problem. `topLevel` rejects unknown fields unless the schema allows them. */
function check(value: unknown, rawSchema: unknown, path: string[], walk: Walk, depth: number, topLevel = false): void {
  if (walk.problems.length >= MAX_PROBLEMS || depth > MAX_DEPTH || !isObject(rawSchema)) return;
  const schema = resolve(rawSchema, walk);
  if (!schema) return; // an external or unknown $ref is not checked here; the handler receives the value as sent
  const field = fieldName(path);
  const problem = (message: string) => walk.problems.push(message);

  if (value === null && schema.nullable === true) return;
  const types = typeof schema.type === 'string' ? [schema.type] : Array.isArray(schema.type) ? (schema.type as string[]) : undefined;
  if (types && !types.some((type) => matchesType(value, type))) {
    problem(`"${field}" must be ${describeTypes(types)}, received ${typeOf(value) === 'integer' ? 'number' : typeOf(value)}`);
    return;
  }
  if ('const' in schema && !sameValue(value, schema.const)) {
    problem(`"${field}" must be ${JSON.stringify(schema.const)}`);
    return;
  }
  if (Array.isArray(schema.enum) && !schema.enum.some((option) => sameValue(option, value))) {
    problem(`"${field}" must be one of ${schema.enum.map((option) => JSON.stringify(option)).join(', ')}`);
    return;
  }
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = schema[key];
    if (!Array.isArray(branches) || branches.length === 0) continue;
    const fits = branches.some((branch) => {
      const trial: Walk = { root: walk.root, problems: [] };
      check(value, branch, path, trial, depth + 1);
      return trial.problems.length === 0;
    });
    if (!fits) {
      problem(`"${field}" does not match any allowed form`);
      return;
    }
  }
  if (Array.isArray(schema.allOf)) for (const branch of schema.allOf) check(value, branch, path, walk, depth + 1);

  if (typeof value === 'string') {
    if (typeof schema.minLength === 'number' && [...value].length < schema.minLength) problem(`"${field}" is too short: expected length >=${schema.minLength}`);
    if (typeof schema.maxLength === 'number' && [...value].length > schema.maxLength) problem(`"${field}" is too long: expected length <=${schema.maxLength}`);
    if (typeof schema.pattern === 'string') {
      let pattern: RegExp | undefined;
      try {
        pattern = new RegExp(schema.pattern, 'u');
      } catch {
        pattern = undefined;
      }
      if (pattern && !pattern.test(value)) problem(`"${field}" must match the pattern ${schema.pattern}`);
    }
  } else if (typeof value === 'number') {
    if (!Number.isFinite(value)) problem(`"${field}" must be a finite number`);
    if (typeof schema.minimum === 'number' && value < schema.minimum) problem(`"${field}" is too small: expected >=${schema.minimum}`);
    if (typeof schema.maximum === 'number' && value > schema.maximum) problem(`"${field}" is too big: expected <=${schema.maximum}`);
    if (typeof schema.exclusiveMinimum === 'number' && value <= schema.exclusiveMinimum) problem(`"${field}" is too small: expected >${schema.exclusiveMinimum}`);
    if (typeof schema.exclusiveMaximum === 'number' && value >= schema.exclusiveMaximum) problem(`"${field}" is too big: expected <${schema.exclusiveMaximum}`);
  } else if (Array.isArray(value)) {
    if (typeof schema.minItems === 'number' && value.length < schema.minItems) problem(`"${field}" needs at least ${schema.minItems} items`);
    if (typeof schema.maxItems === 'number' && value.length > schema.maxItems) problem(`"${field}" allows at most ${schema.maxItems} items`);
    if (isObject(schema.items)) value.forEach((item, index) => check(item, schema.items, [...path, `[${index}]`], walk, depth + 1));
  } else if (isObject(value)) {
    const properties = isObject(schema.properties) ? schema.properties : {};
    const required = Array.isArray(schema.required) ? (schema.required as unknown[]).filter((key): key is string => typeof key === 'string') : [];
    for (const key of required) {
      if (value[key] !== undefined) continue;
      const expected = isObject(properties[key]) ? (properties[key] as Schema).type : undefined;
      problem(`missing required field "${fieldName([...path, key])}"${typeof expected === 'string' ? ` (expected ${expected})` : ''}`);
    }
    const additional = schema.additionalProperties;
    const unknown = Object.keys(value).filter((key) => !(key in properties) && value[key] !== undefined);
    const rejectUnknown = additional === false || (topLevel && additional === undefined && schema.patternProperties === undefined);
    if (unknown.length && rejectUnknown) {
      const accepted = Object.keys(properties);
      const where = path.length ? ` in ${field}` : '';
      problem(
        `unknown field${unknown.length > 1 ? 's' : ''} ${unknown.map((key) => `"${key}"`).join(', ')}${where}` +
          (accepted.length ? ` (accepted: ${accepted.join(', ')})` : ' (this tool takes no arguments)'),
      );
    }
    for (const [key, propertySchema] of Object.entries(properties)) {
      if (value[key] !== undefined) check(value[key], propertySchema, [...path, key], walk, depth + 1);
    }
    if (isObject(additional)) for (const key of unknown) check(value[key], additional, [...path, key], walk, depth + 1);
  }
}

/**
 * Validates tool arguments against a JSON Schema object: types, required fields, enums and const, string, number and
 * array bounds, nested objects and arrays, anyOf/oneOf/allOf and local `$ref`s. Unknown top-level fields are rejected
 * unless the schema sets `additionalProperties`; nested objects follow `additionalProperties` as written.
 * On success the value has top-level `default`s filled in.
 */
export function validateJsonSchemaArguments(toolName: string, schema: Record<string, unknown>, args: Record<string, unknown>): ArgumentsCheck<Record<string, unknown>> {
  const walk: Walk = { root: schema, problems: [] };
  check(args, { ...schema, type: schema.type ?? 'object' }, [], walk, 0, true);
  if (walk.problems.length) {
    const problems = walk.problems.slice(0, MAX_PROBLEMS);
    return { ok: false, message: `Invalid arguments for ${toolName}: ${problems.join('; ')}` };
  }
  const value = { ...args };
  const properties = isObject(schema.properties) ? schema.properties : {};
  for (const [key, property] of Object.entries(properties)) {
    if (value[key] === undefined && isObject(property) && 'default' in property) value[key] = structuredClone(property.default);
  }
  return { ok: true, value };
}
