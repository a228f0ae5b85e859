import { type FSWatcher, mkdtempSync, readdirSync, rmSync, statSync, unlinkSync, watch, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** How long a sync waits to hear its cookie before it gives up on the journal for that sync. */
const COOKIE_TIMEOUT_MS = 2000;

const COOKIE_PREFIX = 'toolhost-index-';
/** A cookie folder of an ended process is removed only once this old (a process in another PID namespace may share it). */
const ORPHAN_AGE_MS = 24 * 60 * 60 * 1000;

/** Removes the cookie folders of processes that ended without closing their journal (killed). */
function removeOrphanCookieFolders(parent: string): void {
  let names: string[];
  try {
    names = readdirSync(parent);
  } catch {
    return;
  }
  for (const name of names) {
    const match = /^toolhost-index-(\d+)-/.exec(name);
    if (!match) continue;
    try {
      process.kill(Number(match[1]), 0);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ESRCH') continue;
      try {
        if (statSync(join(parent, name)).mtimeMs < Date.now() - ORPHAN_AGE_MS) rmSync(join(parent, name), { recursive: true, force: true });
      } catch {
        // Gone meanwhile.
      }
    }
  }
}

/**
 * The sync point of a change journal: a file made in a folder of its own, watched on the same inotify queue as the
 * workspace's folders, is heard only once every change made before it was (the kernel queues events in order).
 */
export interface JournalCookie {
  /** Makes a cookie and resolves true once it is heard; false when it could not be made or was not heard in time. */
  heard(): Promise<boolean>;
  /** Stops watching, lets every sync waiting for its cookie go on, and removes the cookie folder. */
  close(): void;
}

/**
 * Creates the cookie folder under `parent` (first removing those of ended processes) and watches it; `onError` is called
 * when the watch fails. Undefined when the folder cannot be made or watched.
 */
export function createJournalCookie(parent: string, onError: () => void): JournalCookie | undefined {
  let cookieDir: string;
  let cookieWatcher: FSWatcher;
  let cookieCount = 0;
  const waiting = new Map<string, () => void>();
  try {
    removeOrphanCookieFolders(parent);
    cookieDir = mkdtempSync(join(parent, `${COOKIE_PREFIX}${process.pid}-`));
    cookieWatcher = watch(cookieDir, { persistent: false }, (_event, name) => {
      const done = name === null ? undefined : waiting.get(String(name));
      if (done) done();
    });
    cookieWatcher.on('error', onError);
  } catch {
    return undefined;
  }
  return {
    async heard() {
      const name = `cookie-${++cookieCount}`;
      const file = join(cookieDir, name);
      const heardCookie = await new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), COOKIE_TIMEOUT_MS);
        waiting.set(name, () => {
          clearTimeout(timer);
          resolve(true);
        });
        try {
          writeFileSync(file, '');
        } catch {
          clearTimeout(timer);
          resolve(false);
        }
      });
      waiting.delete(name);
      try {
        unlinkSync(file);
      } catch {
        // Already gone.
      }
      return heardCookie;
    },
    close() {
      cookieWatcher.close();
      for (const done of waiting.values()) done();
      rmSync(cookieDir, { recursive: true, force: true });
    },
  };
}
