import { randomBytes } from 'node:crypto';
import type { RemoteRole, RemoteTransport } from './remote-transport.js';
import { batchInputs, batchInputsUnsaved, batchProgram, splitBatchOutput, type ScriptStep } from './script-steps.js';

/** What one helper run returned. */
export interface ScriptOutcome {
  /** The helper's exit code (2, 17, 20, 21, 39 stand for ENOENT, EEXIST, ENOTDIR, EISDIR, ENOTEMPTY). */
  exitCode: number;
  /** Everything it printed on stdout. */
  stdout: Buffer;
  /** What it printed on stderr, when the transport keeps it (for messages only). */
  stderr: string;
}

/** Runs a POSIX sh script with positional arguments (and optional input) where the files are. */
export type ScriptRunner = (script: string, args: string[], input?: Uint8Array) => Promise<ScriptOutcome>;

/** A random trailer that ends a helper's output, followed by its exit code. */
export function newTrailerMarker(): string {
  return `:toolhost-${randomBytes(8).toString('hex')}:`;
}

/** A helper's outcome, and whether its trailer was read (false: the transport lost the process before it reported). */
export interface ReportedOutcome {
  outcome: ScriptOutcome;
  reported: boolean;
}

/** The longest piece of an unreported helper's output quoted in its message (the engine's own error, as a rule). */
const UNREPORTED_QUOTE_CHARS = 300;

/**
 * Runs a POSIX sh helper like {@link runRemoteScript} and says whether it reported: a helper whose streams ended
 * without its trailer never ran to its end, which an engine under load does to an exec it failed to start.
 */
export async function runRemoteScriptReported(
  transport: RemoteTransport,
  script: string,
  args: string[],
  input?: Uint8Array,
  role: RemoteRole = 'script',
): Promise<ReportedOutcome> {
  const marker = newTrailerMarker();
  const channel = await transport.start({
    role,
    script: `(\n${script}\n)\nprintf '%s%d\\n' '${marker}' $?`,
    args,
    env: {},
    killed: () => false,
  });
  const stdout: Buffer[] = [];
  const stderr: Buffer[] = [];
  let tail = '';
  const trailer = new RegExp(`${marker}(\\d+)\\n$`);
  const outcome = new Promise<number | undefined>((resolve) => {
    channel.onStdout((chunk) => {
      stdout.push(chunk);
      tail = (tail + chunk.toString('latin1')).slice(-64);
      const found = trailer.exec(tail);
      if (found) resolve(Number(found[1]));
    });
    channel.onStderr((chunk) => stderr.push(chunk));
    channel.onClose(() => resolve(undefined));
  });
  if (input !== undefined) channel.write(input);
  channel.endInput();
  const exitCode = await outcome;
  channel.close();
  const all = Buffer.concat(stdout);
  if (exitCode === undefined) {
    // What the engine wrote in the helper's place (an exec it could not start says why on the stream).
    const said = (Buffer.concat(stderr).toString('utf8') || all.toString('utf8')).trim().slice(0, UNREPORTED_QUOTE_CHARS);
    return {
      reported: false,
      outcome: {
        exitCode: 255,
        stdout: all,
        stderr: `the helper ended without reporting (${transport.lostHint})${said ? `: ${said}` : ''}`,
      },
    };
  }
  const trailerLength = `${marker}${exitCode}\n`.length;
  return {
    reported: true,
    outcome: { exitCode, stdout: all.subarray(0, all.length - trailerLength), stderr: Buffer.concat(stderr).toString('utf8') },
  };
}

/**
 * Runs a POSIX sh helper on the remote as a process of its own and collects its output; never for commands of the
 * model. The helper runs in a subshell followed by a random trailer carrying its exit code, so completion is known from
 * the bytes themselves: a transport's stream may end seconds late, and no exit status round trip is needed.
 */
export async function runRemoteScript(
  transport: RemoteTransport,
  script: string,
  args: string[],
  input?: Uint8Array,
): Promise<ScriptOutcome> {
  return (await runRemoteScriptReported(transport, script, args, input)).outcome;
}

/** How {@link runRemoteBatch} starts its process. */
export interface RemoteBatchOptions {
  /** The role its process has (default `script`); file helpers run as `shell` so they act as the configured user. */
  role?: RemoteRole;
  /** Shell text run before the steps (with `args` as its positional arguments), such as the helper's tag. */
  prelude?: string;
  args?: string[];
  /** Runs one step on its own: used for every step when the batch could not save its inputs where it runs. */
  fallback: ScriptRunner;
}

/**
 * Runs helper scripts in order in one remote process started for them (the program is its script, the steps' inputs
 * its raw input), so a batch costs one process start and one round trip however much it writes; each step's outcome
 * is its own, whatever the steps before it did.
 */
export async function runRemoteBatch(
  transport: RemoteTransport,
  steps: readonly ScriptStep[],
  options: RemoteBatchOptions,
): Promise<ScriptOutcome[]> {
  return runArchiveBatch(
    async (program, inputs) => {
      const { outcome, reported } = await runRemoteScriptReported(
        transport,
        `${options.prelude ?? ''}\n${program}`,
        options.args ?? [],
        inputs,
        options.role,
      );
      return { outcome, lost: reported ? `the helper ended before this step (${transport.lostHint})` : outcome.stderr };
    },
    steps,
    options.fallback,
  );
}

/**
 * Runs steps as one program whose input is a tar of their inputs (see {@link batchProgram}), through `runProgram`,
 * which also says what a step the program never reached is told; when the remote cannot unpack the inputs, each step
 * runs on its own through `fallback`.
 */
export async function runArchiveBatch(
  runProgram: (program: string, inputs: Uint8Array) => Promise<{ outcome: ScriptOutcome; lost: string }>,
  steps: readonly ScriptStep[],
  fallback: ScriptRunner,
): Promise<ScriptOutcome[]> {
  const marker = newTrailerMarker();
  const { outcome, lost } = await runProgram(batchProgram(steps, marker, '', 'archive'), batchInputs(steps));
  if (batchInputsUnsaved(outcome.stdout, marker)) {
    return Promise.all(steps.map((step) => fallback(step.script, step.args, step.input)));
  }
  return splitBatchOutput(outcome.stdout, outcome.stderr, marker, steps.length, lost);
}
