import type { CapturedText } from './output-window.js';
import type { OutputCapture } from './output-capture.js';
import type { ExecProcess, ProcessExit } from './executor.js';
import type { SessionSpool } from './session-spool.js';
import { SerialQueue, type EnvironmentProcesses } from '@toolhost/core';
import type { TableSession } from './session-table.js';

/** Everything a session is built from. */
export interface ExecSessionParts {
  id: number;
  cmd: string;
  tty: boolean;
  process: ExecProcess;
  capture: OutputCapture;
  spool: SessionSpool;
  /** Pauses and resumes reading the process's output; shared with other holders (see FlowControl). */
  flow: { pause(): void; resume(): void };
  /** Value of the TOOLHOST_SESSION variable every process of this session inherits (finds children that left the tree). */
  marker?: string;
  /** Finds and kills the session's processes where they run. */
  processes: Pick<EnvironmentProcesses, 'hasProcesses' | 'killMarked'>;
  onOutput?: (sessionId: number, chunk: string) => void;
}

/** One command and its process tree, output and exit state. */
export class ExecSession implements TableSession {
  readonly id: number;
  readonly cmd: string;
  readonly tty: boolean;
  /** Logical clock of the last call that used this session (for LRU pruning). */
  lastUsed = 0;
  /** True once a response reported the exit to the model. */
  exitReported = false;
  /** True once a response showed the model this session's id (it was still running). */
  announced = false;
  private exitState: ProcessExit | undefined;
  private waiters: Array<() => void> = [];
  private readonly process: ExecProcess;
  private readonly capture: OutputCapture;
  private readonly spool: SessionSpool;
  private readonly marker: string | undefined;
  private readonly processes: Pick<EnvironmentProcesses, 'hasProcesses' | 'killMarked'>;
  private released = false;
  private killing: Promise<void> | undefined;
  /** Serialises calls on this session. */
  private readonly queue = new SerialQueue();

  constructor(parts: ExecSessionParts) {
    this.id = parts.id;
    this.cmd = parts.cmd;
    this.tty = parts.tty;
    this.process = parts.process;
    this.capture = parts.capture;
    this.spool = parts.spool;
    this.marker = parts.marker;
    this.processes = parts.processes;
    const hook = parts.onOutput;
    const emit = (text: string | undefined) => {
      if (!hook || !text) return;
      try {
        hook(this.id, text);
      } catch {
        // A failing UI hook must not break the session.
      }
    };
    let waitingForSpool = false;
    this.process.onData((chunk) => {
      if (this.released) return;
      // Backpressure: a command that prints faster than the disk takes it is paused, so memory stays bounded.
      if (!this.spool.write(chunk) && !waitingForSpool) {
        waitingForSpool = true;
        parts.flow.pause();
        void this.spool.drained().then(() => {
          waitingForSpool = false;
          parts.flow.resume();
        });
      }
      emit(this.capture.append(chunk));
    });
    this.process.onSettled((exit) => {
      if (!this.released) emit(this.capture.finish());
      this.exitState = exit;
      for (const wake of this.waiters.splice(0)) wake();
    });
  }

  /** True until the process has exited and its output is drained. */
  get running(): boolean {
    return this.exitState === undefined;
  }

  /** The exit, once the process has exited and its output is drained. */
  get exit(): ProcessExit | undefined {
    return this.exitState;
  }

  /** Runs `task` after every earlier call on this session finished. */
  serialize<T>(task: () => Promise<T>): Promise<T> {
    return this.queue.run(task);
  }

  /** Sends input to the process (raw: control characters included). */
  write(text: string): void {
    if (!this.exitState && text.length > 0) this.process.write(text);
  }

  /** Resolves when the process has exited and drained, after `timeoutMs`, or when `signal` aborts. */
  waitForExit(timeoutMs: number, signal?: AbortSignal): Promise<void> {
    if (this.exitState || signal?.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        const index = this.waiters.indexOf(done);
        if (index >= 0) this.waiters.splice(index, 1);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      signal?.addEventListener('abort', done, { once: true });
      this.waiters.push(done);
    });
  }

  /** The output since the previous read. */
  read(): Promise<CapturedText> {
    return this.capture.collect();
  }

  /** True once the spool file is open (output passed the in-memory threshold, or a preview asked for its path). */
  get spoolOpen(): boolean {
    return this.spool.isOpen;
  }

  /** The spool file holding every byte of output, opened on demand. */
  spoolPath(): string | undefined {
    return this.spool.open();
  }

  /**
   * True when processes of this session are still around: in the shell's process group (e.g. a background child of an
   * exited shell), or carrying the session marker after leaving the group (setsid, double fork).
   */
  async hasLingeringProcesses(): Promise<boolean> {
    if (this.killing || this.marker === undefined) return false;
    return this.processes.hasProcesses(this.process, this.marker);
  }

  /** Frees the output buffers and closes the spool; the process tree is left alone. */
  release(): Promise<void> {
    if (!this.released) {
      this.released = true;
      this.capture.dispose();
    }
    return this.spool.end();
  }

  /** Kills the whole process tree but keeps the output for a last read (a cancelled call); the exit follows. */
  async terminate(): Promise<void> {
    // The whole process group at once first: killing leaves first would let the shell run the command's next statement.
    // Only a local pid names a group here (a remote process reports 0, and -0 would be this process's own group).
    if (this.process.pid > 1) {
      try {
        process.kill(-this.process.pid, 'SIGKILL');
      } catch {
        // Already gone, or not a group leader (the tree kill below still runs).
      }
    }
    try {
      await this.process.kill();
    } finally {
      if (this.marker !== undefined) await this.processes.killMarked({ exact: this.marker });
    }
  }

  /** Kills the whole process tree and releases everything. */
  kill(): Promise<void> {
    this.killing ??= (async () => {
      try {
        await this.process.kill();
      } finally {
        if (this.marker !== undefined) await this.processes.killMarked({ exact: this.marker });
      }
      await this.release();
    })();
    return this.killing;
  }
}
