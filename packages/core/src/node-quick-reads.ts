import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, type Stats } from 'node:fs';

/** A file over this size is read through the thread pool. */
export const QUICK_READ_MAX_BYTES = 1024 * 1024;
/** One synchronous call slower than this (a network or cold disk) turns quick reads off for good. */
const SLOW_CALL_MS = 8;

/**
 * Synchronous reads of small files and lstat calls, for as long as they stay fast. A search reads hundreds of files that
 * ripgrep has just read (in the page cache, a copy of microseconds each); read asynchronously, each is four trips through
 * the thread pool (open, stat, read, close), and on a busy machine the wake-ups cost more than the reads: a first search
 * in a new process took 25-30% longer. A synchronous call blocks the event loop, so one that proves slow turns them off.
 */
export interface QuickReads {
  /** False once a call proved slow: use the asynchronous calls. */
  readonly on: boolean;
  /**
   * The whole file, or undefined when it is over {@link QUICK_READ_MAX_BYTES} or no regular file (a FIFO would block the
   * thread until a writer came); throws as `readFileSync` does.
   */
  readFile(absolute: string): Uint8Array | undefined;
  /** Throws as `lstatSync` does. */
  lstat(absolute: string): Stats;
}

/** Quick reads that are on until a call proves slow. */
export function createQuickReads(): QuickReads {
  let on = true;
  const timed = <T>(call: () => T): T => {
    const started = performance.now();
    try {
      return call();
    } finally {
      if (performance.now() - started > SLOW_CALL_MS) on = false;
    }
  };
  return {
    get on() {
      return on;
    },
    readFile: (absolute) => timed(() => readSmallFile(absolute)),
    lstat: (absolute) => timed(() => lstatSync(absolute)),
  };
}

function readSmallFile(absolute: string): Uint8Array | undefined {
  // Non-blocking: opening a FIFO for reading would otherwise wait for a writer. A regular file reads as without it.
  const descriptor = openSync(absolute, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const stats = fstatSync(descriptor);
    if (!stats.isFile() || stats.size > QUICK_READ_MAX_BYTES) return undefined;
    const size = stats.size;
    // A byte more than the size, so the end is seen in one read; a file that grew since the fstat is read to its end. Never
    // from the shared pool (where readFileSync puts small files): a caller may hand the bytes' buffer on whole.
    let bytes = Buffer.allocUnsafeSlow(size + 1);
    let length = 0;
    for (;;) {
      if (length === bytes.length) {
        if (length > QUICK_READ_MAX_BYTES) return undefined;
        const grown = Buffer.allocUnsafeSlow(bytes.length * 2);
        bytes.copy(grown, 0, 0, length);
        bytes = grown;
      }
      const read = readSync(descriptor, bytes, length, bytes.length - length, null);
      if (read === 0) return bytes.subarray(0, length);
      length += read;
    }
  } finally {
    closeSync(descriptor);
  }
}
