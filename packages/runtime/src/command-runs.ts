import { commandChunkOf, type ToolResult, type ToolVocabulary } from '@toolhost/core';
import { YIELD_TIME_BOUNDS } from '@toolhost/exec/schema';
import type { ToolCallOptions, ToolSurface } from './tool-surface.js';

/** The part of a host that commands run through: exec_command and write_stdin calls. */
export type CommandHost = Pick<ToolSurface, 'call'>;

/** Default time {@link runCommand} lets a command run before it kills it. */
export const DEFAULT_RUN_TIMEOUT_MS = 120_000;

/** What every exec_command or write_stdin call of a command run is given. */
export interface CommandCallOptions {
  /** How long the call waits for output or the command's end (clamped by the tool to 250..30,000 ms). */
  yieldMs?: number;
  /** Token budget of the call's answer (default 10,000, as every tool). */
  maxOutputTokens?: number;
  /** Cancels the call: a command it starts or polls is killed with its whole process tree. */
  signal?: AbortSignal;
  /** The tools the model was given, for the texts of the answers (default: the host's). */
  vocabulary?: ToolVocabulary;
  /** The provider's id of the call that asked for the command, for its trace spans. */
  callId?: string;
}

/** Options of {@link startCommand}. */
export interface StartCommandOptions extends CommandCallOptions {
  /** The folder the command runs in (absolute, or relative to the workspace root); default the root. */
  workdir?: string;
  /** Runs the command in a pseudo-terminal. */
  tty?: boolean;
}

/** Options of {@link pollCommand}. */
export interface PollCommandOptions extends CommandCallOptions {
  /** Input written to the command before waiting (default none). */
  chars?: string;
}

/** One exec_command or write_stdin answer, read as data. */
export interface CommandStep {
  /** The host's answer, as the model would see it. */
  result: ToolResult;
  /** False when the command could not be started or polled (`result` says why). */
  ok: boolean;
  /** The output this answer shows, fitted to its budget; the whole answer when the host answered without running anything (a patch sent as a command). */
  output: string;
  /** The session to poll while the command runs. */
  sessionId?: number;
  /** Set once the command has ended. */
  exitCode?: number;
  /** Whether the command is still running after this answer. */
  running: boolean;
  /** Whether this call was cancelled, so the command was killed. */
  cancelled: boolean;
  /** How long the call waited, as the host measured it. */
  wallTimeMs: number;
  /** Whether the answer left output out (the spool file it names holds all of it). */
  truncated: boolean;
}

/** Options of {@link runCommand} and `host.run`. */
export interface CommandRunOptions {
  /** The folder the command runs in (absolute, or relative to the workspace root); default the root. */
  workdir?: string;
  /** Time the command may run (default 120,000 ms); then its whole process tree is killed. */
  timeoutMs?: number;
  /** Token budget of each answer the run reads (default 10,000, as every tool). */
  maxOutputTokens?: number;
  /** Cancels the run: the command is killed with its whole process tree. */
  signal?: AbortSignal;
  /** The tools the model was given, for the texts of the answers (default: the host's). */
  vocabulary?: ToolVocabulary;
  /** The provider's id of the call that asked for the command, for its trace spans. */
  callId?: string;
  /** Called with each exec_command and write_stdin answer of the run. */
  onResult?: (result: ToolResult) => void;
}

/** How a command run ended. */
export interface CommandRun {
  /** False when the command could not run or its session failed (`result` is the host's error answer). */
  ok: boolean;
  /** Everything the run's answers showed of the output, in order (each answer fitted to its budget). */
  output: string;
  /** The exit code the command ended with (a killed command's too); undefined when it never ended or never ran. */
  exitCode?: number;
  /** The command was still running at `timeoutMs`, so it was killed. */
  timedOut: boolean;
  /** The caller's signal cancelled the run, so the command was killed. */
  cancelled: boolean;
  /** How long the run took. */
  wallTimeMs: number;
  /** Whether an answer left output out (its spool file holds all of it). */
  truncated: boolean;
  /** The host's last answer. */
  result: ToolResult;
}

function numberOf(value: unknown): number | undefined {
  return typeof value === 'number' ? value : undefined;
}

/**
 * A result the exec engine did not make (an answer the host gave without running anything, or a test double's) shows
 * its text after `Output:` when it has that line, else its whole text; a failure shows none.
 */
function textOutput(result: ToolResult): string {
  if (!result.ok) return '';
  const index = result.output.indexOf('\nOutput:\n');
  return index < 0 ? result.output : result.output.slice(index + '\nOutput:\n'.length);
}

/** Reads an exec_command or write_stdin answer as data: its output, session, exit code and whether it was cancelled. */
export function commandStep(result: ToolResult): CommandStep {
  const data = result.data ?? {};
  const chunk = commandChunkOf(result);
  const sessionId = numberOf(data.session_id);
  const exitCode = numberOf(data.exit_code);
  return {
    result,
    ok: result.ok,
    output: chunk ? chunk.output : textOutput(result),
    sessionId,
    exitCode,
    running: result.ok && sessionId !== undefined && exitCode === undefined,
    cancelled: chunk?.cancelled ?? false,
    wallTimeMs: numberOf(data.wall_time_ms) ?? 0,
    truncated: data.truncated === true,
  };
}

function callOptionsOf(options: CommandCallOptions): ToolCallOptions {
  const callOptions: ToolCallOptions = { vocabulary: options.vocabulary, callId: options.callId };
  if (options.signal) callOptions.signal = options.signal;
  return callOptions;
}

function budgetOf(options: CommandCallOptions): { yield_time_ms?: number; max_output_tokens?: number } {
  return {
    ...(options.yieldMs !== undefined ? { yield_time_ms: options.yieldMs } : {}),
    ...(options.maxOutputTokens !== undefined ? { max_output_tokens: options.maxOutputTokens } : {}),
  };
}

/** Starts `command` with exec_command and reads the answer (a patch sent as the command is answered by the host). */
export async function startCommand(host: CommandHost, command: string, options: StartCommandOptions = {}): Promise<CommandStep> {
  const args = {
    cmd: command,
    ...(options.workdir ? { workdir: options.workdir } : {}),
    ...(options.tty !== undefined ? { tty: options.tty } : {}),
    ...budgetOf(options),
  };
  return commandStep(await host.call('exec_command', args, callOptionsOf(options)));
}

/** Polls (or writes to) a running command's session with write_stdin and reads the answer. */
export async function pollCommand(host: CommandHost, sessionId: number, options: PollCommandOptions = {}): Promise<CommandStep> {
  const args = { session_id: sessionId, chars: options.chars ?? '', ...budgetOf(options) };
  return commandStep(await host.call('write_stdin', args, callOptionsOf(options)));
}

/** Kills a running command's whole process tree (an already-cancelled poll) and reads its last output. */
export function killCommand(host: CommandHost, sessionId: number, options: Omit<PollCommandOptions, 'signal'> = {}): Promise<CommandStep> {
  return pollCommand(host, sessionId, { ...options, signal: AbortSignal.abort() });
}

/**
 * Runs `command` to its end: exec_command, then write_stdin polls while it runs, each waiting at most until the
 * deadline, so a command that ends in time is reported with its exit code; one still running at `timeoutMs` is killed.
 */
export async function runCommand(host: CommandHost, command: string, options: CommandRunOptions = {}): Promise<CommandRun> {
  const timeoutMs = Math.max(1, options.timeoutMs ?? DEFAULT_RUN_TIMEOUT_MS);
  const started = performance.now();
  // The time the host reports waiting counts too, so a host in virtual time (the fake host) reaches the deadline.
  let waited = 0;
  const elapsed = () => Math.max(performance.now() - started, waited);
  const yieldMs = () => Math.min(YIELD_TIME_BOUNDS.max, Math.max(1, Math.ceil(timeoutMs - elapsed())));
  const shared = {
    maxOutputTokens: options.maxOutputTokens,
    vocabulary: options.vocabulary,
    callId: options.callId,
  };
  const read = (step: CommandStep) => {
    options.onResult?.(step.result);
    waited += step.wallTimeMs;
    truncated ||= step.truncated;
    return step;
  };
  let truncated = false;
  let step = read(await startCommand(host, command, { ...shared, workdir: options.workdir, yieldMs: yieldMs(), signal: options.signal }));
  const startFailed = !step.ok;
  let output = step.output;
  let timedOut = false;
  let cancelled = step.cancelled;
  while (step.ok && step.running && step.sessionId !== undefined) {
    const sessionId = step.sessionId;
    timedOut = elapsed() >= timeoutMs;
    const signal = options.signal?.aborted ? options.signal : undefined;
    // Past the deadline (or once cancelled), an already-cancelled poll kills the command and reads its last output.
    step = read(
      timedOut || signal
        ? await killCommand(host, sessionId, { ...shared, yieldMs: yieldMs() })
        : await pollCommand(host, sessionId, { ...shared, yieldMs: yieldMs(), signal: options.signal }),
    );
    if (!step.ok) break;
    output += step.output;
    if (signal) cancelled = true;
    else if (!timedOut) cancelled ||= step.cancelled;
    // A command that had already ended when the killing poll came was not killed: it finished, and says how.
    if (timedOut) timedOut = step.exitCode === undefined || step.cancelled;
    if (timedOut || cancelled) break;
  }
  return {
    ok: step.ok,
    output,
    exitCode: startFailed ? undefined : step.exitCode,
    timedOut,
    cancelled,
    wallTimeMs: Math.round(elapsed()),
    truncated,
    result: step.result,
  };
}
