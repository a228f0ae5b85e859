import { OPENAI_NATIVE_VOCABULARY, runCommand, type ToolHost, type ToolResult } from 'toolhost';

/** What a shell call asks for: the Responses API's `action` (snake_case) or the Agents SDK's (camelCase). */
export interface ShellCommandsAction {
  commands: readonly string[];
  timeout_ms?: number | null;
  max_output_length?: number | null;
  timeoutMs?: number;
  maxOutputLength?: number;
}

/** One command's result, in the Responses API's `shell_call_output` shape. */
export interface ShellCommandOutcome {
  /** The command's output (stdout and stderr merged, as exec_command captures them), fitted to the budgets. */
  stdout: string;
  /** Empty for a command that ran; toolhost's error text (`Error [code]: …`) when it could not run. */
  stderr: string;
  outcome: { type: 'exit'; exit_code: number } | { type: 'timeout' };
}

/** Options of {@link runShellCommands}. */
export interface ShellCommandsOptions {
  /** Time a command may run when the call gives no `timeout_ms` (default 120,000 ms); then its process tree is killed. */
  defaultTimeoutMs?: number;
  /** Token budget of each command's output (default 10,000, as every tool). */
  maxOutputTokens?: number;
  /** Called with each exec_command / write_stdin result. */
  onResult?: (result: ToolResult) => void;
  /** The provider's id of the shell call, for the trace spans of its commands. */
  callId?: string;
}

/** Default time a shell command may run. */
export const DEFAULT_SHELL_TIMEOUT_MS = 120_000;

/**
 * Keeps the head and tail of `text` within `limit` characters (Unicode code points, so a surrogate pair is never
 * split), with a marker naming how many were left out.
 */
export function limitOutputLength(text: string, limit: number | null | undefined): string {
  if (limit === null || limit === undefined || !Number.isFinite(limit) || limit < 0 || text.length <= limit) return text;
  const characters = Array.from(text);
  const kept = Math.floor(limit);
  if (characters.length <= kept) return text;
  const head = Math.ceil(kept / 2);
  const tail = characters.slice(characters.length - (kept - head)).join('');
  return `${characters.slice(0, head).join('')}\n…${characters.length - kept} characters truncated…\n${tail}`;
}

async function runOne(
  host: Pick<ToolHost, 'call'>,
  cmd: string,
  timeoutMs: number,
  maxOutputLength: number | null | undefined,
  options: ShellCommandsOptions,
): Promise<ShellCommandOutcome> {
  const run = await runCommand(host, cmd, {
    timeoutMs,
    maxOutputTokens: options.maxOutputTokens,
    vocabulary: OPENAI_NATIVE_VOCABULARY,
    callId: options.callId,
    onResult: options.onResult,
  });
  const stdout = limitOutputLength(run.output, maxOutputLength);
  if (run.timedOut) return { stdout, stderr: '', outcome: { type: 'timeout' } };
  return { stdout, stderr: run.ok ? '' : run.result.output, outcome: { type: 'exit', exit_code: run.exitCode ?? 1 } };
}

/**
 * Runs a shell call's commands one after another through exec_command (and write_stdin while one keeps running),
 * each killed with its whole process tree once `timeout_ms` passes; each output honours `max_output_length`
 * (characters) on top of the token budget.
 */
export async function runShellCommands(
  host: Pick<ToolHost, 'call'>,
  action: ShellCommandsAction,
  options: ShellCommandsOptions = {},
): Promise<ShellCommandOutcome[]> {
  const timeoutMs = action.timeout_ms ?? action.timeoutMs ?? options.defaultTimeoutMs ?? DEFAULT_SHELL_TIMEOUT_MS;
  const maxOutputLength = action.max_output_length ?? action.maxOutputLength;
  const outcomes: ShellCommandOutcome[] = [];
  for (const cmd of Array.isArray(action.commands) ? action.commands : []) {
    outcomes.push(await runOne(host, typeof cmd === 'string' ? cmd : String(cmd), Math.max(1, timeoutMs), maxOutputLength, options));
  }
  return outcomes;
}
