import type { ResultType } from './code-search-schema.js';
import type { FileFacts } from './scan-file.js';

/** One file of a scan, read and scanned by the index worker. */
export interface AssistedFile {
  /** Position of the file in the scan's list. */
  index: number;
  /** None when the worker failed on the file: the scan reads it itself. */
  facts?: FileFacts;
}

/**
 * A scan's files shared with the index worker: each file is claimed once. The scan claims each file as its turn comes, and
 * the next unclaimed ones while it waits for the worker; the worker claims the first file no one has. The scan applies what
 * each found, in path order.
 */
export interface ScanAssist {
  /** Claims the file at `index` for the scan; false when the worker claimed it first. */
  claim(index: number): boolean;
  /** True when the worker claimed the file at `index`. */
  taken(index: number): boolean;
  /** True once the worker answered for a file it claimed, or can no longer answer (it is done): {@link result} does not wait. */
  answered(index: number): boolean;
  /**
   * What the worker found in a file it claimed; undefined when it gave no answer for it (it ended, or failed on the file),
   * when `signal` aborts, or after {@link ASSIST_WAIT_LIMIT_MS}: the scan then reads the file itself.
   */
  result(index: number, signal?: AbortSignal): Promise<FileFacts | undefined>;
  /** Tells the worker which kinds are past max_results (it then parses only where a definition can still change the answer). */
  overflowed(types: ReadonlySet<ResultType>): void;
  /** Tells the worker that the scan needs nothing more from it. */
  stop(): void;
}

/** How long the scan waits for the worker's answer about one file before it reads the file itself. */
export const ASSIST_WAIT_LIMIT_MS = 5000;

/** Waits for `answer`, or gives up (undefined) when `signal` aborts or after {@link ASSIST_WAIT_LIMIT_MS}. */
export function awaitAssist<T>(
  answer: Promise<T | undefined>,
  signal: AbortSignal | undefined,
  limitMs = ASSIST_WAIT_LIMIT_MS,
): Promise<T | undefined> {
  if (signal?.aborted) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    const finish = (value: T | undefined) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', abort);
      resolve(value);
    };
    const abort = () => finish(undefined);
    const timer = setTimeout(abort, limitMs);
    signal?.addEventListener('abort', abort, { once: true });
    answer.then(finish, abort);
  });
}

/** A file's slot: not claimed yet. */
export const UNCLAIMED = 0;
/** A file's slot: claimed by the scan. */
export const CLAIMED_BY_SCAN = 1;
/** A file's slot: claimed by the worker. */
export const CLAIMED_BY_WORKER = 2;

/**
 * The claim slots of `count` files, then a stop flag and the kinds past max_results (bits), in memory both threads see;
 * undefined where SharedArrayBuffer is missing.
 */
export function createClaimSlots(count: number): Int32Array | undefined {
  if (typeof SharedArrayBuffer !== 'function') return undefined;
  return new Int32Array(new SharedArrayBuffer((count + 2) * Int32Array.BYTES_PER_ELEMENT));
}

const KIND_BITS: Readonly<Record<ResultType, number>> = { definition: 1, usage: 2, text: 4, path: 8 };

/** The worker's answers about the files it claimed, as they come one by one. */
export interface AssistAnswers {
  /** Takes the worker's facts about one file (a callback: it may be passed on detached). */
  readonly deliver: (file: AssistedFile) => void;
  /** The worker is done: a file it claimed and did not answer for gets no answer (a callback, like `deliver`). */
  readonly finish: () => void;
  /** True once `index` was answered or the worker is done. */
  has(index: number): boolean;
  /** The facts about `index`, once answered; undefined when the worker finished without them. */
  get(index: number): Promise<FileFacts | undefined>;
}

/** Collects the worker's answers by file index. */
export function createAssistAnswers(): AssistAnswers {
  const facts = new Map<number, FileFacts | undefined>();
  const waiting = new Map<number, (facts: FileFacts | undefined) => void>();
  let finished = false;
  return {
    deliver({ index, facts: found }) {
      if (finished) return;
      facts.set(index, found);
      waiting.get(index)?.(found);
      waiting.delete(index);
    },
    finish() {
      finished = true;
      for (const resolve of waiting.values()) resolve(undefined);
      waiting.clear();
    },
    has: (index) => finished || facts.has(index),
    get(index) {
      if (facts.has(index) || finished) return Promise.resolve(facts.get(index));
      return new Promise((resolve) => waiting.set(index, resolve));
    },
  };
}

/** A ScanAssist over the claim slots of `count` files, with the worker's answers by file index. */
export function scanAssistOver(slots: Int32Array, count: number, answers: AssistAnswers): ScanAssist {
  return {
    claim: (index) => claimSlot(slots, index, CLAIMED_BY_SCAN),
    taken: (index) => Atomics.load(slots, index) === CLAIMED_BY_WORKER,
    answered: (index) => answers.has(index),
    result: (index, signal) => awaitAssist(answers.get(index), signal),
    overflowed: (types) =>
      void Atomics.store(
        slots,
        count + 1,
        [...types].reduce((bits, type) => bits | KIND_BITS[type], 0),
      ),
    stop: () => void Atomics.store(slots, count, 1),
  };
}

/** The kinds the scan said are past max_results. */
export function readOverflowed(slots: Int32Array, count: number): Set<ResultType> {
  const bits = Atomics.load(slots, count + 1);
  return new Set((Object.keys(KIND_BITS) as ResultType[]).filter((type) => (bits & KIND_BITS[type]) !== 0));
}

/** Claims `index` for `owner` unless the other side did; true when `owner` holds it. */
export function claimSlot(slots: Int32Array, index: number, owner: number): boolean {
  const previous = Atomics.compareExchange(slots, index, UNCLAIMED, owner);
  return previous === UNCLAIMED || previous === owner;
}
