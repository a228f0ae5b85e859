import type * as z from 'zod';

/** Outcome of validating a tool call's arguments. */
export type ArgumentsCheck<T> = { ok: true; value: T } | { ok: false; message: string };

const NAME_LIMIT = 64;
const KEY_LIMIT = 10;

function clip(name: string): string {
  return name.length > NAME_LIMIT ? `${name.slice(0, NAME_LIMIT)}…` : name;
}

function fieldName(path: readonly PropertyKey[]): string {
  if (path.length === 0) return 'arguments';
  return clip(
    path
      .map((part) => (typeof part === 'number' ? `[${part}]` : String(part)))
      .join('.')
      .replace(/\.\[/g, '['),
  );
}

function acceptedFields(schema: z.ZodType): string[] {
  const shape = (schema as unknown as { shape?: Record<string, unknown> }).shape;
  return shape ? Object.keys(shape) : [];
}

function describeIssue(issue: z.core.$ZodIssue, schema: z.ZodType): string {
  const field = fieldName(issue.path);
  switch (issue.code) {
    case 'unrecognized_keys': {
      const accepted = acceptedFields(schema);
      const where = issue.path.length ? ` in ${field}` : '';
      const list = accepted.length && !issue.path.length ? ` (accepted: ${accepted.join(', ')})` : '';
      const keys = issue.keys.slice(0, KEY_LIMIT).map((k) => JSON.stringify(clip(k)));
      const more = issue.keys.length > KEY_LIMIT ? ` and ${issue.keys.length - KEY_LIMIT} more` : '';
      return `unknown field${issue.keys.length > 1 ? 's' : ''} ${keys.join(', ')}${more}${where}${list}`;
    }
    case 'invalid_type': {
      const received = issue.message.match(/received (\w+)/)?.[1];
      if (received === 'undefined') return `missing required field "${field}" (expected ${issue.expected})`;
      return `"${field}" must be ${issue.expected === 'int' ? 'an integer' : `a ${issue.expected}`}${received ? `, received ${received}` : ''}`;
    }
    case 'too_small':
      return `"${field}" is too small: expected ${issue.origin === 'string' ? 'length ' : ''}>=${String(issue.minimum)}`;
    case 'too_big':
      return `"${field}" is too big: expected ${issue.origin === 'string' ? 'length ' : ''}<=${String(issue.maximum)}`;
    case 'invalid_value':
      return `"${field}" must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    default:
      return `"${field}": ${issue.message}`;
  }
}

/** Validates tool arguments against a zod schema; the message names each bad field and what was expected. */
export function validateArguments<S extends z.ZodType>(toolName: string, schema: S, args: unknown): ArgumentsCheck<z.output<S>> {
  const parsed = schema.safeParse(args);
  if (parsed.success) return { ok: true, value: parsed.data };
  const problems = parsed.error.issues.slice(0, 5).map((issue) => describeIssue(issue, schema));
  const more = parsed.error.issues.length > 5 ? `; and ${parsed.error.issues.length - 5} more` : '';
  return { ok: false, message: `Invalid arguments for ${toolName}: ${problems.join('; ')}${more}` };
}
