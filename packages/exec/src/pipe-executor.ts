import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { constants } from 'node:os';
import type { ExecProcess, Executor, ProcessExit, SpawnRequest } from './executor.js';
import { signalExitCode } from './executor.js';
import { killProcessTree } from './process-tree.js';
import { withTimeout } from './with-timeout.js';

/** Options of {@link createPipeExecutor}. */
export interface PipeExecutorOptions {
  /** After the process exits, output counts as drained once no data arrived for this long (default 25 ms)… */
  drainQuietMs?: number;
  /** …or at the latest this long after the exit, when a background child keeps the pipes open (default 250 ms). */
  drainMaxMs?: number;
}

/** Maps how a child ended to one exit code. */
export function exitFrom(code: number | null, signal: NodeJS.Signals | null): ProcessExit {
  if (code !== null) return { exitCode: code };
  const number = signal ? (constants.signals as Record<string, number>)[signal] : undefined;
  return { exitCode: number === undefined ? 1 : signalExitCode(number), signal: signal ?? undefined };
}

class PipeProcess implements ExecProcess {
  readonly pid: number;
  private readonly dataListeners: Array<(chunk: Uint8Array) => void> = [];
  private readonly queued: Uint8Array[] = [];
  private settleListeners: Array<(exit: ProcessExit) => void> = [];
  private exit: ProcessExit | undefined;
  private settled = false;
  private openStreams = 2;
  private quietTimer: NodeJS.Timeout | undefined;
  private maxTimer: NodeJS.Timeout | undefined;
  private readonly exited: Promise<void>;

  constructor(
    private readonly child: ChildProcessWithoutNullStreams,
    private readonly options: Required<PipeExecutorOptions>,
  ) {
    this.pid = child.pid!;
    let markExited!: () => void;
    this.exited = new Promise((resolve) => (markExited = resolve));
    child.on('error', () => {});
    child.stdin.on('error', () => {});
    for (const stream of [child.stdout, child.stderr]) {
      stream.on('data', (chunk: Buffer) => this.emit(chunk));
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
      if (this.openStreams === 0) return this.settle();
      this.maxTimer = setTimeout(() => this.settle(), this.options.drainMaxMs);
      this.armQuietTimer();
    });
  }

  private emit(chunk: Uint8Array): void {
    if (this.dataListeners.length === 0) this.queued.push(chunk);
    else for (const listener of this.dataListeners) listener(chunk);
    if (this.exit && !this.settled) this.armQuietTimer();
  }

  private armQuietTimer(): void {
    if (this.quietTimer) clearTimeout(this.quietTimer);
    this.quietTimer = setTimeout(() => this.settle(), this.options.drainQuietMs);
  }

  private settle(): void {
    if (this.settled || !this.exit) return;
    this.settled = true;
    clearTimeout(this.quietTimer);
    clearTimeout(this.maxTimer);
    const listeners = this.settleListeners;
    this.settleListeners = [];
    for (const listener of listeners) listener(this.exit);
  }

  onData(listener: (chunk: Uint8Array) => void): void {
    this.dataListeners.push(listener);
    for (const chunk of this.queued.splice(0)) listener(chunk);
  }

  onSettled(listener: (exit: ProcessExit) => void): void {
    if (this.settled && this.exit) listener(this.exit);
    else this.settleListeners.push(listener);
  }

  write(text: string): void {
    if (this.child.stdin.writable) this.child.stdin.write(text);
  }

  pause(): void {
    this.child.stdout.pause();
    this.child.stderr.pause();
  }

  resume(): void {
    this.child.stdout.resume();
    this.child.stderr.resume();
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

/** The pipe backend: a detached child (its own process group) with stdin kept open and stdout/stderr merged. */
export function createPipeExecutor(options: PipeExecutorOptions = {}): Executor {
  const settings: Required<PipeExecutorOptions> = { drainQuietMs: options.drainQuietMs ?? 25, drainMaxMs: options.drainMaxMs ?? 250 };
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
        resolve(new PipeProcess(child, settings));
      });
    },
  };
}
