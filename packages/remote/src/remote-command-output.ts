import type { ProcessExit } from '@toolhost/core';
import type { ExitSentinelScanner } from '@toolhost/core';
import { ProcessListeners } from '@toolhost/core';

/**
 * When a command ends without its exit sentinel (its start shell was killed, or the container or connection went
 * away), output counts as drained after the exit once nothing arrived for this long, or at the latest after the maximum.
 */
const DRAIN_QUIET_MS = 25;
const DRAIN_MAX_MS = 250;

/**
 * A start shell that exited on its own wrote the exit sentinel, which may still be on its way behind the output: it is
 * waited for until nothing arrived for this long (a start shell that could not run at all writes none).
 */
const SENTINEL_QUIET_MS = 5_000;

/**
 * The output side of a command run by `REMOTE_START_SCRIPT` over a stream (a Docker exec, an SSH channel): passes
 * output on with the exit sentinel removed, and settles the command once its output is complete: when the sentinel is
 * read, or, when only the transport reported the exit, after the sentinel or a quiet spell without one.
 */
export class RemoteCommandOutput {
  private readonly listeners = new ProcessListeners();
  private exit: ProcessExit | undefined;
  private quietTimer: NodeJS.Timeout | undefined;
  private maxTimer: NodeJS.Timeout | undefined;
  private quietMs = DRAIN_QUIET_MS;
  /** Set when toolhost killed the command: a status of 128 or more then reports SIGKILL. */
  killed = false;

  /** `release` runs once on settling: stop reading the transport (background children may hold it open). */
  constructor(
    private readonly scanner: ExitSentinelScanner,
    private readonly release: () => void,
  ) {}

  /** True once the exit is known (from the sentinel or the transport). */
  get hasExit(): boolean {
    return this.exit !== undefined;
  }

  /** Takes output from the transport; the sentinel, once read, settles the command with everything before it delivered. */
  receive(chunk: Uint8Array): void {
    const { output, exitCode } = this.scanner.scan(chunk);
    if (output.length > 0) this.emit(output);
    if (exitCode === undefined || this.listeners.settled) return;
    this.exit = exitCode >= 128 && this.killed ? { exitCode, signal: 'SIGKILL' } : { exitCode };
    this.settle();
  }

  /** Passes on output that bypasses the sentinel scan (a note from toolhost, stderr of the login shell). */
  emit(chunk: Uint8Array): void {
    if (this.listeners.settled) return;
    this.listeners.emit(chunk);
    if (this.exit) this.armQuietTimer();
  }

  /**
   * The transport reports the exit. With `drained` (the transport's stream has ended) the command settles now; else
   * after the sentinel when the start shell ran to its end, or after a short quiet spell when it was killed.
   */
  exited(exit: ProcessExit, drained = false): void {
    if (this.exit) return;
    this.exit = exit;
    if (drained) {
      this.settle();
      return;
    }
    if (exit.signal === undefined && exit.exitCode < 128) this.quietMs = SENTINEL_QUIET_MS;
    else this.maxTimer = setTimeout(() => this.settle(), DRAIN_MAX_MS);
    this.armQuietTimer();
  }

  private armQuietTimer(): void {
    if (this.quietTimer) clearTimeout(this.quietTimer);
    this.quietTimer = setTimeout(() => this.settle(), this.quietMs);
  }

  /** Settles now if the exit is known: output held back as a possible sentinel start is passed on first. */
  settle(): void {
    if (this.listeners.settled || !this.exit) return;
    if (!this.scanner.complete) {
      const held = this.scanner.flush();
      if (held.length > 0) this.emit(held);
    }
    clearTimeout(this.quietTimer);
    clearTimeout(this.maxTimer);
    this.release();
    this.listeners.settle(this.exit);
  }

  onData(listener: (chunk: Uint8Array) => void): void {
    this.listeners.onData(listener);
  }

  onSettled(listener: (exit: ProcessExit) => void): void {
    this.listeners.onSettled(listener);
  }
}
