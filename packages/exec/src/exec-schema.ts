import * as z from 'zod';
import { budgetDataFields, maxOutputTokensSchema } from '@toolhost/core';

/** Smallest and largest effective `yield_time_ms`; other values are clamped into this range. */
export const YIELD_TIME_BOUNDS = { min: 250, max: 30_000 } as const;
/** Default `yield_time_ms` of exec_command. */
export const EXEC_DEFAULT_YIELD_MS = 10_000;
/** Default `yield_time_ms` of write_stdin. */
export const STDIN_DEFAULT_YIELD_MS = 250;

const yieldTime = (fallback: number) =>
  z
    .int()
    .min(0)
    .max(3_600_000)
    .default(fallback)
    .describe(
      `How long to wait for output before returning, in milliseconds (default ${fallback}; clamped to ${YIELD_TIME_BOUNDS.min}..${YIELD_TIME_BOUNDS.max}). The call returns earlier when the process exits.`,
    );

/** Input schema of exec_command. */
export const execCommandSchema = z.strictObject({
  cmd: z.string().min(1).describe('Command text to run in the shell.'),
  workdir: z
    .string()
    .min(1)
    .optional()
    .describe('Working directory, absolute or relative to the workspace root; must stay inside the workspace. Defaults to the root.'),
  tty: z.boolean().default(false).describe('Allocate a PTY when the command needs an interactive terminal.'),
  yield_time_ms: yieldTime(EXEC_DEFAULT_YIELD_MS),
  max_output_tokens: maxOutputTokensSchema,
  sandbox_permissions: z
    .enum(['use_default', 'require_escalated'])
    .default('use_default')
    .describe('Sandbox permissions for this command; request "require_escalated" only when the default sandbox blocks it.'),
  justification: z.string().max(2000).optional().describe('Why escalated permissions are needed; shown to whoever approves the request.'),
});

/** Input schema of write_stdin. */
export const writeStdinSchema = z.strictObject({
  session_id: z.int().min(0).max(2_147_483_647).describe('Session ID returned by an exec_command whose process is still running.'),
  chars: z
    .string()
    .describe(
      'Bytes or text to write to the process; may be empty to just read new output. Control characters such as "\\u0003" are sent raw.',
    ),
  yield_time_ms: yieldTime(STDIN_DEFAULT_YIELD_MS),
  max_output_tokens: maxOutputTokensSchema,
});

/** Validated exec_command arguments. */
export type ExecCommandArgs = z.output<typeof execCommandSchema>;
/** Validated write_stdin arguments. */
export type WriteStdinArgs = z.output<typeof writeStdinSchema>;

/** Accepts a string of digits as write_stdin's session_id (models often quote it). */
export function normalizeWriteStdinArgs(args: Record<string, unknown>): Record<string, unknown> {
  return typeof args.session_id === 'string' && /^\d+$/.test(args.session_id) ? { ...args, session_id: Number(args.session_id) } : args;
}

/** What an exec_command or write_stdin result's `data` holds. */
export const execDataSchema = z.object({
  /** The session of a command still running. */
  session_id: z.int().optional(),
  /** The exit code of a command that finished. */
  exit_code: z.int().optional(),
  wall_time_ms: z.number().optional(),
  /** The token count of the output before it was fitted to the budget. */
  original_token_count: z.int().optional(),
  ...budgetDataFields,
});

/** An exec_command or write_stdin result's `data`. */
export type ExecData = z.output<typeof execDataSchema>;
