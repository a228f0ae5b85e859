import type { IndexCacheLimits } from './index-cache-limits.js';
import type { WorkerRequest, WorkerResponse } from './symbol-index-protocol.js';

type WorkerConstructor = typeof import('node:worker_threads').Worker;
type IndexWorker = InstanceType<WorkerConstructor>;

/** What the index worker is started with (its workerData). */
interface IndexWorkerData {
  root: string;
  cacheFile?: string;
  cacheLimits?: IndexCacheLimits;
  watch: boolean;
}

/** What a connection starts its worker with: the cache file may still be being named. */
export type IndexWorkerStart = Omit<IndexWorkerData, 'cacheFile'> & { cacheFile: Promise<string | undefined> };

/** A request to the worker without its id, which the connection gives it. */
export type RequestBody<T = WorkerRequest> = T extends unknown ? Omit<T, 'id'> : never;

/** Takes the parts of an answer that come before it (the files of a shared scan). */
export type PartListener = (response: WorkerResponse) => void;

/** The messages between a SymbolIndex and its worker thread, and the worker's life. */
export interface IndexWorkerConnection {
  /** Resolves true once the index answers lookups, false when it cannot. */
  readonly ready: Promise<boolean>;
  /** True from the worker's ready message until it exits. */
  readonly isReady: boolean;
  /** True while the worker thread runs. */
  readonly running: boolean;
  /** True once close() has told the worker to close. */
  readonly closed: boolean;
  /** Posts a request and resolves with its answer; undefined when the worker is not running. */
  ask(request: RequestBody, part?: PartListener): Promise<WorkerResponse | undefined>;
  /** Posts a message that has no answer. */
  tell(request: WorkerRequest): Promise<void>;
  /** Lets the worker save and end, terminating it past a grace time; every request still waiting gets an error. */
  close(): Promise<void>;
}

/** How long close() lets the worker save and end by itself before it is terminated. */
const CLOSE_GRACE_MS = 5000;

/** An answer awaited, and what takes the parts that come before it. */
interface Pending {
  resolve: (response: WorkerResponse) => void;
  part?: PartListener;
}

/** What the connection knows of its worker, shared by the handlers of the worker's events. */
interface LinkState {
  readonly pending: Map<number, Pending>;
  readonly markReady: (value: boolean) => void;
  isReady: boolean;
  running: boolean;
  closed: boolean;
  /** close() was called: a worker not started yet never starts. */
  closing: boolean;
  exited: Promise<void>;
  busy: () => void;
}

function settleAll(state: LinkState): void {
  for (const entry of state.pending.values()) entry.resolve({ id: 0, type: 'error', message: 'index closed' });
  state.pending.clear();
}

/**
 * Starts the worker entry beside this module: dist/symbol-index-worker.js in the built package (from the ESM and the CJS
 * build alike). Run from sources (tests, benchmarks), the entry is TypeScript: it is required through the tsx loader, whose
 * require hook also works in worker threads.
 */
async function startWorker(Worker: WorkerConstructor, workerData: IndexWorkerData): Promise<IndexWorker> {
  const fromSource = import.meta.url.endsWith('.ts');
  const url = new URL(fromSource ? './symbol-index-worker.ts' : './symbol-index-worker.js', import.meta.url);
  if (!fromSource) return new Worker(url, { workerData });
  const [{ createRequire }, { fileURLToPath }] = await Promise.all([import('node:module'), import('node:url')]);
  const loader = createRequire(import.meta.url).resolve('tsx/cjs');
  const bootstrap = `require(${JSON.stringify(loader)}); require(${JSON.stringify(fileURLToPath(url))});`;
  return new Worker(bootstrap, { eval: true, workerData });
}

/** Routes the worker's messages to the requests awaiting them, and keeps `state` in step with the worker's life. */
function wireWorker(worker: IndexWorker, state: LinkState): void {
  const { pending } = state;
  // Referenced while it builds or answers; idle, it never keeps the process alive (close() still stops it).
  const idle = () => {
    if (pending.size === 0 && (state.isReady || state.closed)) worker.unref();
  };
  state.busy = () => worker.ref();
  state.running = true;
  state.exited = new Promise((resolve) => worker.once('exit', () => resolve()));
  worker.on('message', (response: WorkerResponse) => {
    if (response.id === 0) {
      state.isReady = response.type === 'ready';
      state.markReady(state.isReady);
      if (!state.isReady) void worker.terminate();
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
    state.markReady(false);
    settleAll(state);
  });
  worker.once('exit', () => {
    state.running = false;
    state.markReady(false);
    state.isReady = false;
    settleAll(state);
  });
}

/** Starts the worker once `startAfter` settles, unless the connection was closed by then. */
async function launch(data: IndexWorkerStart, startAfter: Promise<void> | undefined, state: LinkState): Promise<IndexWorker | undefined> {
  const [{ Worker }, cacheFile] = await Promise.all([import('node:worker_threads'), data.cacheFile, startAfter]);
  if (state.closed || state.closing) return undefined;
  const worker = await startWorker(Worker, { root: data.root, cacheFile, cacheLimits: data.cacheLimits, watch: data.watch });
  wireWorker(worker, state);
  return worker;
}

/**
 * Connects to a new index worker for `data.root`, started once `startAfter` settles. Node builtins are imported lazily, so
 * this module is safe in the package's root entry.
 */
export function connectIndexWorker(data: IndexWorkerStart, startAfter?: Promise<void>): IndexWorkerConnection {
  let markReady: (value: boolean) => void = () => {};
  const ready = new Promise<boolean>((resolve) => (markReady = resolve));
  const state: LinkState = {
    pending: new Map(),
    markReady,
    isReady: false,
    running: false,
    closed: false,
    closing: false,
    exited: Promise.resolve(),
    busy: () => {},
  };
  const workerPromise = launch(data, startAfter, state).catch(() => {
    markReady(false);
    return undefined;
  });
  let nextId = 1;

  const ask = async (request: RequestBody, part?: PartListener): Promise<WorkerResponse | undefined> => {
    const worker = await workerPromise;
    if (!worker || state.closed || !state.running) return undefined;
    const id = nextId++;
    return new Promise((resolve) => {
      state.pending.set(id, { resolve, part });
      state.busy();
      worker.postMessage({ ...request, id });
    });
  };

  return {
    ready,
    get isReady() {
      return state.isReady;
    },
    get running() {
      return state.running;
    },
    get closed() {
      return state.closed;
    },
    ask,
    async tell(request) {
      const worker = await workerPromise;
      if (worker && !state.closed && state.running) worker.postMessage(request);
    },
    async close() {
      if (state.closed) return state.exited;
      state.closing = true;
      const worker = await workerPromise;
      if (worker) {
        const timer = setTimeout(() => void worker.terminate(), CLOSE_GRACE_MS);
        await ask({ type: 'close' });
        state.closed = true;
        // The worker ends by itself once its last reads settle, and is terminated only past the grace time: terminated in the
        // middle of a read (a module, a grammar), it would leave that file's descriptor open in the process.
        await state.exited;
        clearTimeout(timer);
      }
      state.closed = true;
      markReady(false);
      settleAll(state);
      await state.exited;
    },
  };
}
