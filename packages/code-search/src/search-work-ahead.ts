import { nextTurn } from './next-turn.js';
import type { ScanAssist } from './scan-assist.js';
import type { FileFacts } from './scan-file.js';

/** How far past a file the other thread holds a search reads ahead while it waits. */
export const MAX_AHEAD = 64;

/** What a search reads ahead, by the file's index in its list, while the other thread holds the file whose turn it is. */
export interface WorkAhead {
  /** The facts read ahead for the file at `index`, handed over once; undefined when it was not read ahead. */
  take(index: number): Promise<FileFacts | undefined> | undefined;
  /** While the other thread reads the file at `waiting`, claims and reads the next file no one has; false when none is left. */
  next(waiting: number): Promise<boolean>;
}

/** What reading ahead draws on. */
export interface WorkAheadSources {
  /** The search's content files, in path order. */
  readonly files: readonly string[];
  readonly assist: ScanAssist;
  /** False when a file cannot add to the search (it is then left unclaimed). */
  readonly mayAdd: (path: string) => boolean;
  /** Reads the facts of the file at an index before its turn; undefined leaves the file to its turn. */
  readonly read: (index: number) => Promise<FileFacts | undefined>;
}

/** Creates the read-ahead of a search that shares its files with another thread. */
export function createWorkAhead(sources: WorkAheadSources): WorkAhead {
  const { files, assist, mayAdd, read } = sources;
  /** Facts of files this search claimed and read before their turn, while it waited for the other thread. */
  const ahead = new Map<number, Promise<FileFacts | undefined>>();
  return {
    take(index) {
      const facts = ahead.get(index);
      ahead.delete(index);
      return facts;
    },
    async next(waiting) {
      for (let next = waiting + 1; next < files.length && next <= waiting + MAX_AHEAD; next++) {
        if (ahead.has(next) || assist.taken(next) || !mayAdd(files[next]) || !assist.claim(next)) continue;
        const facts = read(next);
        ahead.set(next, facts);
        await facts;
        // A turn of the event loop, so the other thread's answers come in: reads and parses can settle without one (quick
        // synchronous reads), and this search would then read everything up to MAX_AHEAD itself.
        await nextTurn();
        return true;
      }
      return false;
    },
  };
}
