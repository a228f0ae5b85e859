import type { ShellKind } from './tool-implementation.js';
import type { Workspace } from './workspace.js';

/** What an executor needs to start one command. */
export interface SpawnRequest {
  /** Program to run (the shell). */
  file: string;
  /** Arguments after the program name. */
  args: string[];
  /** Absolute working directory. */
  cwd: string;
  /** The complete environment of the child (a remote applies it over its own). */
  env: Record<string, string>;
  /** Terminal rows, used by the PTY backend only. */
  rows: number;
  /** Terminal columns, used by the PTY backend only. */
  cols: number;
}

/** How a process ended: its exit code, or 128 + the signal number when a signal killed it. */
export interface ProcessExit {
  /** The exit code; 128 + n when signal n ended the process. */
  exitCode: number;
  /** The signal's name (e.g. `SIGKILL`) when a signal ended the process. */
  signal?: string;
}

/** A running command started by an {@link Executor}. */
export interface ExecProcess {
  /** Process id of the shell where it runs (it leads its own process group); 0 when the engine does not tell. */
  readonly pid: number;
  /** Raw output bytes (stdout and stderr merged), in arrival order. */
  onData(listener: (chunk: Uint8Array) => void): void;
  /** Fires once: the process exited and its output was drained (never waits for pipes a background child keeps open). */
  onSettled(listener: (exit: ProcessExit) => void): void;
  /** Writes text to the process's input as UTF-8, control characters included. */
  write(text: string): void;
  /** Stops reading output until `resume()` (backpressure). */
  pause(): void;
  /** Starts reading output again after `pause()`. */
  resume(): void;
  /** Kills the whole process tree; resolves once the process has exited. */
  kill(): Promise<void>;
}

/** A backend that starts commands: pipes or a PTY. */
export interface Executor {
  /** Which backend this is. */
  readonly kind: 'pipe' | 'pty';
  /** Starts a process; rejects with an Error whose message explains why it could not start. */
  spawn(request: SpawnRequest): Promise<ExecProcess>;
}

/** Which tagged processes to find: one session's (`exact` marker) or every session's of one host (marker `prefix`). */
export type MarkerMatch = { exact: string } | { prefix: string };

/** The program and arguments that run one command line, or why none can. */
export type ShellCommand = { ok: true; file: string; args: string[] } | { ok: false; message: string };

/**
 * The process side of an environment: starting commands, the shell that runs them, and finding and killing every
 * process a command started. Each command's processes inherit the variable `TOOLHOST_SESSION=<marker>`.
 */
export interface EnvironmentProcesses {
  /** Variables every command starts from before toolhost's own (local: this process's; remote: none, its own apply). */
  baseEnvironment(): Record<string, string>;
  /** The backend for pipes (`pipe`) or a terminal (`pty`). */
  executor(kind: 'pipe' | 'pty'): Executor;
  /** How `cmd` runs under the shell syntax `kind` (`sh` where there is no bash); `env` is the command's environment. */
  shell(kind: ShellKind, cmd: string, env: Record<string, string>): ShellCommand;
  /** True while processes of a finished command remain: in its shell's process group, or carrying its marker. */
  hasProcesses(process: ExecProcess, marker: string): Promise<boolean>;
  /** Kills every process carrying a matching marker, and their descendants. */
  killMarked(match: MarkerMatch): Promise<void>;
  /**
   * Whether commands started with `env` (their variables, applied over the environment's own) find `rg` (ripgrep) on
   * their PATH; absent or false when that is not known. The tool descriptions suggest `rg` only when it is true.
   */
  findsRipgrep?(env: Record<string, string>): boolean;
}

/** Where the tools run: a machine's files, its process side, and the release of both. */
export interface Environment {
  /** What the environment is (`local`, `docker`, `ssh`, …), for messages. */
  readonly kind: string;
  /** The operating system commands run on, as Node names it (`linux`, `darwin`, `win32`); picks the `auto` shell profile. */
  readonly platform: string;
  /** The files the tools read and write. */
  readonly workspace: Workspace;
  /** Starting, finding and killing processes. */
  readonly processes: EnvironmentProcesses;
  /** Kills every process the tools started there and releases connections (and a container it created); idempotent. */
  close(): Promise<void>;
}
