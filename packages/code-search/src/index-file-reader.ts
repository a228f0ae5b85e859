import { join } from 'node:path';
import { readFileEntry, type FileEntry } from './file-entry.js';
import type { SyntaxParser } from './grammar-loader.js';
import type { IndexEntries } from './index-entries.js';
import type { NameTable } from './name-table.js';
import { statOf } from './sync-disk-workspace.js';

/** What reading files into an index draws on. */
export interface IndexFileReaderOptions {
  readonly root: string;
  readonly entries: IndexEntries;
  readonly names: NameTable;
  readonly parser: SyntaxParser;
  /** Called between files, so the worker's messages are handled. */
  readonly yieldNow?: () => Promise<void>;
}

/** Reads files of the workspace into the index entries; `yieldEvery`: files read between two calls of `yieldNow`. */
export type IndexFileReader = (paths: Iterable<string>, yieldEvery: number) => Promise<void>;

/** Creates the reader of files into the entries of one index: a path that is no longer a file is forgotten. */
export function createIndexFileReader(options: IndexFileReaderOptions): IndexFileReader {
  const { root, entries, names, parser } = options;
  const absolute = (path: string) => (path ? join(root, path) : root);

  const indexFile = async (path: string): Promise<void> => {
    const indexedAtMs = Date.now();
    const stat = statOf(absolute(path));
    if (!stat || stat.kind !== 'file') {
      entries.forgetFile(path);
      return;
    }
    entries.dirty = true;
    const entry: FileEntry = { size: stat.size, mtimeMs: stat.mtimeMs, indexedAtMs, kind: 'other' };
    // A file with another name elsewhere can be written through that name, which raises no event in its folder here.
    if (stat.links > 1) entry.linked = true;
    // Stored before it is read: a file that cannot be read or parsed stays indexed as far as it got (with no trigram filter, a
    // text search always reads it).
    entries.put(path, entry);
    await readFileEntry(entry, path, absolute(path), names, parser);
  };

  return async (paths, yieldEvery) => {
    let count = 0;
    for (const path of paths) {
      await indexFile(path);
      if (++count % yieldEvery === 0) await options.yieldNow?.();
    }
  };
}
