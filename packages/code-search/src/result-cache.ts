import type { Workspace } from '@toolhost/core';
import type { SearchOutcome } from './search-workspace.js';
import { walkWorkspace } from './workspace-walker.js';
import { RACY_MARGIN_MS } from './file-limits.js';

/** The files under a start folder with their mtime and size, in walk order. */
export interface WorkspaceSnapshot {
  readonly paths: readonly string[];
  readonly stamps: readonly string[];
  /** The newest mtime seen (ms). */
  readonly newestMtimeMs: number;
}

const STAT_CONCURRENCY = 32;

/** Walks `start` and stats every file (the validation key of a cached result). */
export async function snapshotWorkspace(workspace: Workspace, start: string, signal?: AbortSignal): Promise<WorkspaceSnapshot> {
  const paths = await walkWorkspace(workspace, start, signal);
  const stamps = new Array<string>(paths.length);
  let newestMtimeMs = 0;
  let next = 0;
  const worker = async () => {
    while (next < paths.length && !signal?.aborted) {
      const index = next++;
      const stat = await workspace.lstat(paths[index]);
      stamps[index] = stat ? `${stat.mtimeMs}:${stat.size}` : 'missing';
      if (stat && stat.mtimeMs > newestMtimeMs) newestMtimeMs = stat.mtimeMs;
    }
  };
  await Promise.all(Array.from({ length: STAT_CONCURRENCY }, worker));
  return { paths, stamps, newestMtimeMs };
}

function sameSnapshot(a: WorkspaceSnapshot, b: WorkspaceSnapshot): boolean {
  if (a.paths.length !== b.paths.length) return false;
  for (let i = 0; i < a.paths.length; i++) if (a.paths[i] !== b.paths[i] || a.stamps[i] !== b.stamps[i]) return false;
  return true;
}

/** Whole-search results of recent repeated calls, reused only while every file under the start folder keeps its path, mtime and size. */
export interface ResultCache {
  /** The cached outcome for `key` when the workspace under `start` is unchanged. */
  lookup(key: string, workspace: Workspace, start: string, signal?: AbortSignal): Promise<SearchOutcome | undefined>;
  /**
   * Keeps `outcome` unless a file changed after `startedAtMs` minus a margin (racy-git rule: such a file may have changed
   * while it was being read, so its mtime + size cannot vouch for the result).
   */
  store(key: string, snapshot: WorkspaceSnapshot, outcome: SearchOutcome, startedAtMs: number): void;
  /** Records a call of `key`; true when it was called before (only repeated searches are worth a snapshot). */
  markSeen(key: string): boolean;
  clear(): void;
}

/** Creates a cache of the last `capacity` distinct searches (workspaces of more than `maxFiles` files are not cached). */
export function createResultCache(capacity = 8, maxFiles = 200_000): ResultCache {
  const entries = new Map<string, { snapshot: WorkspaceSnapshot; outcome: SearchOutcome }>();
  const seen = new Set<string>();
  return {
    markSeen(key) {
      if (seen.has(key)) return true;
      seen.add(key);
      if (seen.size > capacity * 8) seen.delete(seen.values().next().value!);
      return false;
    },
    async lookup(key, workspace, start, signal) {
      const entry = entries.get(key);
      if (!entry) return undefined;
      const current = await snapshotWorkspace(workspace, start, signal).catch(() => undefined);
      if (!current || signal?.aborted || !sameSnapshot(current, entry.snapshot)) {
        entries.delete(key);
        return undefined;
      }
      entries.delete(key);
      entries.set(key, entry);
      return entry.outcome;
    },
    store(key, snapshot, outcome, startedAtMs) {
      if (snapshot.paths.length > maxFiles || snapshot.stamps.includes('missing')) return;
      if (snapshot.newestMtimeMs >= startedAtMs - RACY_MARGIN_MS) return;
      entries.delete(key);
      entries.set(key, { snapshot, outcome });
      while (entries.size > capacity) entries.delete(entries.keys().next().value!);
    },
    clear() {
      entries.clear();
      seen.clear();
    },
  };
}
