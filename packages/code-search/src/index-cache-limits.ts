// The bounds of the index cache folder (the pruning itself is in index-cache-pruning.ts, which the index worker runs).

/** Bounds of the index cache folder, applied each time an index is saved there. */
export interface IndexCacheLimits {
  /** Index files not used for this long are removed (default 30 days). */
  maxAgeMs?: number;
  /** Index files beyond this total size are removed, least recently used first (default 512 MiB). */
  maxBytes?: number;
}

/** Default age limit of a saved index: 30 days. */
export const DEFAULT_INDEX_CACHE_MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000;
/** Default size limit of the index cache folder: 512 MiB. */
export const DEFAULT_INDEX_CACHE_MAX_BYTES = 512 * 1024 * 1024;
