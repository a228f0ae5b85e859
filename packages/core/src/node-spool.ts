import { mkdirSync, createWriteStream, type WriteStream } from 'node:fs';
import { promises as fs } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Spool, SpoolWriter } from './spool.js';

/** Bytes a spool file may have waiting for the disk before its writer asks the producer to pause. */
const SPOOL_BACKLOG_BYTES = 1 << 20;

/** A spool over a folder on disk; `dispose()` removes the folder when the spool created it. */
export function createFileSpool(directory?: string): Spool & { readonly directory: string } {
  let dir = directory;
  const owned = directory === undefined;
  let counter = 0;
  const open = new Set<WriteStream>();
  const created: string[] = [];
  const ensure = (): string => {
    if (!dir) dir = join(tmpdir(), `toolhost-spool-${process.pid}-${Math.random().toString(36).slice(2, 10)}`);
    mkdirSync(dir, { recursive: true });
    return dir;
  };
  const openWriter = (label: string): SpoolWriter => {
    const safe = label.replace(/[^a-zA-Z0-9_.-]+/g, '-').slice(0, 60) || 'output';
    const path = join(ensure(), `${String(++counter).padStart(4, '0')}-${safe}.log`);
    // A 1 MB backlog before backpressure: with the default 16 KB every 64 KB read of a busy command paused it.
    const stream = createWriteStream(path, { highWaterMark: SPOOL_BACKLOG_BYTES });
    created.push(path);
    open.add(stream);
    let bytes = 0;
    const done = new Promise<void>((resolve) => {
      stream.on('close', () => resolve());
      stream.on('error', () => resolve());
    });
    return {
      path,
      get bytesWritten() {
        return bytes;
      },
      write(chunk) {
        bytes += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length;
        if (stream.destroyed || stream.writableEnded) return true;
        return stream.write(chunk);
      },
      drained() {
        if (!stream.writableNeedDrain || stream.destroyed) return Promise.resolve();
        return new Promise<void>((resolve) => {
          const done = () => {
            stream.off('drain', done);
            stream.off('close', done);
            resolve();
          };
          stream.on('drain', done);
          stream.on('close', done);
        });
      },
      async end() {
        if (!stream.writableEnded) stream.end();
        await done;
        open.delete(stream);
      },
    };
  };
  return {
    get directory() {
      return ensure();
    },
    open: openWriter,
    async save(label, text) {
      const writer = openWriter(label);
      writer.write(text);
      await writer.end();
      return writer.path;
    },
    async dispose() {
      for (const stream of open) stream.destroy();
      open.clear();
      if (owned && dir) await fs.rm(dir, { recursive: true, force: true });
      else await Promise.all(created.map((path) => fs.rm(path, { force: true })));
      created.length = 0;
    },
  };
}
