import type { ProcessExit } from './environment.js';

/** The listeners of one process: output is queued until the first data listener comes, and the settle is told once. */
export class ProcessListeners {
  private readonly dataListeners: Array<(chunk: Uint8Array) => void> = [];
  private readonly queued: Uint8Array[] = [];
  private settleListeners: Array<(exit: ProcessExit) => void> = [];
  private settledExit: ProcessExit | undefined;

  /** True once `settle` was called. */
  get settled(): boolean {
    return this.settledExit !== undefined;
  }

  /** Hands a chunk of output to the data listeners (or queues it until there is one). */
  emit(chunk: Uint8Array): void {
    if (this.dataListeners.length === 0) this.queued.push(chunk);
    else for (const listener of this.dataListeners) listener(chunk);
  }

  /** Tells the settle listeners, once; later calls are ignored. */
  settle(exit: ProcessExit): void {
    if (this.settledExit) return;
    this.settledExit = exit;
    const listeners = this.settleListeners;
    this.settleListeners = [];
    for (const listener of listeners) listener(exit);
  }

  onData(listener: (chunk: Uint8Array) => void): void {
    this.dataListeners.push(listener);
    for (const chunk of this.queued.splice(0)) listener(chunk);
  }

  onSettled(listener: (exit: ProcessExit) => void): void {
    if (this.settledExit) listener(this.settledExit);
    else this.settleListeners.push(listener);
  }
}
