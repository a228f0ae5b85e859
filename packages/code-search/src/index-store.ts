// The symbol index itself, as held by its worker thread: one entry per file of a disk workspace, validated by size and
// mtime, with every identifier node and the word tokens of code files. Node-only (sync file access keeps sweeps cheap).
// The subpath, not the main entry: this runs in the index worker, which would otherwise load core's tokenizer.
import { SerialQueue } from '@toolhost/core/serial-queue';
import type { ChangeJournal } from './change-journal.js';
import type { SyntaxParser } from './grammar-loader.js';
import { buildOrder } from './build-order.js';
import type { IndexCacheLimits } from './index-cache-limits.js';
import { countEntries } from './index-counts.js';
import { IndexEntries } from './index-entries.js';
import { createIndexFileReader } from './index-file-reader.js';
import { createIndexFreshness } from './index-freshness.js';
import type { IndexLookupRequest, SymbolLookupRequest, TextLookupRequest } from './index-lookup-request.js';
import { pathsHolding, storedOccurrences, symbolCandidates, textCandidates, type IndexedFile, type LookupAnswer } from './index-lookups.js';
import { loadIndex, saveIndex } from './index-persistence.js';
import { NameTable } from './name-table.js';
import { trigramKeys } from './trigram-filter.js';

/** A search re-reads at most this many changed files itself; past that it scans while the index catches up in the background. */
export const INLINE_REINDEX_LIMIT = 64;

/** Counters of the index. */
export interface IndexStats {
  /** Files listed (after .gitignore). */
  files: number;
  /** Files whose identifier nodes are stored. */
  parsed: number;
  /** Identifier nodes stored. */
  occurrences: number;
  /** Distinct identifier spellings seen. */
  names: number;
  /** True once lookups answer. */
  ready: boolean;
  /** True when the index was loaded from the cache folder (then only changed files were read again). */
  fromCache: boolean;
  /**
   * True while changes are heard from the file system (Linux inotify on a local file system), so a lookup checks only what
   * changed; false: each lookup stats every indexed file and folder under the searched folder.
   */
  watching: boolean;
  /** Time to build (or load and check) the index. */
  buildMs: number;
  /** The worker thread's JavaScript heap in use (the index lives there). */
  heapUsedBytes: number;
  /** Bytes of the per-file arrays outside that heap: word ids, identifier nodes and trigram filters. */
  arrayBytes: number;
}

/** Options of {@link createIndexStore}. */
export interface IndexStoreOptions {
  root: string;
  parser: SyntaxParser;
  /** Where the index is persisted between processes; none: kept in memory only. */
  cacheFile?: string;
  /** Bounds of the folder holding `cacheFile`, applied at each save (see pruneIndexCache). */
  cacheLimits?: IndexCacheLimits;
  /** Called between files while building, so messages are handled. */
  yieldNow?: () => Promise<void>;
  /** Tells what changed instead of a stat of every file at each lookup; none: every lookup checks all files under its folder. */
  journal?: ChangeJournal;
}

/** The index of one disk workspace. */
export interface IndexStore {
  /** Loads the cache file or walks and indexes the whole workspace; resolves once lookups can answer. */
  build(): Promise<void>;
  /** `only`: parsed files count only when an occurrence is of that kind (a search for definitions, or usages, alone). */
  lookup(request: SymbolLookupRequest): Promise<LookupAnswer>;
  /**
   * Files under `start` that may contain `query` as text (trigram filters; files without one are always named), with the
   * identifier nodes spelled like it for trusted parsed files when `identifiers`; `ready:false` for a query under three
   * characters.
   */
  textLookup(request: TextLookupRequest): Promise<LookupAnswer>;
  /** Stored identifier nodes spelled like the query in `paths`, for entries old enough to be trusted by mtime + size. */
  occurrences(request: { query: string; caseSensitive: boolean; paths: readonly string[] }): IndexedFile[];
  stats(): IndexStats;
  /** Writes the cache file when something changed since the last save. */
  save(): void;
}

/** Creates the index of one disk workspace (used inside the index worker). */
export function createIndexStore(options: IndexStoreOptions): IndexStore {
  const { root, parser, journal, cacheFile } = options;
  const names = new NameTable();
  const entries = new IndexEntries(journal);
  const { files, dirs } = entries;
  const freshness = createIndexFreshness(root, entries, journal);
  const indexAll = createIndexFileReader({ root, entries, names, parser, yieldNow: options.yieldNow });
  let ready = false;
  let buildMs = 0;
  let fromCache = false;
  let catchingUp = false;
  /** Builds, lookups and background catch-ups run one at a time: each changes the entries the next one reads. */
  const queue = new SerialQueue();

  /** Brings the entries under `start` up to date, then answers with `collect()` (and the matching paths when asked). */
  const answer = (
    start: string,
    pathQuery: Pick<IndexLookupRequest, 'query' | 'caseSensitive' | 'extensions'> | undefined,
    collect: () => IndexedFile[],
  ): Promise<LookupAnswer> => {
    // While the index catches up with many changes, searches scan instead of waiting for it.
    if (!ready || catchingUp) return Promise.resolve({ ready: false });
    return queue.run(async (): Promise<LookupAnswer> => {
      if (!ready || catchingUp) return { ready: false };
      const pending = await freshness.refresh(start);
      // Checked once the index is up to date: a folder that just became ignored is no longer indexed (the scan searches it).
      if (start !== '' && !dirs.has(start) && !files.has(start)) {
        if (pending.size > 0) void queue.run(() => indexAll(pending, 1));
        return { ready: false };
      }
      if (pending.size > INLINE_REINDEX_LIMIT) {
        catchingUp = true;
        void queue.run(() => indexAll(pending, 1)).finally(() => (catchingUp = false));
        return { ready: false };
      }
      await indexAll(pending, Number.POSITIVE_INFINITY);
      const found: LookupAnswer = { ready: true, files: collect() };
      if (pathQuery) found.paths = pathsHolding(entries, start, pathQuery);
      return found;
    });
  };

  return {
    build() {
      return queue.run(async () => {
        const started = performance.now();
        // Messages first: a scan that asked before the build began holds it back before the walk, not after.
        await options.yieldNow?.();
        if (cacheFile && loadIndex(cacheFile, root, names, entries)) {
          fromCache = true;
          // Watched before they are checked, so a change during the check is heard.
          for (const dir of [...dirs.keys()].sort()) journal?.watch(dir);
          await indexAll(buildOrder([...(await freshness.sweep(''))]), 1);
        } else {
          await indexAll(buildOrder(await freshness.walkInto('')), 1);
        }
        ready = true;
        buildMs = performance.now() - started;
      });
    },
    lookup(request) {
      return answer(request.start, request.paths ? request : undefined, () => symbolCandidates(entries, names, request));
    },
    textLookup(request) {
      const keys = trigramKeys(request.query);
      // A literal of fewer than three characters has no trigram to look for.
      if (keys.length === 0) return Promise.resolve({ ready: false });
      return answer(request.start, request.paths ? request : undefined, () => textCandidates(entries, names, request, keys));
    },
    occurrences(request) {
      return storedOccurrences(entries, names, request);
    },
    stats() {
      const { parsed, occurrences, arrayBytes } = countEntries(files.values());
      return {
        files: files.size,
        parsed,
        occurrences,
        names: names.names.length,
        ready,
        fromCache,
        watching: journal?.healthy ?? false,
        buildMs,
        heapUsedBytes: process.memoryUsage().heapUsed,
        arrayBytes,
      };
    },
    save() {
      if (cacheFile && entries.dirty && ready) saveIndex(cacheFile, root, names, entries, options.cacheLimits);
    },
  };
}
