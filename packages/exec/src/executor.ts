/** What an executor needs to start one command. */
export interface SpawnRequest {
  /** Program to run (the shell). */
  file: string;
  /** Arguments after the program name. */
  args: string[];
  /** Absolute working directory. */
  cwd: string;
  /** The complete environment of the child. */
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
  /** Process id of the shell; it leads its own process group. */
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

/** Maps a signal name to the shell convention 128 + its number. */
export function signalExitCode(signalNumber: number): number {
  return 128 + signalNumber;
}
