// What changed in a disk workspace since the index last looked, heard from the kernel instead of stat-ing every file.
// Node-only; used inside the index worker. Each folder the index holds is watched (fs.watch, one inotify watch per
// folder on Linux). A lookup first syncs: it creates a cookie file in a folder watched on the same inotify queue and
// waits to hear it, so every change made before the lookup began has been heard (the kernel queues events in order).
import { type FSWatcher, readFileSync, statfsSync, statSync, watch } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { createJournalCookie } from './journal-cookie.js';
import { isUnder } from './path-under.js';

/**
 * What changed since the last sync: folders to list again, paths (files or folders) to stat again, and the paths named
 * by an added, removed or renamed entry (a folder among them may have been replaced by another one of the same name).
 */
export interface JournalChanges {
  readonly folders: ReadonlySet<string>;
  readonly paths: ReadonlySet<string>;
  readonly renamed: ReadonlySet<string>;
}

/** Change notifications for the folders of one workspace. */
export interface ChangeJournal {
  /** Starts watching a workspace-relative folder; false when it cannot (the journal then no longer vouches). */
  watch(folder: string): boolean;
  /** Stops watching a folder and every folder under it. */
  unwatchUnder(folder: string): void;
  /**
   * Resolves once every change made before the call has been heard, with what changed since the previous sync; undefined when
   * the journal cannot vouch for that (a watch failed, the kernel queue may have overflowed, the cookie was not heard): the
   * caller then checks everything itself.
   */
  sync(): Promise<JournalChanges | undefined>;
  /** True while every watch holds. */
  readonly healthy: boolean;
  close(): void;
}

function maxQueuedEvents(): number {
  try {
    const value = Number.parseInt(readFileSync('/proc/sys/fs/inotify/max_queued_events', 'utf8'), 10);
    return Number.isFinite(value) && value > 0 ? value : 16_384;
  } catch {
    return 16_384;
  }
}

/**
 * Local file systems whose changes all pass through this kernel (statfs magic numbers): ext2-4, xfs, btrfs, tmpfs, overlayfs,
 * zfs, f2fs, bcachefs. Network and FUSE file systems (NFS, SMB, 9p, virtiofs, sshfs) can change without an event here.
 */
const LOCAL_FILE_SYSTEMS = new Set([0xef53, 0x58465342, 0x9123683e, 0x01021994, 0x794c7630, 0x2fc12fc1, 0xf2f52010, 0xca451a4e]);

/** True when changes to files under `root` are all heard by inotify on this machine. */
export function isLocalFileSystem(root: string): boolean {
  try {
    return LOCAL_FILE_SYSTEMS.has(Number(statfsSync(root).type));
  } catch {
    return false;
  }
}

function identityOf(path: string): string | undefined {
  try {
    const stat = statSync(path);
    return `${stat.dev}:${stat.ino}`;
  } catch {
    return undefined;
  }
}

/**
 * Creates the journal of the workspace at `root`. Only Linux local file systems are supported (inotify queues the events of
 * all folders of one thread in order, which the cookie relies on); elsewhere it returns undefined and the index checks every
 * file at each lookup. `overflowAt`: events between two syncs past which a lost event is assumed (default: the kernel's
 * queue length less one). `cookieParent`: where the cookie folder is made (default: the system's temporary folder).
 */
export function createChangeJournal(root: string, options: { overflowAt?: number; cookieParent?: string } = {}): ChangeJournal | undefined {
  if (process.platform !== 'linux' || !isLocalFileSystem(root)) return undefined;
  const watchers = new Map<string, FSWatcher>();
  let folders = new Set<string>();
  let paths = new Set<string>();
  let renamed = new Set<string>();
  let healthy = true;
  let closed = false;
  // The kernel drops events past this many unread ones (and libuv drops its overflow notice): more events than this
  // between two syncs may hide a lost one.
  const overflowAt = options.overflowAt ?? maxQueuedEvents() - 1;
  let heard = 0;
  // The root itself replaced or moved away leaves every watch on the old folders: checked at each sync.
  const rootIdentity = identityOf(root);
  const rootName = basename(root);
  const cookie = createJournalCookie(options.cookieParent ?? tmpdir(), () => (healthy = false));
  if (!cookie) return undefined;

  const fail = () => {
    healthy = false;
    for (const watcher of watchers.values()) watcher.close();
    watchers.clear();
  };

  return {
    get healthy() {
      return healthy && !closed;
    },
    watch(folder) {
      if (!healthy || closed) return false;
      if (watchers.has(folder)) return true;
      try {
        const watcher = watch(folder ? join(root, folder) : root, { persistent: false }, (event, name) => {
          heard++;
          const prefix = folder ? `${folder}/` : '';
          if (name === null) {
            // No name: anything in the folder may have changed.
            folders.add(folder);
            paths.add(folder);
            return;
          }
          const path = `${prefix}${String(name)}`;
          // The root's own removal or move comes as a rename of its own name: its watches no longer follow the workspace.
          if (folder === '' && event === 'rename' && String(name) === rootName) fail();
          if (event === 'rename') {
            folders.add(folder);
            renamed.add(path);
          }
          paths.add(path);
        });
        watcher.on('error', fail);
        watchers.set(folder, watcher);
        return true;
      } catch (error) {
        // A folder gone before it could be watched is dropped by the caller's next check; anything else ends the journal.
        const code = (error as NodeJS.ErrnoException).code;
        if (code !== 'ENOENT' && code !== 'ENOTDIR') fail();
        return false;
      }
    },
    unwatchUnder(folder) {
      for (const [watched, watcher] of watchers) {
        if (!isUnder(folder, watched)) continue;
        watcher.close();
        watchers.delete(watched);
      }
    },
    async sync() {
      if (!healthy || closed) return undefined;
      const heardCookie = await cookie.heard();
      const changes = { folders, paths, renamed };
      folders = new Set();
      paths = new Set();
      renamed = new Set();
      if (rootIdentity === undefined || identityOf(root) !== rootIdentity) fail();
      const overflowed = heard >= overflowAt;
      heard = 0;
      return heardCookie && healthy && !overflowed ? changes : undefined;
    },
    close() {
      if (closed) return;
      closed = true;
      fail();
      cookie.close();
    },
  };
}
