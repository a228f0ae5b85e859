import type { Workspace } from '@toolhost/core';
import type { ScriptRunner } from './script-runner.js';

/**
 * What a started process is for: a model's `command`, a long-lived helper `shell` that reads scripts from its input, or
 * a one-off `script` of toolhost's (a probe, a kill). A transport may start each differently (Docker runs one-off
 * scripts as the container's own user, so a kill reaches every process).
 */
export type RemoteRole = 'command' | 'shell' | 'script';

/** One process to start: `/bin/sh -c <script> toolhost <args…>` on the remote. */
export interface RemoteStartRequest {
  /** What the process is for. */
  role: RemoteRole;
  /** POSIX sh source run by `/bin/sh -c`. */
  script: string;
  /** Positional arguments of the script (`$1`, `$2`, …). */
  args: string[];
  /**
   * Variables for the process, only when the transport sets variables itself (`setsVariables`); otherwise the start
   * script exports them from its arguments.
   */
  env: Record<string, string>;
  /** A terminal of this size (and `TERM`) for the process; absent: pipes, stderr kept apart. */
  terminal?: { rows: number; cols: number; term: string };
  /** True once toolhost asked to kill the process (a transport may word a lost process's note by it). */
  killed(): boolean;
}

/** How a process ended as the transport saw it, and a note for the output when the end was not the process's own. */
export interface RemoteEnd {
  /** The exit code (128 + n for signal n), or undefined when the transport lost the process. */
  exitCode?: number;
  /** The signal's name when one ended the process. */
  signal?: string;
  /** A line told to the model before the end (the container stopped, the connection dropped). */
  note?: string;
}

/** A process started by a {@link RemoteTransport}: its input, output, exit and the end of its streams. */
export interface RemoteChannel {
  /** Bytes of the process's stdout (its terminal, with one). */
  onStdout(listener: (chunk: Buffer) => void): void;
  /** Bytes of its stderr. */
  onStderr(listener: (chunk: Buffer) => void): void;
  /** Fires once: the process ended (or the transport lost it); needed for `command` processes only. */
  onExit(listener: (end: RemoteEnd) => void): void;
  /** Fires once: the output streams ended or broke (all output has been delivered). */
  onClose(listener: () => void): void;
  /** Writes to the process's input (ignored once the input is closed). */
  write(data: string | Uint8Array): void;
  /** Closes the process's input. */
  endInput(): void;
  /** Stops reading output until `resume()`. */
  pause(): void;
  /** Starts reading output again. */
  resume(): void;
  /** Resizes the terminal (processes started with one). */
  resize(rows: number, cols: number): Promise<void>;
  /** Stops reading and releases the channel; the process itself may go on (kills go by marker). */
  close(): void;
}

/**
 * How toolhost reaches one remote: start a POSIX sh script there with streams and an exit. Everything else of a remote
 * environment (files, commands, markers, kills) is built on it by `createRemoteEnvironment`.
 */
export interface RemoteTransport {
  /** What the environment is (`docker`, `ssh`, …). */
  readonly kind: string;
  /** Where commands run, as a phrase after "is not installed" (`in the container`, `on build-1`). */
  readonly place: string;
  /** What may have happened when a helper ends unannounced (`the container may have stopped`), for error messages. */
  readonly lostHint: string;
  /** True when `start` sets `env` itself; false when the start script must export the variables. */
  readonly setsVariables: boolean;
  /** Starts one process; rejects with an Error that says why it could not. */
  start(request: RemoteStartRequest): Promise<RemoteChannel>;
  /**
   * A file channel of the transport's own (SFTP) in place of the script workspace; `run` runs a helper script for what
   * the channel cannot do. Without `flush`, a durable write is written as any other (nothing is flushed).
   */
  workspace?(root: string, realRoot: string, run: ScriptRunner, options?: { flush?: boolean }): Workspace;
  /**
   * Whether a process carrying `TOOLHOST_SESSION=<marker>` remains, asked of the transport's own view of processes when
   * no script could answer; undefined when it cannot tell either.
   */
  findMarked?(marker: string): Promise<boolean | undefined>;
  /** Releases what the transport holds (connections, a container it created), after every process and shell ended. */
  close(): Promise<void>;
}
