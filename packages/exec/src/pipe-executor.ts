import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { constants } from 'node:os';
import { ProcessListeners } from '@toolhost/core';
import type { ExecProcess, Executor, ProcessExit, SpawnRequest } from './executor.js';
import { signalExitCode } from './executor.js';
import { killProcessTree } from './process-tree.js';
import { withTimeout } from './with-timeout.js';

/** Options of {@link createPipeExecutor}. */
export interface PipeExecutorOptions {
  /** @deprecated Ignored: the drain after the exit is event-driven (see {@link createPipeExecutor}). */
  drainQuietMs?: number;
  /** @deprecated Ignored: the drain after the exit is event-driven (see {@link createPipeExecutor}). */
  drainMaxMs?: number;
}

/** Maps how a child ended to one exit code. */
export function exitFrom(code: number | null, signal: NodeJS.Signals | null): ProcessExit {
  if (code !== null) return { exitCode: code };
  const number = signal ? (constants.signals as Record<string, number>)[signal] : undefined;
  return { exitCode: number === undefined ? 1 : signalExitCode(number), signal: signal ?? undefined };
}

/**
 * A command on pipes. It settles when its exit is known and its output is drained: both pipes closed, or, when a
 * background child keeps them open, once the event loop has polled the pipes twice after the exit while reading was on.
 * Everything the command wrote before it exited was in the pipes when the exit was seen, and libuv reads a readable pipe
 * until it would block in the poll phase that reports it (at most 2 MB, more than a pipe holds), so nothing before the
 * exit is left behind; output a background child writes later is not waited for.
 */
class PipeProcess implements ExecProcess {
  readonly pid: number;
  private readonly listeners = new ProcessListeners();
  private exit: ProcessExit | undefined;
  private openStreams = 2;
  private paused = false;
  /** Bumped by every pause: a drain check that saw a pause starts over. */
  private pauseEpoch = 0;
  private draining = false;
  private readonly exited: Promise<void>;

  constructor(private readonly child: ChildProcessWithoutNullStreams) {
    this.pid = child.pid!;
    let markExited!: () => void;
    this.exited = new Promise((resolve) => (markExited = resolve));
    child.on('error', () => {});
    child.stdin.on('error', () => {});
    for (const stream of [child.stdout, child.stderr]) {
      stream.on('data', (chunk: Buffer) => this.listeners.emit(chunk));
      stream.on('error', () => {});
      stream.on('close', () => {
        this.openStreams -= 1;
        if (this.exit && this.openStreams === 0) this.settle();
      });
    }
    child.on('exit', (code, signal) => {
      this.exit = exitFrom(code, signal);
      markExited();
      child.stdin.destroy();
      if (this.openStreams === 0) this.settle();
      else this.drain();
    });
  }

  /** Settles after two poll phases in a row with reading on (restarting after any pause); see the class comment. */
  private drain(): void {
    if (this.listeners.settled || this.paused || this.draining) return;
    this.draining = true;
    const epoch = this.pauseEpoch;
    setImmediate(() =>
      setImmediate(() => {
        this.draining = false;
        if (this.pauseEpoch === epoch && !this.paused) this.settle();
        else this.drain();
      }),
    );
  }

  private settle(): void {
    if (this.exit) this.listeners.settle(this.exit);
  }

  onData(listener: (chunk: Uint8Array) => void): void {
    this.listeners.onData(listener);
  }

  onSettled(listener: (exit: ProcessExit) => void): void {
    this.listeners.onSettled(listener);
  }

  write(text: string): void {
    if (this.child.stdin.writable) this.child.stdin.write(text);
  }

  pause(): void {
    this.paused = true;
    this.pauseEpoch += 1;
    this.child.stdout.pause();
    this.child.stderr.pause();
  }

  resume(): void {
    this.paused = false;
    this.child.stdout.resume();
    this.child.stderr.resume();
    if (this.exit) this.drain();
  }

  async kill(): Promise<void> {
    await killProcessTree(this.pid);
    await withTimeout(this.exited, 5_000);
    // Output held open by nothing any more: stop reading so the streams can close.
    this.child.stdout.destroy();
    this.child.stderr.destroy();
    this.settle();
  }
}

/**
 * The pipe backend: a detached child (its own process group) with stdin kept open and stdout/stderr merged. A process
 * settles once its exit is known and everything it wrote before exiting was read (see the drain rule on PipeProcess).
 */
export function createPipeExecutor(options: PipeExecutorOptions = {}): Executor {
  void options;
  return {
    kind: 'pipe',
    spawn(request: SpawnRequest): Promise<ExecProcess> {
      return new Promise((resolve, reject) => {
        let child: ChildProcessWithoutNullStreams;
        try {
          child = spawn(request.file, request.args, {
            cwd: request.cwd,
            env: request.env,
            detached: true,
            stdio: ['pipe', 'pipe', 'pipe'],
            windowsHide: true,
          });
        } catch (error) {
          reject(error instanceof Error ? error : new Error(String(error)));
          return;
        }
        if (child.pid === undefined) {
          child.once('error', (error) => reject(error));
          return;
        }
        resolve(new PipeProcess(child));
      });
    },
  };
}
