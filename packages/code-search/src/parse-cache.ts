import type { Tree } from 'web-tree-sitter';

/** Parsed trees kept between calls, keyed by path and validated by mtime + size. */
export interface ParseCache {
  get(path: string, mtimeMs: number, size: number): Tree | undefined;
  set(path: string, mtimeMs: number, size: number, tree: Tree, sourceLength: number): void;
  /** Number of trees held. */
  readonly size: number;
  /** Frees every tree. */
  clear(): void;
}

interface CacheEntry {
  mtimeMs: number;
  size: number;
  tree: Tree;
  sourceLength: number;
}

/** Default budget: parsed source characters kept (a tree costs about 14 bytes of wasm memory per character, so ≈ 120 MB). */
export const DEFAULT_CACHE_SOURCE_CHARS = 8 * 1024 * 1024;

/** Creates a least-recently-used cache of parsed trees bounded by total source characters. */
export function createParseCache(maxSourceChars = DEFAULT_CACHE_SOURCE_CHARS): ParseCache {
  const entries = new Map<string, CacheEntry>();
  let total = 0;
  const drop = (path: string) => {
    const entry = entries.get(path);
    if (!entry) return;
    entries.delete(path);
    total -= entry.sourceLength;
    entry.tree.delete();
  };
  return {
    get(path, mtimeMs, size) {
      const entry = entries.get(path);
      if (!entry) return undefined;
      if (entry.mtimeMs !== mtimeMs || entry.size !== size) {
        drop(path);
        return undefined;
      }
      entries.delete(path);
      entries.set(path, entry);
      return entry.tree;
    },
    set(path, mtimeMs, size, tree, sourceLength) {
      drop(path);
      if (sourceLength > maxSourceChars) {
        tree.delete();
        return;
      }
      entries.set(path, { mtimeMs, size, tree, sourceLength });
      total += sourceLength;
      for (const oldest of entries.keys()) {
        if (total <= maxSourceChars) break;
        drop(oldest);
      }
    },
    get size() {
      return entries.size;
    },
    clear() {
      for (const path of [...entries.keys()]) drop(path);
    },
  };
}
