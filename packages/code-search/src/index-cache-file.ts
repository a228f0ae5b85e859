import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import type { FileEntry } from './file-entry.js';

/** Bumped whenever the stored layout or the classification changes, so older cache files are ignored. */
export const INDEX_FORMAT = 3;

/** An index as its cache file holds it (v8 serialization). */
export interface StoredIndex {
  format: number;
  root: string;
  names: string[];
  folds: string[];
  dirs: Array<[string, number]>;
  files: Array<[string, FileEntry]>;
}

/** The index stored in `cacheFile` for `root`; undefined when the file is missing, unreadable, of another format or root. */
export function readIndexCache(cacheFile: string, root: string): StoredIndex | undefined {
  let stored: StoredIndex;
  try {
    stored = deserialize(readFileSync(cacheFile)) as StoredIndex;
  } catch {
    return undefined;
  }
  if (stored?.format !== INDEX_FORMAT || stored.root !== root) return undefined;
  return stored;
}

/** Writes `stored` to `cacheFile` through a temporary file renamed in place; false when it could not be written. */
export function writeIndexCache(cacheFile: string, stored: StoredIndex): boolean {
  // Unique per writer: two hosts of one process may index the same folder.
  const temporary = `${cacheFile}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    mkdirSync(dirname(cacheFile), { recursive: true });
    writeFileSync(temporary, serialize(stored));
    renameSync(temporary, cacheFile);
    return true;
  } catch {
    try {
      rmSync(temporary, { force: true });
    } catch {
      // The folder may not exist at all (a file stands where it would be): there is nothing to remove.
    }
    return false;
  }
}
