// The folder of saved symbol indexes holds one file per workspace ever searched; without a bound it only grows. Each
// save prunes it: files unused for longer than the age limit go, then the least recently used until the rest fit.
import { readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_INDEX_CACHE_MAX_AGE_MS, DEFAULT_INDEX_CACHE_MAX_BYTES, type IndexCacheLimits } from './index-cache-limits.js';

/** A temporary file this old was left by a writer that died before renaming it. */
const ABANDONED_TEMPORARY_MS = 60 * 60 * 1000;

const INDEX_FILE = /^index-[0-9a-f]{24}\.v8$/;
const TEMPORARY_FILE = /^index-[0-9a-f]{24}\.v8\.\d+\.[0-9a-z]+\.tmp$/;

/**
 * Removes, from the folder holding `kept`, index files unused for longer than `maxAgeMs` and then the least recently used
 * until the total fits `maxBytes`, plus abandoned temporary files; `kept` (the index just saved) always stays. Only files
 * named as the index writes them are touched. Returns the names removed.
 */
export function pruneIndexCache(folder: string, kept: string, limits: IndexCacheLimits = {}, now = Date.now()): string[] {
  const maxAgeMs = limits.maxAgeMs ?? DEFAULT_INDEX_CACHE_MAX_AGE_MS;
  const maxBytes = limits.maxBytes ?? DEFAULT_INDEX_CACHE_MAX_BYTES;
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return [];
  }
  const removed: string[] = [];
  const remove = (name: string) => {
    try {
      rmSync(join(folder, name), { force: true });
      removed.push(name);
    } catch {
      // Another process may hold or have removed it; the next save tries again.
    }
  };
  const indexes: Array<{ name: string; size: number; usedMs: number }> = [];
  for (const name of names) {
    const isIndex = INDEX_FILE.test(name);
    if (!isIndex && !TEMPORARY_FILE.test(name)) continue;
    const stat = statSync(join(folder, name), { throwIfNoEntry: false });
    if (!stat?.isFile()) continue;
    if (!isIndex) {
      if (now - stat.mtimeMs > ABANDONED_TEMPORARY_MS) remove(name);
    } else if (name === kept) indexes.push({ name, size: stat.size, usedMs: Number.POSITIVE_INFINITY });
    else if (now - stat.mtimeMs > maxAgeMs) remove(name);
    else indexes.push({ name, size: stat.size, usedMs: stat.mtimeMs });
  }
  // The index just saved first, then the most recently used: from the first that would pass the size limit on, all go.
  indexes.sort((a, b) => b.usedMs - a.usedMs);
  let total = 0;
  let full = false;
  for (const index of indexes) {
    full ||= index.name !== kept && total + index.size > maxBytes;
    if (full) remove(index.name);
    else total += index.size;
  }
  return removed;
}
