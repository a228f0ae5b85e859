import type { IndexCacheLimits } from './index-cache-limits.js';
import type { IndexStats } from './index-store.js';
import type { IndexedFile } from './index-lookups.js';
import type { WorkerResponse } from './symbol-index-protocol.js';
import type { ResultType } from './code-search-schema.js';
import type { SymbolLookupRequest, TextLookupRequest } from './index-lookup-request.js';
import { createAssistAnswers, createClaimSlots, scanAssistOver, type ScanAssist } from './scan-assist.js';
import { connectIndexWorker } from './symbol-index-connection.js';

/** What an index lookup names: candidate files, and the files whose path holds the query when asked. */
export interface IndexLookup {
  /** Files that can hold a result for the query (or a hint about one). */
  files: IndexedFile[];
  /** Files whose path holds the query, when asked for. */
  paths?: string[];
}

/** Options of {@link createSymbolIndex}. */
export interface SymbolIndexOptions {
  /**
   * Folder that keeps the index between processes (one file per workspace root), so a new host on the same repository
   * starts warm. Default: `toolhost-code-search` under `os.tmpdir()`; `false` keeps the index in memory only.
   */
  cacheDir?: string | false;
  /**
   * Bounds of `cacheDir`, applied each time an index is saved there: index files unused for `maxAgeMs` (default 30
   * days) are removed, then the least recently used until the folder holds at most `maxBytes` (default 512 MiB); the
   * index just saved always stays.
   */
  cacheLimits?: IndexCacheLimits;
  /**
   * Hear changes from the file system (inotify, on Linux local file systems) so a lookup checks only what changed; default
   * true. Off, or on a network or FUSE file system, each lookup stats every indexed file under the searched folder.
   */
  watch?: boolean;
}

/** A background index of definitions and identifier occurrences of one disk workspace, held by a worker thread. */
export interface SymbolIndex {
  /** Resolves true once the index answers lookups (built or loaded from the cache folder), false when it cannot. */
  readonly ready: Promise<boolean>;
  /**
   * Files under `start` that can hold a definition or usage of `query` (or a hint about one), after bringing the index up to
   * date with the disk; with `paths`, also the files whose path holds the query. Undefined while the index is not ready
   * (search by scanning then).
   */
  lookup(request: SymbolLookupRequest): Promise<IndexLookup | undefined>;
  /**
   * Files under `start` that may contain `query` as text (a trigram filter per file), after bringing the index up to date;
   * with `identifiers`, the identifier nodes spelled like it in trusted parsed files; with `paths`, the files whose path holds
   * it. Undefined while the index is not ready or for a query under three characters.
   */
  textLookup(request: TextLookupRequest): Promise<IndexLookup | undefined>;
  /** Stored identifier nodes spelled like `query` in `paths` (entries old enough to be trusted by mtime + size); empty until ready. */
  occurrences(request: { query: string; caseSensitive: boolean; paths: readonly string[] }): Promise<Map<string, IndexedFile>>;
  /** Counters of the index; undefined once closed. */
  stats(): Promise<IndexStats | undefined>;
  /** True while the worker thread runs. */
  readonly running: boolean;
  /** Saves the index and stops the worker. */
  close(): Promise<void>;
}

/** What a scan asks of the index worker (inside the package): the build waits while it runs, and the worker shares its files. */
export interface ScanSupport {
  /** Makes the build wait until the returned function is called (or a time limit passes); a no-op once the index is built. */
  pauseBuild(): () => void;
  /** Lets the worker take a share of a scan's `paths` (see ScanAssist); undefined once the index is built or closed. */
  assist(request: {
    query: string;
    paths: readonly string[];
    resultTypes: Iterable<ResultType>;
    maxResults: number;
    sizeFirst: boolean;
  }): ScanAssist | undefined;
}

function lookupOf(response: WorkerResponse | undefined): IndexLookup | undefined {
  if (response?.type !== 'lookup' || !response.answer.ready) return undefined;
  return { files: response.answer.files, paths: response.answer.paths };
}

/** The cache file of a workspace root inside `cacheDir`. */
export async function symbolIndexCacheFile(root: string, cacheDir: string | false | undefined): Promise<string | undefined> {
  if (cacheDir === false) return undefined;
  const [crypto, os, path] = await Promise.all([import('node:crypto'), import('node:os'), import('node:path')]);
  const folder = cacheDir ?? path.join(os.tmpdir(), 'toolhost-code-search');
  return path.join(folder, `index-${crypto.createHash('sha256').update(root).digest('hex').slice(0, 24)}.v8`);
}

/**
 * Starts indexing the disk workspace at `root` on a worker thread. Node builtins are imported lazily, so this module is safe
 * in the package's root entry.
 */
export function createSymbolIndex(root: string, options: SymbolIndexOptions = {}): SymbolIndex {
  return startSymbolIndex(root, options);
}

/** {@link createSymbolIndex} with what a scan asks of the worker; the worker starts once `startAfter` settles. */
export function startSymbolIndex(root: string, options: SymbolIndexOptions = {}, startAfter?: Promise<void>): SymbolIndex & ScanSupport {
  const cacheFile = symbolIndexCacheFile(root, options.cacheDir);
  const worker = connectIndexWorker({ root, cacheFile, cacheLimits: options.cacheLimits, watch: options.watch ?? true }, startAfter);
  let nextScan = 1;

  return {
    ready: worker.ready,
    get running() {
      return worker.running;
    },
    pauseBuild() {
      if (worker.isReady || worker.closed) return () => {};
      const scan = nextScan++;
      void worker.tell({ id: 0, type: 'pause', scan });
      let resumed = false;
      return () => {
        if (resumed) return;
        resumed = true;
        void worker.tell({ id: 0, type: 'resume', scan });
      };
    },
    assist({ query, paths, resultTypes, maxResults, sizeFirst }) {
      if (worker.closed || worker.isReady || paths.length === 0) return undefined;
      const slots = createClaimSlots(paths.length);
      if (!slots) return undefined;
      const request = { type: 'assist' as const, query, paths: [...paths], resultTypes: [...resultTypes], maxResults, sizeFirst };
      const answers = createAssistAnswers();
      const deliver = (response: WorkerResponse) => response.type === 'assistedFile' && answers.deliver(response.file);
      // Whatever ends the request (its last answer, an error, the worker's exit), files not answered by then get no answer.
      void worker.ask({ ...request, slots: slots.buffer as SharedArrayBuffer }, deliver).then(answers.finish, answers.finish);
      return scanAssistOver(slots, paths.length, answers);
    },
    async lookup({ query, caseSensitive, start, extensions, only, paths }) {
      if (!worker.isReady) return undefined;
      const response = await worker.ask({
        type: 'lookup',
        query,
        caseSensitive,
        start,
        extensions: extensions ? new Set(extensions) : undefined,
        only,
        paths,
      });
      return lookupOf(response);
    },
    async textLookup({ query, caseSensitive, start, extensions, identifiers, paths }) {
      if (!worker.isReady) return undefined;
      const response = await worker.ask({
        type: 'textLookup',
        query,
        caseSensitive,
        start,
        extensions: extensions ? new Set(extensions) : undefined,
        identifiers,
        paths,
      });
      return lookupOf(response);
    },
    async occurrences({ query, caseSensitive, paths }) {
      const known = new Map<string, IndexedFile>();
      if (paths.length === 0 || !worker.isReady) return known;
      const response = await worker.ask({ type: 'occurrences', query, caseSensitive, paths: [...paths] });
      if (response?.type === 'occurrences') for (const file of response.files) known.set(file.path, file);
      return known;
    },
    async stats() {
      const response = await worker.ask({ type: 'stats' });
      return response?.type === 'stats' ? response.stats : undefined;
    },
    close() {
      return worker.close();
    },
  };
}
