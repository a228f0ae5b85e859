import {
  ErrorCode,
  errorResult,
  preflightMaxOutputTokens,
  validateArguments,
  type ToolImplementation,
  type ToolResult,
} from '@toolhost/core';

/** A call's arguments decoded for its tool: the valid values and the output budget, or the answer refusing them. */
export type DecodedArguments =
  | { ok: true; values: Record<string, unknown>; budget: number }
  /** `budget` is there when `max_output_tokens` was read before the arguments were refused. */
  | { ok: false; result: ToolResult; budget?: number };

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function refused(message: string, budget?: number): DecodedArguments {
  return { ok: false, result: errorResult(ErrorCode.InvalidArguments, message), budget };
}

/**
 * Decodes arguments as a model sends them (an object, JSON text, or a freeform tool's raw text), checks
 * `max_output_tokens` before anything else, then the tool's own normalisation and schema.
 */
export function decodeArguments(name: string, implementation: ToolImplementation, rawArgs: unknown): DecodedArguments {
  let args: unknown = rawArgs ?? {};
  if (typeof args === 'string') {
    if (implementation.fromFreeform && !args.trimStart().startsWith('{')) args = implementation.fromFreeform(args);
    else {
      try {
        args = JSON.parse(args);
      } catch {
        return refused(`Invalid arguments for ${name}: arguments must be a JSON object`);
      }
    }
  }
  if (!isPlainObject(args)) return refused(`Invalid arguments for ${name}: arguments must be a JSON object`);
  const budget = preflightMaxOutputTokens(args);
  if (!budget.ok) return refused(budget.message);
  const normalized = implementation.normalize ? implementation.normalize(args) : args;
  const valid = validateArguments(name, implementation.schema, normalized);
  if (!valid.ok) return refused(valid.message, budget.value);
  return { ok: true, values: valid.value as Record<string, unknown>, budget: budget.value };
}
