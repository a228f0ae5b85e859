/** A spool file being written as output arrives. */
export interface SpoolWriter {
  readonly path: string;
  readonly bytesWritten: number;
  /** Queues a chunk; false when the writer's backlog is over its high-water mark (wait for `drained()`). */
  write(chunk: Uint8Array | string): boolean;
  /** Resolves once the backlog has been flushed (at once when there is none). */
  drained(): Promise<void>;
  end(): Promise<void>;
}

/** Where complete outputs are kept when the model sees only a preview. */
export interface Spool {
  /** Opens a new spool file for streaming writes; `label` becomes part of its name. */
  open(label: string): SpoolWriter;
  /** Writes a whole text to a new spool file and returns its path. */
  save(label: string, text: string): Promise<string>;
  /** Removes every spool file. */
  dispose(): Promise<void>;
}

/** An in-memory spool (for the fake host and tests); `read(path)` returns what was written. */
export interface MemorySpool extends Spool {
  read(path: string): string | undefined;
}

/** Creates an in-memory spool. */
export function createMemorySpool(): MemorySpool {
  const files = new Map<string, string[]>();
  let counter = 0;
  const decoder = new TextDecoder();
  const open = (label: string): SpoolWriter => {
    const path = `memory://spool/${String(++counter).padStart(4, '0')}-${label}.txt`;
    const chunks: string[] = [];
    files.set(path, chunks);
    let bytes = 0;
    return {
      path,
      get bytesWritten() {
        return bytes;
      },
      write(chunk) {
        const text = typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
        bytes += typeof chunk === 'string' ? new TextEncoder().encode(chunk).length : chunk.length;
        chunks.push(text);
        return true;
      },
      drained: () => Promise.resolve(),
      async end() {},
    };
  };
  return {
    open,
    async save(label, text) {
      const writer = open(label);
      writer.write(text);
      await writer.end();
      return writer.path;
    },
    async dispose() {
      files.clear();
    },
    read: (path) => files.get(path)?.join(''),
  };
}
