import type { Spool, SpoolWriter } from '@toolhost/core';

/** Output held in memory before a session's spool file is opened. */
export const SPOOL_OPEN_THRESHOLD = 64 * 1024;

/**
 * One session's spool file, opened lazily: output is held in memory until it passes a threshold (or a preview needs
 * the file), then everything, from the first byte, streams to one file. Small outputs never touch the disk.
 */
export class SessionSpool {
  private writer: SpoolWriter | undefined;
  private pending: Uint8Array[] = [];
  private pendingBytes = 0;
  private ended = false;
  private ending: Promise<void> | undefined;

  constructor(
    private readonly spool: Spool,
    private readonly label: string,
    private readonly threshold = SPOOL_OPEN_THRESHOLD,
  ) {}

  /** Bytes received so far. */
  get bytes(): number {
    return (this.writer?.bytesWritten ?? 0) + this.pendingBytes;
  }

  /** True once the file is open; its path then stays valid after end(). */
  get isOpen(): boolean {
    return this.writer !== undefined;
  }

  /** Takes a chunk; false when the file's write backlog is full and the producer should pause until `drained()`. */
  write(chunk: Uint8Array): boolean {
    if (this.ended) return true;
    if (this.writer) return this.writer.write(chunk);
    this.pending.push(chunk);
    this.pendingBytes += chunk.length;
    if (this.pendingBytes > this.threshold) this.open();
    return true;
  }

  /** Resolves once the file's write backlog has been flushed. */
  drained(): Promise<void> {
    return this.writer && !this.ended ? this.writer.drained() : Promise.resolve();
  }

  /** Opens the file (writing what was held) and returns its path; undefined once ended without a file. */
  open(): string | undefined {
    if (!this.writer) {
      if (this.ended) return undefined;
      this.writer = this.spool.open(this.label);
      for (const chunk of this.pending) this.writer.write(chunk);
      this.pending = [];
      this.pendingBytes = 0;
    }
    return this.writer.path;
  }

  /** Stops accepting output and closes the file. */
  end(): Promise<void> {
    if (!this.ending) {
      this.ended = true;
      this.pending = [];
      this.pendingBytes = 0;
      this.ending = this.writer ? this.writer.end() : Promise.resolve();
    }
    return this.ending;
  }
}
