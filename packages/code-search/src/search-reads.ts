import type { Workspace } from '@toolhost/core';
import { MAX_PARSE_BYTES, RACY_MARGIN_MS } from './file-limits.js';

/** Read in place of a file known to be binary and unchanged. */
export const SKIPPED = new Uint8Array(0);
/** Read in place of a candidate over 2 MB that can only count for the hint. */
export const LARGE = new Uint8Array(0);
/** Binary verdicts kept per search tool. */
const MAX_BINARIES = 10_000;

/** Binary verdicts of files by size and mtime, kept by the tool across searches. */
export type BinaryVerdicts = Map<string, { mtimeMs: number; size: number }>;

/** Records a binary verdict once the file's mtime is old enough to vouch for the bytes just read (racy-git rule). */
function rememberBinary(workspace: Workspace, binaries: BinaryVerdicts, path: string, length: number): Promise<void> {
  return workspace.lstat(path).then(
    (stat) => {
      if (!stat || stat.size !== length || stat.mtimeMs >= Date.now() - RACY_MARGIN_MS) return;
      if (binaries.size >= MAX_BINARIES) binaries.clear();
      binaries.set(path, { mtimeMs: stat.mtimeMs, size: stat.size });
    },
    () => undefined,
  );
}

/** The file reads of one search, by the file's index in its list: each file is read once however often it is asked for. */
export interface SearchReads {
  /** The file's bytes; SKIPPED for a known binary unchanged, LARGE for a file over 2 MB sized first; undefined when unreadable. */
  read(index: number): Promise<Uint8Array | undefined>;
  /** Stops tracking a read that has settled. */
  release(index: number): void;
  /** Records that the file just read is binary, so later searches skip it while its size and mtime hold. */
  rememberBinary(path: string, length: number): void;
  /** Reads and binary verdicts that may still be in flight. */
  unsettled(): Array<Promise<unknown>>;
}

/** What decides how a search reads its files. */
export interface SearchReadOptions {
  readonly workspace: Workspace;
  /** The tool's binary verdicts; none: every file is read. */
  readonly binaries?: BinaryVerdicts;
  /** True when text results are wanted: a known binary then never counts, even over 2 MB. */
  readonly text: boolean;
  /** True when a file over 2 MB can only count for the hint: its size is checked before it is read. */
  readonly sizeFirst: boolean;
}

/** Creates the reads of a search over `files`. */
export function createSearchReads(files: readonly string[], options: SearchReadOptions): SearchReads {
  const { workspace, binaries, text, sizeFirst } = options;
  const reads = new Map<number, Promise<Uint8Array | undefined>>();
  const remembering: Array<Promise<void>> = [];
  return {
    read(index) {
      let pending = reads.get(index);
      if (!pending) {
        const path = files[index];
        const known = binaries?.get(path);
        // A known binary is skipped unread unless, being large, it may still count for the "over 2 MB" hint.
        const skippable = known !== undefined && (text || known.size <= MAX_PARSE_BYTES);
        const reading = skippable
          ? workspace
              .lstat(path)
              .then((stat) => (stat && stat.mtimeMs === known.mtimeMs && stat.size === known.size ? SKIPPED : workspace.readFile(path)))
          : sizeFirst
            ? workspace.lstat(path).then((stat) => (stat && stat.size > MAX_PARSE_BYTES ? LARGE : workspace.readFile(path)))
            : workspace.readFile(path);
        pending = reading.then(
          (bytes) => bytes,
          () => undefined,
        );
        reads.set(index, pending);
      }
      return pending;
    },
    release(index) {
      reads.delete(index);
    },
    rememberBinary(path, length) {
      if (binaries) remembering.push(rememberBinary(workspace, binaries, path, length));
    },
    unsettled() {
      return [...reads.values(), ...remembering];
    },
  };
}
