import type { IndexCacheLimits } from './index-cache-limits.js';
import type { IndexStats } from './index-store.js';
import type { IndexedFile } from './index-lookups.js';
import type { WorkerRequest, WorkerResponse } from './symbol-index-protocol.js';
import type { ResultType } from './code-search-schema.js';
import type { SymbolLookupRequest, TextLookupRequest } from './index-lookup-request.js';
import { createAssistAnswers, createClaimSlots, scanAssistOver, type ScanAssist } from './scan-assist.js';

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

/** How long close() lets the worker save and end by itself before it is terminated. */
const CLOSE_GRACE_MS = 5000;

/** The cache file of a workspace root inside `cacheDir`. */
export async function symbolIndexCacheFile(root: string, cacheDir: string | false | undefined): Promise<string | undefined> {
  if (cacheDir === false) return undefined;
  const [crypto, os, path] = await Promise.all([import('node:crypto'), import('node:os'), import('node:path')]);
  const folder = cacheDir ?? path.join(os.tmpdir(), 'toolhost-code-search');
  return path.join(folder, `index-${crypto.createHash('sha256').update(root).digest('hex').slice(0, 24)}.v8`);
}

type WorkerConstructor = typeof import('node:worker_threads').Worker;

/**
 * Starts the worker entry beside this module: dist/symbol-index-worker.js in the built package (from the ESM and the CJS
 * build alike). Run from sources (tests, benchmarks), the entry is TypeScript: it is required through the tsx loader, whose
 * require hook also works in worker threads.
 */
async function startWorker(
  Worker: WorkerConstructor,
  workerData: { root: string; cacheFile?: string; cacheLimits?: IndexCacheLimits; watch: boolean },
) {
  const fromSource = import.meta.url.endsWith('.ts');
  const url = new URL(fromSource ? './symbol-index-worker.ts' : './symbol-index-worker.js', import.meta.url);
  if (!fromSource) return new Worker(url, { workerData });
  const [{ createRequire }, { fileURLToPath }] = await Promise.all([import('node:module'), import('node:url')]);
  const loader = createRequire(import.meta.url).resolve('tsx/cjs');
  const bootstrap = `require(${JSON.stringify(loader)}); require(${JSON.stringify(fileURLToPath(url))});`;
  return new Worker(bootstrap, { eval: true, workerData });
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
  /** An answer awaited, and what takes the parts that come before it. */
  type Pending = { resolve: (response: WorkerResponse) => void; part?: (response: WorkerResponse) => void };
  const pending = new Map<number, Pending>();
  let nextId = 1;
  let closed = false;
  /** close() was called: a worker not started yet never starts. */
  let closing = false;
  let markReady: (value: boolean) => void = () => {};
  const ready = new Promise<boolean>((resolve) => (markReady = resolve));
  let isReady = false;
  let exited: Promise<void> = Promise.resolve();
  let running = false;
  let busy = () => {};

  const settleAll = () => {
    for (const entry of pending.values()) entry.resolve({ id: 0, type: 'error', message: 'index closed' });
    pending.clear();
  };

  const workerPromise = (async () => {
    const [{ Worker }, cacheFile] = await Promise.all([
      import('node:worker_threads'),
      symbolIndexCacheFile(root, options.cacheDir),
      startAfter,
    ]);
    if (closed || closing) return undefined;
    const worker = await startWorker(Worker, { root, cacheFile, cacheLimits: options.cacheLimits, watch: options.watch ?? true });
    // Referenced while it builds or answers; idle, it never keeps the process alive (close() still stops it).
    const idle = () => {
      if (pending.size === 0 && (isReady || closed)) worker.unref();
    };
    busy = () => worker.ref();
    running = true;
    exited = new Promise((resolve) => worker.once('exit', () => resolve()));
    worker.on('message', (response: WorkerResponse) => {
      if (response.id === 0) {
        isReady = response.type === 'ready';
        markReady(isReady);
        if (!isReady) void worker.terminate();
        idle();
        return;
      }
      const entry = pending.get(response.id);
      if (response.type === 'assistedFile') return entry?.part?.(response);
      pending.delete(response.id);
      idle();
      entry?.resolve(response);
    });
    worker.on('error', () => {
      markReady(false);
      settleAll();
    });
    worker.once('exit', () => {
      running = false;
      markReady(false);
      isReady = false;
      settleAll();
    });
    return worker;
  })().catch(() => {
    markReady(false);
    return undefined;
  });

  let nextScan = 1;
  /** Posts a message that has no answer. */
  const tell = async (request: WorkerRequest) => {
    const worker = await workerPromise;
    if (worker && !closed && running) worker.postMessage(request);
  };

  type Body<T> = T extends unknown ? Omit<T, 'id'> : never;
  const ask = async (request: Body<WorkerRequest>, part?: Pending['part']): Promise<WorkerResponse | undefined> => {
    const worker = await workerPromise;
    if (!worker || closed || !running) return undefined;
    const id = nextId++;
    return new Promise((resolve) => {
      pending.set(id, { resolve, part });
      busy();
      worker.postMessage({ ...request, id });
    });
  };

  return {
    ready,
    get running() {
      return running;
    },
    pauseBuild() {
      if (isReady || closed) return () => {};
      const scan = nextScan++;
      void tell({ id: 0, type: 'pause', scan });
      let resumed = false;
      return () => {
        if (resumed) return;
        resumed = true;
        void tell({ id: 0, type: 'resume', scan });
      };
    },
    assist({ query, paths, resultTypes, maxResults, sizeFirst }) {
      if (closed || isReady || paths.length === 0) return undefined;
      const slots = createClaimSlots(paths.length);
      if (!slots) return undefined;
      const request = { type: 'assist' as const, query, paths: [...paths], resultTypes: [...resultTypes], maxResults, sizeFirst };
      const answers = createAssistAnswers();
      const deliver = (response: WorkerResponse) => response.type === 'assistedFile' && answers.deliver(response.file);
      // Whatever ends the request (its last answer, an error, the worker's exit), files not answered by then get no answer.
      void ask({ ...request, slots: slots.buffer as SharedArrayBuffer }, deliver).then(answers.finish, answers.finish);
      return scanAssistOver(slots, paths.length, answers);
    },
    async lookup({ query, caseSensitive, start, extensions, only, paths }) {
      if (!isReady) return undefined;
      const response = await ask({
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
      if (!isReady) return undefined;
      const response = await ask({
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
      if (paths.length === 0 || !isReady) return known;
      const response = await ask({ type: 'occurrences', query, caseSensitive, paths: [...paths] });
      if (response?.type === 'occurrences') for (const file of response.files) known.set(file.path, file);
      return known;
    },
    async stats() {
      const response = await ask({ type: 'stats' });
      return response?.type === 'stats' ? response.stats : undefined;
    },
    async close() {
      if (closed) return exited;
      closing = true;
      const worker = await workerPromise;
      if (worker) {
        const timer = setTimeout(() => void worker.terminate(), CLOSE_GRACE_MS);
        await ask({ type: 'close' });
        closed = true;
        // The worker ends by itself once its last reads settle, and is terminated only past the grace time: terminated in the
        // middle of a read (a module, a grammar), it would leave that file's descriptor open in the process.
        await exited;
        clearTimeout(timer);
      }
      closed = true;
      markReady(false);
      settleAll();
      await exited;
    },
  };
}
