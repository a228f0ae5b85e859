import { randomBytes } from 'node:crypto';
import type { RemoteTransport } from './remote-transport.js';

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
  const marker = newTrailerMarker();
  const channel = await transport.start({
    role: 'script',
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
  if (exitCode === undefined)
    return {
      exitCode: 255,
      stdout: all,
      stderr: Buffer.concat(stderr).toString('utf8') || `the helper ended without reporting (${transport.lostHint})`,
    };
  const trailerLength = `${marker}${exitCode}\n`.length;
  return { exitCode, stdout: all.subarray(0, all.length - trailerLength), stderr: Buffer.concat(stderr).toString('utf8') };
}
