import * as z from 'zod';

/** The default `max_output_tokens`. */
export const DEFAULT_MAX_OUTPUT_TOKENS = 10_000;
/** The largest accepted `max_output_tokens`. */
export const MAX_OUTPUT_TOKENS_LIMIT = 50_000;
/**
 * Budgets under this count as this: room for an exec answer's header (its exit code or session, and the path of the file
 * that holds the complete output), which a smaller budget would have to drop.
 */
export const MAX_OUTPUT_TOKENS_FLOOR = 100;
/** The exact message for a malformed `max_output_tokens`. */
export const MAX_OUTPUT_TOKENS_MESSAGE = `max_output_tokens must be an integer between 1 and ${MAX_OUTPUT_TOKENS_LIMIT}`;

/** The `max_output_tokens` field every function tool accepts. */
export const maxOutputTokensSchema = z
  .int()
  .min(1)
  .max(MAX_OUTPUT_TOKENS_LIMIT)
  .default(DEFAULT_MAX_OUTPUT_TOKENS)
  .describe(
    `Output budget for the response in tokens (default ${DEFAULT_MAX_OUTPUT_TOKENS}, 1 to ${MAX_OUTPUT_TOKENS_LIMIT}; under ${MAX_OUTPUT_TOKENS_FLOOR} counts as ${MAX_OUTPUT_TOKENS_FLOOR}). The complete output is spooled; only the preview is limited.`,
  );

/** Outcome of the `max_output_tokens` preflight. */
export type MaxOutputTokensCheck = { ok: true; value: number } | { ok: false; message: string };

/**
 * Validates `max_output_tokens` before dispatch: absent → the default; else an integer in 1..50000, whose value is the
 * budget the output must fit, raised to {@link MAX_OUTPUT_TOKENS_FLOOR} when smaller.
 */
export function preflightMaxOutputTokens(args: Record<string, unknown>): MaxOutputTokensCheck {
  if (!Object.prototype.hasOwnProperty.call(args, 'max_output_tokens') || args.max_output_tokens === undefined) {
    return { ok: true, value: DEFAULT_MAX_OUTPUT_TOKENS };
  }
  const value = args.max_output_tokens;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MAX_OUTPUT_TOKENS_LIMIT) {
    return { ok: false, message: MAX_OUTPUT_TOKENS_MESSAGE };
  }
  return { ok: true, value: Math.max(value, MAX_OUTPUT_TOKENS_FLOOR) };
}

/** The `data` fields any result may carry once its output was fitted to the budget. */
export const budgetDataFields = {
  /** True when the output was cut to its budget. */
  truncated: z.boolean().optional(),
  /** The spool file holding the complete output. */
  spool_path: z.string().optional(),
};
