import { utimesSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { INDEX_FORMAT, readIndexCache, writeIndexCache } from './index-cache-file.js';
import type { IndexCacheLimits } from './index-cache-limits.js';
import { pruneIndexCache } from './index-cache-pruning.js';
import type { IndexEntries } from './index-entries.js';
import type { NameTable } from './name-table.js';

/** Fills `names` and `entries` from the index `cacheFile` holds for `root`; false when it holds none (missing, old, another root). */
export function loadIndex(cacheFile: string, root: string, names: NameTable, entries: IndexEntries): boolean {
  const stored = readIndexCache(cacheFile, root);
  if (!stored) return false;
  names.restore(stored.names, stored.folds);
  // The file's mtime is when it was last used: the cache folder's age limit must not take an index read every day.
  try {
    const now = new Date();
    utimesSync(cacheFile, now, now);
  } catch {
    // A read-only cache folder still serves the index.
  }
  for (const [dir, mtimeMs] of stored.dirs) entries.dirs.set(dir, mtimeMs);
  for (const [path, entry] of stored.files) entries.put(path, entry);
  return true;
}

/** Writes the index to `cacheFile` (then the entries are no longer dirty) and bounds the folder holding it. */
export function saveIndex(
  cacheFile: string,
  root: string,
  names: NameTable,
  entries: IndexEntries,
  cacheLimits: IndexCacheLimits | undefined,
): void {
  const stored = { format: INDEX_FORMAT, root, names: names.names, folds: names.folds, dirs: [...entries.dirs], files: [...entries.files] };
  if (writeIndexCache(cacheFile, stored)) {
    entries.dirty = false;
    pruneIndexCache(dirname(cacheFile), basename(cacheFile), cacheLimits);
  }
}
