import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import type { ArgumentsCheck } from '@toolhost/core';

type Schema = Record<string, unknown>;

const MAX_PROBLEMS = 5;

/**
 * One validator for every catalog schema: JSON Schema 2020-12 (the MCP default), lenient about what it does not know
 * (unknown keywords and formats are ignored, schemas are not checked against the meta-schema), all errors collected.
 */
const ajv = new Ajv2020({ allErrors: true, strict: false, validateSchema: false, validateFormats: false, verbose: true });
/** Compiled validators by schema object; `null` when the schema cannot be compiled (e.g. an external `$ref`). */
const compiled = new WeakMap<Schema, ValidateFunction | null>();

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

/** `/meta/id` → `meta.id`, `/labels/1` → `labels[1]`; the root is "arguments". */
function fieldName(instancePath: string, child?: string): string {
  const segments = instancePath
    ? instancePath
        .slice(1)
        .split('/')
        .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'))
    : [];
  if (child !== undefined) segments.push(child);
  let name = '';
  for (const segment of segments) name += /^\d+$/.test(segment) ? `[${segment}]` : name ? `.${segment}` : segment;
  return name || 'arguments';
}

/** The schema the arguments are checked against: an object, and unknown top-level fields refused unless it says otherwise. */
function topLevelSchema(schema: Schema): Schema {
  const { $schema: _dialect, ...rest } = schema;
  const top: Schema = { ...rest, type: schema.type ?? 'object' };
  if (schema.additionalProperties === undefined && schema.patternProperties === undefined) top.additionalProperties = false;
  return top;
}

function validatorFor(schema: Schema): ValidateFunction | null {
  if (compiled.has(schema)) return compiled.get(schema)!;
  let validate: ValidateFunction | null;
  try {
    validate = ajv.compile(topLevelSchema(schema));
  } catch {
    validate = null;
  }
  compiled.set(schema, validate);
  return validate;
}

/** Paths of numbers JSON cannot carry (NaN, ±Infinity), which ajv's type checks let through. */
function nonFiniteNumbers(value: unknown, path: string, found: string[], depth = 0): string[] {
  if (found.length >= MAX_PROBLEMS || depth > 32) return found;
  if (typeof value === 'number' && !Number.isFinite(value)) found.push(`"${fieldName(path)}" must be a finite number`);
  else if (Array.isArray(value)) value.forEach((item, index) => nonFiniteNumbers(item, `${path}/${index}`, found, depth + 1));
  else if (isObject(value))
    for (const [key, item] of Object.entries(value))
      nonFiniteNumbers(item, `${path}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`, found, depth + 1);
  return found;
}

/** Turns ajv's errors into messages that name the field and what was expected, one per problem. */
function describeErrors(errors: ErrorObject[]): string[] {
  // A value of the wrong type gets only its type error; a failed anyOf/oneOf only its own (not each branch's).
  const branches = errors.filter((error) => error.keyword === 'anyOf' || error.keyword === 'oneOf').map((error) => `${error.schemaPath}/`);
  const own = errors.filter((error) => !branches.some((prefix) => error.schemaPath.startsWith(prefix)));
  const wrongType = new Set(own.filter((error) => error.keyword === 'type').map((error) => error.instancePath));
  const problems: string[] = [];
  const unknown = new Map<string, { names: string[]; accepted: string[] }>();
  for (const error of own) {
    if (error.keyword !== 'type' && wrongType.has(error.instancePath) && error.keyword !== 'required') continue;
    const field = fieldName(error.instancePath);
    const params = error.params as Record<string, unknown>;
    const parent = isObject(error.parentSchema) ? error.parentSchema : {};
    switch (error.keyword) {
      case 'required': {
        const key = String(params.missingProperty);
        const property = isObject(parent.properties) ? parent.properties[key] : undefined;
        const expected = isObject(property) ? property.type : undefined;
        problems.push(
          `missing required field "${fieldName(error.instancePath, key)}"${typeof expected === 'string' ? ` (expected ${expected})` : ''}`,
        );
        break;
      }
      case 'type': {
        const types = Array.isArray(parent.type) ? (parent.type as string[]) : [String(parent.type ?? params.type)];
        problems.push(`"${field}" must be ${types.map(article).join(' or ')}, received ${typeOf(error.data)}`);
        break;
      }
      case 'const':
        problems.push(`"${field}" must be ${JSON.stringify(params.allowedValue)}`);
        break;
      case 'enum':
        problems.push(
          `"${field}" must be one of ${(params.allowedValues as unknown[]).map((option) => JSON.stringify(option)).join(', ')}`,
        );
        break;
      case 'anyOf':
      case 'oneOf':
        problems.push(
          params.passingSchemas ? `"${field}" matches more than one allowed form` : `"${field}" does not match any allowed form`,
        );
        break;
      case 'minLength':
        problems.push(`"${field}" is too short: expected length >=${String(params.limit)}`);
        break;
      case 'maxLength':
        problems.push(`"${field}" is too long: expected length <=${String(params.limit)}`);
        break;
      case 'pattern':
        problems.push(`"${field}" must match the pattern ${String(params.pattern)}`);
        break;
      case 'minimum':
      case 'exclusiveMinimum':
        problems.push(`"${field}" is too small: expected ${String(params.comparison)}${String(params.limit)}`);
        break;
      case 'maximum':
      case 'exclusiveMaximum':
        problems.push(`"${field}" is too big: expected ${String(params.comparison)}${String(params.limit)}`);
        break;
      case 'minItems':
        problems.push(`"${field}" needs at least ${String(params.limit)} items`);
        break;
      case 'maxItems':
        problems.push(`"${field}" allows at most ${String(params.limit)} items`);
        break;
      case 'additionalProperties': {
        const entry = unknown.get(error.instancePath);
        const name = String(params.additionalProperty);
        if (entry) entry.names.push(name);
        else {
          unknown.set(error.instancePath, { names: [name], accepted: isObject(parent.properties) ? Object.keys(parent.properties) : [] });
          problems.push(`\u0000unknown:${error.instancePath}`);
        }
        break;
      }
      default:
        problems.push(`"${field}" ${error.message ?? `fails ${error.keyword}`}`);
    }
  }
  return problems.map((problem) => {
    if (!problem.startsWith('\u0000unknown:')) return problem;
    const path = problem.slice('\u0000unknown:'.length);
    const { names, accepted } = unknown.get(path)!;
    const where = path ? ` in ${fieldName(path)}` : '';
    return (
      `unknown field${names.length > 1 ? 's' : ''} ${names.map((name) => `"${name}"`).join(', ')}${where}` +
      (accepted.length ? ` (accepted: ${accepted.join(', ')})` : ' (this tool takes no arguments)')
    );
  });
}

/**
 * Validates tool arguments against a JSON Schema object with ajv (draft 2020-12; unknown keywords and formats ignored).
 * Unknown top-level fields are rejected unless the schema sets `additionalProperties` or `patternProperties`; nested
 * objects follow `additionalProperties` as written. A schema ajv cannot compile (e.g. an external `$ref`) is not
 * checked: the handler receives the arguments as sent. On success the value has top-level `default`s filled in.
 */
export function validateJsonSchemaArguments(
  toolName: string,
  schema: Record<string, unknown>,
  args: Record<string, unknown>,
): ArgumentsCheck<Record<string, unknown>> {
  // A field set to undefined is a field not sent (JSON has no undefined).
  const value: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(args)) if (item !== undefined) value[key] = item;
  const nonFinite = nonFiniteNumbers(value, '', []);
  if (nonFinite.length) return { ok: false, message: `Invalid arguments for ${toolName}: ${nonFinite.join('; ')}` };
  const validate = validatorFor(schema);
  if (validate && !validate(value)) {
    const problems = describeErrors(validate.errors ?? []).slice(0, MAX_PROBLEMS);
    return { ok: false, message: `Invalid arguments for ${toolName}: ${problems.join('; ')}` };
  }
  const properties = isObject(schema.properties) ? schema.properties : {};
  for (const [key, property] of Object.entries(properties)) {
    if (value[key] === undefined && isObject(property) && 'default' in property) value[key] = structuredClone(property.default);
  }
  return { ok: true, value };
}
